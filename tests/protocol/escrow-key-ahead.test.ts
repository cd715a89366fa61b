// A commit's C_0 (for a derived escrow, the sum of its S_i) is computed as the commit arrives
// (fold.ts escrowPointsChecked) and kept as the point its text names (escrow.ts escrowKeyText), so
// a REVEAL's secret is checked against it without decoding it again. Kept by content: two commits'
// keys never mix, and what is kept is the very point the text decodes to.
import { describe, expect, it } from 'vitest';
import { escrowChecksOf } from '../../src/protocol/memo';
import { escrowPointsChecked } from '../../src/protocol/fold';
import { checkCommitSecret, clearEscrowMemos, dealDerivedEscrow, escrowKeyText, escrowPublic, pointFromText, pointText } from '../../src/protocol/escrow';
import { cachedVerifier } from '../../src/protocol';
import { escrowHolders as holders, rng } from './helpers';

describe('the escrow key of a commit, computed as it arrives', () => {
  const r = rng(17);
  const hs = holders(6);
  const deal = (owner: string) =>
    dealDerivedEscrow(
      owner,
      hs.map((h) => h.p),
      r.bytes(32),
      r.bytes(32),
    )!;
  const a = deal('ab'.repeat(32));
  const b = deal('cd'.repeat(32));

  it('the key kept on arrival is the commit’s own s·G: its secret checks, another commit’s does not', () => {
    clearEscrowMemos();
    const checks = escrowChecksOf(cachedVerifier(() => true));
    // As the fold takes the commits in: points checked, and their C_0 computed and kept.
    expect(escrowPointsChecked(a.escrow, checks, true)).toBe(true);
    expect(escrowPointsChecked(b.escrow, checks, true)).toBe(true);
    const ka = escrowKeyText(a.escrow, true)!;
    const kb = escrowKeyText(b.escrow, true)!;
    expect(ka).toBe(escrowPublic(a.secret));
    expect(kb).toBe(escrowPublic(b.secret));
    expect(ka).not.toBe(kb);
    // The point kept under each text is the one it encodes.
    expect(pointText(pointFromText(ka)!)).toBe(ka);
    expect(pointText(pointFromText(kb)!)).toBe(kb);
    expect(checkCommitSecret(a.escrow, true, a.secret)).toBe(true);
    expect(checkCommitSecret(b.escrow, true, b.secret)).toBe(true);
    expect(checkCommitSecret(a.escrow, true, b.secret)).toBe(false);
    expect(checkCommitSecret(b.escrow, true, a.secret)).toBe(false);
    expect(checkCommitSecret(a.escrow, true, a.secret + 1n)).toBe(false);
  });

  it('the same answers with nothing computed ahead', () => {
    clearEscrowMemos();
    expect(checkCommitSecret(b.escrow, true, b.secret)).toBe(true);
    expect(checkCommitSecret(b.escrow, true, a.secret)).toBe(false);
    expect(checkCommitSecret(a.escrow, true, a.secret)).toBe(true);
  });

  it('a commit whose points do not all decode is refused and gets no key', () => {
    clearEscrowMemos();
    const checks = escrowChecksOf(cachedVerifier(() => true));
    const c = [...a.escrow.c];
    c[2] = 'A'.repeat(42) + 'E';
    const bad = { ...a.escrow, c };
    expect(escrowPointsChecked(bad, checks, true)).toBe(false);
    expect(escrowKeyText(bad, true)).toBeNull();
    expect(checkCommitSecret(bad, true, a.secret)).toBe(false);
  });
});

// Feldman escrow over ristretto255 (src/protocol/escrow.ts): the pieces the sealed ballot rests on.
import { describe, expect, it } from 'vitest';
import {
  checkSecret,
  complaintValid,
  dealEscrow,
  decryptShare,
  proveShared,
  reconstructSecret,
  secretFromRandom,
  sharedPoint,
  verifyShare,
  verifyShared,
  type EscrowFields,
} from '../../src/protocol/escrow';
import { escrowHolders as holders, rng } from './helpers';

/** Flips one byte of share i (1-based) so it no longer checks out. */
function spoil(e: EscrowFields, i: number): EscrowFields {
  const s = [...e.s];
  const text = s[i - 1]!;
  s[i - 1] = (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
  return { ...e, s };
}

describe('Feldman escrow', () => {
  const r = rng(7);
  const s = secretFromRandom(r.bytes(32));
  const hs = holders(6);
  const e = dealEscrow(
    s,
    hs.map((h) => h.p),
    r.bytes(32),
  )!;

  it('each holder decrypts a share that checks against the commitments, and all of them give the secret back', () => {
    expect(e.c).toHaveLength(6);
    expect(e.s).toHaveLength(6);
    expect(checkSecret(e.c[0]!, s)).toBe(true);
    expect(checkSecret(e.c[0]!, s + 1n)).toBe(false);
    const shares = hs.map((h, k) => decryptShare(sharedPoint(h.x, e.e!)!, e.s[k]!, k + 1)!);
    shares.forEach((v, k) => expect(verifyShare(e.c, k + 1, v)).toBe(true));
    expect(verifyShare(e.c, 2, shares[0]!)).toBe(false);
    expect(reconstructSecret(shares)).toBe(s);
  });

  it('fewer than all holders learn nothing that reconstructs: five of six shares give another value', () => {
    const shares = hs.map((h, k) => decryptShare(sharedPoint(h.x, e.e!)!, e.s[k]!, k + 1)!);
    // Lagrange over five points (x = 1..5) of a degree-5 polynomial is not f(0).
    expect(reconstructSecret(shares.slice(0, 5))).not.toBe(s);
    // Another holder's key does not decrypt a share that checks.
    const wrong = decryptShare(sharedPoint(hs[1]!.x, e.e!)!, e.s[0]!, 1);
    expect(wrong === null || !verifyShare(e.c, 1, wrong)).toBe(true);
  });

  it('with one holder escrow is off: only C_0 is published', () => {
    const one = dealEscrow(s, [hs[0]!.p], r.bytes(32))!;
    expect(one).toEqual({ c: [e.c[0]], e: null, s: [] });
  });

  it('a holder whose share is bogus proves it; a proof against an honest share, or for another key, is refused', () => {
    const bad = spoil(e, 3);
    const h3 = hs[2]!;
    const proof = proveShared(h3.x, bad.e!, 'commit-1')!;
    expect(verifyShared(h3.p, bad.e!, proof, 'commit-1')).toBe(true);
    expect(verifyShared(hs[0]!.p, bad.e!, proof, 'commit-1')).toBe(false);
    expect(verifyShared(h3.p, bad.e!, proof, 'commit-2')).toBe(false);
    expect(complaintValid(h3.p, bad, 3, proof, 'commit-1')).toBe(true);
    // The same holder complaining about the honest commit: its share checks out, so no.
    const honest = proveShared(h3.x, e.e!, 'commit-1')!;
    expect(complaintValid(h3.p, e, 3, honest, 'commit-1')).toBe(false);
    // A liar who makes up a shared point cannot prove it.
    const made = { k: e.c[1]!, proof: honest.proof };
    expect(complaintValid(h3.p, bad, 3, made, 'commit-1')).toBe(false);
  });
});

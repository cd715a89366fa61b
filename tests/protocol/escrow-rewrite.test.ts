// A late second JOIN naming another escrow key, after phases resolved (adversarial review).
// lobby.ts reads a key's escrow key from all its JOINs; JOINs that disagree make it null, and then
// "its complaints never count" (ballot.ts complaintOk). A JOIN can be signed at any time, so:
//  1. the incremental reduce must drop its chain of resolved phases when such a JOIN arrives (the
//     escrow keys are in the chain's fixedKey): tested below, passes;
//  2. the finding (fixed in protocol version 5): a player who made a valid escrow complaint in a
//     phase that resolved could, phases later and having read everything, sign that JOIN and
//     withdraw the complaint from every resolved phase (its own REVEAL then missed the share it
//     was excused from, the cheater's voided commit opened, the game fell back to the complaint's
//     phase). The START now pins each member's escrow key (README.md "Key escrow"), so the JOIN
//     changes nothing but the misconduct it shows.
import { describe, expect, it } from 'vitest';
import { canonicalEncode, clearFoldMemos, reduceLog, type Signed } from '../../src/protocol';
import { identity, T0 } from './helpers';
import { fastSign, nativeVerifier, playHonest, seal, sealAll, settle, table, type Table } from './sealed-adapter';

const HOUR = 3_600_000;

/** Turkey escrows a bogus share to Austria, whose LOCK complains (Turkey void); a second phase is played; then Austria's second JOIN. */
function complainedThenRejoined(): { t: Table; again: Signed } {
  const t = table({ seed: 701 });
  const austria = t.devices[0]!;
  const turkey = t.devices[6]!;
  seal(t, turkey, 'turkey', [{ kind: 'move', power: 'turkey', unit: { type: 'A', loc: 'con' }, to: 'bul' }], T0 + HOUR, { bogusShareFor: [austria.key] });
  sealAll(t, t.devices, {}, T0 + HOUR, ['turkey']);
  const first = settle(t, t.devices, T0 + HOUR + 1);
  expect(first.phases).toHaveLength(1);
  expect(first.phases[0]!.orders.turkey ?? []).toEqual([]);
  expect(first.misconduct.some((m) => m.kind === 'escrow-bad-share' && m.author === turkey.key)).toBe(true);
  expect(playHonest(t, {}, T0 + 2 * HOUR).phases).toHaveLength(2);
  const again = fastSign(austria.me, {
    type: 'join',
    game: t.gameId,
    ...austria.stamp(T0 + 3 * HOUR),
    name: austria.name,
    box: austria.me.boxPublicKey,
    escrow: identity(30).escrowPublicKey,
    power: null,
  } as never);
  return { t, again };
}

const reduce = (t: Table, log: readonly Uint8Array[]) => reduceLog(t.gameId, log, { verifier: nativeVerifier });

describe('a late JOIN with another escrow key', () => {
  it('the incremental reduce drops its chain of resolved phases: the view is the one from scratch', () => {
    const { t, again } = complainedThenRejoined();
    const late = [...t.log, again.bytes];
    clearFoldMemos();
    const cold = reduce(t, late);
    clearFoldMemos();
    reduce(t, t.log);
    const warm = reduce(t, late);
    expect(warm.misconduct.some((m) => m.kind === 'escrow-key-conflict')).toBe(true);
    expect(canonicalEncode(warm)).toEqual(canonicalEncode(cold));
  });

  it('leaves the resolved phases as they were: the START pinned the complainer’s escrow key', () => {
    const { t, again } = complainedThenRejoined();
    const before = reduce(t, t.log);
    const after = reduce(t, [...t.log, again.bytes]);
    expect(after.phases.map((p) => p.stateHash)).toEqual(before.phases.map((p) => p.stateHash));
  });
});

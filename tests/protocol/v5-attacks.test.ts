// Adversarial review of protocol version 5 (derived escrow shares; the ACK carried by a LOCK).
// Each test is an attack and asserts the SAFE outcome: it passes while the design holds.
import { describe, expect, it } from 'vitest';
import {
  checkCommitSecret,
  checkHolderShare,
  complaintValidFor,
  dealDerivedEscrow,
  escrowPublic,
  escrowSecret,
  holderShare,
  proveShared,
  reconstructFor,
} from '../../src/protocol/escrow';
import {
  acknowledge,
  canonicalEncode,
  clearFoldMemos,
  finalOrders,
  lockBallot,
  messageId,
  reduceLog,
  signMessage,
  type GameView,
  type PayloadBody,
} from '../../src/protocol';
import type { CommitPayload, LockPayload } from '../../src/protocol/messages';
import { playPhase, rng, startedGame, T0, view } from './helpers';
import { duties } from '../../src/ui/game/duties';
import { fork, opened, payloadOf, playHonest, post, powersHeld, reduceAs, seal, sealAll, settle, table, type Table } from './sealed-adapter';
import { lockingPhaseTwo } from './v5-helpers';
import type { Power } from '../../src/rules';

const HOUR = 3_600_000;

function holders(n: number, seed: number) {
  const r = rng(seed);
  return Array.from({ length: n }, () => {
    const x = escrowSecret(r.bytes(32));
    return { x, p: escrowPublic(x) };
  });
}

/** Every prefix of `log` (and the log reversed) reduced cold and then warm: byte-identical views. */
function sameColdAndWarm(t: Table, log: readonly Uint8Array[]): GameView {
  const steps = [...Array.from({ length: 6 }, (_, k) => log.slice(0, Math.ceil(((k + 1) * log.length) / 6))), [...log].reverse()];
  const cold = steps.map((s) => {
    clearFoldMemos();
    return canonicalEncode(reduceLog(t.gameId, s));
  });
  clearFoldMemos();
  let last: GameView | undefined;
  steps.forEach((s, i) => {
    last = reduceLog(t.gameId, s);
    expect(canonicalEncode(last), `step ${i}`).toEqual(cold[i]);
  });
  return last!;
}

describe('v5 derived escrow: shares bound to their commit', () => {
  const hs = holders(5, 31);
  const r = rng(32);
  const A = 'a1'.repeat(32);
  const B = 'b2'.repeat(32);
  const keys = hs.map((h) => h.p);
  const a = dealDerivedEscrow(A, keys, r.bytes(32), r.bytes(32))!;
  const a2 = dealDerivedEscrow(A, keys, r.bytes(32), r.bytes(32))!;

  it('an escrow copied whole (E and every S_i) into another author’s commit: every holder’s complaint counts, so the copy is void', () => {
    for (let k = 0; k < hs.length; k++) {
      const share = holderShare(hs[k]!.x, a.escrow, true, B, hs[k]!.p, k + 1)!;
      expect(checkHolderShare(a.escrow, true, k + 1, share)).toBe(false);
      const proof = proveShared(hs[k]!.x, a.escrow.e!, 'copy')!;
      expect(complaintValidFor(hs[k]!.p, a.escrow, true, B, k + 1, proof, 'copy')).toBe(true);
      // The same holder against the original (honest) commit: refused.
      const honest = proveShared(hs[k]!.x, a.escrow.e!, 'orig')!;
      expect(complaintValidFor(hs[k]!.p, a.escrow, true, A, k + 1, honest, 'orig')).toBe(false);
    }
  });

  it('one author’s two commits: the shares released for one never open (nor check against) the other', () => {
    expect(a2.escrow.e).not.toBe(a.escrow.e);
    const shares = hs.map((h, k) => holderShare(h.x, a.escrow, true, A, h.p, k + 1)!);
    expect(checkCommitSecret(a.escrow, true, reconstructFor(shares, true))).toBe(true);
    expect(checkCommitSecret(a2.escrow, true, reconstructFor(shares, true))).toBe(false);
    shares.forEach((s, k) => expect(checkHolderShare(a2.escrow, true, k + 1, s)).toBe(false));
  });

  it('S_i spliced from another commit of the same author (same holders) into an escrow: the spliced holder complains, validly', () => {
    const c = [...a.escrow.c];
    c[2] = a2.escrow.c[2]!;
    const mixed = { ...a.escrow, c };
    const proof = proveShared(hs[2]!.x, mixed.e!, 'mixed')!;
    expect(complaintValidFor(hs[2]!.p, mixed, true, A, 3, proof, 'mixed')).toBe(true);
    // The untouched holders have no complaint.
    const p0 = proveShared(hs[0]!.x, mixed.e!, 'mixed')!;
    expect(complaintValidFor(hs[0]!.p, mixed, true, A, 1, p0, 'mixed')).toBe(false);
  });

  it('a proof made for one commit’s E (or another holder’s key) does not stand for another commit with a bad S_i', () => {
    const c = [...a2.escrow.c];
    c[1] = a.escrow.c[1]!;
    const bad = { ...a2.escrow, c };
    const forOther = proveShared(hs[1]!.x, a.escrow.e!, 'ctx')!;
    expect(complaintValidFor(hs[1]!.p, bad, true, A, 2, forOther, 'ctx')).toBe(false);
    const byOther = proveShared(hs[0]!.x, bad.e!, 'ctx')!;
    expect(complaintValidFor(hs[1]!.p, bad, true, A, 2, byOther, 'ctx')).toBe(false);
    // The right one counts.
    expect(complaintValidFor(hs[1]!.p, bad, true, A, 2, proveShared(hs[1]!.x, bad.e!, 'ctx')!, 'ctx')).toBe(true);
  });

  it('in a played game no two escrows share an E or an S_i (an honest phone never reuses an ephemeral key)', () => {
    const t = table({ seed: 901 });
    playHonest(t, {}, T0 + HOUR);
    playHonest(t, {}, T0 + 3 * HOUR);
    const commits = t.log.map((b) => payloadOf(b)).filter((p): p is CommitPayload => p.type === 'commit' && p.escrow.e !== null);
    expect(commits.length).toBeGreaterThan(7);
    const es = commits.map((c) => c.escrow.e);
    expect(new Set(es).size).toBe(es.length);
    const ss = commits.flatMap((c) => c.escrow.c);
    expect(new Set(ss).size).toBe(ss.length);
  });
});

// ---- The ACK carried by a LOCK -----------------------------------------------------------------

describe('v5 ACK in the LOCK: hostile LOCKs', () => {
  it('two LOCKs from one key with different acks (equivocation): the same view in any arrival order, cold or warm, and the game reads as the honest one', () => {
    const { t, honest, liar, first, lock, withAck } = lockingPhaseTwo(902);
    const forged = withAck('11'.repeat(16));
    expect((payloadOf(lock.bytes) as LockPayload).ack).toBe(first.stateHash);
    const base = [...t.log];
    const orders = [
      [...base, lock.bytes, forged.bytes],
      [...base, forged.bytes, lock.bytes],
      [forged.bytes, ...base, lock.bytes],
    ];
    const views = orders.map((log) => canonicalEncode(reduceLog(t.gameId, log)));
    expect(views[1]).toEqual(views[0]);
    expect(views[2]).toEqual(views[0]);
    post(t, [lock, forged]);
    const a = settle(t, t.devices, T0 + 2 * HOUR + 2);
    const b = settle(honest, honest.devices, T0 + 2 * HOUR + 2);
    expect(a.phases.map((p) => [p.key, p.stateHash])).toEqual(b.phases.map((p) => [p.key, p.stateHash]));
    expect(a.phases.length).toBe(2);
    // The lie is the liar's alone, shown as its mismatch; its true ack still counts.
    expect(a.hashMismatches).toEqual([{ phase: first.key, author: liar.key, claimed: '11'.repeat(16), expected: first.stateHash }]);
    expect(a.acked[first.key]).toEqual(t.devices.map((d) => d.key).sort());
    expect(canonicalEncode(sameColdAndWarm(t, t.log))).toEqual(canonicalEncode(reduceLog(t.gameId, t.log)));
  });

  it('a LOCK whose ack names another phase’s hash (not the one before): a mismatch for its author, never an ACK of that other phase', () => {
    const { t, liar, first, withAck } = lockingPhaseTwo(903);
    // The hash of another moment of the game: the position before phase 1 was played.
    const wrong = reduceAs(table({ seed: 903 }), null).stateHash ?? '';
    expect(wrong).toHaveLength(first.stateHash.length);
    expect(wrong).not.toBe(first.stateHash);
    post(t, [withAck(wrong)]);
    const v = settle(t, t.devices, T0 + 2 * HOUR + 2);
    expect(v.phases.length).toBe(2);
    // Counted as the liar's (wrong) ACK of phase 1 only, never of any other phase.
    expect(Object.keys(v.acked).filter((k) => v.acked[k]!.includes(liar.key))).toEqual([first.key]);
    expect(v.hashMismatches).toEqual([{ phase: first.key, author: liar.key, claimed: wrong, expected: first.stateHash }]);
  });

  it('a LOCK of the first phase carrying an ack (there is no phase before it) counts for nothing and blocks nothing', () => {
    const t = table({ seed: 904 });
    const honest = fork(t);
    sealAll(t, t.devices, {}, T0 + HOUR);
    sealAll(honest, honest.devices, {}, T0 + HOUR);
    const liar = t.devices[1]!;
    const others = t.devices.filter((d) => d !== liar);
    const phase = reduceAs(t, null).current!.key;
    const power = reduceAs(t, liar).current!.required.find((p) => reduceAs(t, null).holders![p] === liar.key)!;
    post(t, [finalOrders(liar.me, t.gameId, phase, power, liar.commitsFor(phase, power).at(-1)!, liar.stamp(T0 + HOUR))]);
    settle(t, others, T0 + HOUR + 1, { hold: others });
    const lock = payloadOf(lockBallot(liar.me, t.gameId, reduceAs(t, liar), opened(t.log), liar.stamp(T0 + HOUR + 1)).bytes) as LockPayload;
    expect(lock.ack).toBeNull();
    const { v: _v, from: _f, ...body } = { ...lock, ack: '44'.repeat(16) };
    const bytes = signMessage(liar.me, body as PayloadBody);
    post(t, [{ id: messageId(bytes), bytes }]);
    const v = settle(t, t.devices, T0 + HOUR + 2);
    const h = settle(honest, honest.devices, T0 + HOUR + 2);
    expect(v.phases.map((p) => p.stateHash)).toEqual(h.phases.map((p) => p.stateHash));
    expect(v.phases.length).toBe(1);
    expect(v.hashMismatches).toEqual([]);
    expect(v.acked).toEqual(h.acked);
    expect(v.acked[v.phases[0]!.key] ?? []).not.toContain(liar.key);
    sameColdAndWarm(t, t.log);
  });
});

describe('v5 ACK in the LOCK: the last phase of a finished game', () => {
  it('a short game’s last phase (no LOCK will ever follow) still owes and takes a separate ACK; the phase before is acked by the LOCKs', () => {
    const game = startedGame(905, { endYear: 1901 });
    playPhase(game, {}, T0 + 100);
    const v = playPhase(game, {}, T0 + 200);
    expect(v.status).toBe('finished');
    const [spring, fall] = v.phases;
    expect(fall!.key).toBe('1901-fall-movement');
    const keys = game.phones.map((ph) => ph.me.id).sort();
    expect(v.acked[spring!.key]).toEqual(keys);
    expect(v.acked[fall!.key] ?? []).toEqual([]);
    for (const ph of game.phones) {
      const owed = duties({ view: v, me: ph.me.id }).filter((d) => d.kind === 'ack');
      expect(owed).toEqual([{ kind: 'ack', phase: fall!.key, hash: fall!.stateHash }]);
      game.log.push(acknowledge(ph.me, game.gameId, fall!.key, fall!.stateHash, ph.stamp(T0 + 300)).bytes);
    }
    const after = view(game);
    expect(after.acked[fall!.key]).toEqual(keys);
    expect(after.hashMismatches).toEqual([]);
    expect(after.ignored).toEqual(v.ignored);
    for (const ph of game.phones) expect(duties({ view: after, me: ph.me.id }).filter((d) => d.kind === 'ack')).toEqual([]);
  });
});

describe('v5 hostile logs: incremental and from-scratch reduce agree', () => {
  it('a dealer spoiling two holders’ derived shares: voided everywhere, byte-identical cold, warm and reversed', () => {
    const t = table({ seed: 906 });
    const v0 = reduceAs(t, null);
    const by = (p: Power) => t.devices.find((d) => powersHeld(v0, d).includes(p))!;
    const [turkey, austria, italy] = [by('turkey'), by('austria'), by('italy')];
    seal(t, turkey, 'turkey', [], T0 + HOUR, { bogusShareFor: [austria.key, italy.key] });
    sealAll(t, t.devices, {}, T0 + HOUR, ['turkey']);
    const v = settle(t, t.devices, T0 + HOUR + 1);
    expect(v.phases).toHaveLength(1);
    expect(v.phases[0]!.orders.turkey ?? null).toBeNull();
    expect(v.misconduct.filter((m) => m.kind === 'escrow-bad-share').map((m) => m.author)).toEqual([turkey.key]);
    const warm = sameColdAndWarm(t, t.log);
    expect(canonicalEncode(warm)).toEqual(canonicalEncode(v));
  });
});

// Protocol version 5's escrow (src/protocol/escrow.ts "Version 5", README.md "Key escrow"): the
// shares are derived, share_i = H(owner | P_i | i | E | r·P_i), not carried; the commit publishes
// E and S_i = share_i·G, and C_0 = Σ S_i binds the key. Each test is a cheat and the rule that
// stops it.
import { describe, expect, it } from 'vitest';
import {
  checkCommitSecret,
  checkHolderShare,
  complaintValidFor,
  dealDerivedEscrow,
  escrowKeyText,
  escrowPublic,
  holderShare,
  pointFromText,
  pointText,
  proveShared,
  reconstructFor,
  type EscrowFields,
} from '../../src/protocol/escrow';
import {
  canonicalText,
  checkPayload,
  CodecError,
  decodePayload,
  encodePayload,
  finalOrders,
  lockBallot,
  messageId,
  paddingUnits,
  sealOrders,
  signMessage,
  signPayloadBytes,
  toBase64,
  type Payload,
  type PayloadBody,
} from '../../src/protocol';
import type { CommitPayload, LockPayload } from '../../src/protocol/messages';
import type { Order, Power } from '../../src/rules';
import { escrowHolders as holders, rng, T0 } from './helpers';
import { opened, payloadOf, post, powersHeld, reduceAs, seal, sealAll, settle, table, voteOut, type Device, type Table } from './sealed-adapter';

const HOUR = 3_600_000;
const OWNER = 'ab'.repeat(32);

/** S_i + G in place of S_i: a valid point that holder i's derived share no longer matches. */
function spoil(e: EscrowFields, i: number): EscrowFields {
  const c = [...e.c];
  c[i - 1] = pointText(pointFromText(c[i - 1]!)!.add(pointFromText(escrowPublic(1n))!));
  return { ...e, c };
}

describe('derived escrow (protocol version 5)', () => {
  const r = rng(9);
  const hs = holders(6);
  const dealt = dealDerivedEscrow(
    OWNER,
    hs.map((h) => h.p),
    r.bytes(32),
    r.bytes(32),
  )!;
  const { escrow: e, secret: s } = dealt;
  const shareOf = (k: number, escrow: EscrowFields = e, owner = OWNER) => holderShare(hs[k]!.x, escrow, true, owner, hs[k]!.p, k + 1)!;

  it('carries E and one commitment per holder, no share; each holder derives a share that checks, and all of them sum to the secret', () => {
    expect(e.c).toHaveLength(6);
    expect(e.s).toEqual([]);
    expect(e.e).not.toBeNull();
    const shares = hs.map((_, k) => shareOf(k));
    shares.forEach((v, k) => expect(checkHolderShare(e, true, k + 1, v)).toBe(true));
    expect(checkHolderShare(e, true, 2, shares[0]!)).toBe(false);
    expect(reconstructFor(shares, true)).toBe(s);
    expect(checkCommitSecret(e, true, s)).toBe(true);
    expect(checkCommitSecret(e, true, s + 1n)).toBe(false);
  });

  it('fewer than all holders cannot open: five of six shares sum to another value, and another key derives nothing that checks', () => {
    const shares = hs.map((_, k) => shareOf(k));
    for (let skip = 0; skip < 6; skip++) {
      const some = shares.filter((_, k) => k !== skip);
      expect(checkCommitSecret(e, true, reconstructFor(some, true))).toBe(false);
    }
    // Holder 2's key used at index 1 (it would need x_1 to derive share 1).
    const wrong = holderShare(hs[1]!.x, e, true, OWNER, hs[0]!.p, 1)!;
    expect(checkHolderShare(e, true, 1, wrong)).toBe(false);
  });

  it('the shares are bound to the commit’s owner: the same E and commitments copied by another author derive shares that do not check', () => {
    const other = 'cd'.repeat(32);
    hs.forEach((_, k) => expect(checkHolderShare(e, true, k + 1, shareOf(k, e, other))).toBe(false));
  });

  it('with one holder escrow is off: C_0 alone, the secret from the random bytes', () => {
    const one = dealDerivedEscrow(OWNER, [hs[0]!.p], r.bytes(32), r.bytes(32))!;
    expect(one.escrow.e).toBeNull();
    expect(one.escrow.s).toEqual([]);
    expect(one.escrow.c).toEqual([escrowKeyText(one.escrow, true)]);
    expect(checkCommitSecret(one.escrow, true, one.secret)).toBe(true);
  });

  it('a dealer who deals one bad derived share (a wrong S_i) draws a valid complaint from that holder, and only from it', () => {
    const bad = spoil(e, 3);
    expect(checkHolderShare(bad, true, 3, shareOf(2, bad))).toBe(false);
    const proof = proveShared(hs[2]!.x, bad.e!, 'commit-1')!;
    expect(complaintValidFor(hs[2]!.p, bad, true, OWNER, 3, proof, 'commit-1')).toBe(true);
    // Another holder, whose S_i is right, cannot complain; nor can holder 3 under another index or owner.
    const p1 = proveShared(hs[0]!.x, bad.e!, 'commit-1')!;
    expect(complaintValidFor(hs[0]!.p, bad, true, OWNER, 1, p1, 'commit-1')).toBe(false);
    expect(complaintValidFor(hs[2]!.p, bad, true, OWNER, 3, proof, 'commit-2')).toBe(false);
  });

  it('a complaint forged against an honest commit is refused: the true K derives a share that checks, a made-up K has no proof', () => {
    for (let k = 0; k < 6; k++) {
      const honest = proveShared(hs[k]!.x, e.e!, 'commit-1')!;
      expect(complaintValidFor(hs[k]!.p, e, true, OWNER, k + 1, honest, 'commit-1')).toBe(false);
    }
    const honest = proveShared(hs[2]!.x, e.e!, 'commit-1')!;
    const madeUp = { k: escrowPublic(12345n), proof: honest.proof };
    expect(complaintValidFor(hs[2]!.p, e, true, OWNER, 3, madeUp, 'commit-1')).toBe(false);
    // A proof for holder 3's key presented as holder 4's.
    expect(complaintValidFor(hs[3]!.p, spoil(e, 4), true, OWNER, 4, honest, 'commit-1')).toBe(false);
  });
});

describe('version 5 commits: one escrow form per version', () => {
  const me = holders(1, 3)[0]!;
  const hs = holders(6, 4);
  const r = rng(11);
  const box = sealOrders({ orders: [], draw: false }, 3, 5n, r.bytes(24));
  const derived = dealDerivedEscrow(
    'ef'.repeat(32),
    hs.map((h) => h.p),
    r.bytes(32),
    r.bytes(32),
  )!.escrow;
  const commit = (v: number, escrow: EscrowFields): Payload =>
    ({
      v,
      type: 'commit',
      game: '12'.repeat(16),
      from: 'ef'.repeat(32),
      seq: 3,
      time: 1,
      phase: '1901-spring-movement',
      power: 'france',
      sealed: box.sealed,
      hash: box.hash,
      escrow,
    }) as CommitPayload;
  const feldman = { c: derived.c, e: derived.e, s: derived.c.map(() => me.p) };

  it('a version 5 commit carrying shares has no byte form and fails the shape check; a version 4 commit without them is encoded as it is', () => {
    expect(() => encodePayload(commit(5, feldman))).toThrow(CodecError);
    expect(checkPayload(commit(5, feldman))).toEqual({ ok: false, reason: 'bad-shape' });
    expect(checkPayload(commit(5, derived)).ok).toBe(true);
    const v5 = encodePayload(commit(5, derived));
    expect(decodePayload(v5)).toEqual({ ok: true, value: commit(5, derived) });
    // Feldman's form is larger by its six shares and their count.
    expect(encodePayload(commit(4, feldman)).length - v5.length).toBe(6 * 32 + 1);
  });

  it('bytes of one version’s escrow layout under the other version number are refused with a reason, never a throw', () => {
    const v4 = encodePayload(commit(4, feldman));
    const v5 = encodePayload(commit(5, derived));
    for (const [bytes, v] of [
      [v4, 5],
      [v5, 4],
    ] as const) {
      const swapped = new Uint8Array([v, ...bytes.subarray(1)]);
      const out = decodePayload(swapped);
      expect(out.ok && checkPayload(out.value).ok).toBe(false);
    }
    // Every truncation of the v5 commit is refused with a reason.
    for (let n = 0; n < v5.length; n++) {
      const out = decodePayload(v5.subarray(0, n));
      expect(out.ok).toBe(false);
    }
  });
});

// ---- In a game: the reducer's rules ------------------------------------------------------------

const move = (power: Power, type: 'A' | 'F', loc: string, to: string): Order => ({ kind: 'move', power, unit: { type, loc }, to });
const turkish = [move('turkey', 'A', 'con', 'bul'), move('turkey', 'F', 'ank', 'bla')];
const text = (o: readonly Order[] | null | undefined) => (o == null ? 'none' : canonicalText(o));

function game(seed: number): { t: Table; turkey: Device; austria: Device } {
  const t = table({ seed });
  const v = reduceAs(t, null);
  const by = (p: Power) => t.devices.find((d) => powersHeld(v, d).includes(p))!;
  return { t, turkey: by('turkey'), austria: by('austria') };
}

/** Turkey's commit re-signed with `change` applied to its payload; `secret` is what Turkey's REVEAL will release. */
function cheatingCommit(t: Table, turkey: Device, change: (p: CommitPayload, secret: bigint) => { payload: CommitPayload; secret: bigint }): string {
  const v = reduceAs(t, turkey);
  const honest = seal(t, turkey, 'turkey', turkish, T0 + HOUR);
  const p = payloadOf(honest.bytes) as CommitPayload;
  const made = change(p, turkey.secrets.get(honest.id)!);
  const { v: _v, from: _f, ...body } = made.payload;
  const bytes = signMessage(turkey.me, { ...body, seq: turkey.seq++ } as PayloadBody);
  const id = messageId(bytes);
  post(t, [{ id, bytes }]);
  turkey.secrets.set(id, made.secret);
  turkey.sealed.set(`${v.current!.key}|turkey`, [id]);
  return id;
}

describe('version 5 escrow in a game', () => {
  it('a dealer dealing one bad derived share to Austria: Austria complains in its blind LOCK and Turkey’s commit is void, revealed or not', () => {
    const { t, turkey, austria } = game(701);
    seal(t, turkey, 'turkey', turkish, T0 + HOUR, { bogusShareFor: [austria.key] });
    sealAll(t, t.devices, {}, T0 + HOUR, ['turkey']);
    const v = settle(t, t.devices, T0 + HOUR + 1);
    expect(v.phases).toHaveLength(1);
    expect(text(v.phases[0]!.orders.turkey)).toBe('none');
    expect(v.misconduct.filter((m) => m.kind === 'escrow-bad-share').map((m) => m.author)).toEqual([turkey.key]);
  });

  it('a complaint forged against an honest commit (a true proof of K) voids nothing: Turkey’s orders are played', () => {
    const { t, turkey, austria } = game(702);
    seal(t, turkey, 'turkey', turkish, T0 + HOUR);
    sealAll(t, t.devices, {}, T0 + HOUR, ['turkey']);
    const phase = reduceAs(t, null).current!.key;
    post(t, [finalOrders(austria.me, t.gameId, phase, 'austria', austria.commitsFor(phase, 'austria').at(-1)!, austria.stamp(T0 + HOUR))]);
    const others = t.devices.filter((d) => d !== austria);
    settle(t, others, T0 + HOUR + 1, { hold: others });
    const honestLock = payloadOf(lockBallot(austria.me, t.gameId, reduceAs(t, austria), opened(t.log), austria.stamp(T0 + HOUR + 1)).bytes) as LockPayload;
    const turkeyCommit = reduceAs(t, null).current!.ballot.commits.turkey!.at(-1)!;
    const c = opened(t.log).get(turkeyCommit)!.payload as CommitPayload;
    const proof = proveShared(austria.me.escrowSecret, c.escrow.e!, turkeyCommit)!;
    expect(honestLock.type).toBe('lock');
    const { v: _v, from: _f, ...body } = { ...honestLock, complaints: [{ commit: turkeyCommit, k: proof.k, proof: proof.proof }] };
    const forged = signMessage(austria.me, body as PayloadBody);
    post(t, [{ id: messageId(forged), bytes: forged }]);
    const v = settle(t, t.devices, T0 + HOUR + 2);
    expect(v.phases).toHaveLength(1);
    expect(text(v.phases[0]!.orders.turkey)).toBe(text(turkish));
    expect(v.misconduct.filter((m) => m.kind === 'escrow-bad-share')).toEqual([]);
  });

  it('a commit sealed under a secret its commitments do not sum to opens neither by its owner’s REVEAL nor from the shares', () => {
    const { t, turkey } = game(703);
    const units = paddingUnits(reduceAs(t, null).current!.position, 'turkey');
    cheatingCommit(t, turkey, (p, s) => {
      const box = sealOrders({ orders: turkish, draw: false }, units, s + 1n, rng(5).bytes(24));
      return { payload: { ...p, sealed: box.sealed, hash: box.hash }, secret: s + 1n };
    });
    sealAll(t, t.devices, {}, T0 + HOUR, ['turkey']);
    const v = settle(t, t.devices, T0 + HOUR + 1);
    expect(v.phases).toHaveLength(1);
    expect(text(v.phases[0]!.orders.turkey)).toBe('none');
    expect(v.ignored.some((i) => i.reason === 'reveal-misses-a-secret')).toBe(true);
  });

  it('a commit whose E is not a point is refused (commit-bad-escrow): otherwise no holder could derive, or complain about, its share', () => {
    const { t, turkey } = game(704);
    const id = cheatingCommit(t, turkey, (p, s) => ({ payload: { ...p, escrow: { ...p.escrow, e: toBase64(new Uint8Array(32).fill(255)) } }, secret: s }));
    const v = reduceAs(t, null);
    expect(v.ignored.filter((i) => i.reason === 'commit-bad-escrow').length).toBe(1);
    expect(v.current!.ballot.commits.turkey ?? []).not.toContain(id);
  });

  it('nor can a cheater fall back to a version 4 commit (Feldman) whose E is not a point: refused too, and the phase still resolves', () => {
    // Any readable version may be signed in a version 5 game. Before this rule such a commit,
    // once named by its holder's FINAL, left every honest holder unable to decrypt or complain,
    // so every honest REVEAL missed a share and the phase stalled for everyone.
    const { t, turkey } = game(705);
    const v0 = reduceAs(t, null);
    const honest = seal(t, turkey, 'turkey', turkish, T0 + HOUR);
    const p = payloadOf(honest.bytes) as CommitPayload;
    const e = toBase64(new Uint8Array(32).fill(255));
    const old = { ...p, v: 4, seq: turkey.seq++, escrow: { c: [...p.escrow.c], e, s: p.escrow.c.map((x) => x) } } as Payload;
    const bytes = signPayloadBytes(turkey.me, encodePayload(old));
    const id = messageId(bytes);
    post(t, [{ id, bytes }]);
    turkey.sealed.set(`${v0.current!.key}|turkey`, [id]);
    turkey.secrets.set(id, turkey.secrets.get(honest.id)!);
    // A version 6 game reads no entry of an older version at all (README.md "Game identity and the START anchor").
    expect(reduceAs(t, null).ignored.filter((i) => i.id === id)).toEqual([{ id, reason: 'older-version-than-game' }]);
    sealAll(t, t.devices, {}, T0 + HOUR, ['turkey']);
    settle(t, t.devices, T0 + HOUR + 1);
    // Turkey's FINAL names a refused commit, so Turkey is voted out after the reveal deadline: that
    // is its own loss; the others' REVEALs stay valid and the phase resolves.
    const others = t.devices.filter((d) => d !== turkey);
    const late = reduceAs(t, null).current!.revealDeadline + HOUR;
    voteOut(t, others, ['turkey'], late);
    const v = settle(t, t.devices, late);
    expect(v.phases).toHaveLength(1);
    expect(v.ignored.filter((i) => i.reason === 'reveal-misses-a-share')).toEqual([]);
  });
});

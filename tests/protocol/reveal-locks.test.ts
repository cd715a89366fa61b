// Protocol 4: a REVEAL names its LOCKs by id alone, sorted, and lists its secrets and shares
// without commit ids, in the order of the named commits' ids (src/protocol/README.md, "The sealed
// ballot"). The key each LOCK stands for is its signer, and which commit a secret or share opens is
// fixed by the LOCKs named, so the lists say what version 3's records said. These are the cheats
// the shorter form could allow, each refused with a reason and without effect, and the honest form
// counting as before.
import { describe, expect, it } from 'vitest';
import {
  checkPayload,
  CodecError,
  compareText,
  decodeBody,
  encodePayload,
  LOCK_LIST_VERSION,
  parseEntry,
  PROTOCOL_VERSION,
  revealDue,
  revealOwes,
  signPayloadBytes,
  type Payload,
} from '../../src/protocol';
import { lockedGame, messagesOf, payloadOf, playPhase, settlePhase, startedGame, stateOf, T0, typeOf, view, type Game } from './helpers';

type Lists = { locks: readonly string[]; secrets: readonly string[]; shares: readonly string[] };

/** `who`'s honest REVEAL, and the same payload with other fields, signed by `who`. */
function revealOf(game: Game, power: 'france' | 'germany', time: number) {
  const phone = game.byPower[power];
  const honest = phone.reveal(game.gameId, view(game), game.log, time);
  const p = payloadOf(honest.bytes) as Payload & Lists;
  const withFields = (over: Partial<Record<keyof Lists | 'v', unknown>>) => signPayloadBytes(phone.me, encodePayload({ ...p, ...over } as Payload));
  const withLocks = (locks: readonly string[]) => withFields({ locks });
  return { honest, p, withLocks, withFields };
}

/** The commits of the open phase, sorted by id: `mine` (the author's), `others`. */
function commitsOf(game: Game, author: string) {
  const ids = [...messagesOf(game.log)].filter(([, m]) => m.payload.type === 'commit').map(([id, m]) => ({ id, from: m.payload.from }));
  ids.sort((a, b) => compareText(a.id, b.id));
  return { mine: ids.filter((c) => c.from === author).map((c) => c.id), others: ids.filter((c) => c.from !== author).map((c) => c.id) };
}

function expectRefused(game: Game, bad: Uint8Array, reason: string) {
  const before = view(game);
  const after = view(game, [...game.log, bad]);
  expect(stateOf(after)).toEqual(stateOf(before));
  expect(after.ignored.filter((i) => i.reason === reason).length).toBeGreaterThan(0);
  expect(before.ignored.some((i) => i.reason === reason)).toBe(false);
}

describe('protocol 4: a REVEAL names its LOCKs by id alone', () => {
  it('the honest REVEAL lists one LOCK of every key, sorted, and the phase opens as before', () => {
    expect(PROTOCOL_VERSION).toBeGreaterThanOrEqual(LOCK_LIST_VERSION);
    const { game, locks } = lockedGame(41);
    const { honest, p } = revealOf(game, 'france', T0 + 200);
    expect(p.v).toBe(PROTOCOL_VERSION);
    expect(p.locks).toEqual([...locks.values()].sort(compareText));
    game.log.push(honest.bytes);
    expect(view(game).current!.ballot.reveals[game.byPower.france.me.id]).toHaveLength(1);
    const v = settlePhase(game, T0 + 300);
    expect(v.phases).toHaveLength(1);
    expect(v.ignored).toEqual([]);
  });

  it('a REVEAL missing one key’s LOCK is refused (reveal-misses-a-lock)', () => {
    const { game, locks } = lockedGame(41);
    const { withLocks } = revealOf(game, 'france', T0 + 200);
    const without = [...locks.entries()].filter(([k]) => k !== game.byPower.italy.me.id).map(([, id]) => id);
    expectRefused(game, withLocks(without.sort(compareText)), 'reveal-misses-a-lock');
  });

  it('a REVEAL naming two LOCKs of one key (an equivocator’s both) is refused, whichever it lists', () => {
    const { game, locks } = lockedGame(41);
    // Germany equivocates: a second LOCK (another sequence number, another id).
    const second = game.byPower.germany.lock(game.gameId, view(game), game.log, T0 + 150);
    game.log.push(second.bytes);
    const { withLocks } = revealOf(game, 'france', T0 + 200);
    const both = [...locks.values(), second.id].sort(compareText);
    expectRefused(game, withLocks(both), 'reveal-names-two-locks-of-one-key');
    // Naming Germany's second LOCK instead of its first is a REVEAL like any other: it counts, and
    // so the second LOCK is named by another key (the counted-LOCK rule decides the rest).
    const swapped = [...locks.entries()].map(([k, id]) => (k === game.byPower.germany.me.id ? second.id : id)).sort(compareText);
    const after = view(game, [...game.log, withLocks(swapped)]);
    expect(after.current!.ballot.reveals[game.byPower.france.me.id]).toHaveLength(1);
  });

  it('an id that is no LOCK of this phase (a commit, a LOCK of another phase) never counts: pending, the phase waits', () => {
    const { game, locks } = lockedGame(41);
    const { withLocks } = revealOf(game, 'france', T0 + 200);
    const commitId = [...messagesOf(game.log)].find(([, m]) => m.payload.type === 'commit')![0];
    const italy = game.byPower.italy.me.id;
    const bogus = [...locks.entries()].map(([k, id]) => (k === italy ? commitId : id)).sort(compareText);
    const bad = withLocks(bogus);
    const after = view(game, [...game.log, bad]);
    expect(after.current!.ballot.reveals[game.byPower.france.me.id] ?? []).toHaveLength(0);
    expect(stateOf(after)).toEqual(stateOf(view(game)));
    // A LOCK of the phase before: play Spring out and name one of its LOCKs in Fall.
    const spring = startedGame(43);
    playPhase(spring, {}, T0 + 100);
    const springLock = [...messagesOf(spring.log)].find(([, m]) => m.payload.type === 'lock')![0];
    const fall = view(spring);
    for (const p of fall.current!.required) spring.log.push(spring.byPower[p].commit(spring.gameId, view(spring), [], T0 + 1000).bytes);
    settlePhase(spring, T0 + 1001, { hold: fall.current!.required });
    const r = revealOf(spring, 'france', T0 + 1100);
    const lockIds = r.p.locks.filter((id) => id !== r.p.locks[0]);
    const stale = r.withLocks([...lockIds, springLock].sort(compareText));
    const v = view(spring, [...spring.log, stale]);
    expect(v.current!.ballot.reveals[spring.byPower.france.me.id] ?? []).toHaveLength(0);
    expect(v.phases).toHaveLength(1);
  });

  it('a version 3 REVEAL (LOCKs keyed by author) is not read in a newer game, however it keys its LOCKs (the game’s version is its CREATE’s)', () => {
    const { game, locks } = lockedGame(41);
    const { p } = revealOf(game, 'france', T0 + 200);
    const france = game.byPower.france.me;
    const keyed = Object.fromEntries(locks);
    const { mine, others } = commitsOf(game, france.id);
    const records = {
      secrets: Object.fromEntries(mine.map((id, k) => [id, p.secrets[k]!])),
      shares: Object.fromEntries(others.map((id, k) => [id, p.shares[k]!])),
    };
    const v3 = signPayloadBytes(france, encodePayload({ ...p, ...records, v: 3, locks: keyed } as Payload));
    // Version 3 logs still read their REVEALs (tests/protocol/fixtures.test.ts); a version 6 game does not.
    expect(view(game, [...game.log, v3]).current!.ballot.reveals[france.id] ?? []).toHaveLength(0);
    expectRefused(game, v3, 'older-version-than-game');
    const [a, b] = [...locks.keys()];
    const crossed = signPayloadBytes(france, encodePayload({ ...p, ...records, v: 3, locks: { ...keyed, [a!]: keyed[b!]!, [b!]: keyed[a!]! } } as Payload));
    expectRefused(game, crossed, 'older-version-than-game');
  });

  it('the honest REVEAL lists its one secret and its six shares, in the order of their commits’ ids, and each opens what it should', () => {
    const { game } = lockedGame(41);
    const { p, honest } = revealOf(game, 'france', T0 + 200);
    expect(p.secrets).toHaveLength(1);
    expect(p.shares).toHaveLength(6);
    // Alone (no owner has revealed), every share France lists is checked against its commit.
    const alone = view(game, [...game.log, honest.bytes]);
    expect(alone.current!.ballot.reveals[game.byPower.france.me.id]).toHaveLength(1);
    expect(alone.ignored).toEqual([]);
  });

  it('the writer lists exactly what revealDue (the tally’s revealOwes) says the named LOCKs owe, in commit id order', () => {
    const { game } = lockedGame(41);
    const { p } = revealOf(game, 'france', T0 + 200);
    const france = game.byPower.france.me.id;
    const due = revealDue(france, view(game).current!.ballotKeys, messagesOf(game.log), p.locks, true);
    const { mine, others } = commitsOf(game, france);
    expect(due.filter((d) => d.release === 'secret').map((d) => d.commit.id)).toEqual(mine);
    expect(due.filter((d) => d.release === 'share').map((d) => d.commit.id)).toEqual(others);
    expect(due.map((d) => d.commit.id)).toEqual([...mine, ...others].sort(compareText));
    expect([p.secrets.length, p.shares.length]).toEqual([mine.length, others.length]);
    // What its own LOCK complained about is excused, and only that.
    const excused = others[2]!;
    expect(
      revealOwes(
        france,
        due.map((d) => d.commit),
        view(game).current!.ballotKeys,
        { names: () => true, complained: (c) => c.id === excused },
        true,
      ).map((d) => d.commit.id),
    ).toEqual(due.map((d) => d.commit.id).filter((id) => id !== excused));
  });

  it('shares in another order, one share short, one too many, or a secret short or too many: refused, each with its reason', () => {
    const { game } = lockedGame(41);
    const { p, withFields } = revealOf(game, 'france', T0 + 200);
    const [s0, s1, ...rest] = p.shares;
    expectRefused(game, withFields({ shares: [s1!, s0!, ...rest] }), 'reveal-share-does-not-check');
    expectRefused(game, withFields({ shares: p.shares.slice(1) }), 'reveal-misses-a-share');
    expectRefused(game, withFields({ shares: [...p.shares, s0!] }), 'reveal-has-extra-shares');
    expectRefused(game, withFields({ secrets: [] }), 'reveal-misses-a-secret');
    expectRefused(game, withFields({ secrets: [...p.secrets, s0!] }), 'reveal-has-extra-secrets');
    // A share listed in the secret's place (and the secret among the shares) opens nothing.
    expectRefused(game, withFields({ secrets: [s0!], shares: [p.secrets[0]!, s1!, ...rest] }), 'reveal-misses-a-secret');
  });

  it('the other key’s form is not this version’s: no version 4 REVEAL keyed by author, no version 3 one listing ids', () => {
    const { game } = lockedGame(41);
    const { p } = revealOf(game, 'france', T0 + 200);
    const keyed = Object.fromEntries(p.locks.map((id, i) => [String(i).padStart(64, '0'), id]));
    expect(() => encodePayload({ ...p, locks: keyed } as Payload)).toThrow(CodecError);
    expect(() => encodePayload({ ...p, shares: Object.fromEntries(p.shares.map((x, i) => [String(i).padStart(32, '0'), x])) } as Payload)).toThrow(CodecError);
    expect(checkPayload({ ...p, secrets: {} }).ok).toBe(false);
    expect(() => encodePayload({ ...p, v: 3 } as Payload)).toThrow(CodecError);
    // Unsorted or repeated ids have no byte form a phone writes, and none it reads.
    expect(() => encodePayload({ ...p, locks: [...p.locks].reverse() } as Payload)).toThrow(CodecError);
    expect(() => encodePayload({ ...p, locks: [p.locks[0]!, ...p.locks] } as Payload)).toThrow(CodecError);
  });

  it('bytes no honest phone sends (unsorted or repeated LOCK ids) give a reason, never a throw, and change nothing', () => {
    const { game } = lockedGame(41);
    const { honest, p } = revealOf(game, 'france', T0 + 200);
    const body = honest.bytes.subarray(64);
    // Find the list of ids in the body: its count byte then the ids back to back.
    const ids = p.locks.map((id) => Uint8Array.from(id.match(/../g)!.map((h) => parseInt(h, 16))));
    const at = body.findIndex((_, k) => ids[0]!.every((b, j) => body[k + j] === b));
    expect(at).toBeGreaterThan(0);
    expect(body[at - 1]).toBe(ids.length);
    const swapped = body.slice();
    swapped.set(ids[1]!, at);
    swapped.set(ids[0]!, at + 16);
    const repeated = body.slice();
    repeated.set(ids[0]!, at + 16);
    for (const bad of [swapped, repeated]) {
      expect(decodeBody(bad)).toEqual({ ok: false, reason: 'binary-not-canonical' });
      const entry = signPayloadBytes(game.byPower.france.me, bad);
      const parsed = parseEntry(entry);
      expect(parsed.ok).toBe(false);
      expect(typeOf(entry)).toBeNull();
      const after = view(game, [...game.log, entry]);
      expect(stateOf(after)).toEqual(stateOf(view(game)));
      expect(after.ignored.some((i) => i.reason === 'binary-not-canonical')).toBe(true);
    }
  });
});

// Admission: which signed entries a phone keeps. Each rule is tested against the cheat it stops,
// and every result must be the same whatever order the entries arrive in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  acknowledge,
  Admission,
  chatPlayers,
  finalOrders,
  joinGame,
  QUOTAS,
  reduceLog,
  sealChat,
  sealOrders,
  sendChat,
  signMessage,
  startGame,
  startLot,
} from '../../src/protocol';
import { countingVerifier, nodeVerifier } from '../native-ed25519';
import { escrowOf, identity, messagesOf, playPhase, randomPhaseOrders, rng, startedGame, stateOf, T0, view, type Game, shuffled } from './helpers';

const fast = nodeVerifier();

function admitAll(gameId: string, entries: readonly Uint8Array[], options = {}): Admission {
  const a = new Admission(gameId, { verifier: fast, ...options });
  for (const e of entries) a.offer(e);
  return a;
}

const chat = (n: number, gameId: string, seq: number) => sendChat(identity(n), gameId, { keys: {}, nonce: 'A'.repeat(32), sealed: 'B'.repeat(40) }, seq);

/** A commit of `power` in the open phase, well formed for admission (the reducer checks the rest). */
function rawCommit(game: Game, power: 'france' | 'germany', seq: number, time: number, r: ReturnType<typeof rng>) {
  const v = view(game);
  const box = sealOrders({ orders: [], draw: false }, 3, BigInt(seq + 1), r.bytes(24));
  // The version 5 form (no shares: they are derived).
  const escrow = { c: Array.from({ length: 6 }, () => 'A'.repeat(43)), e: 'A'.repeat(43), s: [] };
  const bytes = signMessage(game.byPower[power].me, {
    type: 'commit',
    game: game.gameId,
    seq,
    time,
    phase: v.current!.key,
    power,
    sealed: box.sealed,
    hash: box.hash,
    escrow,
  });
  return { bytes, id: messagesOf([bytes]).keys().next().value! };
}

describe('admission', () => {
  it('admits every entry of an honest game, and the reducer reads the same game from the set', () => {
    const game = startedGame(3);
    playPhase(game, randomPhaseOrders(view(game), rng(3).int), T0 + 10);
    const a = admitAll(game.gameId, game.log);
    expect(a.size).toBe(game.log.length);
    expect(stateOf(reduceLog(game.gameId, [...a.entries()]))).toEqual(stateOf(view(game)));
  });

  it('refuses garbage, another game, a bad signature and a stranger forging a player, and never checks a bad signature twice', () => {
    const game = startedGame(4);
    const verifier = countingVerifier();
    const failed = new Set<string>();
    const a = admitAll(game.gameId, game.log, { verifier, failed: { has: (h: string) => failed.has(h), add: (h: string) => void failed.add(h) } });
    const calls = verifier.calls;
    const good = game.log[3]!;
    const badSig = good.slice();
    badSig[5]! ^= 1;
    const other = startedGame(5).log[1]!;
    expect(a.offer(Uint8Array.of(1, 2, 3))).toMatchObject({ kind: 'refused', reason: 'truncated' });
    expect(a.offer(other)).toMatchObject({ kind: 'refused', reason: 'wrong-game' });
    expect(a.offer(badSig)).toMatchObject({ kind: 'refused', reason: 'bad-signature' });
    expect(verifier.calls).toBe(calls + 1);
    // Offered again, and after a restart with the remembered hashes: no signature check.
    expect(a.offer(badSig)).toMatchObject({ kind: 'refused', reason: 'bad-signature' });
    const restarted = new Admission(game.gameId, { verifier, failed: { has: (h: string) => failed.has(h), add: (h: string) => void failed.add(h) } });
    restarted.restore(a.entries());
    expect(restarted.offer(badSig)).toMatchObject({ kind: 'refused', reason: 'bad-signature' });
    expect(verifier.calls).toBe(calls + 1);
    expect(a.offer(good)).toMatchObject({ kind: 'duplicate' });
    expect(a.size).toBe(game.log.length);
  });

  it('keeps the 32 lowest commits per power per phase, whatever order 50 of them come in', () => {
    const game = startedGame(6);
    const v = view(game);
    const phase = v.current!.key;
    const cheat = game.byPower.france;
    const r = rng(66);
    void phase;
    void cheat;
    const commits = Array.from({ length: 50 }, (_, i) => rawCommit(game, 'france', 100 + ((i * 37) % 50), T0 + i, r).bytes);
    const expected = admitAll(game.gameId, [...game.log, ...commits]);
    const kept = [...expected.entries()].filter((e) => commits.includes(e));
    expect(kept).toHaveLength(QUOTAS.commit);
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const a = admitAll(game.gameId, shuffled([...game.log, ...commits], seed));
        expect(a.ids()).toEqual(expected.ids());
      }),
      { numRuns: 25 },
    );
    // Another power's commits, and everyone else's entries, are untouched.
    const other = rawCommit(game, 'germany', 100, T0, r);
    expect(expected.offer(other.bytes)).toMatchObject({ kind: 'admitted' });
    for (const e of game.log) expect(expected.idOfBytes(e)).toBeDefined();
  });

  it('holds a player’s entries until their JOIN arrives, and a dry run changes nothing', () => {
    const game = startedGame(7);
    const [create] = game.log;
    const stranger = 40;
    const gameId = game.gameId;
    const a = admitAll(gameId, [create!]);
    const early = chat(stranger, gameId, 1);
    expect(a.offer(early.bytes)).toMatchObject({ kind: 'pending' });
    expect(a.has(early.id)).toBe(false);
    const join = joinGame(identity(stranger), gameId, 'late', null, { seq: 0, time: T0 });
    expect(a.offer(join.bytes, { dryRun: true })).toMatchObject({ kind: 'admitted' });
    expect(a.has(join.id)).toBe(false);
    expect(a.offer(join.bytes)).toMatchObject({ kind: 'admitted' });
    expect(a.has(early.id)).toBe(true);
  });

  it('a stranger with the invite cannot crowd out the roster: QUOTAS.joiners joiners before START, none after', () => {
    const game = startedGame(8);
    const gameId = game.gameId;
    const lobby = game.log.slice(0, 8); // CREATE and seven JOINs
    const rest = game.log.slice(8); // START and the acceptances
    // Seventy strangers join before the START (more than the joiners whose chats count); the creator's STARTed roster is seven of the first joiners.
    const strangers = Array.from({ length: 70 }, (_, i) => joinGame(identity(100 + i), gameId, `s${i}`, null, { seq: 0, time: T0 }).bytes);
    const before = admitAll(gameId, [...lobby, ...strangers]);
    expect(before.counted().joiners).toHaveLength(Math.min(QUOTAS.joiners, 6 + 70));
    expect(before.counted().talkers).toHaveLength(Math.min(QUOTAS.talkers, 6 + 70));
    // After START every roster key counts and strangers do not, in any order of arrival.
    const pressBefore = chat(1, gameId, 10);
    const lateJoins = Array.from({ length: 10 }, (_, i) => joinGame(identity(200 + i), gameId, `late${i}`, null, { seq: 0, time: T0 + 5 }).bytes);
    const pressAfter = chat(2, gameId, 11);
    const all = [...lobby, ...strangers, ...rest, pressBefore.bytes, ...lateJoins, pressAfter.bytes];
    const expected = admitAll(gameId, all);
    const roster = Object.values(view(game).roster!);
    expect(expected.counted().vouched).toEqual([...new Set(roster)].sort());
    expect(expected.counted().joiners).toEqual([]);
    expect(expected.has(pressBefore.id) && expected.has(pressAfter.id)).toBe(true);
    expect(stateOf(reduceLog(gameId, [...expected.entries()]))).toEqual(stateOf(reduceLog(gameId, [...game.log, pressBefore.bytes, pressAfter.bytes])));
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        expect(admitAll(gameId, shuffled(all, seed)).ids()).toEqual(expected.ids());
      }),
      { numRuns: 15 },
    );
  });

  it('ten JOINs after START do not push a chat "to all" over its key limit: it reaches every player', () => {
    const game = startedGame(11);
    const gameId = game.gameId;
    const lateJoins = Array.from({ length: 10 }, (_, i) => joinGame(identity(300 + i), gameId, `late${i}`, null, { seq: 0, time: T0 + 5 }).bytes);
    const a = admitAll(gameId, [...game.log, ...lateJoins]);
    const v = reduceLog(gameId, [...a.entries()], { verifier: a.verifier });
    const roster = [...new Set(Object.values(v.roster!))].sort();
    expect(v.players.map((p) => p.key).sort()).toEqual(roster);
    // England writes to all as the app does (src/ui/game/runner.ts sendChat): a box for every player of the game.
    const england = game.byPower.england.me;
    const r = rng(111);
    const press = sendChat(england, gameId, sealChat({ to: 'all', text: 'to all', time: T0 + 6 }, england, chatPlayers(v), r.bytes), 500);
    expect(a.offer(press.bytes)).toMatchObject({ kind: 'admitted' });
    const after = reduceLog(gameId, [...a.entries()], { verifier: a.verifier });
    expect(after.chats.map((c) => c.id)).toContain(press.id);
    expect(
      Object.keys(
        messagesOf([press.bytes]).get(press.id)!.payload.type === 'chat'
          ? (messagesOf([press.bytes]).get(press.id)!.payload as { keys: Record<string, string> }).keys
          : {},
      ).sort(),
    ).toEqual(roster);
  });

  it('keeps an author’s phase entries to the lowest phases', () => {
    const game = startedGame(9);
    const cheat = game.byPower.italy;
    const a = admitAll(game.gameId, game.log);
    const phases = Array.from({ length: QUOTAS.phases + 1 }, (_, i) => `${2000 + i}-spring-movement`);
    for (const [i, ph] of phases.entries()) a.offer(acknowledge(cheat.me, game.gameId, ph, 'ab'.repeat(16), { seq: 50 + i, time: T0 }).bytes);
    const acks = [...a.entries()].filter((e) => !game.log.includes(e));
    expect(acks).toHaveLength(QUOTAS.phases);
    // A lower phase pushes the highest out; the highest never comes back.
    expect(a.offer(acknowledge(cheat.me, game.gameId, '1999-fall-movement', 'ab'.repeat(16), { seq: 9, time: T0 }).bytes)).toMatchObject({ kind: 'admitted' });
    expect(a.offer(acknowledge(cheat.me, game.gameId, phases[QUOTAS.phases - 1]!, 'cd'.repeat(16), { seq: 8, time: T0 }).bytes)).toMatchObject({
      kind: 'refused',
      reason: 'quota-phases',
    });
  });

  it('only the creator starts, a CREATE must be bound to the game (its settings included)', () => {
    const game = startedGame(10);
    const a = admitAll(game.gameId, game.log);
    const roster = view(game).roster!;
    expect(a.offer(startGame(game.byPower.turkey.me, game.gameId, roster, escrowOf(game.phones.map((p) => p.me)), { seq: 40, time: T0 }).bytes)).toMatchObject({
      kind: 'refused',
      reason: 'start-not-by-creator',
    });
    const fakeCreate = signMessage(game.byPower.turkey.me, {
      type: 'create',
      game: game.gameId,
      seq: 42,
      time: T0,
      salt: 'ab'.repeat(16),
      settings: view(game).settings!,
    });
    expect(a.offer(fakeCreate)).toMatchObject({ kind: 'refused', reason: 'create-not-bound-to-game' });
    // The creator's own CREATE with the same salt and other settings names another game.
    const salt = (messagesOf([game.log[0]!]).values().next().value!.payload as { salt: string }).salt;
    const shortGame = signMessage(game.byPower.austria.me, {
      type: 'create',
      game: game.gameId,
      seq: 43,
      time: T0,
      salt,
      settings: { ...view(game).settings!, endYear: 1901 },
    });
    expect(a.offer(shortGame)).toMatchObject({ kind: 'refused', reason: 'create-not-bound-to-game' });
  });

  it('keeps two of each once-only step (the proof of equivocation) whatever order five come in, and lot participants count', () => {
    const game = startedGame(12);
    const v = view(game);
    const phase = v.current!.key;
    const cheat = game.byPower.france;
    const r = rng(120);
    const commits = [0, 1, 2, 3, 4].map((i) => rawCommit(game, 'france', 60 + i, T0 + i, r));
    const finals = commits.map((c, i) => finalOrders(cheat.me, game.gameId, phase, 'france', c.id, { seq: 70 + i, time: T0 + 10 }).bytes);
    const locks = [0, 1, 2, 3, 4].map((i) =>
      signMessage(cheat.me, { type: 'lock', game: game.gameId, seq: 80 + i, time: T0 + 20, phase, finals: {}, heads: {}, complaints: [], ack: null }),
    );
    const expected = admitAll(game.gameId, [...game.log, ...commits.map((c) => c.bytes), ...finals, ...locks]);
    const kept = (list: readonly Uint8Array[]) => list.filter((e) => expected.idOfBytes(e) !== undefined).length;
    expect(kept(finals)).toBe(QUOTAS.once);
    expect(kept(locks)).toBe(QUOTAS.once);
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        expect(admitAll(game.gameId, shuffled([...game.log, ...commits.map((c) => c.bytes), ...finals, ...locks], seed)).ids()).toEqual(expected.ids());
      }),
      { numRuns: 15 },
    );
    // Lot games: the START names the participants, who then count (they joined with no power).
    const lotGame = startedGame(13, { assignment: 'lot' });
    const [create, ...joins] = lotGame.log.slice(0, 8);
    const start = startLot(
      lotGame.byPower.austria.me,
      lotGame.gameId,
      lotGame.phones.map((p) => p.me.id),
      escrowOf(lotGame.phones.map((p) => p.me)),
      { seq: 90, time: T0 },
    );
    const lot = admitAll(lotGame.gameId, [create!, ...joins, start.bytes]);
    expect(lot.counted().vouched).toEqual(lotGame.phones.map((p) => p.me.id).sort());
  });

  it('an entry an admitted entry names is kept over its bucket’s quota, so every phone holds what a LOCK or REVEAL refers to', () => {
    const game = startedGame(14);
    const v = view(game);
    const phase = v.current!.key;
    const cheat = game.byPower.france;
    const r = rng(140);
    // France's phone signs five FINALs of five commits; an honest LOCK names the fourth (the one it saw).
    const commits = [0, 1, 2, 3, 4].map((i) => rawCommit(game, 'france', 60 + i, T0 + i, r));
    const finals = commits.map((c, i) => finalOrders(cheat.me, game.gameId, phase, 'france', c.id, { seq: 70 + i, time: T0 + 10 }));
    const honest = game.byPower.england;
    const lock = signMessage(honest.me, {
      type: 'lock',
      game: game.gameId,
      seq: 90,
      time: T0 + 20,
      phase,
      finals: { france: finals[3]!.id },
      heads: {},
      complaints: [],
      ack: null,
    });
    const everything = [...game.log, ...commits.map((c) => c.bytes), ...finals.map((f) => f.bytes), lock];
    const expected = admitAll(game.gameId, everything);
    for (const e of everything) expected.offer(e); // anti-entropy offers again what a peer holds
    expect(expected.has(finals[3]!.id)).toBe(true);
    expect(finals.filter((f) => expected.has(f.id))).toHaveLength(QUOTAS.once + 1);
    expect(expected.has(commits[3]!.id)).toBe(true);
    // Whatever the order, the named FINAL and its commit are held (a later offer of a refused one is admitted once named).
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const a = admitAll(game.gameId, shuffled(everything, seed));
        for (const e of everything) a.offer(e); // anti-entropy offers again what a peer holds
        expect(a.has(finals[3]!.id) && a.has(commits[3]!.id)).toBe(true);
        expect(a.ids()).toEqual(expected.ids());
      }),
      { numRuns: 15 },
    );
  });
});

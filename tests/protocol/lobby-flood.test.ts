// Issue 31, item 6: a stranger with the invite link emptied the creator's lobby. Before the START
// only the JOINs of the 16 lowest other keys counted, so 16 keys below every friend's (3,747 key
// generations for 16 starting with `00`) took every slot: the creator's lobby went from 6 of 6
// friends listed to 0 of 6. Now joiner slots are first come (README.md "Admission"): a key that
// counts for its JOIN keeps its slot whatever keys come after it, up to a generous bound.
import { describe, expect, it } from 'vitest';
import { Admission, createGame, joinGame, QUOTAS, reduceLog, startGame, toHex, type Identity } from '../../src/protocol';
import { POWERS, type Power } from '../../src/rules';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { nativeSignMessage, nodeVerifier } from '../native-ed25519';
import { escrowOf, identity, rng, settings, T0 } from './helpers';

const fast = nodeVerifier();

/** The creator (identity 0) and six friends, each JOIN signed; `low`: strangers' keys below every friend's. */
function lobbyWithStrangers(seed: number, strangers: number) {
  const creator = identity(0);
  const friends = [1, 2, 3, 4, 5, 6].map(identity);
  const { gameId, message } = createGame(creator, rng(seed).bytes(16), settings(), { seq: 0, time: T0 });
  const joins = [creator, ...friends].map((p, i) => joinGame(p, gameId, `friend${i}`, null, { seq: 1, time: T0 + 1 + i }).bytes);
  const lowest = friends.map((f) => f.id).sort()[0]!;
  // Key generation as a stranger would grind it: keep the keys below every friend's.
  const low: Identity[] = [];
  for (let n = 10_000; low.length < strangers; n++) {
    const s = identity(n);
    if (s.id < lowest) low.push(s);
  }
  const flood = low.map((s, i) => joinGame(s, gameId, `stranger${i}`, null, { seq: 0, time: T0 }).bytes);
  return { gameId, creator, friends, create: message.bytes, joins, flood, low };
}

/** What the creator's phone lists: how many of the friends, and how many players in all. */
function creatorSees(gameId: string, creator: Identity, offered: readonly Uint8Array[], friends: readonly Identity[]) {
  const a = new Admission(gameId, { verifier: fast, pinned: [creator.id] });
  for (const e of offered) a.offer(e);
  const v = reduceLog(gameId, [...a.entries()], { me: creator.id, verifier: a.verifier });
  const keys = new Set(v.players.map((p) => p.key));
  return { friends: friends.filter((f) => keys.has(f.id)).length, players: v.players.length, admission: a };
}

/**
 * `n` strangers with the invite link, each with its own key (node's Ed25519: the same signatures
 * as the app's, fast enough for thousands), the i-th sending `joins(i)` JOINs named `name`, in the order
 * they are sent. A JOIN's box and escrow keys are only data before a START: a stranger's are copied.
 */
function strangers(gameId: string, n: number, from: number, joins: (i: number) => number = () => 1, name?: string) {
  const borrowed = identity(0);
  return Array.from({ length: n }, (_, i) => {
    const seed = rng(from + i).bytes(32);
    const key = createPrivateKey({ key: Buffer.from([...PKCS8_ED25519, ...seed]), format: 'der', type: 'pkcs8' });
    const pub = new Uint8Array(createPublicKey(key).export({ format: 'der', type: 'spki' }).subarray(-32));
    const me = { ...borrowed, id: toHex(pub), signPublicKey: pub, signSecretKey: new Uint8Array([...seed, ...pub]) };
    const body = (seq: number) =>
      ({ type: 'join', game: gameId, seq, time: T0, name: name ?? `stranger${i}`, box: me.boxPublicKey, escrow: me.escrowPublicKey, power: null }) as const;
    return { key: me.id, bytes: nativeSignMessage(me, body(0)), more: Array.from({ length: joins(i) - 1 }, (_, k) => nativeSignMessage(me, body(k + 1))) };
  });
}
const PKCS8_ED25519 = Uint8Array.from([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]);

describe('a stranger with the invite link cannot empty the lobby', () => {
  it('16 strangers’ keys below every friend’s, after the friends joined: the creator still lists 6 of 6 friends (was 0 of 6)', () => {
    const l = lobbyWithStrangers(3161, 16);
    const seen = creatorSees(l.gameId, l.creator, [l.create, ...l.joins, ...l.flood], l.friends);
    expect(seen.friends).toBe(6);
    expect(seen.players).toBe(1 + 6 + 16);
  });

  it('more strangers than the bound: friends keep their slots, the newest strangers are the ones left out', () => {
    const l = lobbyWithStrangers(3162, 0);
    const flood = strangers(l.gameId, QUOTAS.joiners + 20, 20_000);
    const seen = creatorSees(l.gameId, l.creator, [l.create, ...l.joins, ...flood.map((f) => f.bytes)], l.friends);
    expect(seen.friends).toBe(6);
    // The creator counts for itself; the bound is on the others.
    expect(seen.players).toBe(1 + QUOTAS.joiners);
    const counted = new Set(seen.admission.counted().joiners);
    const kept = flood.filter((s) => counted.has(s.key)).length;
    expect(kept).toBe(QUOTAS.joiners - 6);
    // Those kept are the first to come, in the order they came.
    expect(flood.slice(0, kept).every((s) => counted.has(s.key))).toBe(true);
    // A friend's JOIN sent again (anti-entropy) changes nothing; so does the flood sent again.
    for (const e of [...l.joins, ...flood.map((f) => f.bytes)]) seen.admission.offer(e);
    expect(seen.admission.counted().joiners).toEqual([...counted].sort());
  });

  it('a thousand strangers’ JOINs before a friend’s and a thousand after: the creator lists the friend, the newest strangers are left out (was hidden past 64)', () => {
    const l = lobbyWithStrangers(3164, 0);
    const flood = strangers(l.gameId, 2000, 30_000);
    const friend = l.friends[5]!;
    const before = flood.slice(0, 1000).map((f) => f.bytes);
    const after = flood.slice(1000).map((f) => f.bytes);
    const offered = [l.create, l.joins[0]!, ...before, l.joins[6]!, ...after];
    const seen = creatorSees(l.gameId, l.creator, offered, [friend]);
    expect(seen.friends).toBe(1);
    expect(seen.players).toBe(1 + QUOTAS.joiners);
    // Those listed: the thousand before, the friend, then the first of those after, as they came.
    const counted = new Set(seen.admission.counted().joiners);
    expect(flood.filter((f) => counted.has(f.key))).toEqual(flood.slice(0, QUOTAS.joiners - 1));
    // The chats that count before the START are the first 64 joiners' (the earliest strangers here).
    const talkers = seen.admission.counted().talkers;
    expect(talkers).toHaveLength(QUOTAS.talkers);
    expect(talkers).toEqual(
      flood
        .slice(0, QUOTAS.talkers)
        .map((f) => f.key)
        .sort(),
    );
    // The friend is in every later JOIN count: the lobby the creator starts from names it, and the START counts it.
    const table = [l.creator, ...l.friends];
    const roster = Object.fromEntries(POWERS.map((p, i) => [p, table[i]!.id])) as Record<Power, string>;
    const started = creatorSees(l.gameId, l.creator, [...offered, ...l.joins], l.friends);
    started.admission.offer(startGame(l.creator, l.gameId, roster, escrowOf(table), { seq: 2, time: T0 + 10 }).bytes);
    expect(started.admission.counted().vouched).toEqual(table.map((p) => p.id).sort());
    expect(started.admission.counted().joiners).toEqual([]);
  });

  it('the memory a flood holds stays bounded: strangers sending more JOINs of the longest name than kept, 16 kept of the first 64, 2 of the others', () => {
    const l = lobbyWithStrangers(3165, 0);
    // The longest name a JOIN carries: 40 UTF-16 units, 3 UTF-8 bytes each. The first 64 send 17
    // JOINs, the others 3 (each one more than is kept of it), 50 strangers more than the bound.
    const more = (i: number) => (i < QUOTAS.talkers ? QUOTAS.join : QUOTAS.listedJoin) + 1;
    const flood = strangers(l.gameId, QUOTAS.joiners + 50, 40_000, more, '\u20ac'.repeat(40));
    const all = flood.flatMap((f) => [f.bytes, ...f.more]);
    const biggest = Math.max(...all.map((b) => b.length));
    const started = performance.now();
    const seen = creatorSees(l.gameId, l.creator, [l.create, l.joins[0]!, ...all], []);
    const ms = performance.now() - started;
    const held = [...seen.admission.entries()];
    const bytes = held.reduce((n, b) => n + b.length, 0);
    const joins = held.length - 2;
    // At most talkers × join + (joiners − talkers) × listedJoin JOINs, each at most `biggest` bytes.
    const bound = QUOTAS.talkers * QUOTAS.join + (QUOTAS.joiners - QUOTAS.talkers) * QUOTAS.listedJoin;
    expect(joins).toBe(bound);
    expect(bytes).toBeLessThanOrEqual(bound * biggest + 2 * 8 * 1024);
    expect(seen.players).toBe(1 + QUOTAS.joiners);
    console.log(
      `lobby flood: ${flood.length} keys, ${all.length} JOINs (${biggest} B each) → ${joins} JOINs held, ${(bytes / 1024).toFixed(0)} KiB; admitted and reduced in ${ms.toFixed(0)} ms`,
    );
  });

  it('the START still closes the lobby: strangers it does not name stop counting, the friends it names count', () => {
    const l = lobbyWithStrangers(3163, 16);
    const seen = creatorSees(l.gameId, l.creator, [l.create, ...l.joins, ...l.flood], l.friends);
    expect(seen.admission.counted().joiners).toHaveLength(6 + 16);
    const table = [l.creator, ...l.friends];
    const roster = Object.fromEntries(POWERS.map((p, i) => [p, table[i]!.id])) as Record<Power, string>;
    seen.admission.offer(startGame(l.creator, l.gameId, roster, escrowOf(table), { seq: 2, time: T0 + 10 }).bytes);
    expect(seen.admission.counted().joiners).toEqual([]);
    expect(seen.admission.counted().vouched).toEqual(table.map((p) => p.id).sort());
    const v = reduceLog(l.gameId, [...seen.admission.entries()], { me: l.creator.id, verifier: seen.admission.verifier });
    expect(v.status).toBe('starting');
    expect(v.players.map((p) => p.key).sort()).toEqual(table.map((p) => p.id).sort());
  });
});

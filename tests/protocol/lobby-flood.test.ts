// Issue 31, item 6: a stranger with the invite link emptied the creator's lobby. Before the START
// only the JOINs of the 16 lowest other keys counted, so 16 keys below every friend's (3,747 key
// generations for 16 starting with `00`) took every slot: the creator's lobby went from 6 of 6
// friends listed to 0 of 6. Now joiner slots are first come (README.md "Admission"): a key that
// counts for its JOIN keeps its slot whatever keys come after it, up to a generous bound.
import { describe, expect, it } from 'vitest';
import { Admission, createGame, joinGame, QUOTAS, reduceLog, startGame, type Identity } from '../../src/protocol';
import { POWERS, type Power } from '../../src/rules';
import { nodeVerifier } from '../native-ed25519';
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

describe('a stranger with the invite link cannot empty the lobby', () => {
  it('16 strangers’ keys below every friend’s, after the friends joined: the creator still lists 6 of 6 friends (was 0 of 6)', () => {
    const l = lobbyWithStrangers(3161, 16);
    const seen = creatorSees(l.gameId, l.creator, [l.create, ...l.joins, ...l.flood], l.friends);
    expect(seen.friends).toBe(6);
    expect(seen.players).toBe(1 + 6 + 16);
  });

  it('more strangers than the bound: friends keep their slots, the newest strangers are the ones left out', () => {
    const l = lobbyWithStrangers(3162, QUOTAS.joiners + 20);
    const seen = creatorSees(l.gameId, l.creator, [l.create, ...l.joins, ...l.flood], l.friends);
    expect(seen.friends).toBe(6);
    // The creator counts for itself; the bound is on the others.
    expect(seen.players).toBe(1 + QUOTAS.joiners);
    const counted = new Set(seen.admission.counted().joiners);
    const kept = l.low.filter((s) => counted.has(s.id)).length;
    expect(kept).toBe(QUOTAS.joiners - 6);
    // Those kept are the first to come, in the order they came.
    expect(l.low.slice(0, kept).every((s) => counted.has(s.id))).toBe(true);
    // A friend's JOIN sent again (anti-entropy) changes nothing; so does the flood sent again.
    for (const e of [...l.joins, ...l.flood]) seen.admission.offer(e);
    expect(seen.admission.counted().joiners).toEqual([...counted].sort());
  });

  it('the bound is generous: a full table of friends and dozens of strangers all fit', () => {
    expect(QUOTAS.joiners).toBeGreaterThanOrEqual(64);
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

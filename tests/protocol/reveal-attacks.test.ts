// Attacks on protocol 4's REVEAL (README.md, "The sealed ballot": a REVEAL names its LOCKs by id
// alone and lists its secrets and shares without commit ids) that reveal-locks.test.ts does not
// try: one key signing its REVEAL in both versions' forms, and a REVEAL naming a LOCK of another
// game signed by the very key whose LOCK it stands in for.
import { describe, expect, it } from 'vitest';
import { compareText, encodePayload, signPayloadBytes, type Payload } from '../../src/protocol';
import { lockedGame, messagesOf, payloadOf, settlePhase, stateOf, T0, view, type Game } from './helpers';

/** The commits of the open phase, sorted by id: `mine` (the author's), `others`. */
function commitsOf(game: Game, author: string) {
  const ids = [...messagesOf(game.log)].filter(([, m]) => m.payload.type === 'commit').map(([id, m]) => ({ id, from: m.payload.from }));
  ids.sort((a, b) => compareText(a.id, b.id));
  return { mine: ids.filter((c) => c.from === author).map((c) => c.id), others: ids.filter((c) => c.from !== author).map((c) => c.id) };
}

describe('protocol 4 REVEAL: attacks across versions and games', () => {
  it('one key signing its REVEAL in both forms (version 3 and version 4): the older one is not read in a newer game, and the phase still resolves', () => {
    const { game, locks } = lockedGame(51);
    const france = game.byPower.france;
    const v4 = france.reveal(game.gameId, view(game), game.log, T0 + 200);
    const p = payloadOf(v4.bytes) as Payload & { secrets: string[]; shares: string[] };
    const { mine, others } = commitsOf(game, france.me.id);
    // The same content keyed the version 3 way, under another sequence number: another id.
    const v3 = signPayloadBytes(
      france.me,
      encodePayload({
        ...p,
        v: 3,
        seq: france.seq++,
        locks: Object.fromEntries(locks),
        secrets: Object.fromEntries(mine.map((id, k) => [id, p.secrets[k]!])),
        shares: Object.fromEntries(others.map((id, k) => [id, p.shares[k]!])),
      } as Payload),
    );
    // The game's version is its CREATE's (6): the version 3 REVEAL is ignored with a reason, alone
    // or with the other (it was an equivocation when every readable version counted in any game).
    expect(view(game, [...game.log, v4.bytes]).current!.ballot.reveals[france.me.id]).toHaveLength(1);
    const alone = view(game, [...game.log, v3]);
    expect(alone.current!.ballot.reveals[france.me.id] ?? []).toHaveLength(0);
    expect(alone.ignored.filter((i) => i.id === idOf(v3))).toEqual([{ id: idOf(v3), reason: 'older-version-than-game' }]);
    const both = view(game, [...game.log, v4.bytes, v3]);
    expect(both.current!.ballot.equivocators).toEqual([]);
    expect(both.current!.ballot.reveals[france.me.id]).toHaveLength(1);
    // The same on a phone that received them the other way round.
    expect(view(game, [...game.log, v3, v4.bytes])).toEqual(both);
    // Revealing decides nothing: the others reveal and the phase resolves as it would without the second one.
    game.log.push(v4.bytes, v3);
    const done = settlePhase(game, T0 + 300);
    expect(done.phases).toHaveLength(1);
    const honest = lockedGame(51).game;
    honest.log.push(honest.byPower.france.reveal(honest.gameId, view(honest), honest.log, T0 + 200).bytes);
    expect(settlePhase(honest, T0 + 300).phases[0]!.stateHash).toBe(done.phases[0]!.stateHash);
  });

  it('a REVEAL naming, for a key, that same key’s LOCK of another game (same keys, same phase name) never counts and makes no equivocator', () => {
    const { game, locks } = lockedGame(52);
    // The same seven identities in another game, locked in the same phase.
    const other = lockedGame(53);
    expect(other.game.gameId).not.toBe(game.gameId);
    const italy = game.byPower.italy.me.id;
    const foreign = other.locks.get(italy)!;
    const foreignBytes = other.game.log.find((b) => idOf(b) === foreign)!;
    const france = game.byPower.france;
    const honest = france.reveal(game.gameId, view(game), game.log, T0 + 200);
    const p = payloadOf(honest.bytes) as Payload & { locks: string[] };
    const named = [...locks.entries()].map(([k, id]) => (k === italy ? foreign : id)).sort(compareText);
    const bad = signPayloadBytes(france.me, encodePayload({ ...p, locks: named } as Payload));
    // The phone holds the foreign LOCK too (a peer may send anything).
    const before = view(game);
    const after = view(game, [...game.log, foreignBytes, bad]);
    expect(after.current!.ballot.reveals[france.me.id] ?? []).toHaveLength(0);
    expect(after.current!.ballot.locks[italy]).toEqual([locks.get(italy)]);
    expect(after.current!.ballot.equivocators).toEqual([]);
    expect(after.misconduct).toEqual([]);
    expect(stateOf(after)).toEqual(stateOf(before));
    expect(after.ignored.some((i) => i.id === foreign && i.reason === 'wrong-game')).toBe(true);
  });
});

/** The id of a signed entry (the reducer's: the first 16 bytes of SHA-512 of its payload). */
function idOf(bytes: Uint8Array): string {
  const found = [...messagesOf([bytes])][0];
  if (found === undefined) throw new Error('entry does not open');
  return found[0];
}

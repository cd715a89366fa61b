// The same set of entries gives the same game, whatever order and however many copies arrive.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POWERS, randomOrders, type Power } from '../../src/rules';
import { canonicalEncode, clearFoldMemos, clearMemos, messageId, reduceLog, type GameView } from '../../src/protocol';
import { rng, settlePhase, startedGame, T0, view, type Game } from './helpers';
import { checkCase, lateScenario } from './late-entries';

/** Cases of the late-entries property here (each follows four readers live); `npm run fuzz -- interleave` runs many more. */
const INTERLEAVE_RUNS = 20;

/**
 * Spring and Fall 1901 in which France and Germany re-seal while others are already finalizing:
 * each phone takes its steps on its own view, and England locks having seen only some FINALs.
 */
function concurrentLog(): { game: Game; entries: Uint8Array[] } {
  const game = startedGame(21);
  const r = rng(22);
  const lobby = game.log.length;
  for (let phase = 0; phase < 2; phase++) {
    let v = view(game);
    const pos = v.current!.position;
    for (const p of POWERS) game.log.push(game.byPower[p].commit(game.gameId, v, randomOrders(pos, p, r.int), T0 + 10 + phase).bytes);
    const seenEarly = view(game);
    // Everyone but France and Germany finalizes on the early view; those two re-seal first.
    for (const p of POWERS.filter((x) => x !== 'france' && x !== 'germany'))
      game.log.push(game.byPower[p].final(game.gameId, seenEarly, T0 + 15 + phase).bytes);
    const resealers: Power[] = ['france', 'germany'];
    for (const p of resealers) game.log.push(game.byPower[p].commit(game.gameId, seenEarly, randomOrders(pos, p, r.int), T0 + 20 + phase).bytes);
    v = view(game);
    for (const p of resealers) game.log.push(game.byPower[p].final(game.gameId, v, T0 + 25 + phase).bytes);
    settlePhase(game, T0 + 40 + phase);
  }
  return { game, entries: game.log.slice(lobby) };
}

const encode = (v: GameView) => canonicalEncode(v);

describe('order and duplicates do not matter', () => {
  const { game, entries } = concurrentLog();
  const lobby = game.log.slice(0, game.log.length - entries.length);
  const full = view(game);

  it('the scripted game resolves both phases with the re-seals counted', () => {
    expect(full.phases).toHaveLength(2);
    expect(full.ignored).toEqual([]);
    for (const ph of full.phases) expect(Object.keys(ph.commits).sort()).toEqual([...POWERS]);
    // The re-seals were made before their FINALs: the FINALs name them, and they are what counts.
    const resealed = (p: Power, key: string) => game.byPower[p].commits.get(key)!.at(-1);
    for (const ph of full.phases) for (const p of ['france', 'germany'] as Power[]) expect(ph.commits[p]).toBe(resealed(p, ph.key));
  });

  it('every interleaving with duplications of any subset gives the same view and state hash', () => {
    const n = lobby.length + entries.length;
    fc.assert(
      fc.property(
        fc.subarray([...Array(n).keys()]),
        fc.array(fc.nat(n - 1), { maxLength: 12 }),
        fc.array(fc.nat(), { minLength: n + 12, maxLength: n + 12 }),
        fc.array(fc.nat(), { minLength: n + 12, maxLength: n + 12 }),
        (subset, dupes, orderA, orderB) => {
          const all = [...lobby, ...entries];
          const chosen = subset.map((i) => all[i]!);
          const copies = dupes.filter((i) => subset.includes(i)).map((i) => all[i]!.slice());
          const base = [...chosen, ...copies];
          const shuffle = (keys: number[]) =>
            base
              .map((b, i) => [keys[i]!, i, b] as const)
              .sort((x, y) => x[0] - y[0] || x[1] - y[1])
              .map(([, , b]) => b);
          // The reference with what the reducer remembers from the previous run (other entries),
          // a from scratch, b with what it remembers from a: the memos must change nothing.
          const reference = reduceLog(game.gameId, chosen);
          clearMemos();
          const a = reduceLog(game.gameId, shuffle(orderA));
          const b = reduceLog(game.gameId, shuffle(orderB));
          expect(encode(a)).toEqual(encode(reference));
          expect(encode(b)).toEqual(encode(reference));
          expect(a.stateHash).toBe(reference.stateHash);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('what the reducer remembers never stands in for other entries: every prefix and every one-entry-less log, warm and cold', () => {
    // Every third prefix and every third entry left out, so the test stays quick.
    const every = (k: number) => k % 3 === 1;
    const logs = [
      ...game.log.map((_, k) => game.log.slice(0, k + 1)).filter((_, k) => every(k)),
      ...game.log.map((_, k) => game.log.filter((_, i) => i !== k)).filter((_, k) => every(k)),
    ];
    for (const log of logs) {
      reduceLog(game.gameId, game.log); // the full game is what is remembered
      const warm = encode(reduceLog(game.gameId, log));
      clearFoldMemos();
      expect(warm).toEqual(encode(reduceLog(game.gameId, log)));
    }
    // A log growing one entry at a time (the order of the entries so far is extended, not redone).
    for (let k = 1; k <= game.log.length; k += 3) {
      reduceLog(game.gameId, game.log.slice(0, k - 1));
      const warm = encode(reduceLog(game.gameId, game.log.slice(0, k)));
      clearFoldMemos();
      expect(warm).toEqual(encode(reduceLog(game.gameId, game.log.slice(0, k))));
    }
  });

  it('the full set in reverse, doubled, equals the full set', () => {
    const reversed = [...game.log].reverse();
    expect(encode(reduceLog(game.gameId, [...reversed, ...game.log.map((b) => b.slice())]))).toEqual(encode(full));
  });
});

describe('late and replayed entries of closed phases, and entries of older versions, in any arrival order', () => {
  const s = lateScenario(3160);

  it('the scenario holds what it says: late entries of spring and fall, older versions, replays', () => {
    const kinds = s.entries.map((e) => e.kind);
    expect(kinds.filter((k) => k === 'late').length).toBeGreaterThanOrEqual(7);
    expect(kinds.filter((k) => k === 'old')).toHaveLength(6);
    expect(kinds.filter((k) => k === 'copy')).toHaveLength(8);
    expect(s.resolved).toBe(2);
    // In the honest order, with everything else after it, nothing fails.
    expect(checkCase(s, [[...s.entries.keys()]], true)).toEqual([]);
    // Every entry of an older version is ignored with its reason, by members and readers alike.
    for (const me of [s.honest[0]!, s.spectator, undefined]) {
      const v = reduceLog(
        s.gameId,
        s.entries.map((e) => e.bytes),
        me === undefined ? {} : { me },
      );
      for (const e of s.entries.filter((x) => x.kind === 'old'))
        expect(v.ignored.filter((i) => i.id === messageId(e.bytes)).map((i) => i.reason)).toEqual(['older-version-than-game']);
    }
  });

  it('honest phones following live in their own orders, a spectator, a reader with no identity and a cold re-read agree; a resolved phase never changes', () => {
    const n = s.entries.length;
    const order = fc.array(fc.nat(), { minLength: n, maxLength: n });
    fc.assert(
      fc.property(fc.boolean(), fc.array(order, { minLength: 4, maxLength: 4 }), (causal, orders) => {
        expect(checkCase(s, orders, causal)).toEqual([]);
      }),
      { numRuns: INTERLEAVE_RUNS, seed: 3160 },
    );
  });
});

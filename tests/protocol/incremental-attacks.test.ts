// Attacks on the incremental re-reduce (reduce.ts: the entry index taking in only new entries, the
// chain of resolved phases; README.md "Determinism and speed") that incremental.test.ts does not
// try: logs that are not extensions of the last one (entries removed, one swapped for another at
// the same length, copies of the same bytes as distinct objects), two games and several `me`
// reduced in turn, and lobby entries arriving after phases resolved. At every step the view must
// be, byte for byte, the view of a reduce from scratch.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalEncode, clearFoldMemos, joinGame, reduceLog, startGame, type GameView, type ReduceOptions } from '../../src/protocol';
import { entriesOf, type Fixture } from '../fixtures/fixture';
import type { Power } from '../../src/rules';
import { escrowOf, identity, playPhase, startedGame, T0 } from './helpers';

const fixture = (name: string): Fixture => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as Fixture;

interface Step {
  readonly gameId: string;
  readonly log: readonly Uint8Array[];
  readonly options?: ReduceOptions;
}

/** Each step reduced from scratch, then all of them in turn with the memos warm: equal at every step. */
function checkSteps(steps: readonly Step[]): GameView[] {
  const cold = steps.map((s) => {
    clearFoldMemos();
    return reduceLog(s.gameId, s.log, s.options);
  });
  clearFoldMemos();
  return steps.map((s, i) => {
    const warm = reduceLog(s.gameId, s.log, s.options);
    expect(warm.stateHash, `step ${i}`).toBe(cold[i]!.stateHash);
    expect(canonicalEncode(warm), `step ${i}`).toEqual(canonicalEncode(cold[i]!));
    return warm;
  });
}

describe('re-reducing logs that are not extensions, other games and other options, late lobby entries', () => {
  const year = fixture('v4-standard-year.json');
  const entries = entriesOf(year);
  const copies = entries.map((b) => Uint8Array.from(b));

  it('entries removed, one swapped at the same length, the set re-ordered, copies as distinct objects', () => {
    const n = entries.length;
    const part = entries.slice(0, Math.floor(n * 0.6));
    const removed = part.filter((_, i) => i % 17 !== 5);
    expect(removed.length).toBeLessThan(part.length);
    // Same length as `part`, one entry replaced by a later one (a different log, not an extension).
    const swapped = [...part.slice(0, -10), entries[part.length + 3]!, ...part.slice(-9)];
    expect(swapped).toHaveLength(part.length);
    const views = checkSteps([
      { gameId: year.gameId, log: part },
      { gameId: year.gameId, log: removed },
      { gameId: year.gameId, log: swapped },
      { gameId: year.gameId, log: part },
      { gameId: year.gameId, log: entries },
      { gameId: year.gameId, log: [...entries].reverse() },
      { gameId: year.gameId, log: copies },
      { gameId: year.gameId, log: [...copies, ...entries.slice(0, 5)] },
      { gameId: year.gameId, log: removed },
    ]);
    expect(views[4]!.phases.length).toBe(year.phases.length);
    expect(views[1]!.phases.length).toBeLessThan(views[0]!.phases.length + 1);
  });

  it('two games and several phones’ `me` reduced in turn, each growing', () => {
    const two = fixture('v4-two-players.json');
    const twoEntries = entriesOf(two);
    const roster = reduceLog(year.gameId, entries).roster!;
    const twoRoster = reduceLog(two.gameId, twoEntries).roster!;
    const mes = [undefined, roster.france, roster.england];
    const steps: Step[] = [];
    for (let k = 1; k <= 8; k++) {
      const a = entries.slice(0, Math.ceil((entries.length * k) / 8));
      const b = twoEntries.slice(0, Math.ceil((twoEntries.length * k) / 8));
      const me = mes[k % 3];
      steps.push({ gameId: year.gameId, log: a, options: me === undefined ? {} : { me } });
      // The other game's log, and this game's id over the other game's entries (all wrong-game).
      steps.push({ gameId: two.gameId, log: b, options: { me: twoRoster.england } });
      steps.push({ gameId: year.gameId, log: b });
      steps.push({ gameId: year.gameId, log: a, options: { me: roster.turkey } });
    }
    const views = checkSteps(steps);
    expect(views.at(-4)!.phases.length).toBe(year.phases.length);
    expect(views.at(-3)!.phases.length).toBe(two.phases.length);
    // A phone's own next sequence number is its own: a spectator's view (k = 3) says 0, Turkey's its own.
    expect(views[8]!.nextSeq).toBe(0);
    expect(views[11]!.nextSeq).toBeGreaterThan(0);
  });

  it('a second START and a stranger’s JOIN arriving after two phases resolved: the lobby is read again, the chain kept right', () => {
    const game = startedGame(61);
    playPhase(game, {}, T0 + 100);
    const afterOne = [...game.log];
    playPhase(game, {}, T0 + 1000);
    const afterTwo = [...game.log];
    const creator = game.phones[0]!;
    const roster = Object.fromEntries(game.phones.map((ph) => [ph.power, ph.me.id]));
    // The creator signs another START swapping two powers (duplicate-start), a stranger joins late.
    const second = startGame(
      creator.me,
      game.gameId,
      { ...roster, france: roster.germany!, germany: roster.france! } as Record<Power, string>,
      escrowOf(game.phones.map((ph) => ph.me)),
      creator.stamp(T0 + 2000),
    );
    const stranger = identity(40);
    const join = joinGame(stranger, game.gameId, 'late', null, { seq: 0, time: T0 + 2001 });
    const me = game.byPower.italy.me.id;
    const views = checkSteps([
      { gameId: game.gameId, log: afterOne, options: { me } },
      { gameId: game.gameId, log: afterTwo, options: { me } },
      { gameId: game.gameId, log: [...afterTwo, second.bytes], options: { me } },
      { gameId: game.gameId, log: [...afterTwo, second.bytes, join.bytes], options: { me } },
      { gameId: game.gameId, log: [...afterTwo, second.bytes, join.bytes] },
      { gameId: game.gameId, log: [...afterTwo, join.bytes] },
    ]);
    expect(views[1]!.phases).toHaveLength(2);
    expect(views[1]!.misconduct).toEqual([]);
    expect(views[2]!.misconduct.map((m) => m.kind)).toEqual(['duplicate-start']);
    expect(views[3]!.phases.map((p) => p.stateHash)).toEqual(views[1]!.phases.map((p) => p.stateHash));
    expect(views[3]!.spectators).toEqual([stranger.id]);
  });
});

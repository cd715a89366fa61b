import { describe, expect, it } from 'vitest';
import { POWERS, type Power } from '../../src/rules';
import { countTimeouts, quorumReached, revealDue, timeoutsDue, voteTimeout, type Message } from '../../src/protocol';
import { HOUR, playPhase, startedGame, stateOf, T0, view, type Game } from './helpers';

const DEADLINE = T0 + 2 + 24 * HOUR; // START is signed at T0 + 2; movement phases last 24 hours
const REVEAL_DEADLINE = DEADLINE + 6 * HOUR; // a quarter of the phase for a power that committed

function vote(game: Game, voter: Power, against: Power[], time: number, phase = '1901-spring-movement') {
  const phone = game.byPower[voter];
  return voteTimeout(phone.me, game.gameId, phase, voter, against, phone.stamp(time)).bytes;
}

/** Everyone commits; everyone but Turkey reveals. */
function turkeyNeverReveals(): Game {
  const game = startedGame(11);
  let v = view(game);
  for (const p of POWERS) game.log.push(game.byPower[p].commit(game.gameId, v, [], T0 + 100).bytes);
  v = view(game);
  for (const p of POWERS.filter((x) => x !== 'turkey')) game.log.push(game.byPower[p].reveal(game.gameId, v, T0 + 200).bytes);
  return game;
}

describe('quorum arithmetic', () => {
  it('needs more than half of the other active powers, and at least two of them unless only one is left', () => {
    expect(quorumReached(3, 6)).toBe(false);
    expect(quorumReached(4, 6)).toBe(true);
    expect(quorumReached(1, 2)).toBe(false);
    expect(quorumReached(2, 2)).toBe(true);
    expect(quorumReached(1, 1)).toBe(true);
    expect(quorumReached(2, 4)).toBe(false);
  });

  it('ignores votes before the deadline, on oneself, by inactive powers and against powers not awaited', () => {
    const mk = (id: string, power: Power, powers: Power[], time: number) =>
      ({ id, payload: { type: 'timeout', v: 1, game: 'g', from: 'k', seq: 0, time, phase: '1901-spring-movement', power, powers } }) as Message<any>;
    const count = countTimeouts(['turkey', 'russia'], ['austria', 'england', 'france', 'russia', 'turkey'], 1000, [
      mk('a', 'austria', ['turkey'], 999),
      mk('b', 'turkey', ['turkey'], 2000),
      mk('c', 'italy', ['turkey'], 2000),
      mk('d', 'england', ['germany'], 2000),
      mk('e', 'england', ['turkey'], 2000),
      mk('f', 'france', ['turkey'], 2000),
      mk('g', 'russia', ['turkey'], 2000),
    ]);
    expect(count.ignored.map((i) => [i.id, i.reason])).toEqual([
      ['a', 'timeout-before-deadline'],
      ['b', 'timeout-names-itself'],
      ['c', 'voter-not-active'],
      ['d', 'timeout-names-power-not-required'],
    ]);
    expect(count.votes.turkey).toEqual(['england', 'france', 'russia']);
    expect(count.timedOut).toEqual(['turkey']);
  });
});

describe('a player who never reveals', () => {
  it('is timed out after the deadline by a majority of the others, and the game goes on', () => {
    const game = turkeyNeverReveals();
    const v = view(game);
    expect(timeoutsDue(v, 'austria', DEADLINE - 1)).toEqual([]);
    // Turkey did commit (others' reveals name it), so it gets the reveal grace after the deadline.
    expect(v.current?.revealDeadline).toBe(REVEAL_DEADLINE);
    expect(timeoutsDue(v, 'austria', REVEAL_DEADLINE - 1)).toEqual([]);
    expect(timeoutsDue(v, 'austria', REVEAL_DEADLINE)).toEqual(['turkey']);
    const early = ['austria', 'england', 'france', 'germany'].map((p) => vote(game, p as Power, ['turkey'], REVEAL_DEADLINE - 1));
    const within = view(game, [...game.log, ...early]);
    expect(within.phases).toHaveLength(0);
    expect(within.ignored.filter((i) => i.reason === 'timeout-within-reveal-grace')).toHaveLength(4);
    for (const p of ['austria', 'england', 'france', 'germany'] as Power[]) game.log.push(vote(game, p, ['turkey'], REVEAL_DEADLINE + 5));
    const after = view(game);
    expect(after.phases).toHaveLength(1);
    const spring = after.phases[0]!;
    expect(spring.timedOut).toEqual(['turkey']);
    expect(spring.civilDisorder).toEqual(['turkey']);
    expect(spring.orders.turkey).toBeUndefined();
    expect(after.current?.key).toBe('1901-fall-movement');
    expect(after.current?.required).toContain('turkey');
    // Turkey's units stood still.
    const turkish = (pos: typeof spring.position) => pos.units.filter((u) => u.power === 'turkey').map((u) => u.loc);
    expect(turkish(after.position!)).toEqual(turkish(spring.position));
    // A late reveal from Turkey does not reopen the closed phase.
    game.log.push(game.byPower.turkey.reveal(game.gameId, v, DEADLINE + 10).bytes);
    expect(stateOf(view(game))).toEqual(stateOf(after));
  });

  it('cannot be timed out by one player alone, however late', () => {
    const game = turkeyNeverReveals();
    const before = view(game);
    game.log.push(vote(game, 'russia', ['turkey'], REVEAL_DEADLINE + 100 * HOUR));
    const after = view(game);
    expect(after.phases).toHaveLength(0);
    expect(after.current?.timedOut).toEqual([]);
    expect(after.current?.timeoutVotes.turkey).toEqual(['russia']);
    expect(stateOf({ ...after, current: undefined })).toEqual(stateOf({ ...before, current: undefined }));
  });

  it('cannot be timed out before the deadline, even by everyone else', () => {
    const game = turkeyNeverReveals();
    for (const p of POWERS.filter((x) => x !== 'turkey')) game.log.push(vote(game, p, ['turkey'], DEADLINE - 1));
    const v = view(game);
    expect(v.phases).toHaveLength(0);
    expect(v.current?.timedOut).toEqual([]);
    expect(v.ignored.filter((i) => i.reason === 'timeout-before-deadline')).toHaveLength(6);
  });

  it('cannot be timed out by a lone vote for a phase that is already resolved', () => {
    const game = startedGame(12);
    const resolved = playPhase(game, {}, T0 + 100);
    game.log.push(vote(game, 'russia', ['turkey'], DEADLINE + HOUR));
    const after = view(game);
    expect(stateOf(after)).toEqual(stateOf(resolved));
    expect(after.phases[0]!.timedOut).toEqual([]);
  });

  it('a power that never commits is timed out, then the others reveal and the phase closes', () => {
    const game = startedGame(13);
    let v = view(game);
    for (const p of POWERS.filter((x) => x !== 'italy')) game.log.push(game.byPower[p].commit(game.gameId, v, [], T0 + 100).bytes);
    v = view(game);
    expect(revealDue(v, 'france')).toBe(false);
    expect(timeoutsDue(v, 'france', DEADLINE)).toEqual(['italy']);
    for (const p of ['austria', 'england', 'france', 'germany'] as Power[]) game.log.push(vote(game, p, ['italy'], DEADLINE));
    v = view(game);
    expect(v.current?.timedOut).toEqual(['italy']);
    expect(revealDue(v, 'france')).toBe(true);
    for (const p of POWERS.filter((x) => x !== 'italy')) game.log.push(game.byPower[p].reveal(game.gameId, v, DEADLINE + 1).bytes);
    v = view(game);
    expect(v.phases[0]?.civilDisorder).toEqual(['italy']);
    expect(v.current?.key).toBe('1901-fall-movement');
  });
});

import { describe, expect, it } from 'vitest';
import { POWERS, type Power } from '../../src/rules';
import { countTimeouts, quorumReached, timeoutsDue, voteTimeout, type Message } from '../../src/protocol';
import { HOUR, playPhase, settlePhase, startedGame, stateOf, T0, view, type Game } from './helpers';

// The first phase opens at the upper median of the START's claim (T0 + 2) and its acceptances' (T0 + 3).
const DEADLINE = T0 + 3 + 24 * HOUR;
const SEALED = T0 + 100; // when the phones in these games seal
const REVEAL_DEADLINE = SEALED + HOUR; // the reveal stage lasts an hour after everyone has sealed

function vote(game: Game, voter: Power, against: Power[], time: number, phase = '1901-spring-movement') {
  const phone = game.byPower[voter];
  return voteTimeout(phone.me, game.gameId, phase, against, phone.stamp(time)).bytes;
}

/** Everyone seals; every phone but Turkey's takes its automatic steps (Turkey's never finalizes). */
function turkeyNeverFinalizes(): Game {
  const game = startedGame(11);
  const v = view(game);
  for (const p of POWERS) game.log.push(game.byPower[p].commit(game.gameId, v, [], SEALED).bytes);
  settlePhase(game, T0 + 200, { silent: ['turkey'] });
  return game;
}

describe('quorum arithmetic', () => {
  it('needs more than half of the other players, and at least two of them unless only one is left', () => {
    expect(quorumReached(3, 6)).toBe(false);
    expect(quorumReached(4, 6)).toBe(true);
    expect(quorumReached(1, 2)).toBe(false);
    expect(quorumReached(2, 2)).toBe(true);
    expect(quorumReached(1, 1)).toBe(true);
    expect(quorumReached(2, 4)).toBe(false);
  });

  it('counts keys, not powers; ignores votes before the threshold, by non-players and against a voter’s own or unawaited slots', () => {
    const mk = (id: string, from: string, slots: string[], time: number) =>
      ({ id, payload: { type: 'timeout', v: 2, game: 'g', from, seq: 0, time, phase: '1901-spring-movement', slots } }) as Message<any>;
    const holders: Record<string, string> = { austria: 'A', england: 'E', france: 'F', germany: 'F', russia: 'R', turkey: 'T' };
    const count = countTimeouts({
      slots: ['russia', 'turkey'],
      holderOf: (s) => holders[s]!,
      players: ['A', 'E', 'F', 'R', 'T'],
      threshold: () => 1000,
      votes: [
        mk('a', 'A', ['turkey'], 999),
        mk('b', 'T', ['turkey'], 2000),
        mk('c', 'X', ['turkey'], 2000),
        mk('d', 'E', ['germany'], 2000),
        mk('e', 'E', ['turkey'], 2000),
        mk('f', 'F', ['turkey'], 2000),
      ],
      clocks: new Map(),
    });
    expect(count.ignored.map((i) => [i.id, i.reason])).toEqual([
      ['a', 'timeout-before-deadline'],
      ['b', 'timeout-names-own-slot'],
      ['c', 'voter-not-a-player'],
      ['d', 'timeout-names-slot-not-awaited'],
    ]);
    // France and Germany are one key: one vote. Two of four others is no majority.
    expect(count.votes.turkey).toEqual(['E', 'F']);
    expect(count.timedOut).toEqual([]);
  });
});

describe('a player who never finishes the automatic steps', () => {
  it('is timed out after the reveal-stage deadline by a majority of the others, and its sealed orders still count', () => {
    const game = turkeyNeverFinalizes();
    const v = view(game);
    expect(v.current?.revealDeadline).toBe(REVEAL_DEADLINE);
    expect(timeoutsDue(v, 'austria', REVEAL_DEADLINE - 1)).toEqual([]);
    expect(timeoutsDue(v, 'austria', REVEAL_DEADLINE)).toEqual(['turkey']);
    const early = ['austria', 'england', 'france', 'germany'].map((p) => vote(game, p as Power, ['turkey'], REVEAL_DEADLINE - 1));
    const within = view(game, [...game.log, ...early]);
    expect(within.phases).toHaveLength(0);
    expect(within.ignored.filter((i) => i.reason === 'timeout-before-deadline')).toHaveLength(4);
    for (const p of ['austria', 'england', 'france', 'germany'] as Power[]) game.log.push(vote(game, p, ['turkey'], REVEAL_DEADLINE + 5));
    expect(view(game).current?.timedOut).toEqual(['turkey']);
    const after = settlePhase(game, REVEAL_DEADLINE + 6, { silent: ['turkey'] });
    expect(after.phases).toHaveLength(1);
    const spring = after.phases[0]!;
    expect(spring.timedOut).toEqual(['turkey']);
    // Its commit was escrowed: the others opened it, so its (empty) orders were played, not civil disorder.
    expect(spring.civilDisorder).toEqual([]);
    expect(spring.commits.turkey).toBe(game.byPower.turkey.commits.get('1901-spring-movement')![0]);
    expect(after.current?.key).toBe('1901-fall-movement');
    expect(after.current?.required).toContain('turkey');
    // A late step from Turkey's phone does not reopen the closed phase.
    game.log.push(game.byPower.turkey.final(game.gameId, v, DEADLINE + 10).bytes);
    expect(stateOf(view(game))).toEqual(stateOf(after));
  });

  it('cannot be timed out by one player alone, however late', () => {
    const game = turkeyNeverFinalizes();
    const before = view(game);
    game.log.push(vote(game, 'russia', ['turkey'], REVEAL_DEADLINE + 100 * HOUR));
    const after = view(game);
    expect(after.phases).toHaveLength(0);
    expect(after.current?.timedOut).toEqual([]);
    expect(after.current?.timeoutVotes.turkey).toEqual([game.byPower.russia.me.id]);
    expect(stateOf({ ...after, current: undefined })).toEqual(stateOf({ ...before, current: undefined }));
  });

  it('cannot be timed out before the deadline that applies, even by everyone else', () => {
    const game = turkeyNeverFinalizes();
    for (const p of POWERS.filter((x) => x !== 'turkey')) game.log.push(vote(game, p, ['turkey'], REVEAL_DEADLINE - 1));
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
});

describe('a player who never seals', () => {
  it('is timed out only after the orders deadline (not the reveal stage), then the others finish and the phase closes', () => {
    const game = startedGame(13);
    let v = view(game);
    for (const p of POWERS.filter((x) => x !== 'italy')) game.log.push(game.byPower[p].commit(game.gameId, v, [], SEALED).bytes);
    v = settlePhase(game, SEALED + 1);
    expect(v.current?.ballot.stage).toBe('orders');
    expect(v.current?.revealDeadline).toBe(DEADLINE + HOUR);
    expect(timeoutsDue(v, 'france', DEADLINE - 1)).toEqual([]);
    expect(timeoutsDue(v, 'france', DEADLINE)).toEqual(['italy']);
    // Votes in the reveal stage's window (after everyone else sealed, before the orders deadline) do not count.
    for (const p of ['austria', 'england', 'france', 'germany'] as Power[]) game.log.push(vote(game, p, ['italy'], REVEAL_DEADLINE + 1));
    expect(view(game).current?.timedOut).toEqual([]);
    for (const p of ['austria', 'england', 'france', 'germany'] as Power[]) game.log.push(vote(game, p, ['italy'], DEADLINE));
    v = view(game);
    expect(v.current?.timedOut).toEqual(['italy']);
    v = settlePhase(game, DEADLINE + 1);
    expect(v.phases[0]?.civilDisorder).toEqual(['italy']);
    expect(v.current?.key).toBe('1901-fall-movement');
  });
});

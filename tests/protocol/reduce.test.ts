import { describe, expect, it } from 'vitest';
import { adjudicate, POWERS, STARTING_POSITION } from '../../src/rules';
import { stateHash } from '../../src/protocol';
import { playPhase, randomPhaseOrders, rng, settlePhase, startedGame, T0, view } from './helpers';

describe('reduceLog on an honest game', () => {
  it('starts in Spring 1901 with all seven powers awaited', () => {
    const game = startedGame();
    const v = view(game);
    expect(v.status).toBe('playing');
    expect(v.ignored).toEqual([]);
    expect(v.current?.key).toBe('1901-spring-movement');
    expect(v.current?.required).toEqual([...POWERS]);
    expect(v.position).toEqual(STARTING_POSITION);
    expect(v.roster?.france).toBe(game.byPower.france.me.id);
  });

  it('adjudicates a phase once every power has committed and revealed, exactly as the engine does', () => {
    const game = startedGame();
    const r = rng(7);
    const orders = randomPhaseOrders(view(game), r.int);
    const v = playPhase(game, orders, T0 + 1000);
    expect(v.ignored).toEqual([]);
    expect(v.phases).toHaveLength(1);
    const direct = adjudicate(
      STARTING_POSITION,
      POWERS.flatMap((p) => orders[p] ?? []),
      { civilDisorder: [] },
    );
    expect(v.phases[0]!.results).toEqual(direct.results);
    expect(v.position).toEqual(direct.next);
    expect(v.stateHash).toBe(stateHash(direct.next));
    expect(v.phases[0]!.orders).toEqual(orders);
    expect(v.current?.key).toBe('1901-fall-movement');
  });

  it('waits while one power has committed but its phone has not taken the automatic steps', () => {
    const game = startedGame();
    let v = view(game);
    for (const p of POWERS) game.log.push(game.byPower[p].commit(game.gameId, v, [], T0 + 10).bytes);
    v = view(game);
    expect(v.current?.committed).toEqual([...POWERS]);
    v = settlePhase(game, T0 + 20, { silent: ['austria'] });
    expect(v.phases).toHaveLength(0);
    expect(v.current?.finalized).toEqual(POWERS.slice(1));
    expect(v.current?.ballot.stage).toBe('final');
    expect(v.current?.ballot.waiting).toEqual([game.byPower.austria.me.id]);
  });

  it('opens the orders of a phone that locked and then withheld its reveal from the other players’ escrow shares', () => {
    const game = startedGame();
    const r = rng(8);
    const orders = randomPhaseOrders(view(game), r.int);
    let v = view(game);
    for (const p of POWERS) game.log.push(game.byPower[p].commit(game.gameId, v, orders[p] ?? [], T0 + 10).bytes);
    v = settlePhase(game, T0 + 20, { hold: ['austria'] });
    expect(v.phases).toHaveLength(1);
    expect(v.phases[0]!.orders.austria).toEqual(orders.austria);
    expect(v.current?.ballot.reveals[game.byPower.austria.me.id]).toBeUndefined();
  });
});

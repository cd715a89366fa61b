// Secret draw votes: a power's vote is sealed inside its movement orders (draw: true), so it is
// fixed by the same FINAL and blind LOCKs, escrowed and padded like the orders, and opened with them.
import { describe, expect, it } from 'vitest';
import { POWERS, type Power } from '../../src/rules';
import { finalOrders, sealCommit } from '../../src/protocol';
import { payloadOf, settlePhase, startedGame, T0, view, type Game } from './helpers';

const sealedOf = (bytes: Uint8Array) => payloadOf(bytes).sealed as string;

/** Every power seals its (empty) orders with a vote: `yes` of the power. */
function voteAll(game: Game, yes: (p: Power) => boolean, time = T0 + 50): void {
  const v = view(game);
  for (const p of POWERS) game.log.push(game.byPower[p].commit(game.gameId, v, [], time, yes(p)).bytes);
}

describe('secret draw votes', () => {
  it('a yes and a no seal to the same length, and neither shows in the commit', () => {
    const game = startedGame(61);
    const v = view(game);
    const yes = game.byPower.austria.commit(game.gameId, v, [], T0 + 50, true);
    const no = game.byPower.austria.commit(game.gameId, v, [], T0 + 50, false);
    expect(sealedOf(yes.bytes).length).toBe(sealedOf(no.bytes).length);
    const text = JSON.stringify(payloadOf(yes.bytes));
    expect(text).not.toContain('draw');
    expect(text).not.toContain('true');
  });

  it('nothing is tallied while the phase is open; once it closes the votes are shown with the orders', () => {
    const game = startedGame(62);
    voteAll(game, (p) => p !== 'austria');
    const open = settlePhase(game, T0 + 60, { silent: ['turkey'] });
    expect(open.phases).toHaveLength(0);
    expect(open.current?.drawVoters).toEqual([...POWERS]);
    expect(JSON.stringify(open.current)).not.toContain('drawVotes');
    const closed = settlePhase(game, T0 + 70);
    expect(closed.status).toBe('playing');
    expect(closed.phases[0]!.drawVotes).toEqual(POWERS.filter((p) => p !== 'austria'));
  });

  it('changing a vote after the FINAL does not count', () => {
    const game = startedGame(63);
    voteAll(game, (p) => p !== 'turkey');
    // Everyone finalizes and locks; before any reveal Turkey re-seals a yes and signs a second FINAL
    // for it: the blind LOCKs already named its first.
    settlePhase(game, T0 + 60, { hold: [...POWERS] });
    const turkey = game.byPower.turkey;
    const again = turkey.commit(game.gameId, view(game), [], T0 + 80, true);
    game.log.push(again.bytes);
    game.log.push(finalOrders(turkey.me, game.gameId, '1901-spring-movement', 'turkey', again.id, turkey.stamp(T0 + 81)).bytes);
    const after = settlePhase(game, T0 + 90);
    expect(after.status).toBe('playing');
    expect(after.phases[0]!.drawVotes).toEqual(POWERS.filter((p) => p !== 'turkey'));
  });

  it('a vote sealed by another key for a power is ignored', () => {
    const game = startedGame(64);
    const v = view(game);
    const england = game.byPower.england;
    const forged = sealCommit(england.me, game.gameId, v, 'france', [], england.sealRandom(), england.stamp(T0 + 40), { draw: true }).message;
    game.log.push(forged.bytes);
    expect(view(game).ignored).toContainEqual({ id: forged.id, reason: 'not-your-power' });
    expect(view(game).current?.committed).toEqual([]);
  });

  it('every survivor yes ends the game in a draw at that phase, unadjudicated', () => {
    const game = startedGame(65);
    voteAll(game, () => true);
    const v = settlePhase(game, T0 + 60);
    expect(v.status).toBe('finished');
    expect(v.result).toEqual({ kind: 'draw', winners: [...POWERS], phase: '1901-spring-movement' });
    expect(v.phases).toHaveLength(0);
  });
});

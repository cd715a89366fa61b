import { describe, expect, it } from 'vitest';
import { POWERS, type Power } from '../../src/rules';
import { acknowledge, concede, drawRevealDue, openChat, reduceLog, revealDraw, sealChat, sendChat, voteDraw } from '../../src/protocol';
import { playPhase, rng, startedGame, T0, view, type Game } from './helpers';

const PHASE = '1901-spring-movement';
const draw = (game: Game, p: Power, yes: boolean, time = T0 + 50) =>
  voteDraw(game.byPower[p].me, game.gameId, PHASE, p, yes, game.byPower[p].stamp(time)).bytes;

describe('how a game ends', () => {
  it('a draw needs every surviving power to vote yes, and the votes open only once all have voted', () => {
    const game = startedGame(51);
    for (const p of POWERS.slice(0, 6)) game.log.push(draw(game, p, true));
    let v = view(game);
    expect(v.status).toBe('playing');
    expect(v.current?.drawCommitted).toEqual(POWERS.slice(0, 6));
    expect(v.current?.drawVotes).toEqual([]);
    expect(drawRevealDue(v, 'austria')).toBe(false);
    game.log.push(draw(game, 'turkey', true));
    v = view(game);
    expect(v.status).toBe('playing');
    for (const p of POWERS) expect(drawRevealDue(v, p)).toBe(true);
    const reveals = POWERS.map((p) => revealDraw(game.byPower[p].me, game.gameId, v.current!, p, game.byPower[p].stamp(T0 + 70)).bytes);
    expect(view(game, [...game.log, ...reveals.slice(1)]).current?.drawVotes).toEqual([]);
    const drawn = view(game, [...game.log, ...reveals]);
    expect(drawn.status).toBe('finished');
    expect(drawn.result).toEqual({ kind: 'draw', winners: [...POWERS], phase: PHASE });
  });

  it('one "no" among the opened votes leaves the game going and shows the tally', () => {
    const game = startedGame(56);
    for (const p of POWERS) game.log.push(draw(game, p, p !== 'austria'));
    const v = view(game);
    for (const p of POWERS) game.log.push(revealDraw(game.byPower[p].me, game.gameId, v.current!, p, game.byPower[p].stamp(T0 + 70)).bytes);
    const after = view(game);
    expect(after.status).toBe('playing');
    expect(after.current?.drawRevealed).toEqual([...POWERS]);
    expect(after.current?.drawVotes).toEqual(POWERS.filter((p) => p !== 'austria'));
  });

  it('a conceding power stops being awaited and its units hold; the last one standing wins', () => {
    const game = startedGame(52);
    const c = concede(game.byPower.italy.me, game.gameId, PHASE, 'italy', game.byPower.italy.stamp(T0 + 10));
    game.log.push(c.bytes);
    let v = view(game);
    expect(v.current?.required).not.toContain('italy');
    v = playPhase(game, {}, T0 + 100);
    expect(v.phases[0]!.civilDisorder).toContain('italy');
    expect(v.current?.required).not.toContain('italy');
    const rest = POWERS.filter((p) => p !== 'italy' && p !== 'turkey');
    for (const p of rest) game.log.push(concede(game.byPower[p].me, game.gameId, v.current!.key, p, game.byPower[p].stamp(T0 + 200)).bytes);
    v = view(game);
    expect(v.result).toEqual({ kind: 'concession', winners: ['turkey'], phase: '1901-fall-movement' });
  });

  it('a short game ends after the agreed year with the power holding most units', () => {
    const game = startedGame(53, { endYear: 1901 });
    let v = playPhase(game, {}, T0 + 100);
    v = playPhase(game, {}, T0 + 200);
    expect(v.status).toBe('finished');
    expect(v.result).toEqual({ kind: 'short-game', winners: ['russia'], phase: '1901-fall-movement' });
    expect(v.current).toBeUndefined();
  });

  it('a power reaching the victory threshold wins (variant threshold of 4 centres: Russia at the start)', () => {
    const game = startedGame(54, { rules: { victoryCentres: 4 } });
    const v = playPhase(game, {}, T0 + 100);
    expect(v.result).toEqual({ kind: 'victory', winners: ['russia'], phase: PHASE });
    expect(v.status).toBe('finished');
  });
});

describe('chat and acknowledgements', () => {
  it('chat opens only for its recipients and the sender', () => {
    const game = startedGame(55);
    const [a, b, c] = [game.byPower.austria, game.byPower.england, game.byPower.france];
    const r = rng(9);
    const sealed = sealChat('¿Alianza contra Rusia?', a.me, [{ key: b.me.id, box: b.me.boxPublicKey }], r.bytes(32), r.bytes(24));
    const msg = sendChat(a.me, game.gameId, sealed, a.stamp(T0 + 5));
    game.log.push(msg.bytes);
    expect(openChat(sealed, a.me.boxPublicKey, b.me)).toBe('¿Alianza contra Rusia?');
    expect(openChat(sealed, a.me.boxPublicKey, a.me)).toBe('¿Alianza contra Rusia?');
    expect(openChat(sealed, a.me.boxPublicKey, c.me)).toBeNull();
    expect(new TextDecoder().decode(msg.bytes)).not.toContain('Alianza');
    const v = view(game);
    expect(v.chats).toEqual([{ id: msg.id, from: a.me.id, time: T0 + 5, recipients: [a.me.id, b.me.id].sort() }]);
  });

  it('an ACK with another state hash is shown as a mismatch, a matching one is not', () => {
    const game = startedGame(56);
    const v = playPhase(game, {}, T0 + 100);
    const good = v.phases[0]!.stateHash;
    game.log.push(acknowledge(game.byPower.germany.me, game.gameId, PHASE, good, game.byPower.germany.stamp(T0 + 200)).bytes);
    expect(view(game).hashMismatches).toEqual([]);
    game.log.push(acknowledge(game.byPower.russia.me, game.gameId, PHASE, '0'.repeat(32), game.byPower.russia.stamp(T0 + 200)).bytes);
    expect(reduceLog(game.gameId, game.log).hashMismatches).toEqual([{ phase: PHASE, author: game.byPower.russia.me.id, claimed: '0'.repeat(32), expected: good }]);
  });
});

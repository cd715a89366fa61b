import { describe, expect, it } from 'vitest';
import { POWERS, type Power } from '../../src/rules';
import { acknowledge, chatPlayers, concede, openChat, reduceLog, sealChat, sendChat } from '../../src/protocol';
import { playPhase, rng, settlePhase, startedGame, T0, view, type Game } from './helpers';

const PHASE = '1901-spring-movement';
/** Every power seals (empty orders) with its draw vote. */
const sealVotes = (game: Game, yes: (p: Power) => boolean) => {
  const v = view(game);
  for (const p of POWERS) game.log.push(game.byPower[p].commit(game.gameId, v, [], T0 + 50, yes(p)).bytes);
};

describe('how a game ends', () => {
  it('a draw needs every surviving power to vote yes, and the votes open only with the orders', () => {
    const game = startedGame(51);
    sealVotes(game, () => true);
    // Six phones take their steps; Turkey's does nothing yet: no vote is readable, the game goes on.
    let v = settlePhase(game, T0 + 60, { silent: ['turkey'] });
    expect(v.status).toBe('playing');
    expect(v.current?.ballot.reveals).toEqual({});
    v = settlePhase(game, T0 + 70);
    expect(v.status).toBe('finished');
    expect(v.result).toEqual({ kind: 'draw', winners: [...POWERS], phase: PHASE });
  });

  it('one "no" among the opened votes leaves the game going and shows the tally', () => {
    const game = startedGame(56);
    sealVotes(game, (p) => p !== 'austria');
    const after = settlePhase(game, T0 + 60);
    expect(after.status).toBe('playing');
    expect(after.phases[0]!.drawVotes).toEqual(POWERS.filter((p) => p !== 'austria'));
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
    playPhase(game, {}, T0 + 100);
    const v = playPhase(game, {}, T0 + 200);
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
  it('chat opens only for its recipients and the sender, and the log shows neither recipients nor time', () => {
    const game = startedGame(55);
    const [a, b, c] = [game.byPower.austria, game.byPower.england, game.byPower.france];
    const r = rng(9);
    const sealed = sealChat({ to: [b.me.id], text: '¿Alianza contra Rusia?', time: T0 + 5 }, a.me, chatPlayers(view(game)), r.bytes);
    const msg = sendChat(a.me, game.gameId, sealed, a.seq++);
    game.log.push(msg.bytes);
    expect(openChat(sealed, a.me.boxPublicKey, b.me)).toEqual({ to: [b.me.id], text: '¿Alianza contra Rusia?', time: T0 + 5 });
    expect(openChat(sealed, a.me.boxPublicKey, a.me)?.text).toBe('¿Alianza contra Rusia?');
    expect(openChat(sealed, a.me.boxPublicKey, c.me)).toBeNull();
    expect(new TextDecoder().decode(msg.bytes)).not.toContain('Alianza');
    expect(Object.keys(sealed.keys).sort()).toEqual(game.phones.map((p) => p.me.id).sort());
    const v = view(game);
    expect(v.chats).toEqual([{ id: msg.id, from: a.me.id, box: { keys: sealed.keys, nonce: sealed.nonce, sealed: sealed.sealed } }]);
  });

  it('an ACK with another state hash is shown as a mismatch, a matching one is not', () => {
    const game = startedGame(56);
    const v = playPhase(game, {}, T0 + 100);
    const good = v.phases[0]!.stateHash;
    game.log.push(acknowledge(game.byPower.germany.me, game.gameId, PHASE, good, game.byPower.germany.stamp(T0 + 200)).bytes);
    expect(view(game).hashMismatches).toEqual([]);
    game.log.push(acknowledge(game.byPower.russia.me, game.gameId, PHASE, '0'.repeat(32), game.byPower.russia.stamp(T0 + 200)).bytes);
    expect(reduceLog(game.gameId, game.log).hashMismatches).toEqual([
      { phase: PHASE, author: game.byPower.russia.me.id, claimed: '0'.repeat(32), expected: good },
    ]);
  });
});

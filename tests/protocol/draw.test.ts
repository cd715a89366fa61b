// Adversarial tests for secret draw votes: commit (hash with a secret salt), then reveal once
// every surviving power has committed.
import { describe, expect, it } from 'vitest';
import { POWERS, type Power } from '../../src/rules';
import { canonicalText, createIdentity, drawRevealDue, revealDraw, signMessage, voteDraw, type GameView } from '../../src/protocol';
import { startedGame, T0, view, type Game } from './helpers';

const PHASE = '1901-spring-movement';
const vote = (game: Game, p: Power, yes: boolean, time = T0 + 50) => voteDraw(game.byPower[p].me, game.gameId, PHASE, p, yes, game.byPower[p].stamp(time));
const reveal = (game: Game, v: GameView, p: Power, time = T0 + 70) => revealDraw(game.byPower[p].me, game.gameId, v.current!, p, game.byPower[p].stamp(time));
const payloadOf = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes.subarray(64))) as Record<string, unknown>;

describe('secret draw votes', () => {
  it('a committed vote does not show what was voted: yes and no look alike and the view shows only who voted', () => {
    const game = startedGame(61);
    const yes = payloadOf(vote(game, 'austria', true).bytes);
    const no = payloadOf(vote(game, 'england', false).bytes);
    expect(Object.keys(yes).sort()).toEqual(Object.keys(no).sort());
    expect(canonicalText(yes)).not.toContain('true');
    expect(canonicalText(no)).not.toContain('false');
    game.log.push(vote(game, 'austria', true).bytes, vote(game, 'england', false).bytes);
    const v = view(game);
    expect(v.current?.drawCommitted).toEqual(['austria', 'england']);
    expect(v.current?.drawVotes).toEqual([]);
  });

  it('a reveal sent before every survivor has committed is ignored, and the vote stays unread', () => {
    const game = startedGame(62);
    for (const p of POWERS.slice(0, 6)) game.log.push(vote(game, p, true).bytes);
    const early = reveal(game, view(game), 'austria');
    game.log.push(early.bytes);
    const v = view(game);
    expect(v.ignored).toContainEqual({ id: early.id, reason: 'draw-reveal-before-all-committed' });
    expect(v.current?.drawRevealed).toEqual([]);
  });

  it('changing a vote after reading another power\'s reveal does not count', () => {
    const game = startedGame(63);
    for (const p of POWERS) game.log.push(vote(game, p, p !== 'turkey').bytes);
    const v = view(game);
    for (const p of POWERS.filter((x) => x !== 'turkey')) game.log.push(reveal(game, v, p).bytes);
    // Turkey saw six "yes" votes and switches to yes, then reveals with its own lock on the new vote.
    game.log.push(vote(game, 'turkey', true, T0 + 80).bytes);
    const switched = view(game);
    expect(switched.current?.drawHeads.turkey).not.toBe(v.current?.drawHeads.turkey);
    game.log.push(reveal(game, switched, 'turkey', T0 + 90).bytes);
    const after = view(game);
    expect(after.status).toBe('playing');
    expect(after.current?.drawVotes).toEqual(POWERS.filter((p) => p !== 'turkey'));
  });

  it('a forged vote or reveal is ignored: another key signing for a power, or a salt that does not open', () => {
    const game = startedGame(64);
    const intruder = createIdentity(new Uint8Array(32).fill(9), new Uint8Array(32).fill(8));
    const forged = voteDraw(intruder, game.gameId, PHASE, 'france', true, { seq: 0, time: T0 + 40 });
    game.log.push(forged.bytes);
    expect(view(game).current?.drawCommitted).toEqual([]);
    expect(view(game).ignored).toContainEqual({ id: forged.id, reason: 'not-your-power' });

    // A reveal signed by Austria with a salt that is not its own opens nothing.
    for (const p of POWERS) game.log.push(vote(game, p, true).bytes);
    const v = view(game);
    const a = game.byPower.austria;
    const badSalt = signMessage(a.me, {
      type: 'draw-reveal', game: game.gameId, ...a.stamp(T0 + 60), phase: PHASE, power: 'austria', salt: 'A'.repeat(43), lock: { ...v.current!.drawHeads },
    });
    game.log.push(badSalt);
    const after = view(game);
    expect(after.ignored.map((i) => i.reason)).toContain('draw-reveal-does-not-open');
    expect(after.current?.drawRevealed).toEqual([]);
    expect(drawRevealDue(after, 'austria')).toBe(true);
  });

  it('a power without units cannot vote, and is not needed for the draw', () => {
    const game = startedGame(65);
    const v0 = view(game);
    expect(v0.current?.drawVoters).toEqual([...POWERS]);
  });
});

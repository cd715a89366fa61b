// Adversarial review of finalDueOnSeal (client.ts; the last seal's burst sends the FINAL it says is
// due with the commit): with a power timed out before it sealed, the FINAL of each seal must be due
// exactly when ballotDuties says so once the commit is in (the timed-out power is not awaited, so
// the last of the others' seals is the last seal), and a late seal of the timed-out power itself
// never makes its FINAL due (no FINAL for a slot that is not awaited, which every phone would
// ignore as `final-for-slot-not-awaited`).
import { describe, expect, it } from 'vitest';
import { ballotDuties, finalDueOnSeal, voteTimeout } from '../../src/protocol';
import { POWERS, type Power } from '../../src/rules';
import { HOUR, startedGame, T0, view } from './helpers';

const DEADLINE = T0 + 3 + 24 * HOUR;

describe('finalDueOnSeal with a power timed out before it sealed', () => {
  it('each seal predicts the FINALs ballotDuties finds due after it, marked ready or not; the timed-out power’s late seal never', () => {
    const game = startedGame(1803);
    const phase = view(game).current!.key;
    // Turkey never seals; after the orders deadline four of the six others vote it out.
    for (const p of ['austria', 'england', 'france', 'germany'] as Power[]) {
      const phone = game.byPower[p];
      game.log.push(voteTimeout(phone.me, game.gameId, phase, ['turkey'], phone.stamp(DEADLINE + 5)).bytes);
    }
    expect(view(game).current!.timedOut).toEqual(['turkey']);
    const others = POWERS.filter((p) => p !== 'turkey');
    let due = 0;
    for (const [i, p] of others.entries()) {
      const phone = game.byPower[p];
      const ready = i % 2 === 0 ? { ready: phase } : {};
      const before = view(game);
      const predicted = finalDueOnSeal(before, phone.me.id, p, ready);
      game.log.push(phone.commit(game.gameId, before, [], DEADLINE + 10 + i).bytes);
      const after = view(game);
      expect(predicted, `${p}`).toBe(ballotDuties(after, phone.me.id, ready).finals.includes(p));
      if (predicted) {
        due++;
        game.log.push(phone.final(game.gameId, after, DEADLINE + 20 + i).bytes);
      }
    }
    // The last of the six seals was the last seal (Turkey is not awaited); the ready ones were due at once.
    expect(due).toBeGreaterThanOrEqual(4);
    // Turkey's holder seals late: its FINAL is never due, before or after, ready or not.
    const turkey = game.byPower.turkey;
    for (const ready of [{}, { ready: phase }]) expect(finalDueOnSeal(view(game), turkey.me.id, 'turkey', ready)).toBe(false);
    game.log.push(turkey.commit(game.gameId, view(game), [], DEADLINE + 40).bytes);
    for (const ready of [{}, { ready: phase }]) expect(ballotDuties(view(game), turkey.me.id, ready).finals).toEqual([]);
  });
});

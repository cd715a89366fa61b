// Issue 12, attack 5: the clock. Property: no single player moves a phase's opening time or
// deadline past what the honest players' clocks say, timeouts are counted per distinct player,
// and in a two-player game neither side can time the other out before the deadline has passed by
// both sides' claims.
import { describe, expect, it } from 'vitest';
import type { Power } from '../../src/rules';
import { T0 } from './helpers';
import { powersHeld, reduceAs, sealAll, settle, table, voteOut, type Device, type Table } from './sealed-adapter';

const HOUR = 3_600_000;
const REAL = T0 + 50 * HOUR; // the honest clocks when the first phase closes

/** Everyone seals and reveals at REAL, except `liars`, whose phones claim the game's start time. */
function firstPhaseWithLiars(t: Table, liars: readonly Device[]): void {
  sealAll(t, t.devices, {}, REAL);
  settle(t, t.devices, REAL + 1, { clock: (d) => (liars.includes(d) ? T0 + 3 : undefined) });
}

const timedOutNow = (t: Table) => reduceAs(t, null).current?.timedOut ?? [];

describe('attack 5: nobody moves the clock', () => {
  it('two players: one side’s early claims do not pull the next phase’s opening before the other side’s, and its votes time nobody out', () => {
    const t = table({ seed: 501, variant: 'two-players' });
    const [liar, honest] = t.devices as [Device, Device];
    firstPhaseWithLiars(t, [liar]);
    const v = reduceAs(t, null);
    expect(v.phases).toHaveLength(1);
    expect.soft(v.current!.openedAt, 'the second phase opens no earlier than the honest side says the first one closed').toBeGreaterThanOrEqual(REAL);
    // The liar votes the honest side out at once, claiming any time it likes.
    const theirs = powersHeld(v, honest).filter((p) => v.current!.required.includes(p));
    for (const claim of [v.current!.deadline + 1, REAL + 1000 * HOUR]) voteOut(t, [liar], theirs, claim);
    expect(timedOutNow(t), 'the honest side has claimed no time past the deadline').toEqual([]);
  });

  it('seven powers, a colluding pair holding four of them: the opening time stays within the honest claims and the pair times nobody out', () => {
    const seats: Power[][] = [['austria', 'england'], ['france', 'germany'], ['italy'], ['russia'], ['turkey']];
    const t = table({ seed: 502, seats });
    const pair = t.devices.slice(0, 2);
    firstPhaseWithLiars(t, pair);
    const v = reduceAs(t, null);
    expect.soft(v.current!.openedAt).toBeGreaterThanOrEqual(REAL);
    // Italy is present but has not sealed yet; the pair (four powers, two players) votes it out.
    voteOut(t, pair, ['italy'], v.current!.deadline + 1);
    voteOut(t, pair, ['italy'], REAL + 1000 * HOUR);
    expect(timedOutNow(t), 'two players of five are no majority, however many powers they hold').toEqual([]);
  });

  it('timeouts are counted per distinct player: a player holding three powers and one accomplice are two votes of five', () => {
    const seats: Power[][] = [['austria', 'england', 'france'], ['germany'], ['italy'], ['russia'], ['turkey']];
    const t = table({ seed: 503, seats });
    const [triple, accomplice] = t.devices as [Device, Device];
    // Italy really is absent this phase; only the triple and its accomplice vote, after the deadline.
    sealAll(
      t,
      t.devices.filter((d) => d !== t.devices[2]),
      {},
      T0 + HOUR,
    );
    const v = reduceAs(t, null);
    voteOut(t, [triple, accomplice], ['italy'], v.current!.revealDeadline + HOUR);
    expect(timedOutNow(t)).toEqual([]);
    // Control: with one more player (three of the four others) Italy is timed out.
    voteOut(t, [t.devices[3]!], ['italy'], v.current!.revealDeadline + HOUR);
    expect(timedOutNow(t)).toEqual(['italy']);
  });
});

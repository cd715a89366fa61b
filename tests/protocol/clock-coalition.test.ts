// Issue 31, attacks 1 and 2: the clock against a coalition short of half the players, and against
// a REVEAL of a closed phase sent late. Every test has a colluding pair and a player holding
// several powers.
import { describe, expect, it } from 'vitest';
import { fork, honestSteps, powersHeld, reduceAs, sealAll, settle, table, voteOut, type Device, type Table } from './sealed-adapter';
import { DAY, FOUR, FUTURE, HOUR, pairAttack, REAL } from './clock-helpers';

const required = (t: Table, d: Device) => {
  const v = reduceAs(t, null);
  return powersHeld(v, d).filter((p) => v.current!.required.includes(p));
};

describe('attack 1: two of four players stall the game', () => {
  it('a pair claiming a time a hundred years ahead does not move the next deadline; the honest timeout votes a month later count', () => {
    const t = table({ seed: 3101, seats: FOUR });
    // The pair reveals first, every entry of theirs claiming a hundred years ahead.
    const { before: v, pair, honest } = pairAttack(t);
    expect(v.phases).toHaveLength(1);
    expect(v.current!.openedAt, 'the opening stays within the honest claims').toBeLessThanOrEqual(REAL + 2);
    expect(v.current!.deadline).toBeLessThanOrEqual(REAL + 2 + t.settings.deadlines.movement);
    // Fall: the pair does nothing; the honest players seal and, a month later, vote the pair out.
    sealAll(t, honest, {}, REAL + HOUR);
    const theirs = pair.flatMap((d) => required(t, d));
    voteOut(t, honest, theirs, REAL + 30 * DAY);
    expect(reduceAs(t, null).current!.timedOut).toEqual([...theirs].sort());
  });
});

describe('attack 2: a REVEAL sent after its phase closed', () => {
  it('a withholder’s old spring REVEAL claiming a hundred years ahead changes neither spring, nor fall’s clock, nor fall’s timeout', () => {
    const t = table({ seed: 3102, seats: FOUR });
    const [liar, withholder] = t.devices as [Device, Device];
    // Spring: everyone seals and locks; the withholder signs its REVEAL, claiming a hundred years
    // ahead, and keeps it back (what it could send at any time).
    sealAll(t, t.devices, {}, REAL);
    settle(t, t.devices, REAL + 1, { hold: t.devices, clock: (d) => (d === liar ? FUTURE : undefined) });
    const side = fork(t);
    const late = honestSteps(side, side.devices[1]!, FUTURE).map((m) => m.bytes);
    expect(late.length).toBeGreaterThan(0);
    // Spring closes on three REVEALs, the liar's first, claiming a hundred years ahead.
    settle(t, [liar], FUTURE);
    settle(t, t.devices.slice(2), REAL + 2);
    expect(reduceAs(t, null).phases).toHaveLength(1);
    // Fall: the withholder is absent and voted out; the others play on and the phase resolves.
    const others = t.devices.filter((d) => d !== withholder);
    sealAll(t, others, {}, REAL + HOUR);
    const target = required(t, withholder);
    voteOut(t, others, target, reduceAs(t, null).current!.deadline + HOUR);
    settle(t, others, reduceAs(t, null).current!.deadline + 2 * HOUR);
    const before = reduceAs(t, null);
    expect(before.phases).toHaveLength(2);
    // The old REVEAL arrives.
    t.log.push(...late);
    const after = reduceAs(t, null);
    expect(after.phases, 'resolved phases stay resolved').toHaveLength(2);
    expect(after.phases).toEqual(before.phases);
    expect(after.current!.openedAt).toBe(before.current!.openedAt);
    expect(after.current!.deadline).toBe(before.current!.deadline);
  });
});

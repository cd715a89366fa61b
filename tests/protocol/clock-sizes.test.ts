// Issue 31, the timing property: no set of players holding less than half of the distinct players
// moves a phase's opening time or deadline by more than that phase's own duration, whatever they
// claim, at every table size from 3 to 7 and under table-mode settings; and what exactly half can
// do. Each coalition holds several powers on one key.
import { describe, expect, it } from 'vitest';
import { TABLE_DEADLINE_MS } from '../../src/protocol';
import { POWERS, type Power } from '../../src/rules';
import { T0 } from './helpers';
import { powersHeld, reduceAs, sealAll, settle, table, voteOut, type Device, type Table } from './sealed-adapter';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const YEARS = 100 * 365 * DAY;
const REAL = T0 + 50 * HOUR;

/** The seven powers over n keys, round robin: key 0 holds at least two. */
function seatsFor(n: number): Power[][] {
  const seats: Power[][] = Array.from({ length: n }, () => []);
  POWERS.forEach((p, i) => seats[i % n]!.push(p));
  return seats;
}

type Lie = 'future' | 'past' | 'none';
interface Run {
  t: Table;
  coalition: Device[];
  honest: Device[];
  absent: Device | undefined;
  /** The opening and deadline of the second phase, and when the honest players signed their LOCKs. */
  opening: number;
  deadline: number;
  honestAt: number;
  /** When the first phase opened. */
  firstOpening: number;
}

/**
 * The first phase of an n-key game: `m` keys (device 0, holding several powers, among them) claim
 * `lie` in every entry; one more key is absent and voted out when `absent`; the coalition reveals
 * first.
 */
function firstPhase(n: number, m: number, lie: Lie, opts: { absent: boolean; tableMode: boolean; seed: number }): Run {
  const settings = opts.tableMode
    ? { deadlines: { movement: TABLE_DEADLINE_MS, retreat: TABLE_DEADLINE_MS, adjustment: TABLE_DEADLINE_MS, lot: TABLE_DEADLINE_MS } }
    : {};
  const t = table({ seed: opts.seed, seats: seatsFor(n), settings });
  const coalition = t.devices.slice(0, m);
  const absent = opts.absent ? t.devices[n - 1] : undefined;
  const honest = t.devices.filter((d) => !coalition.includes(d) && d !== absent);
  const present = [...coalition, ...honest];
  const firstOpening = reduceAs(t, null).current!.openedAt;
  const claim = (real: number) => (lie === 'future' ? real + YEARS : lie === 'past' ? 1 : real);
  const clock = (real: number) => (d: Device) => (coalition.includes(d) ? claim(real) : undefined);
  for (const d of present) sealAll(t, [d], {}, coalition.includes(d) ? claim(REAL) : REAL);
  let honestAt = REAL + 1;
  if (absent !== undefined) {
    const v = reduceAs(t, null);
    const theirs = powersHeld(v, absent).filter((p) => v.current!.required.includes(p));
    // Everyone present votes the absent key out an hour after the deadline (the coalition too: it gains by it).
    voteOut(t, present, theirs, v.current!.deadline + HOUR);
    expect(reduceAs(t, null).current!.timedOut).toEqual([...theirs].sort());
    honestAt = v.current!.deadline + 2 * HOUR;
  }
  settle(t, present, honestAt, { hold: present, clock: clock(honestAt) });
  settle(t, coalition, claim(honestAt));
  settle(t, honest, honestAt + 1);
  const v = reduceAs(t, null);
  expect(v.phases, 'the first phase resolved').toHaveLength(1);
  return { t, coalition, honest, absent, opening: v.current!.openedAt, deadline: v.current!.deadline, honestAt, firstOpening };
}

const required = (t: Table, ds: readonly Device[]) => {
  const v = reduceAs(t, null);
  return ds.flatMap((d) => powersHeld(v, d)).filter((p) => v.current!.required.includes(p));
};

const cases = [3, 4, 5, 6, 7]
  .flatMap((n) => (['future', 'past'] as const).flatMap((lie) => [false, true].map((absent) => ({ n, lie, absent }))))
  .filter(({ n, absent }) => !absent || n - (Math.ceil(n / 2) - 1) - 1 >= 2);

describe('timing: fewer than half of the keys move no opening or deadline by more than the phase’s duration', () => {
  for (const { n, lie, absent } of cases) {
    const m = Math.ceil(n / 2) - 1;
    it(`${n} keys, ${m} claiming ${lie === 'future' ? 'a hundred years ahead' : 'the epoch (1970)'}${absent ? ', one honest key absent and voted out' : ''}`, () => {
      const seed = 3110 + n * 10 + (lie === 'future' ? 0 : 5) + (absent ? 1 : 0);
      const run = firstPhase(n, m, lie, { absent, tableMode: false, seed });
      const control = firstPhase(n, m, 'none', { absent, tableMode: false, seed });
      const duration = run.t.settings.deadlines.movement;
      expect(Math.abs(run.opening - control.opening)).toBeLessThanOrEqual(duration);
      expect(Math.abs(run.deadline - control.deadline)).toBeLessThanOrEqual(duration);
      // Stronger: the opening is within what the honest side claimed (or the first deadline, for the absent key).
      expect(run.opening).toBeLessThanOrEqual(run.honestAt + 1);
      expect(run.opening).toBeGreaterThanOrEqual(Math.min(run.honestAt, control.opening - duration));
      // Fall: the coalition (and the absent key) do nothing; the honest players vote them out a day after the honest deadline.
      sealAll(run.t, run.honest, {}, run.honestAt + HOUR);
      const targets = required(run.t, [...run.coalition, ...(run.absent === undefined ? [] : [run.absent])]);
      voteOut(run.t, run.honest, targets, control.deadline + DAY);
      const current = reduceAs(run.t, null).current!;
      // Every honest vote counts (none is before the deadline) ...
      for (const p of targets) expect(current.timeoutVotes[p], p).toEqual(run.honest.map((d) => d.key).sort());
      // ... and times the coalition out wherever the honest keys are a quorum (with an absent key
      // among the others, two honest keys of five are not; the coalition's own vote then helps).
      if (run.absent === undefined || 2 * run.honest.length > n - 1) expect(current.timedOut).toEqual([...targets].sort());
      if (run.absent !== undefined) {
        voteOut(run.t, run.coalition, required(run.t, [run.absent]), control.deadline + DAY);
        expect(reduceAs(run.t, null).current!.timedOut).toContain(required(run.t, [run.absent])[0]);
      }
    });
  }
});

describe('timing at a table (no deadline, the reveal stage is the clock)', () => {
  for (const n of [3, 4, 5, 6, 7]) {
    const m = Math.ceil(n / 2) - 1;
    it(`${n} keys, ${m} claiming a hundred years ahead, then sealing and stopping: voted out once the reveal stage is over`, () => {
      const run = firstPhase(n, m, 'future', { absent: false, tableMode: true, seed: 3190 + n });
      expect(run.opening).toBeLessThanOrEqual(run.honestAt + 1);
      const later = run.honestAt + HOUR;
      sealAll(run.t, run.coalition, {}, later + YEARS);
      sealAll(run.t, run.honest, {}, later);
      const v = reduceAs(run.t, null);
      expect(v.current!.revealDeadline).toBeLessThanOrEqual(later + run.t.settings.deadlines.reveal);
      const targets = required(run.t, run.coalition);
      voteOut(run.t, run.honest, targets, later + HOUR);
      expect(reduceAs(run.t, null).current!.timedOut).toEqual([...targets].sort());
    });
  }
});

describe('exactly half of the keys', () => {
  for (const n of [4, 6]) {
    it(`${n} keys, ${n / 2} claiming a hundred years ahead: no later than the honest claims, and the honest half times it out; the epoch (1970): no earlier than the phase before opened`, () => {
      const ahead = firstPhase(n, n / 2, 'future', { absent: false, tableMode: false, seed: 3170 + n });
      expect(ahead.opening).toBeLessThanOrEqual(ahead.honestAt + 1);
      // The honest half is more than half of the others of any coalition key: it times the coalition out after the deadline.
      sealAll(ahead.t, ahead.honest, {}, ahead.honestAt + HOUR);
      const targets = required(ahead.t, ahead.coalition);
      voteOut(ahead.t, ahead.honest, targets, ahead.deadline + HOUR);
      expect(reduceAs(ahead.t, null).current!.timedOut).toEqual([...targets].sort());
      const back = firstPhase(n, n / 2, 'past', { absent: false, tableMode: false, seed: 3175 + n });
      expect(back.opening).toBeGreaterThanOrEqual(back.firstOpening);
    });
  }
});

describe('exactly half of the keys at a table (no deadline, the reveal stage is the clock)', () => {
  for (const n of [4, 6]) {
    it(`${n} keys, ${n / 2} claiming a hundred years ahead, then sealing and stopping: no later than the honest claims, and voted out once the reveal stage is over`, () => {
      const run = firstPhase(n, n / 2, 'future', { absent: false, tableMode: true, seed: 3180 + n });
      expect(run.opening).toBeLessThanOrEqual(run.honestAt + 1);
      const later = run.honestAt + HOUR;
      sealAll(run.t, run.coalition, {}, later + YEARS);
      sealAll(run.t, run.honest, {}, later);
      expect(reduceAs(run.t, null).current!.revealDeadline).toBeLessThanOrEqual(later + run.t.settings.deadlines.reveal);
      const targets = required(run.t, run.coalition);
      voteOut(run.t, run.honest, targets, later + HOUR);
      expect(reduceAs(run.t, null).current!.timedOut).toEqual([...targets].sort());
    });
  }
});

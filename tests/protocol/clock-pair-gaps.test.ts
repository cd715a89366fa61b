// Issue 31's residual, item 3: the clock gaps that need a colluding pair (README.md "The clock and
// timeouts", *Residual*). Five keys: the pair (X holding two powers, Y one) is fewer than half, and
// an honest key holds two powers. Each test plays the gap to the end (a phase after the one the late
// entries are signed for has resolved) and checks what the late entries can still move: (a) an
// accomplice's late REVEAL naming a second LOCK of X; (b) a second acceptance of the START; (c) late
// TIMEOUT votes after a phase closed. What holds: no resolved phase's orders or state change, no
// opening or deadline moves by more than the phase's own duration, none leaves the honest keys' own
// claims, and a cold read in another order agrees. What remains (README.md): (a) and (b) move an
// opening within the honest claims after the fact; (c) adds played powers to a closed phase's
// timed-out list when honest votes against them were already there.
import { describe, expect, it } from 'vitest';
import { acceptStart, lockBallot, type GameView } from '../../src/protocol';
import type { Power } from '../../src/rules';
import { DAY, HOUR, REAL } from './clock-helpers';
import {
  fastSign,
  fork,
  honestSteps,
  opened,
  payloadOf,
  powersHeld,
  reduceAs,
  sealAll,
  settle,
  table,
  voteOut,
  type Device,
  type Table,
} from './sealed-adapter';

/** Five keys: X (two powers) and Y are the pair, the honest key at index 2 holds two powers too. */
const FIVE: Power[][] = [['austria', 'england'], ['france'], ['germany', 'italy'], ['russia'], ['turkey']];
/** The epoch and a hundred years ahead: the two ends a liar claims. */
const EPOCH = 1;
const FUTURE = REAL + 100 * 365 * DAY;

/** What a resolved phase played: its orders and the state they led to. */
const outcomesOf = (v: GameView) => v.phases.map((p) => ({ key: p.key, stateHash: p.stateHash, orders: p.orders, commits: p.commits }));
/** Every phase's opening and deadline, the open phase's last. */
const clocksOf = (v: GameView) => [...v.phases, ...(v.current === undefined ? [] : [v.current])].map((p) => ({ openedAt: p.openedAt, deadline: p.deadline }));

/** The property: nothing played changes, and no opening moves by more than its phase's duration or outside [low, high]. */
function bounded(before: GameView, after: GameView, low: number, high: number): number {
  expect(outcomesOf(after)).toEqual(outcomesOf(before));
  const a = clocksOf(after);
  const b = clocksOf(before);
  expect(a).toHaveLength(b.length);
  let moved = 0;
  b.forEach((x, i) => {
    const duration = x.deadline - x.openedAt;
    const shift = Math.abs(a[i]!.openedAt - x.openedAt);
    expect(shift).toBeLessThanOrEqual(duration);
    expect(a[i]!.deadline - a[i]!.openedAt).toBe(duration);
    if (shift > 0) expect(a[i]!.openedAt >= low && a[i]!.openedAt <= high).toBe(true);
    moved = Math.max(moved, shift);
  });
  return moved;
}

/** Spring's LOCK claims: the honest keys spread over five hours, the pair in between. */
function claimsOf(t: Table): Map<Device, number> {
  const [x, y, h1, h2, h3] = t.devices as [Device, Device, Device, Device, Device];
  return new Map([
    [h1, REAL + 1],
    [h2, REAL + 2 * HOUR],
    [x, REAL + 3 * HOUR],
    [y, REAL + 4 * HOUR],
    [h3, REAL + 5 * HOUR],
  ]);
}

/** Plays fall to its end (everyone seals and releases): returns the view with two phases resolved. */
function playFall(t: Table): GameView {
  const v = reduceAs(t, null);
  sealAll(t, t.devices, {}, v.current!.openedAt + HOUR);
  return settle(t, t.devices, v.current!.openedAt + 2 * HOUR);
}

describe('the clock gaps a colluding pair could use, at five keys (fewer than half)', () => {
  it('(a) an accomplice’s REVEAL, held back and sent after fall resolved, naming a second LOCK of X: no resolved phase changes, the opening stays within the honest claims', () => {
    for (const l2Claim of [EPOCH, FUTURE]) {
      const t = table({ seed: 3181, seats: FIVE });
      const [x, y] = t.devices as [Device, Device];
      const claims = claimsOf(t);
      sealAll(t, t.devices, {}, REAL);
      settle(t, t.devices, REAL, { hold: t.devices, clock: (d) => claims.get(d) });
      const firstLock = reduceAs(t, null).current!.ballot.locks[x.key]!;
      expect(firstLock).toHaveLength(1);
      // On the side: X's second LOCK, and Y's REVEAL naming it instead of the first.
      const side = fork(t);
      const sx = side.devices[0]!;
      const l2 = lockBallot(sx.me, t.gameId, reduceAs(side, sx), opened(side.log), sx.stamp(l2Claim));
      const honestReveal = honestSteps(side, side.devices[1]!, REAL + 4 * HOUR).find((m) => payloadOf(m.bytes).type === 'reveal')!;
      const body = payloadOf(honestReveal.bytes);
      const locks = (body.locks as string[]).map((id) => (id === firstLock[0] ? l2.id : id)).sort();
      expect(locks).toContain(l2.id);
      const lateReveal = fastSign(y.me, { ...body, locks } as never);
      // Spring closes without Y's REVEAL (its commit opens from the others' shares), fall resolves.
      settle(
        t,
        t.devices.filter((d) => d !== y),
        REAL + 6 * HOUR,
      );
      expect(reduceAs(t, null).phases).toHaveLength(1);
      const before = playFall(t);
      expect(before.phases).toHaveLength(2);
      const after = reduceAs(t, null, [...t.log, l2.bytes, lateReveal.bytes]);
      // Both entries are read: X's two LOCKs are both counted now (the late REVEAL names the second).
      const spring = after.phases[0]!.key;
      expect(after.ignored.filter((i) => i.id === l2.id || i.id === lateReveal.id)).toEqual([]);
      const honest = [...claims].filter(([d]) => d !== x && d !== y).map(([, c]) => c);
      const moved = bounded(before, after, Math.min(...honest), Math.max(...honest));
      // What the gap is worth today: fall's opening moves within the honest claims (an hour here).
      expect(moved).toBeLessThanOrEqual(Math.max(...honest) - Math.min(...honest));
      expect(spring).toBe(before.phases[0]!.key);
      // Cold, in another order, the same as live.
      const cold = reduceAs(t, null, [l2.bytes, lateReveal.bytes, ...t.log].reverse());
      expect(outcomesOf(cold)).toEqual(outcomesOf(after));
      expect(clocksOf(cold)).toEqual(clocksOf(after));
    }
  });

  it('(b) a second acceptance of the START by each of the pair (one holding two powers), claiming the epoch or a hundred years on, after fall resolved: nothing played changes, the opening stays within the honest claims', () => {
    for (const claim of [EPOCH, FUTURE]) {
      const t = table({ seed: 3182, seats: FIVE });
      // The creator (index 0) is honest here: its claim is the START's, which it cannot sign twice unseen.
      const [x, y] = [t.devices[2]!, t.devices[1]!];
      const start = opened(t.log).get(t.startId)!;
      const spring = reduceAs(t, null);
      sealAll(t, t.devices, {}, spring.current!.openedAt + HOUR);
      settle(t, t.devices, spring.current!.openedAt + 2 * HOUR);
      const before = playFall(t);
      expect(before.phases).toHaveLength(2);
      const late = [x, y].map((d) => acceptStart(d.me, t.gameId, start, d.stamp(claim)).bytes);
      const after = reduceAs(t, null, [...t.log, ...late]);
      // The honest claims of the first opening: the START's and the honest members' acceptances.
      const honest = [...opened(t.log).values()]
        .filter((m) => m.id === t.startId || (m.payload.type === 'ack' && m.payload.phase === 'start' && m.payload.from !== x.key && m.payload.from !== y.key))
        .map((m) => m.payload.time);
      bounded(before, after, Math.min(...honest), Math.max(...honest));
      const cold = reduceAs(t, null, [...late, ...t.log].reverse());
      expect(clocksOf(cold)).toEqual(clocksOf(after));
    }
  });

  it('(c) late TIMEOUT votes of the pair (and of an honest key) for a phase that closed: nothing resolved changes', () => {
    const t = table({ seed: 3183, seats: FIVE });
    const [x, y, h1] = t.devices as [Device, Device, Device];
    const spring = reduceAs(t, null);
    sealAll(t, t.devices, {}, spring.current!.openedAt + HOUR);
    settle(t, t.devices, spring.current!.openedAt + 2 * HOUR);
    // The votes are signed on a fork still in spring, against the honest powers, past its deadline.
    const side = fork(t, []);
    side.log = side.log.slice(
      0,
      side.log.findIndex((b) => payloadOf(b).type === 'reveal'),
    );
    const sv = reduceAs(side, null);
    expect(sv.phases).toHaveLength(0);
    const targets = t.devices.slice(2).flatMap((d) => powersHeld(sv, d));
    const votes = voteOut(side, side.devices.slice(0, 2), targets, sv.current!.deadline + DAY);
    const honestVote = voteOut(side, [side.devices[3]!], powersHeld(sv, h1), sv.current!.deadline + DAY);
    const before = playFall(t);
    expect(before.phases).toHaveLength(2);
    const late = [...votes, ...honestVote].map((v) => v.bytes);
    const after = reduceAs(t, null, [...t.log, ...late]);
    // Nothing played and no clock moves at all.
    expect(bounded(before, after, 0, 0)).toBe(0);
    expect(clocksOf(after)).toEqual(clocksOf(before));
    // What remains: the honest key's powers, played, are now listed as timed out in spring (README).
    const added = after.phases[0]!.timedOut.filter((p) => !before.phases[0]!.timedOut.includes(p));
    expect(added.every((p) => before.phases[0]!.orders[p] !== undefined && powersHeld(sv, h1).includes(p))).toBe(true);
    expect([x, y].every((d) => powersHeld(sv, d).every((p) => !added.includes(p)))).toBe(true);
    const cold = reduceAs(t, null, [...late, ...t.log].reverse());
    expect(outcomesOf(cold)).toEqual(outcomesOf(after));
    expect(clocksOf(cold)).toEqual(clocksOf(after));
  });
});

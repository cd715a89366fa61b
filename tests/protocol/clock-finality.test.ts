// Issue 31, finality of the clock: once a phase has resolved, no entry signed for it (a held-back
// REVEAL, a second LOCK), whenever it arrives, changes that phase, the clock of the phases after it
// or a vote counted after it; a phone that reads the log from scratch agrees with one that followed
// it live, whatever the arrival order. A colluding pair (the liar and the withholder) each hold two
// powers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Power } from '../../src/rules';
import { canonicalEncode, lockBallot, reduceLog, voteTimeout, type GameView } from '../../src/protocol';
import { T0 } from './helpers';
import { fork, honestSteps, nativeVerifier, opened, powersHeld, reduceAs, sealAll, settle, table, voteOut, type Device } from './sealed-adapter';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const REAL = T0 + 50 * HOUR;
const FUTURE = REAL + 100 * 365 * DAY;
const FOUR: Power[][] = [['austria', 'england'], ['france', 'germany'], ['italy', 'russia'], ['turkey']];

/**
 * Spring closes on three REVEALs (the liar's claiming a hundred years ahead); the withholder keeps
 * its REVEAL (claiming `late.reveal`) and the liar a second LOCK (claiming `late.lock`); in fall the
 * withholder is voted out and the phase resolves. Returns the log from spring's close on, the
 * lobby and spring before it, and the two held entries.
 */
function scenario(seed: number, late: { reveal: number; lock: number }) {
  const t = table({ seed, seats: FOUR });
  const [liar, withholder] = t.devices as [Device, Device];
  sealAll(t, t.devices, {}, REAL);
  settle(t, t.devices, REAL + 1, { hold: t.devices, clock: (d) => (d === liar ? FUTURE : undefined) });
  const side = fork(t);
  const reveal = honestSteps(side, side.devices[1]!, late.reveal).map((m) => m.bytes);
  const sideLiar = side.devices[0]!;
  const lock = lockBallot(sideLiar.me, t.gameId, reduceAs(side, sideLiar), opened(side.log), sideLiar.stamp(late.lock)).bytes;
  settle(t, [liar], FUTURE);
  settle(t, t.devices.slice(2), REAL + 2);
  const closedAt = t.log.length;
  expect(reduceAs(t, null).phases).toHaveLength(1);
  const others = t.devices.filter((d) => d !== withholder);
  sealAll(t, others, {}, REAL + HOUR);
  const v = reduceAs(t, null);
  const target = powersHeld(v, withholder).filter((p) => v.current!.required.includes(p));
  voteOut(t, others, target, v.current!.deadline + HOUR);
  settle(t, others, v.current!.deadline + 2 * HOUR);
  expect(reduceAs(t, null).phases).toHaveLength(2);
  return { gameId: t.gameId, before: t.log.slice(0, closedAt), after: t.log.slice(closedAt), held: [...reveal, lock] };
}

const reduce = (gameId: string, log: readonly Uint8Array[]) => reduceLog(gameId, log, { verifier: nativeVerifier });
/** What finality protects: the resolved phases and the open phase's clock and timeouts. */
const settled = (v: GameView) => ({
  phases: v.phases.map((p) => ({ key: p.key, stateHash: p.stateHash, commits: p.commits, orders: p.orders })),
  openedAt: v.current?.openedAt,
  deadline: v.current?.deadline,
  timedOut: v.current?.timedOut,
});

describe('finality: late entries of a closed phase', () => {
  const claims = [1, T0, REAL - HOUR, REAL + 1, REAL + 3, REAL + DAY, FUTURE];
  const runs = new Map<string, ReturnType<typeof scenario>>();
  const run = (reveal: number, lock: number) => {
    const key = `${reveal}|${lock}`;
    if (!runs.has(key)) runs.set(key, scenario(3150, { reveal, lock }));
    return runs.get(key)!;
  };

  it('whatever they claim and wherever they arrive, every live view equals the view without them, and a cold read of any order agrees', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...claims),
        fc.constantFrom(...claims),
        fc.nat(),
        fc.nat(),
        fc.array(fc.nat(), { minLength: 80, maxLength: 80 }),
        (revealClaim, lockClaim, at1, at2, shuffle) => {
          const s = run(revealClaim, lockClaim);
          const live = [...s.after];
          live.splice(at1 % (live.length + 1), 0, s.held[0]!);
          live.splice(at2 % (live.length + 1), 0, s.held[1]!);
          // Live: after every arrival, what finality protects is what the phone had without the held entries.
          const without = [...s.before];
          const withHeld = [...s.before];
          for (const bytes of live) {
            withHeld.push(bytes);
            if (!s.held.includes(bytes)) without.push(bytes);
            expect(settled(reduce(s.gameId, withHeld))).toEqual(settled(reduce(s.gameId, without)));
          }
          // Cold: the same set in another order.
          const all = [...s.before, ...live];
          const keyed = all.map((b, i) => ({ b, k: shuffle[i % shuffle.length]! * 1000 + i }));
          const cold = keyed.sort((x, y) => x.k - y.k).map((x) => x.b);
          expect(canonicalEncode(reduce(s.gameId, cold))).toEqual(canonicalEncode(reduce(s.gameId, all)));
        },
      ),
      { numRuns: 6, seed: 31 },
    );
  });
});

describe('finality: the residual of late TIMEOUT votes (README "The clock and timeouts")', () => {
  it('exactly half of the keys (the pair of four) can still time out, after the close, a key that revealed: its orders of that phase turn void', () => {
    const s = scenario(3151, { reveal: REAL + 1, lock: REAL + 1 });
    const log = [...s.before, ...s.after];
    const closed = reduce(s.gameId, log);
    const fall = closed.phases[1]!;
    const honestPowers = (['italy', 'russia', 'turkey'] as Power[]).filter((p) => fall.commits[p] !== undefined);
    expect(honestPowers).toHaveLength(3);
    // The pair signs TIMEOUT votes for fall once it has resolved (claiming a hundred years ahead: at or after any threshold).
    const t = table({ seed: 3151, seats: FOUR });
    const late = t.devices.slice(0, 2).map((d) => {
      d.seq = 5000;
      return voteTimeout(d.me, s.gameId, fall.key, honestPowers, d.stamp(FUTURE));
    });
    const after = reduce(s.gameId, [...log, ...late.map((m) => m.bytes)]).phases[1]!;
    // Votes only add, and two of the three other keys are a quorum: the honest powers are timed out in fall, their
    // LOCKs and REVEALs no longer count, and their orders are void. Not closed: a vote cannot be told late from a
    // REVEAL that comes late (README).
    expect(after.timedOut).toEqual(expect.arrayContaining(honestPowers));
    for (const p of honestPowers) expect(after.commits[p]).toBeUndefined();
    // One key alone (fewer than a quorum of the others) changes nothing.
    expect(reduce(s.gameId, [...log, late[0]!.bytes]).phases[1]).toEqual(fall);
  });
});

// Issue 12, attack 2: seat theft. Property: a power changes hands only when it is absent (timed
// out, in civil disorder, or conceded by its holder), signed by a majority of the other distinct
// players with at least two of them, never in a two-player game, and never to a key that already
// holds a power.
import { describe, expect, it } from 'vitest';
import type { Power } from '../../src/rules';
import { T0 } from './helpers';
import { handOver, lateJoin, playHonest, powersHeld, reduceAs, sealAll, settle, table, voteOut, type Device, type Table } from './sealed-adapter';

const HOUR = 3_600_000;

/** One phase in which `absent` devices do nothing and the others vote them out after the deadline. */
function absentPhase(t: Table, absent: readonly Device[], time: number, before?: () => void): void {
  const present = t.devices.filter((d) => !absent.includes(d));
  sealAll(t, present, {}, time);
  const v = reduceAs(t, null);
  const targets = absent.flatMap((d) => powersHeld(v, d)).filter((p) => v.current!.required.includes(p));
  voteOut(t, present, targets, v.current!.revealDeadline + HOUR);
  before?.();
  settle(t, present, v.current!.revealDeadline + HOUR);
}

const holdersNow = (t: Table) => reduceAs(t, null).holders!;

describe('attack 2: seat theft', () => {
  it('two players: one side cannot take the other side’s powers, neither for itself nor for a key it controls', () => {
    for (const to of ['self', 'sybil'] as const) {
      const t = table({ seed: 201, variant: 'two-players', spares: 1 });
      const [agt, efr] = t.devices as [Device, Device];
      const key = to === 'self' ? agt.key : t.spares[0]!.key;
      for (const p of ['england', 'france', 'russia'] as Power[]) handOver(t, [agt], p, key, T0 + HOUR);
      playHonest(t, {}, T0 + 2 * HOUR);
      playHonest(t, {}, T0 + 3 * HOUR);
      const h = holdersNow(t);
      for (const p of ['england', 'france', 'russia'] as Power[]) expect(h[p], `${p} handed to ${to}`).toBe(efr.key);
    }
  });

  it('two players: even an absent side (timed out, its own clock agreeing) is never handed over by the lone opponent', () => {
    const t = table({ seed: 206, variant: 'two-players', spares: 1 });
    playHonest(t, {}, T0 + HOUR);
    const [agt, efr] = t.devices as [Device, Device];
    const v = reduceAs(t, null);
    const mine = powersHeld(v, efr).filter((p) => v.current!.required.includes(p));
    sealAll(t, [agt], {}, T0 + 2 * HOUR);
    const late = v.current!.deadline + HOUR;
    settle(t, [efr], late); // EFR seals nothing; its phone agrees the deadline passed (CLOCK)
    voteOut(t, [agt], mine, late);
    expect(reduceAs(t, null).current?.timedOut ?? reduceAs(t, null).phases.at(-1)!.timedOut).toEqual(expect.arrayContaining(mine));
    for (const p of mine) handOver(t, [agt], p, t.spares[0]!.key, late);
    settle(t, t.devices, late);
    playHonest(t, {}, late + HOUR);
    const h = holdersNow(t);
    for (const p of mine) expect(h[p], `${p} handed over by one signer`).toBe(efr.key);
  });

  it('seven players: four signers cannot give a present, active France to a key that joined after START', () => {
    const t = table({ seed: 202 });
    playHonest(t, {}, T0 + HOUR);
    const late = lateJoin(t, 1, T0 + 2 * HOUR);
    const [, england, , germany, italy, russia] = t.devices as Device[];
    handOver(t, [england!, germany!, italy!, russia!], 'france', late.key, T0 + 2 * HOUR);
    playHonest(t, {}, T0 + 3 * HOUR);
    playHonest(t, {}, T0 + 4 * HOUR);
    expect(holdersNow(t).france).toBe(t.devices[2]!.key);
  });

  it('four players: a colluding pair of multi-power seats cannot take England while England plays', () => {
    const t = table({ seed: 203, variant: 'four-players', spares: 1 });
    playHonest(t, {}, T0 + HOUR);
    const v = reduceAs(t, null);
    const englandKey = v.holders!.england;
    const pair = t.devices.filter((d) => d.key !== englandKey && powersHeld(v, d).length >= 2).slice(0, 2);
    expect(pair).toHaveLength(2);
    handOver(t, pair, 'england', t.spares[0]!.key, T0 + 2 * HOUR);
    playHonest(t, {}, T0 + 3 * HOUR);
    playHonest(t, {}, T0 + 4 * HOUR);
    expect(holdersNow(t).england).toBe(englandKey);
  });

  it('an absent power is never handed to a key that already holds one (a multi-power player included)', () => {
    // Standard game, Germany holds Germany and Italy; England is absent and timed out.
    const t = table({ seed: 204, seats: [['austria'], ['england'], ['france'], ['germany', 'italy'], ['russia'], ['turkey']] });
    const england = t.devices[1]!;
    const [austria, , france, germany, russia, turkey] = t.devices as Device[];
    absentPhase(t, [england], T0 + HOUR, () => {
      handOver(t, [austria!, france!, russia!, turkey!], 'england', germany!.key, T0 + 40 * HOUR);
    });
    absentPhase(t, [england], T0 + 60 * HOUR);
    expect(holdersNow(t).england).toBe(england.key);
  });

  it('control: an absent, timed-out power passes to a fresh key signed by a majority of the other players', () => {
    const t = table({ seed: 205, spares: 1 });
    const england = t.devices[1]!;
    const others = t.devices.filter((d) => d !== england);
    absentPhase(t, [england], T0 + HOUR, () => {
      handOver(t, others.slice(0, 4), 'england', t.spares[0]!.key, T0 + 40 * HOUR);
    });
    absentPhase(t, [england], T0 + 60 * HOUR);
    expect(holdersNow(t).england).toBe(t.spares[0]!.key);
  });
});

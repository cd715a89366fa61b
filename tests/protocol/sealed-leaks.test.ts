// Issue 12, attack 7: leaks. Properties: a sealed order set's length says nothing the board does
// not already say ("all hold" looks like any other set); a chat shows neither its recipients nor
// its length; "to all" means the players of the started game, so a stranger who joined after
// START reads nothing and cannot push a chat over its key limit; a draw vote cannot be kept shut
// while the others' votes are read.
import { describe, expect, it } from 'vitest';
import { POWERS, randomOrders, type Order, type Power } from '../../src/rules';
import { rng, T0 } from './helpers';
import {
  chat,
  lateJoin,
  payloadOf,
  powersHeld,
  reduceAs,
  readChat,
  sealAll,
  sealedLength,
  settle,
  table,
  playHonest,
  voteDraw,
  type Device,
  type Table,
} from './sealed-adapter';

const HOUR = 3_600_000;
const move = (power: Power, type: 'A' | 'F', loc: string, to: string): Order => ({ kind: 'move', power, unit: { type, loc }, to });
const support = (power: Power, type: 'A' | 'F', loc: string, sType: 'A' | 'F', sLoc: string, to: string): Order => ({
  kind: 'support',
  power,
  unit: { type, loc },
  supported: { type: sType, loc: sLoc },
  to,
});

/** Distinct sealed lengths of every order set in `sets` for `power` in the table's open phase. */
function lengths(t: Table, power: Power, sets: readonly (readonly Order[])[]): number[] {
  const v = reduceAs(t, null);
  const d = t.devices.find((x) => powersHeld(v, x).includes(power))!;
  return [...new Set(sets.map((o) => sealedLength(t, d, power, o)))].sort((a, b) => a - b);
}

function holds(t: Table, power: Power): Order[] {
  const pos = reduceAs(t, null).current!.position;
  return pos.units.filter((u) => u.power === power).map((u) => ({ kind: 'hold', power, unit: { type: u.type, loc: u.loc } }));
}

describe('attack 7: sealed orders do not leak through their length', () => {
  it('Spring 1901: all-hold, nothing, and thirty random legal sets seal to one length per power', () => {
    const t = table({ seed: 701 });
    const r = rng(702);
    const pos = reduceAs(t, null).current!.position;
    const leaks: Record<string, number[]> = {};
    for (const p of POWERS) {
      const sets = [holds(t, p), [], ...Array.from({ length: 30 }, () => randomOrders(pos, p, r.int))];
      const ls = lengths(t, p, sets);
      if (ls.length > 1) leaks[p] = ls;
    }
    expect(leaks, 'powers whose sealed length varies with their orders').toEqual({});
  });

  it('a retreat and an adjustment phase: the length does not tell a retreat from a disband, or a build from a waive', () => {
    const t = table({ seed: 703 });
    playHonest(t, { germany: [move('germany', 'A', 'mun', 'bur')], england: [move('england', 'F', 'lon', 'nth')] }, T0 + HOUR);
    playHonest(
      t,
      { france: [move('france', 'A', 'par', 'bur'), support('france', 'A', 'mar', 'A', 'par', 'bur')], england: [move('england', 'F', 'nth', 'nwy')] },
      T0 + 2 * HOUR,
    );
    let v = reduceAs(t, null);
    expect(v.current!.key).toBe('1901-fall-retreat');
    const unit = { type: 'A' as const, loc: 'bur' };
    const retreats: Order[][] = [
      [],
      [{ kind: 'disband', power: 'germany', unit }],
      ...v.current!.position.dislodged[0]!.retreats.map((to): Order[] => [{ kind: 'retreat', power: 'germany', unit, to }]),
    ];
    expect(lengths(t, 'germany', retreats), 'retreat lengths').toHaveLength(1);
    playHonest(t, {}, T0 + 3 * HOUR);
    v = reduceAs(t, null);
    expect(v.current!.key).toBe('1901-winter-adjustment');
    const builds: Order[][] = [
      [],
      [{ kind: 'waive', power: 'england' }],
      [{ kind: 'build', power: 'england', unit: { type: 'F', loc: 'edi' } }],
      [{ kind: 'build', power: 'england', unit: { type: 'A', loc: 'lvp' } }],
    ];
    expect(lengths(t, 'england', builds), 'adjustment lengths').toHaveLength(1);
  });
});

describe('attack 7: chat', () => {
  it('a chat shows neither its recipients nor its length to anyone', () => {
    const t = table({ seed: 711 });
    const [austria] = t.devices as [Device];
    const a = chat(t, austria, ['england'], 'hi', T0 + HOUR);
    const b = chat(t, austria, 'all', 'x'.repeat(200), T0 + HOUR);
    const [pa, pb] = [payloadOf(a.bytes), payloadOf(b.bytes)];
    const shape = (p: Record<string, any>) => ({
      recipients: Object.keys(p.keys ?? {}).sort(),
      boxes: Object.values(p.keys ?? {}).map((x) => (x as string).length),
      sealed: (p.sealed as string).length,
      fields: Object.keys(p).sort(),
    });
    expect(shape(pa)).toEqual(shape(pb));
    const v = reduceAs(t, null);
    // (v2's ChatEntry has no recipients field at all; read it loosely so the comparison still runs.)
    const entry = (id: string) => v.chats.find((c) => c.id === id) as { recipients?: unknown } | undefined;
    expect(entry(a.id)?.recipients).toEqual(entry(b.id)?.recipients);
  });

  it('a stranger who joined after START does not receive a "to all" message; every player does', () => {
    const t = table({ seed: 712 });
    playHonest(t, {}, T0 + HOUR);
    const stranger = lateJoin(t, 1, T0 + 2 * HOUR);
    const msg = chat(t, t.devices[0]!, 'all', 'the plan', T0 + 3 * HOUR);
    expect(readChat(t, stranger, msg)).toBeNull();
    for (const d of t.devices.slice(1)) expect(readChat(t, d, msg), d.name).toBe('the plan');
  });

  it('ten JOINs after START do not push a "to all" message over its key limit', () => {
    const t = table({ seed: 713 });
    playHonest(t, {}, T0 + HOUR);
    for (let k = 0; k < 10; k++) lateJoin(t, 10 + k, T0 + 2 * HOUR);
    const msg = chat(t, t.devices[0]!, 'all', 'still here', T0 + 3 * HOUR);
    const v = reduceAs(t, null);
    expect(v.ignored.filter((i) => i.id === msg.id)).toEqual([]);
    expect(v.chats.map((c) => c.id)).toContain(msg.id);
    for (const d of t.devices.slice(1)) expect(readChat(t, d, msg), d.name).toBe('still here');
  });
});

describe('attack 7: draw votes', () => {
  it('a survivor who votes and never opens its vote cannot keep it shut: seven yes votes end the game in a draw', () => {
    const t = table({ seed: 721 });
    const turkey = t.devices[6]!;
    sealAll(t, t.devices, {}, T0 + HOUR);
    for (const d of t.devices) for (const p of powersHeld(reduceAs(t, null), d)) voteDraw(t, d, p, true, T0 + HOUR + 1);
    // Turkey reads the six opened votes and keeps its own (and its orders) shut.
    const v = settle(t, t.devices, T0 + HOUR + 2, { hold: [turkey] });
    expect(v.result?.kind).toBe('draw');
  });
});

// Order entry offers exactly the legal orders: for every unit of the starting position, walking
// every tap and button the entry machine offers reaches the same set of orders as the rules
// engine's legalOrdersForUnit, and nothing else.
import { describe, expect, it } from 'vitest';
import { POWERS, STANDARD_MAP, STARTING_POSITION, adjudicate, adjustmentOrders, legalOrdersForUnit, provinceOf, randomOrders } from '../../src/rules';
import type { Order, Position } from '../../src/rules';
import { IDLE, entryView, readTypedOrders, tapLoc, type EntryContext } from '../../src/ui/orders/entry';
import { key, reachable } from './entry-walk';
import { draftReducer, unitsWithoutOrders } from '../../src/ui/orders/draft';

const allPowers: EntryContext = { position: STARTING_POSITION, powers: POWERS, draft: [], map: STANDARD_MAP };

describe('order entry offers only legal orders', () => {
  it('selects exactly the units of the powers being played', () => {
    expect(entryView(IDLE, allPowers).selectable).toEqual(STARTING_POSITION.units.map((u) => u.loc).sort());
    const france: EntryContext = { ...allPowers, powers: ['france'] };
    expect(entryView(IDLE, france).selectable).toEqual(['bre', 'mar', 'par']);
    expect(tapLoc(IDLE, france, 'ber').state).toEqual(IDLE);
  });

  for (const unit of STARTING_POSITION.units) {
    it(`offers the legal orders of ${unit.type} ${unit.loc}, no more and no fewer`, () => {
      const selected = tapLoc(IDLE, allPowers, provinceOf(unit.loc));
      expect(selected.state).toMatchObject({ step: 'move', unit: unit.loc });
      const offered = reachable(allPowers, selected.state);
      const legal = new Set(legalOrdersForUnit(STARTING_POSITION, unit.loc, STANDARD_MAP).map(key));
      expect([...offered].sort()).toEqual([...legal].sort());
    });
  }

  it('move targets are the legal destinations, and a tap elsewhere gives no order', () => {
    const state = tapLoc(IDLE, allPowers, 'par').state;
    const legalTo = legalOrdersForUnit(STARTING_POSITION, 'par', STANDARD_MAP).flatMap((o) => (o.kind === 'move' ? [o.to] : []));
    expect([...entryView(state, allPowers).targets]).toEqual([...new Set(legalTo)].sort());
    for (const p of Object.keys(STANDARD_MAP.provinces)) {
      const out = tapLoc(state, allPowers, p);
      if (out.order) expect(legalOrdersForUnit(STARTING_POSITION, 'par', STANDARD_MAP).map(key)).toContain(key(out.order));
    }
    expect(tapLoc(state, allPowers, 'mun').order).toBeUndefined();
  });

  it('asks for the coast when a fleet can reach both (F Mao - Spa)', () => {
    const position: Position = { ...STARTING_POSITION, units: [{ type: 'F', power: 'france', loc: 'mao' }] };
    const ctx: EntryContext = { position, powers: ['france'], draft: [], map: STANDARD_MAP };
    const s = tapLoc(IDLE, ctx, 'mao').state;
    const asked = tapLoc(s, ctx, 'spa');
    expect(asked.order).toBeUndefined();
    expect(asked.state.step).toBe('choose');
    expect(entryView(asked.state, ctx).options.map((o) => (o.kind === 'move' ? o.to : ''))).toEqual(['spa/nc', 'spa/sc']);
    expect(tapLoc(s, ctx, 'spa/sc').order).toMatchObject({ kind: 'move', to: 'spa/sc' });
  });
});

describe('retreats and adjustments', () => {
  it('offers the retreats of a dislodged unit and disbanding', () => {
    const position: Position = {
      phase: { year: 1901, season: 'spring', kind: 'movement' },
      units: [
        { type: 'A', power: 'germany', loc: 'mun' },
        { type: 'A', power: 'france', loc: 'bur' },
        { type: 'A', power: 'france', loc: 'par' },
      ],
      centres: {},
      dislodged: [],
    };
    const r = adjudicate(position, [
      { kind: 'move', power: 'france', unit: { type: 'A', loc: 'bur' }, to: 'mun' },
      { kind: 'hold', power: 'germany', unit: { type: 'A', loc: 'mun' } },
    ]);
    // One attacker cannot dislodge: make it two with support.
    const r2 = adjudicate(
      { ...position, units: [...position.units, { type: 'A' as const, power: 'france' as const, loc: 'ruh' }].sort((a, b) => (a.loc < b.loc ? -1 : 1)) },
      [
        { kind: 'move', power: 'france', unit: { type: 'A', loc: 'bur' }, to: 'mun' },
        { kind: 'support', power: 'france', unit: { type: 'A', loc: 'ruh' }, supported: { type: 'A', loc: 'bur' }, to: 'mun' },
      ],
    );
    expect(r.next.phase.kind).toBe('movement');
    expect(r2.next.phase.kind).toBe('retreat');
    const ctx: EntryContext = { position: r2.next, powers: ['germany'], draft: [], map: STANDARD_MAP };
    expect(entryView(IDLE, ctx).selectable).toEqual(['mun']);
    const s = tapLoc(IDLE, ctx, 'mun').state;
    const offered = reachable(ctx, s);
    expect([...offered].sort()).toEqual(legalOrdersForUnit(r2.next, 'mun', STANDARD_MAP).map(key).sort());
  });

  it('offers builds in free home centres up to the number due, with unit type and coast', () => {
    const position: Position = {
      phase: { year: 1901, season: 'winter', kind: 'adjustment' },
      units: [{ type: 'F', power: 'russia', loc: 'sev' }],
      centres: { mos: 'russia', sev: 'russia', stp: 'russia', war: 'russia' },
      dislodged: [],
    };
    const ctx: EntryContext = { position, powers: ['russia'], draft: [], map: STANDARD_MAP };
    expect(entryView(IDLE, ctx).selectable).toEqual(['mos', 'stp', 'war']);
    const stp = tapLoc(IDLE, ctx, 'stp');
    expect(stp.state.step).toBe('choose');
    const options = entryView(stp.state, ctx).options.map(key).sort();
    const legal = adjustmentOrders(position, 'russia', STANDARD_MAP)
      .builds.filter((o) => o.kind === 'build' && provinceOf(o.unit.loc) === 'stp')
      .map(key)
      .sort();
    expect(options).toEqual(legal);
    expect(options).toHaveLength(3); // army, fleet on the north coast, fleet on the south coast
    // With three builds due and three drafted, no other centre is offered.
    const full: EntryContext = { ...ctx, draft: ['mos', 'stp', 'war'].map((loc): Order => ({ kind: 'build', power: 'russia', unit: { type: 'A', loc } })) };
    expect(entryView(IDLE, full).selectable).toEqual(['mos', 'stp', 'war']);
    const { war: _lost, ...twoCentres } = position.centres;
    const twoDrafted: EntryContext = {
      ...ctx,
      position: { ...position, centres: twoCentres },
      draft: [
        { kind: 'build', power: 'russia', unit: { type: 'A', loc: 'mos' } },
        { kind: 'build', power: 'russia', unit: { type: 'A', loc: 'stp' } },
      ],
    };
    expect(entryView(IDLE, twoDrafted).selectable).toEqual(['mos', 'stp']);
  });

  it('removals toggle', () => {
    const position: Position = {
      phase: { year: 1901, season: 'winter', kind: 'adjustment' },
      units: [
        { type: 'A', power: 'italy', loc: 'rom' },
        { type: 'A', power: 'italy', loc: 'ven' },
      ],
      centres: { rom: 'italy' },
      dislodged: [],
    };
    const ctx: EntryContext = { position, powers: ['italy'], draft: [], map: STANDARD_MAP };
    const removed = tapLoc(IDLE, ctx, 'ven');
    expect(removed.order).toEqual({ kind: 'remove', power: 'italy', unit: { type: 'A', loc: 'ven' } });
    const drafted: EntryContext = { ...ctx, draft: [removed.order!] };
    expect(entryView(IDLE, drafted).selectable).toEqual(['ven']);
    expect(tapLoc(IDLE, drafted, 'ven').clear).toBe('ven');
  });
});

/** Every order reachable for `position` from the idle state, for all units of all powers. */
function allReachable(position: Position): Set<string> {
  const ctx: EntryContext = { position, powers: POWERS, draft: [], map: STANDARD_MAP };
  const found = new Set<string>();
  for (const loc of entryView(IDLE, ctx).selectable) {
    const out = tapLoc(IDLE, ctx, loc);
    if (out.order) found.add(key(out.order));
    if (out.state.step !== 'idle') for (const o of reachable(ctx, out.state)) found.add(o);
  }
  return found;
}

/** What the rules engine allows in the phase, for every power. */
function allLegal(position: Position): Set<string> {
  if (position.phase.kind === 'adjustment') {
    return new Set(
      POWERS.flatMap((p) => {
        const { builds, removals, delta } = adjustmentOrders(position, p, STANDARD_MAP);
        return delta > 0 ? builds : delta < 0 ? removals : [];
      }).map(key),
    );
  }
  const units = position.phase.kind === 'retreat' ? position.dislodged.map((d) => d.unit) : position.units;
  return new Set(units.flatMap((u) => legalOrdersForUnit(position, u.loc, STANDARD_MAP)).map(key));
}

describe('order entry in played positions', () => {
  it('offers convoys and moves via convoy exactly as the rules allow', () => {
    const position: Position = {
      phase: { year: 1901, season: 'fall', kind: 'movement' },
      units: [
        { type: 'F', power: 'france', loc: 'eng' },
        { type: 'A', power: 'england', loc: 'lon' },
        { type: 'F', power: 'england', loc: 'nth' },
        { type: 'A', power: 'england', loc: 'wal' },
        { type: 'A', power: 'england', loc: 'yor' },
      ],
      centres: {},
      dislodged: [],
    };
    const offered = allReachable(position);
    expect([...offered].sort()).toEqual([...allLegal(position)].sort());
    expect([...offered].some((o) => o.includes('"convoy"'))).toBe(true);
    expect([...offered].some((o) => o.includes('"viaConvoy":true'))).toBe(true);
  });

  it('matches the legal orders in every phase of a seeded random game', () => {
    let seed = 12345;
    const pick = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n); // high bits: the low ones of this generator cycle
    };
    let position: Position = STARTING_POSITION;
    const kinds = new Set<string>();
    for (let phase = 0; phase < 16; phase++) {
      kinds.add(position.phase.kind);
      expect([...allReachable(position)].sort(), `${position.phase.season} ${position.phase.year} ${position.phase.kind}`).toEqual(
        [...allLegal(position)].sort(),
      );
      const orders = POWERS.flatMap((p) => randomOrders(position, p, pick));
      position = adjudicate(position, orders).next;
    }
    // Random orders rarely dislodge anything; retreats have their own test above.
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['adjustment', 'movement']));
  }, 60_000);
});

describe('typed orders go to the power of the unit they order', () => {
  // Issue 14: holding Austria, England and Germany, a player typed 'E Mun-Ruh' with Austria picked
  // beside the box; the order was listed under Austria, Munich left the "no order" list, and at
  // adjudication Munich held (Austria has no unit there).
  const three: EntryContext = { position: STARTING_POSITION, powers: ['austria', 'england', 'germany'], draft: [], map: STANDARD_MAP };

  it("E Mun-Ruh typed with Austria picked is Germany's order, and Munich moves", () => {
    const typed = readTypedOrders('E Mun-Ruh', three, 'austria', 'es');
    expect(typed.errors).toEqual([]);
    expect(typed.orders).toEqual([{ kind: 'move', power: 'germany', unit: { type: 'A', loc: 'mun' }, to: 'ruh' }]);
    const draft = draftReducer([], { type: 'set-many', orders: typed.orders });
    expect(unitsWithoutOrders(STARTING_POSITION, draft, three.powers).map((u) => u.loc)).not.toContain('mun');
    const mun = adjudicate(STARTING_POSITION, draft).results.find((r) => 'unit' in r.order && r.order.unit.loc === 'mun');
    expect(mun).toEqual({ order: typed.orders[0], success: true });
  });

  it('every power a line names by its unit: a whole turn for three powers in one text', () => {
    const typed = readTypedOrders('A Vie - Gal\nF Lon - ENG\nF Kie - Den', three, 'england', 'en');
    expect(typed.errors).toEqual([]);
    expect(typed.orders.map((o) => o.power)).toEqual(['austria', 'england', 'germany']);
  });

  it('refuses, naming the unit and its owner, an order for a unit of a power the player does not hold', () => {
    const austria: EntryContext = { ...three, powers: ['austria'] };
    const es = readTypedOrders('E Vie-Tri\nE Mun-Ruh', austria, 'austria', 'es');
    expect(es.orders).toEqual([{ kind: 'move', power: 'austria', unit: { type: 'A', loc: 'vie' }, to: 'tri' }]);
    expect(es.errors).toEqual([{ line: 2, text: 'E Mun-Ruh', message: 'E Mun es de Alemania, y no juegas con Alemania' }]);
    const en = readTypedOrders('A Mun - Ruh', austria, 'austria', 'en');
    expect(en.orders).toEqual([]);
    expect(en.errors.map((e) => e.message)).toEqual(['A Mun belongs to Germany, which you do not play']);
    // The header of another power does not make its units the player's.
    expect(readTypedOrders('Germany: A Mun - Ruh', austria, 'austria', 'en').orders).toEqual([]);
  });

  it('refuses an order where there is no unit, and reads the other lines', () => {
    const typed = readTypedOrders('A Bur - Par\nA Vie H', three, 'austria', 'en');
    expect(typed.errors).toEqual([{ line: 1, text: 'A Bur - Par', message: 'There is no unit in Burgundy' }]);
    expect(typed.orders).toEqual([{ kind: 'hold', power: 'austria', unit: { type: 'A', loc: 'vie' } }]);
    expect(readTypedOrders('E Bor-Par', three, 'austria', 'es').errors.map((e) => e.message)).toEqual(['No hay ninguna unidad en Borgoña']);
  });

  it('in a retreat phase, goes to the power of the dislodged unit', () => {
    const position: Position = {
      phase: { year: 1901, season: 'spring', kind: 'retreat' },
      units: [{ type: 'A', power: 'france', loc: 'mun' }],
      centres: {},
      dislodged: [{ unit: { type: 'A', power: 'germany', loc: 'mun' }, attackerFrom: 'bur', retreats: ['boh', 'kie'] }],
    };
    const ctx: EntryContext = { position, powers: ['austria', 'germany'], draft: [], map: STANDARD_MAP };
    expect(readTypedOrders('A Mun R Boh', ctx, 'austria', 'en').orders).toEqual([
      { kind: 'retreat', power: 'germany', unit: { type: 'A', loc: 'mun' }, to: 'boh' },
    ]);
    const notMine = readTypedOrders('A Mun R Boh', { ...ctx, powers: ['austria', 'france'] }, 'austria', 'en');
    expect(notMine.errors.map((e) => e.message)).toEqual(['A Mun belongs to Germany, which you do not play']);
    expect(readTypedOrders('A Ber R Sil', ctx, 'austria', 'en').errors.map((e) => e.message)).toEqual(['No unit in Berlin has to retreat']);
  });

  it('in adjustments, a build goes to the power whose home centre it is; a waive stays with the power picked', () => {
    const position: Position = {
      phase: { year: 1901, season: 'winter', kind: 'adjustment' },
      units: [],
      centres: { ber: 'germany', vie: 'austria' },
      dislodged: [],
    };
    const ctx: EntryContext = { position, powers: ['austria', 'germany'], draft: [], map: STANDARD_MAP };
    const typed = readTypedOrders('Build A Ber\nWaive', ctx, 'austria', 'en');
    expect(typed.errors).toEqual([]);
    expect(typed.orders).toEqual([
      { kind: 'build', power: 'germany', unit: { type: 'A', loc: 'ber' } },
      { kind: 'waive', power: 'austria' },
    ]);
    const refused = readTypedOrders('Creo E Ber', { ...ctx, powers: ['austria'] }, 'austria', 'es');
    expect(refused.errors.map((e) => e.message)).toEqual(['Berlín es un centro de origen de Alemania, y no juegas con Alemania']);
  });
});

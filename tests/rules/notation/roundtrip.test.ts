import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatOrder, parseOrder, POWERS, STANDARD_MAP, STARTING_POSITION, type Loc, type Order, type PhaseKind, type UnitRef } from '../../../src/rules';

const map = STANDARD_MAP;
const provinceIds = Object.keys(map.provinces).sort();
/** Every place a fleet can stand, coast-specific (the keys of fleetEdges). */
const fleetLocs = Object.keys(map.fleetEdges).sort();

function phaseOf(order: Order): PhaseKind {
  if (order.kind === 'retreat' || order.kind === 'disband') return 'retreat';
  if (order.kind === 'build' || order.kind === 'remove' || order.kind === 'waive') return 'adjustment';
  return 'movement';
}

function neighbours(unit: UnitRef): readonly Loc[] {
  return unit.type === 'A' ? (map.armyEdges[unit.loc] ?? []) : (map.fleetEdges[unit.loc] ?? []);
}

/** A variety of orders: every kind, for every starting unit and for fleets on every split coast. */
function sampleOrders(): Order[] {
  const orders: Order[] = [];
  const units = [
    ...STARTING_POSITION.units,
    ...['spa/nc', 'spa/sc', 'bul/ec', 'bul/sc', 'stp/nc'].map((loc) => ({ type: 'F' as const, power: 'turkey' as const, loc })),
  ];
  for (const u of units) {
    const power = u.power;
    const unit: UnitRef = { type: u.type, loc: u.loc };
    orders.push({ kind: 'hold', power, unit }, { kind: 'disband', power, unit }, { kind: 'remove', power, unit });
    for (const to of neighbours(unit)) {
      orders.push({ kind: 'move', power, unit, to }, { kind: 'retreat', power, unit, to });
      if (unit.type === 'A') orders.push({ kind: 'move', power, unit, to, viaConvoy: true });
    }
    for (const other of units) {
      if (other === u) continue;
      const supported: UnitRef = { type: other.type, loc: other.loc };
      orders.push({ kind: 'support', power, unit, supported });
      const target = neighbours(supported)[0];
      if (target) orders.push({ kind: 'support', power, unit, supported, to: target.split('/')[0]! });
    }
  }
  for (const sea of provinceIds.filter((id) => map.provinces[id]!.kind === 'sea')) {
    const shores = (map.fleetEdges[sea] ?? []).filter((l) => map.provinces[l.split('/')[0]!]!.kind === 'coast');
    const [from, to] = [shores[0], shores[shores.length - 1]];
    if (from && to) {
      orders.push({ kind: 'convoy', power: 'england', unit: { type: 'F', loc: sea }, army: from.split('/')[0]!, to: to.split('/')[0]! });
    }
  }
  for (const power of POWERS) {
    orders.push({ kind: 'waive', power });
    for (const id of provinceIds.filter((p) => map.provinces[p]!.home === power)) {
      orders.push({ kind: 'build', power, unit: { type: 'A', loc: id } });
      for (const loc of fleetLocs.filter((l) => l.split('/')[0] === id)) orders.push({ kind: 'build', power, unit: { type: 'F', loc } });
    }
  }
  return orders;
}

const variants = [
  ['es', 'short'],
  ['es', 'long'],
  ['en', 'short'],
  ['en', 'long'],
] as const;

function roundTrip(order: Order, lang: 'es' | 'en', style: 'short' | 'long'): { text: string; back: unknown } {
  const text = formatOrder(order, lang, style);
  const r = parseOrder(text, { power: order.power, phase: phaseOf(order), lang });
  return { text, back: r.ok ? r.order : r.error };
}

describe('formatOrder then parseOrder gives the same order', () => {
  const orders = sampleOrders();

  it('covers every order kind', () => {
    expect(new Set(orders.map((o) => o.kind)).size).toBe(9);
    expect(orders.length).toBeGreaterThan(500);
  });

  for (const [lang, style] of variants) {
    it(`${lang} ${style}`, () => {
      const wrong = orders.map((order) => ({ order, ...roundTrip(order, lang, style) })).filter((x) => JSON.stringify(x.back) !== JSON.stringify(x.order));
      expect(wrong.slice(0, 5)).toEqual([]);
    });
  }

  it('writes the rulebook forms', () => {
    const convoy: Order = { kind: 'convoy', power: 'england', unit: { type: 'F', loc: 'nth' }, army: 'lon', to: 'bel' };
    expect(formatOrder(convoy, 'es')).toBe('F MNt T E Lon-Bel');
    expect(formatOrder(convoy, 'en')).toBe('F NTH C A Lon - Bel');
    expect(formatOrder(convoy, 'es', 'long')).toBe('Flota en Mar del Norte transporta ejército en Londres a Bélgica');
    const toBul: Order = { kind: 'move', power: 'turkey', unit: { type: 'F', loc: 'con' }, to: 'bul/ec' };
    expect(formatOrder(toBul, 'es')).toBe('F Con-CE Bul');
    const fromStp: Order = { kind: 'move', power: 'russia', unit: { type: 'F', loc: 'stp/sc' }, to: 'bot' };
    // The map's English abbreviations write seas in capitals (NTH, BOT).
    expect(formatOrder(fromStp, 'en')).toBe('F StP/SC - BOT');
    const lonNth: Order = { kind: 'move', power: 'england', unit: { type: 'F', loc: 'lon' }, to: 'nth' };
    expect(formatOrder(lonNth, 'es', 'long')).toBe('Flota en Londres mueve a Mar del Norte');
    expect(formatOrder(lonNth, 'en', 'long')).toBe('Fleet in London moves to North Sea');
    const build: Order = { kind: 'build', power: 'russia', unit: { type: 'F', loc: 'stp/nc' } };
    expect(formatOrder(build, 'es', 'long')).toBe('Creo flota en San Petersburgo costa norte');
    expect(formatOrder(build, 'en')).toBe('Build F StP/NC');
  });
});

describe('round trip of arbitrary orders (fast-check)', () => {
  const armyLoc = fc.constantFrom(...provinceIds);
  const fleetLoc = fc.constantFrom(...fleetLocs);
  const unitRef: fc.Arbitrary<UnitRef> = fc.oneof(
    armyLoc.map((loc) => ({ type: 'A' as const, loc })),
    fleetLoc.map((loc) => ({ type: 'F' as const, loc })),
  );
  const power = fc.constantFrom(...POWERS);
  const province = fc.constantFrom(...provinceIds);
  const target = (u: UnitRef): fc.Arbitrary<Loc> => (u.type === 'A' ? armyLoc : fleetLoc);
  const order: fc.Arbitrary<Order> = fc.oneof(
    fc.record({ power, unit: unitRef }).map(({ power, unit }): Order => ({ kind: 'hold', power, unit })),
    fc
      .record({ power, unit: unitRef })
      .chain(({ power, unit }) =>
        fc
          .tuple(target(unit), fc.boolean())
          .map(([to, via]): Order => (via ? { kind: 'move', power, unit, to, viaConvoy: true } : { kind: 'move', power, unit, to })),
      ),
    fc
      .record({ power, unit: unitRef, supported: unitRef, to: fc.option(province, { nil: undefined }) })
      .map(({ power, unit, supported, to }): Order =>
        to === undefined ? { kind: 'support', power, unit, supported } : { kind: 'support', power, unit, supported, to },
      ),
    fc.record({ power, unit: unitRef, army: province, to: province }).map(({ power, unit, army, to }): Order => ({ kind: 'convoy', power, unit, army, to })),
    fc.record({ power, unit: unitRef }).chain(({ power, unit }) => target(unit).map((to): Order => ({ kind: 'retreat', power, unit, to }))),
    fc.record({ power, unit: unitRef }).map(({ power, unit }): Order => ({ kind: 'disband', power, unit })),
    fc.record({ power, unit: unitRef }).map(({ power, unit }): Order => ({ kind: 'build', power, unit })),
    fc.record({ power, unit: unitRef }).map(({ power, unit }): Order => ({ kind: 'remove', power, unit })),
    power.map((power): Order => ({ kind: 'waive', power })),
  );

  it('parses back every formatted order, in both languages and styles', () => {
    fc.assert(
      fc.property(order, fc.constantFrom(...variants), (o, [lang, style]) => {
        const { text, back } = roundTrip(o, lang, style);
        expect({ text, back }).toEqual({ text, back: o });
      }),
      { numRuns: 1500 },
    );
  });
});

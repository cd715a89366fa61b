// Invariants of retreats and adjustments on random positions of the standard board.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  adjudicate,
  adjustmentsNeeded,
  centreCounts,
  POWERS,
  provinceOf,
  STANDARD_MAP,
  SUPPLY_CENTRES,
  unitCounts,
  type Dislodged,
  type Order,
  type Position,
  type Power,
  type Unit,
} from '../../../src/rules';

const provinces = Object.keys(STANDARD_MAP.provinces)
  .filter((id) => STANDARD_MAP.provinces[id]?.kind !== 'impassable')
  .sort();

/** Where a unit of `type` can stand in province `id` (fleets: each coast of a split province). */
function standings(id: string, type: 'A' | 'F'): string[] {
  const p = STANDARD_MAP.provinces[id];
  if (p === undefined) return [];
  if (type === 'A') return p.kind === 'sea' ? [] : [id];
  if (p.kind === 'land') return [];
  return p.coasts && p.coasts.length > 0 ? p.coasts.map((c) => `${id}/${c}`) : [id];
}

const arbPower = fc.constantFrom(...POWERS);
const arbUnitAt = (id: string): fc.Arbitrary<Unit | null> =>
  fc.tuple(arbPower, fc.constantFrom<'A' | 'F'>('A', 'F'), fc.nat(1)).map(([power, type, coast]) => {
    const locs = standings(id, type);
    const loc = locs[coast % Math.max(1, locs.length)];
    return loc === undefined ? null : { type, power, loc };
  });

const arbUnitsOf = (minLength: number): fc.Arbitrary<Unit[]> =>
  fc
    .subarray(provinces, { minLength, maxLength: 34 })
    .chain((ids) => fc.tuple(...ids.map(arbUnitAt)))
    .map((list) => (list as (Unit | null)[]).filter((u): u is Unit => u !== null).sort((a, b) => (a.loc < b.loc ? -1 : 1)));
const arbUnits = arbUnitsOf(0);

const arbCentres = fc.tuple(...SUPPLY_CENTRES.map(() => fc.option(arbPower, { nil: undefined }))).map((owners) => {
  const out: Partial<Record<string, Power>> = {};
  SUPPLY_CENTRES.forEach((id, i) => {
    const owner = owners[i];
    if (owner !== undefined) out[id] = owner;
  });
  return out;
});

function arbAdjustmentOrder(units: readonly Unit[]): fc.Arbitrary<Order> {
  const build = fc
    .tuple(arbPower, fc.constantFrom<'A' | 'F'>('A', 'F'), fc.constantFrom(...SUPPLY_CENTRES), fc.constantFrom('', '/nc', '/sc'))
    .map(([power, type, id, coast]): Order => ({ kind: 'build', power, unit: { type, loc: id + coast } }));
  const waive = arbPower.map((power): Order => ({ kind: 'waive', power }));
  if (units.length === 0) return fc.oneof(build, waive);
  const remove = fc.constantFrom(...units).map((u): Order => ({ kind: 'remove', power: u.power, unit: { type: u.type, loc: u.loc } }));
  return fc.oneof(build, waive, remove);
}

/** Frozen inputs make any mutation by the engine throw (ES modules run in strict mode). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function noSharedProvince(units: readonly Unit[]): boolean {
  const seen = new Set(units.map((u) => provinceOf(u.loc)));
  return seen.size === units.length;
}

describe('adjustment invariants', () => {
  it('builds stay within what is allowed, removals are exactly what is owed, the board stays legal', () => {
    const scenario = fc
      .tuple(arbUnits, arbCentres, fc.subarray([...POWERS]))
      .chain(([units, centres, disorder]) =>
        fc.tuple(fc.constant(units), fc.constant(centres), fc.constant(disorder), fc.array(arbAdjustmentOrder(units), { maxLength: 20 })),
      );
    fc.assert(
      fc.property(scenario, ([units, centres, disorder, orders]) => {
        const pos: Position = deepFreeze({ phase: { year: 1901, season: 'winter', kind: 'adjustment' }, units, centres, dislodged: [] });
        const adj = adjudicate(pos, deepFreeze(orders), { civilDisorder: disorder });
        const needed = adjustmentsNeeded(pos);
        const before = unitCounts(pos);
        const after = unitCounts(adj.next);
        const owned = centreCounts(pos);
        for (const power of POWERS) {
          const change = after[power] - before[power];
          if (needed[power] < 0) expect(after[power]).toBe(owned[power]);
          else expect(change >= 0 && change <= needed[power]).toBe(true);
          if (disorder.includes(power)) expect(change <= 0).toBe(true);
        }
        const built = adj.next.units.filter((u) => !units.some((v) => v.loc === u.loc && v.power === u.power && v.type === u.type));
        for (const u of built) {
          const id = provinceOf(u.loc);
          expect(STANDARD_MAP.provinces[id]?.home).toBe(u.power);
          expect(centres[id]).toBe(u.power);
        }
        expect(noSharedProvince(adj.next.units)).toBe(true);
        expect(adj.next.units.map((u) => u.loc)).toEqual(adj.next.units.map((u) => u.loc).sort());
        expect(adj.next.phase).toEqual({ year: 1902, season: 'spring', kind: 'movement' });
        // Every order gets a result, and every automatic removal one more.
        const automatic = adj.results.filter((r) => r.reason?.kind === 'no-order').length;
        expect(adj.results.length).toBe(orders.length + automatic);
      }),
      { numRuns: 300 },
    );
  });
});

describe('retreat invariants', () => {
  it('never puts two units in one province and gives one result per dislodged unit', () => {
    // Retreats crowd towards one free hub province, so that clashes are common.
    const scenario = fc.tuple(arbUnitsOf(25), fc.constantFrom(...provinces)).chain(([all, hub]) => {
      const board = all.filter((u) => provinceOf(u.loc) !== hub);
      const nextToHub = (u: Unit): boolean =>
        (u.type === 'A' ? (STANDARD_MAP.armyEdges[provinceOf(u.loc)] ?? []) : (STANDARD_MAP.fleetEdges[u.loc] ?? [])).some((l) => provinceOf(l) === hub);
      const near = board.filter(nextToHub);
      return fc.subarray(board.filter((u) => !nextToHub(u))).chain((others) => {
        const gone = [...near, ...others];
        const standing = board.filter((u) => !gone.includes(u));
        const taken = new Set(standing.map((u) => provinceOf(u.loc)));
        const dislodged: Dislodged[] = gone.map((unit) => {
          const next = unit.type === 'A' ? (STANDARD_MAP.armyEdges[provinceOf(unit.loc)] ?? []) : (STANDARD_MAP.fleetEdges[unit.loc] ?? []);
          return { unit, attackerFrom: provinceOf(unit.loc), retreats: next.filter((l) => !taken.has(provinceOf(l))) };
        });
        const orderFor = (d: Dislodged): fc.Arbitrary<Order | null> => {
          const ref = { type: d.unit.type, loc: d.unit.loc };
          const toHub = d.retreats.filter((l) => provinceOf(l) === hub);
          return fc.tuple(fc.nat(5), fc.constantFrom(...provinces)).map(([pick, anywhere]): Order | null => {
            if (pick === 0) return null;
            if (pick === 1) return { kind: 'disband', power: d.unit.power, unit: ref };
            if (pick === 2) return { kind: 'retreat', power: d.unit.power, unit: ref, to: anywhere };
            const to = toHub[0] ?? d.retreats[pick % Math.max(1, d.retreats.length)] ?? anywhere;
            return { kind: 'retreat', power: d.unit.power, unit: ref, to };
          });
        };
        return fc
          .tuple(...dislodged.map(orderFor))
          .map((orders) => ({ standing, dislodged, orders: (orders as (Order | null)[]).filter((o): o is Order => o !== null) }));
      });
    });
    let clashes = 0;
    fc.assert(
      fc.property(scenario, ({ standing, dislodged, orders }) => {
        const pos: Position = deepFreeze({ phase: { year: 1901, season: 'spring', kind: 'retreat' }, units: standing, centres: {}, dislodged });
        const adj = adjudicate(pos, deepFreeze(orders));
        if (adj.results.some((r) => r.reason?.kind === 'bounced')) clashes += 1;
        expect(noSharedProvince(adj.next.units)).toBe(true);
        expect(adj.next.phase).toEqual({ year: 1901, season: 'fall', kind: 'movement' });
        const perUnit = adj.results.slice(0, dislodged.length);
        expect(perUnit.map((r) => ('unit' in r.order ? r.order.unit.loc : ''))).toEqual(dislodged.map((d) => d.unit.loc).sort());
        expect(adj.results).toHaveLength(dislodged.length);
        const moved = perUnit.filter((r) => (r.order.kind === 'retreat' || r.order.kind === 'move') && r.success).length;
        expect(adj.next.units.length - standing.length).toBe(moved);
      }),
      { numRuns: 300 },
    );
    // The generator must actually produce clashes for the first check to mean anything.
    expect(clashes).toBeGreaterThan(30);
  });
});

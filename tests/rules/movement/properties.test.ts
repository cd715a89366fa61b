// Invariants of movement adjudication on random positions with random orders, legal and not.
// The resolver keeps one workspace per board and reuses it from call to call, so these also
// check that nothing of one call leaks into the next.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjudicate, legalOrdersForUnit, POWERS, provinceOf, STANDARD_MAP, type Order, type Position, type Unit } from '../../../src/rules';

const provinces = Object.keys(STANDARD_MAP.provinces)
  .filter((id) => STANDARD_MAP.provinces[id]?.kind !== 'impassable')
  .sort();
/** Every name an order might carry: provinces, coasts, and some that are not on the map. */
const names = [...provinces, ...Object.keys(STANDARD_MAP.fleetEdges), 'swi', 'par/nc', 'spa/xx', 'zzz', 'SPA', ''];

function standings(id: string, type: 'A' | 'F'): string[] {
  const p = STANDARD_MAP.provinces[id]!;
  if (type === 'A') return p.kind === 'sea' ? [] : [id];
  if (p.kind === 'land') return [];
  return p.coasts && p.coasts.length > 0 ? p.coasts.map((c) => `${id}/${c}`) : [id];
}

const arbUnits = (min: number, max: number): fc.Arbitrary<Unit[]> =>
  fc
    .subarray(provinces, { minLength: min, maxLength: max })
    .chain((ids) =>
      fc.tuple(
        ...ids.map((id) =>
          fc.tuple(fc.constantFrom(...POWERS), fc.constantFrom<'A' | 'F'>('A', 'F'), fc.nat(1)).map(([power, type, c]) => {
            const locs = standings(id, type);
            const loc = locs[c % Math.max(1, locs.length)];
            return loc === undefined ? null : { type, power, loc };
          }),
        ),
      ),
    )
    .map((list) => (list as (Unit | null)[]).filter((u): u is Unit => u !== null).sort((a, b) => (a.loc < b.loc ? -1 : 1)));

/** For each unit a legal order (usually), or a corrupted one, or none; plus a few strays. Then
 *  some units switch to supporting a move another unit was given, so that battles are common. */
function arbOrders(position: Position): fc.Arbitrary<Order[]> {
  const name = fc.constantFrom(...names);
  const legalOf = position.units.map((unit) => legalOrdersForUnit(position, unit.loc, STANDARD_MAP));
  const perUnit = position.units.map((unit, i) => {
    const legal = legalOf[i]!;
    const ref = { type: unit.type, loc: unit.loc };
    const other = position.units.length > 0 ? fc.constantFrom(...position.units) : fc.constant(unit);
    return fc.oneof(
      { weight: 6, arbitrary: legal.length > 0 ? fc.constantFrom(...legal) : fc.constant(null) },
      { weight: 1, arbitrary: fc.constant(null) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(name, fc.boolean())
          .map(([to, via]): Order => ({ kind: 'move', power: unit.power, unit: ref, to, ...(via ? { viaConvoy: true } : {}) })),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(other, fc.option(name, { nil: undefined })).map(([s, to]): Order => ({
          kind: 'support',
          power: unit.power,
          unit: ref,
          supported: { type: s.type, loc: s.loc },
          ...(to === undefined ? {} : { to }),
        })),
      },
      { weight: 1, arbitrary: fc.tuple(name, name).map(([army, to]): Order => ({ kind: 'convoy', power: unit.power, unit: ref, army, to })) },
      { weight: 1, arbitrary: fc.constantFrom(...POWERS).map((power): Order => ({ kind: 'hold', power, unit: ref })) },
    );
  });
  const stray = fc.tuple(fc.constantFrom(...POWERS), name, name).map(([power, loc, to]): Order => ({ kind: 'move', power, unit: { type: 'A', loc }, to }));
  const helps = fc.array(fc.boolean(), { minLength: position.units.length, maxLength: position.units.length });
  return fc.tuple(fc.tuple(...perUnit), helps, fc.array(stray, { maxLength: 3 })).map(([chosen, help, strays]) => {
    const orders = [...(chosen as (Order | null)[])];
    const moveOf = new Map<string, string>();
    orders.forEach((o) => {
      if (o?.kind === 'move') moveOf.set(provinceOf(o.unit.loc), provinceOf(o.to));
    });
    orders.forEach((o, i) => {
      if (!help[i]) return;
      const support = legalOf[i]!.find((s) => s.kind === 'support' && s.to !== undefined && moveOf.get(provinceOf(s.supported.loc)) === provinceOf(s.to));
      if (support) orders[i] = support;
    });
    return [...orders.filter((o): o is Order => o !== null), ...strays];
  });
}

const arbPhase = (min: number, max: number) =>
  fc
    .tuple(arbUnits(min, max), fc.subarray([...POWERS], { maxLength: 2 }), fc.boolean())
    .map(([units, disorder, consent]) => {
      const position: Position = { phase: { year: 1905, season: 'spring', kind: 'movement' }, units, centres: {}, dislodged: [] };
      return { position, disorder, consent };
    })
    .chain((s) => fc.tuple(fc.constant(s), arbOrders(s.position)));

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

describe('movement invariants', () => {
  it('one result per unit, a legal board after, retreats only to open places, nothing carried between calls', () => {
    let dislodgements = 0;
    let moves = 0;
    fc.assert(
      fc.property(arbPhase(15, 45), arbPhase(0, 40), ([a, ordersA], [b, ordersB]) => {
        const run = (s: typeof a, orders: Order[]) =>
          JSON.stringify(adjudicate(s.position, orders, { civilDisorder: s.disorder, rules: { supportNeedsConsent: s.consent } }));
        deepFreeze([a, ordersA, b, ordersB]);
        const first = run(a, ordersA);
        run(b, ordersB);
        // The same phase again, after another one used the workspace: the same bytes.
        expect(run(a, ordersA)).toBe(first);

        const adj = JSON.parse(first) as ReturnType<typeof adjudicate>;
        const units = a.position.units;
        // (An order may name a fleet's province without its coast.)
        const named = adj.results.slice(0, units.length).map((r) => ('unit' in r.order ? provinceOf(r.order.unit.loc) : ''));
        expect(named).toEqual(units.map((u) => provinceOf(u.loc)));
        expect(adj.results.length).toBeGreaterThanOrEqual(units.length);

        const after = adj.next.units;
        const taken = after.map((u) => provinceOf(u.loc));
        expect(new Set(taken).size).toBe(taken.length);
        expect(after.map((u) => u.loc)).toEqual(after.map((u) => u.loc).sort());
        expect(after.length + adj.dislodged.length).toBe(units.length);

        // A dislodged unit's order failed (a failed move says why it failed; the rest say
        // "dislodged"), and every "dislodged" result has its unit in the dislodged list.
        const perUnit = adj.results.slice(0, units.length);
        for (const r of perUnit) {
          if (r.reason?.kind === 'dislodged') expect(adj.dislodged.map((d) => d.unit.loc)).toContain('unit' in r.order && r.order.unit.loc);
        }
        dislodgements += adj.dislodged.length;
        for (const d of adj.dislodged) {
          expect(perUnit[units.findIndex((u) => u.loc === d.unit.loc)]?.success).toBe(false);
          expect(taken).toContain(provinceOf(d.unit.loc)); // the dislodger stands there now
          // DATC 4.A.5: only an attacker that came by convoy leaves its origin open.
          const convoyed = adj.results.some((r) => r.order.kind === 'convoy' && r.success && provinceOf(r.order.army) === d.attackerFrom);
          for (const r of d.retreats) {
            expect(taken).not.toContain(provinceOf(r));
            expect(adj.contested).not.toContain(provinceOf(r));
            if (!convoyed) expect(provinceOf(r)).not.toBe(d.attackerFrom);
          }
        }
        for (const r of adj.results) {
          if (r.order.kind !== 'move' || !r.success) continue;
          moves += 1;
          const to = provinceOf(r.order.to);
          const from = provinceOf(r.order.unit.loc);
          const mover = units.find((u) => provinceOf(u.loc) === from)!;
          const there = after.find((u) => provinceOf(u.loc) === to);
          expect(there).toMatchObject({ power: mover.power, type: mover.type });
        }
      }),
      { numRuns: 500 },
    );
    // The generator must produce real battles for the checks above to mean anything.
    expect(dislodgements).toBeGreaterThan(25);
    expect(moves).toBeGreaterThan(1000);
  });

  it('a board full of units (more than the first workspace holds) adjudicates like any other', () => {
    const units: Unit[] = provinces
      .map((id, i): Unit => {
        const type = STANDARD_MAP.provinces[id]!.kind === 'sea' ? 'F' : 'A';
        return { type, power: POWERS[i % POWERS.length]!, loc: id };
      })
      .sort((a, b) => (a.loc < b.loc ? -1 : 1));
    expect(units.length).toBeGreaterThan(64);
    const position: Position = { phase: { year: 1905, season: 'spring', kind: 'movement' }, units, centres: {}, dislodged: [] };
    // Everyone attacks a neighbour: with every province full, only supported attacks get in.
    const orders: Order[] = units.map((u) => legalOrdersForUnit(position, u.loc, STANDARD_MAP).find((o) => o.kind === 'move')!).filter(Boolean);
    const full = adjudicate(position, orders);
    expect(full.results.slice(0, units.length)).toHaveLength(units.length);
    const small = adjudicate({ ...position, units: units.slice(0, 3) }, []);
    expect(small.next.units).toEqual(units.slice(0, 3));
    expect(JSON.stringify(adjudicate(position, orders))).toBe(JSON.stringify(full));
  });
});

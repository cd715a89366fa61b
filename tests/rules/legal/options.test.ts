// The legal-order list and the adjudicator agree, in both directions, on random positions of
// every variant (its map, its rule switches, its neutral powers): every order the list offers for
// a unit is adjudicated as not illegal, and every order of any shape the adjudicator accepts for
// the unit is in the list (once read the way the adjudicator reads it: helpers.ts, canonical).
// The adjudicator judges through its results only (judge.ts).
import { describe, expect, it } from 'vitest';
import {
  POWERS,
  VARIANTS,
  adjudicate,
  adjustmentOrders,
  legalOrdersForUnit,
  locsOf,
  provinceOf,
  variantPhase,
  type Order,
  type Phase,
  type Position,
  type Power,
  type Variant,
  type VariantPhaseSetup,
} from '../../../src/rules';
import { picker } from '../../../src/util/prng';
import { attackOrders, key, movementCandidates, nearby, oneOf, placesOf, randomPosition, type Pick } from './helpers';
import { judge, newTally, type Item, type Tally } from './judge';

/** Random movement positions per variant setup (16 setups: thousands in all). */
const POSITIONS = 130;
/** Share of the provinces holding a unit: from DENSITY_MIN to DENSITY_MIN + DENSITY_SPREAD %. */
const DENSITY_MIN = 0.05;
const DENSITY_SPREAD = 30;
/** Candidate orders of any shape tried per unit and position, besides every offered one. */
const CANDIDATES = 20;

/** Every phase setup of a variant: the start, and for the two-player games Italy after the toss. */
function setupsOf(variant: Variant): { name: string; setup: VariantPhaseSetup }[] {
  const out = [{ name: variant.id, setup: variantPhase(variant, variant.start.phase, null) }];
  if (variant.toss) {
    const after: Phase = { year: variant.toss.year + 1, season: 'spring', kind: 'movement' };
    out.push({ name: `${variant.id} after the toss`, setup: variantPhase(variant, after, variant.seats[0]!.id) });
  }
  return out;
}

/** Checks a movement position; returns every unit's legal orders. */
function checkMovement(pick: Pick, setup: VariantPhaseSetup, position: Position, where: string, tally: Tally): Map<string, Order[]> {
  const neutral = new Set<Power>(setup.neutral);
  const legal = new Map(position.units.map((u) => [u.loc, legalOrdersForUnit(position, u.loc, setup.map)] as const));
  const queues = position.units
    .filter((u) => !neutral.has(u.power))
    .map((unit) => {
      const offered = legal.get(unit.loc)!;
      const items: Item[] = [
        ...offered.map((order) => ({ order, offered: true })),
        ...movementCandidates(pick, setup.map, position, unit, CANDIDATES).map((order) => ({ order, offered: false })),
      ];
      return { unit, offered: new Set(offered.map(key)), items };
    });
  judge(position, setup, queues, where, tally);
  return legal;
}

function checkRetreats(pick: Pick, setup: VariantPhaseSetup, position: Position, where: string, tally: Tally): void {
  const all = placesOf(setup.map);
  const queues = position.dislodged.map(({ unit }) => {
    const offered = legalOrdersForUnit(position, unit.loc, setup.map);
    const power = unit.power;
    const ref = { type: unit.type, loc: pick(2) === 0 ? provinceOf(unit.loc) : unit.loc };
    const items: Item[] = offered.map((order) => ({ order, offered: true }));
    const places = [...nearby(setup.map, unit.loc), ...Array.from({ length: 5 }, () => oneOf(pick, all))];
    for (const to of places) {
      const shape = pick(4);
      const order: Order =
        shape === 0
          ? { kind: 'move', power, unit: ref, to }
          : shape === 1
            ? { kind: 'move', power, unit: ref, to, viaConvoy: true }
            : { kind: 'retreat', power, unit: ref, to };
      items.push({ order, offered: false });
    }
    items.push({ order: { kind: 'disband', power, unit: ref }, offered: false }, { order: { kind: 'remove', power, unit: ref }, offered: false });
    return { unit, offered: new Set(offered.map(key)), items };
  });
  judge(position, setup, queues, where, tally);
}

/** Adjustment orders are taken in the order given (a build uses up one of those due), so each
 *  candidate is adjudicated alone. */
function checkAdjustments(pick: Pick, setup: VariantPhaseSetup, position: Position, where: string, tally: Tally): void {
  const map = setup.map;
  const all = placesOf(map);
  for (const power of POWERS.filter((p) => !setup.neutral.includes(p))) {
    const { builds, removals } = adjustmentOrders(position, power, map);
    const offered = [...builds, ...removals];
    const homes = Object.keys(map.provinces).filter((id) => map.provinces[id]!.home === power);
    const places = [...homes.flatMap((h) => locsOf(map, h)), ...Array.from({ length: 3 }, () => oneOf(pick, all))];
    const mine = position.units.filter((u) => u.power === power);
    const candidates: Order[] = [
      ...places.flatMap((loc): Order[] => [
        { kind: 'build', power, unit: { type: 'A', loc } },
        { kind: 'build', power, unit: { type: 'F', loc } },
      ]),
      ...[...mine.map((u) => u.loc), ...mine.map((u) => provinceOf(u.loc)), oneOf(pick, all)].flatMap((loc): Order[] => [
        { kind: 'remove', power, unit: { type: pick(2) === 0 ? 'A' : 'F', loc } },
        { kind: 'disband', power, unit: { type: 'A', loc } },
      ]),
    ];
    const items: Item[] = [...offered.map((order) => ({ order, offered: true })), ...candidates.map((order) => ({ order, offered: false }))];
    // One queue: one order per adjudication.
    judge(position, setup, [{ offered: new Set(offered.map(key)), items }], where, tally);
  }
}

describe('the legal-order list is what the adjudicator accepts', () => {
  for (const variant of VARIANTS) {
    for (const { name, setup } of setupsOf(variant)) {
      it(`${name}: movement, retreats and adjustments on ${POSITIONS} random positions`, () => {
        const tally = newTally();
        const pick = picker(name.split('').reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
        const phase = setup.phase;
        for (let i = 0; i < POSITIONS; i++) {
          const position = randomPosition(pick, setup.map, phase, DENSITY_MIN + pick(DENSITY_SPREAD) / 100);
          const legal = checkMovement(pick, setup, position, `${name} #${i}`, tally);
          tally.positions += 1;
          // A retreat phase: supported attacks dislodge some units.
          const orders = attackOrders(pick, position, legal, 3, new Set(setup.neutral));
          const next = adjudicate(position, orders, setup.options).next;
          if (next.phase.kind === 'retreat') {
            checkRetreats(pick, setup, next, `${name} #${i} retreat`, tally);
            tally.retreatPositions += 1;
          }
          if (i % 5 === 0) {
            const winter = randomPosition(pick, setup.map, { ...phase, season: 'winter', kind: 'adjustment' }, 0.1 + pick(40) / 100);
            checkAdjustments(pick, setup, winter, `${name} #${i} adjustment`, tally);
            tally.adjustmentPositions += 1;
          }
        }
        expect(tally.failures.slice(0, 10)).toEqual([]);
        // The positions must exercise every kind of order, offered and not.
        for (const kind of ['hold', 'move', 'support', 'convoy', 'build', 'remove']) expect(tally.offered[kind] ?? 0, kind).toBeGreaterThan(0);
        for (const kind of ['move', 'support', 'convoy', 'build', 'remove']) expect(tally.acceptedOthers[kind] ?? 0, kind).toBeGreaterThan(5);
        expect(tally.refused).toBeGreaterThan(1000);
        if (!setup.options.rules?.destroyDislodged) expect(tally.retreatPositions).toBeGreaterThan(POSITIONS / 4);
        if (!setup.options.rules?.destroyDislodged) expect(tally.offered['retreat'] ?? 0).toBeGreaterThan(0);
      });
    }
  }

  it('covers thousands of positions', () => {
    expect(VARIANTS.flatMap(setupsOf).length * POSITIONS).toBeGreaterThanOrEqual(2000);
  });
});

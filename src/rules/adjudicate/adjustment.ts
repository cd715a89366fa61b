// The Winter adjustment phase (seed 002, "Fase de Construcción y Eliminación de Unidades").
// Each power's orders are taken one by one in the order it gave them, so with too many builds
// or removals the first valid ones count (DATC 4.D.4-4.D.6); a waive uses up a build (4.D.7).
// Builds go only into free home centres the power still owns, a fleet only on a coast and, in a
// split-coast province, only with its coast named (4.B.7); a second build in one province fails.
// Removals owed but not ordered, and all removals of a power in civil disorder, follow the
// distance rule of civil-disorder.ts. A power in civil disorder builds nothing (seed 000 XV.4).
// As in the retreat phase, the unit type of a removal is not checked, and 'disband' reads as
// 'remove'. An army's coast in a build order is ignored (DATC 4.C.3 / 4.B.6).
import { coastOf, provinceOf } from '../map';
import { POWERS } from '../types';
import type { GameMap, IllegalReason, Loc, Order, OrderResult, Position, Power, Unit } from '../types';
import { centreCounts, unitCounts } from './centres';
import { removalPriority } from './civil-disorder';
import { sortUnits } from './units';
import type { RemovalRule } from './options';

export interface AdjustmentOutcome {
  /** Per power in POWERS order: one per order as given, then one per automatic removal. */
  readonly results: readonly OrderResult[];
  readonly units: readonly Unit[];
}

function illegal(order: Order, why: IllegalReason): OrderResult {
  return { order, success: false, reason: { kind: 'illegal', why } };
}

export type BuildCheck = { readonly unit: Unit } | { readonly illegal: IllegalReason };

export function checkBuild(
  order: Extract<Order, { kind: 'build' }>,
  position: Position,
  map: GameMap,
  occupied: ReadonlySet<string>,
  builtIn: ReadonlySet<string>,
): BuildCheck {
  const id = provinceOf(order.unit.loc);
  const province = map.provinces[id];
  if (province === undefined || !province.supplyCentre || province.home !== order.power) return { illegal: 'not-home-centre' };
  if (position.centres[id] !== order.power) return { illegal: 'centre-not-owned' };
  if (builtIn.has(id)) return { illegal: 'duplicate-order' };
  if (occupied.has(id)) return { illegal: 'centre-occupied' };
  let loc: Loc = id;
  if (order.unit.type === 'F') {
    if (province.kind !== 'coast') return { illegal: 'inland-fleet' };
    if (province.coasts !== undefined && province.coasts.length > 0) {
      const coast = coastOf(order.unit.loc);
      if (coast === undefined || !province.coasts.includes(coast)) return { illegal: 'coast-required' };
      loc = `${id}/${coast}`;
    }
  } else if (province.kind === 'sea') {
    return { illegal: 'not-home-centre' };
  }
  return { unit: { type: order.unit.type, power: order.power, loc } };
}

function adjustPower(
  power: Power,
  orders: readonly Order[],
  position: Position,
  map: GameMap,
  inDisorder: boolean,
  rule: RemovalRule,
): { results: OrderResult[]; built: Unit[]; removed: Set<Loc> } {
  const results: OrderResult[] = [];
  const built: Unit[] = [];
  const removed = new Set<Loc>();
  const surplus = centreCounts(position)[power] - unitCounts(position)[power];
  let builds = inDisorder ? 0 : Math.max(0, surplus);
  let removals = Math.max(0, -surplus);
  const occupied = new Set(position.units.map((u) => provinceOf(u.loc)));
  const builtIn = new Set<string>();

  for (const order of orders) {
    if (inDisorder) {
      results.push({ order, success: false, reason: { kind: 'void' } });
    } else if (order.kind === 'build') {
      const check = checkBuild(order, position, map, occupied, builtIn);
      if ('illegal' in check) results.push(illegal(order, check.illegal));
      else if (builds === 0) results.push(illegal(order, 'no-build-allowed'));
      else {
        builds -= 1;
        builtIn.add(provinceOf(check.unit.loc));
        built.push(check.unit);
        results.push({ order, success: true });
      }
    } else if (order.kind === 'waive') {
      if (builds === 0) results.push(illegal(order, 'no-build-allowed'));
      else {
        builds -= 1;
        results.push({ order, success: true });
      }
    } else if (order.kind === 'remove' || order.kind === 'disband') {
      const province = provinceOf(order.unit.loc);
      const unit = position.units.find((u) => u.power === power && provinceOf(u.loc) === province);
      if (unit === undefined) results.push(illegal(order, 'no-such-unit'));
      else if (removed.has(unit.loc)) results.push(illegal(order, 'duplicate-order'));
      else if (removals === 0) results.push(illegal(order, 'no-removal-needed'));
      else {
        removals -= 1;
        removed.add(unit.loc);
        results.push({ order, success: true });
      }
    } else {
      results.push(illegal(order, 'wrong-phase'));
    }
  }

  if (removals > 0) {
    const chosen = removalPriority(position, power, map, rule).filter((u) => !removed.has(u.loc));
    for (const unit of chosen.slice(0, removals)) {
      removed.add(unit.loc);
      const order: Order = { kind: 'remove', power, unit: { type: unit.type, loc: unit.loc } };
      results.push({ order, success: true, reason: { kind: 'no-order' } });
    }
  }
  return { results, built, removed };
}

export function adjudicateAdjustments(
  position: Position,
  orders: readonly Order[],
  map: GameMap,
  civilDisorder: ReadonlySet<Power>,
  rule: RemovalRule,
): AdjustmentOutcome {
  const results: OrderResult[] = [];
  const kept: Unit[] = [];
  const removedAll = new Set<Loc>();
  const builtAll: Unit[] = [];
  for (const power of POWERS) {
    const mine = orders.filter((o) => o.power === power);
    const outcome = adjustPower(power, mine, position, map, civilDisorder.has(power), rule);
    results.push(...outcome.results);
    for (const loc of outcome.removed) removedAll.add(loc);
    builtAll.push(...outcome.built);
  }
  for (const unit of position.units) if (!removedAll.has(unit.loc)) kept.push(unit);
  return { results, units: sortUnits([...kept, ...builtAll]) };
}

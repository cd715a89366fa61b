// The retreat phase (seed 002, "Fase de Retirada y Disolución"): each dislodged unit retreats
// to one of the places found for it in the movement phase, or is disbanded. Two or more
// retreats to one province disband them all; a unit without a valid order is disbanded.
// Supports and convoys do not exist here; orders for units that were not dislodged are illegal.
//
// Poorly written orders with one meaning are followed (seed 002; DATC 4.B.2, 4.B.6, 4.C.2):
// the unit type in the order is not checked, a 'move' is read as a retreat and a 'remove' as a
// disband, a fleet may omit the coast when only one coast is open, and an army's coast is ignored.
import { coastOf, provinceOf } from '../map';
import type { Dislodged, GameMap, IllegalReason, Loc, Order, OrderResult, Position, Power, Unit } from '../types';

export interface RetreatOutcome {
  /** One per dislodged unit (sorted by its loc), then one per order that fitted none, in order. */
  readonly results: readonly OrderResult[];
  /** The dislodged units that retreated, at their new locations. */
  readonly retreated: readonly Unit[];
}

export type Target = { readonly loc: Loc } | { readonly illegal: IllegalReason };

export function retreatTarget(d: Dislodged, to: Loc, map: GameMap): Target {
  const province = provinceOf(to);
  const open = d.retreats.filter((loc) => provinceOf(loc) === province);
  const [only] = open;
  if (only === undefined) return { illegal: 'retreat-not-allowed' };
  if (open.includes(to)) return { loc: to };
  const coast = coastOf(to);
  const hasCoasts = (map.provinces[province]?.coasts?.length ?? 0) > 0;
  if (d.unit.type === 'A' || !hasCoasts) return { loc: only };
  if (coast === undefined) return open.length === 1 ? { loc: only } : { illegal: 'coast-required' };
  return { illegal: 'retreat-not-allowed' };
}

function illegal(order: Order, why: IllegalReason): OrderResult {
  return { order, success: false, reason: { kind: 'illegal', why } };
}

export function adjudicateRetreats(position: Position, orders: readonly Order[], map: GameMap, civilDisorder: ReadonlySet<Power>): RetreatOutcome {
  const dislodged = [...position.dislodged].sort((a, b) => (a.unit.loc < b.unit.loc ? -1 : a.unit.loc > b.unit.loc ? 1 : 0));
  const chosen = new Map<Dislodged, Order>();
  const stray: OrderResult[] = [];

  for (const order of orders) {
    if (civilDisorder.has(order.power)) {
      stray.push({ order, success: false, reason: { kind: 'void' } });
      continue;
    }
    if (order.kind !== 'retreat' && order.kind !== 'disband' && order.kind !== 'move' && order.kind !== 'remove') {
      stray.push(illegal(order, 'wrong-phase'));
      continue;
    }
    const province = provinceOf(order.unit.loc);
    const d = dislodged.find((x) => x.unit.power === order.power && provinceOf(x.unit.loc) === province);
    if (d === undefined) {
      const standing = position.units.some((u) => u.power === order.power && provinceOf(u.loc) === province);
      stray.push(illegal(order, standing ? 'not-dislodged' : 'no-such-unit'));
    } else if (chosen.has(d)) {
      stray.push(illegal(order, 'duplicate-order'));
    } else {
      chosen.set(d, order);
    }
  }

  const results = new Map<Dislodged, OrderResult>();
  const going = new Map<Dislodged, Loc>();
  for (const d of dislodged) {
    const order = chosen.get(d);
    if (order === undefined) {
      const disband: Order = { kind: 'disband', power: d.unit.power, unit: { type: d.unit.type, loc: d.unit.loc } };
      results.set(d, { order: disband, success: true, reason: { kind: 'no-order' } });
    } else if (order.kind === 'disband' || order.kind === 'remove') {
      results.set(d, { order, success: true });
    } else if (order.kind === 'move' && order.viaConvoy === true) {
      // Retreats may not use a convoy (seed 002, "Anotación de las órdenes de retirada").
      results.set(d, illegal(order, 'retreat-not-allowed'));
    } else if (order.kind === 'retreat' || order.kind === 'move') {
      const target = retreatTarget(d, order.to, map);
      if ('illegal' in target) results.set(d, illegal(order, target.illegal));
      else going.set(d, target.loc);
    }
  }

  // Retreats into one province all fail, whatever their coasts (seed 002, "Disolución").
  const byProvince = new Map<string, Dislodged[]>();
  for (const [d, loc] of going) {
    const key = provinceOf(loc);
    byProvince.set(key, [...(byProvince.get(key) ?? []), d]);
  }
  const retreated: Unit[] = [];
  for (const [d, loc] of going) {
    const order = chosen.get(d) as Order;
    const rivals = (byProvince.get(provinceOf(loc)) ?? []).filter((x) => x !== d);
    if (rivals.length > 0) {
      results.set(d, { order, success: false, reason: { kind: 'bounced', with: rivals.map((x) => x.unit.loc).sort() } });
    } else {
      results.set(d, { order, success: true });
      retreated.push({ ...d.unit, loc });
    }
  }

  return { results: [...dislodged.map((d) => results.get(d) as OrderResult), ...stray], retreated };
}

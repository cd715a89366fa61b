// The "1914" rule "En cada jugada se deben dar órdenes de combate a todas las fuerzas" (seed 001):
// which of a power's units have no order in a movement phase. The protocol's seal helper refuses
// to seal while this is not empty; the engine itself never needs it (a unit without order holds).
import { provinceOf } from '../map';
import type { Order, Position, Power, Unit } from '../types';

export function missingOrders(position: Position, power: Power, orders: readonly Order[]): Unit[] {
  if (position.phase.kind !== 'movement') return [];
  const ordered = new Set(orders.filter((o) => o.power === power && 'unit' in o).map((o) => ('unit' in o ? provinceOf(o.unit.loc) : '')));
  return position.units.filter((u) => u.power === power && !ordered.has(provinceOf(u.loc)));
}

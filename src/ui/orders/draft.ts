// The orders a player is preparing, before they are sealed: a plain value and a pure reducer,
// so the protocol layer can seal exactly what the screen shows.
import { provinceOf } from '../../rules';
import type { Order, Position, Power, Unit } from '../../rules';

/** At most one order per unit (per province), kept sorted by that key. */
export type Draft = readonly Order[];

export type DraftAction =
  | { readonly type: 'set'; readonly order: Order }
  /** Orders typed as text: each replaces the drafted order of its unit. */
  | { readonly type: 'set-many'; readonly orders: readonly Order[] }
  | { readonly type: 'clear'; readonly key: string }
  | { readonly type: 'clear-all' };

/** The unit's province: a later order for the same unit replaces the earlier one. */
export function draftKey(order: Order): string {
  return order.kind === 'waive' ? `waive:${order.power}` : provinceOf(order.unit.loc);
}

function put(draft: Draft, order: Order): Draft {
  const key = draftKey(order);
  return [...draft.filter((o) => draftKey(o) !== key), order].sort((a, b) => (draftKey(a) < draftKey(b) ? -1 : draftKey(a) > draftKey(b) ? 1 : 0));
}

export function draftReducer(draft: Draft, action: DraftAction): Draft {
  switch (action.type) {
    case 'set':
      return put(draft, action.order);
    case 'set-many':
      return action.orders.reduce(put, draft);
    case 'clear':
      return draft.filter((o) => draftKey(o) !== action.key);
    case 'clear-all':
      return [];
  }
}

/** Units of `powers` that have no order yet in a movement or retreat phase (they would hold or disband). */
export function unitsWithoutOrders(position: Position, draft: Draft, powers: readonly Power[]): Unit[] {
  const ordered = new Set(draft.map(draftKey));
  const units = position.phase.kind === 'retreat' ? position.dislodged.map((d) => d.unit) : position.phase.kind === 'movement' ? position.units : [];
  return units.filter((u) => powers.includes(u.power) && !ordered.has(provinceOf(u.loc)));
}

// Neutral powers of the games for fewer than seven players (seed 000 XV.3, seed 002 "Modo de
// juego alternativo", seed 001 "Reglas para distinto número de jugadores"): nobody plays them;
// their units hold in place and never support each other, anyone may support them to hold,
// a dislodged neutral unit is destroyed (no retreat) and a neutral power never builds.
//
// Orders given in a neutral power's name are discarded, so its units hold with no order. Under
// the "1914" consent rule (a foreign support counts only if the supported power's orders name
// it) a neutral power cannot consent, yet seed 001 says its units "pueden ser apoyadas ... por
// ejércitos de cualquier otra potencia": so consent is written here on its behalf for every
// support of one of its units, and those written-in orders are left out of the results.
import { provinceOf } from '../map';
import type { Order, OrderResult, Position, Power } from '../types';

/** Accepted by adjudicate() next to AdjudicateOptions (types.ts has no field for it). */
export interface NeutralOptions {
  /** Powers nobody plays in this game (e.g. Italy with six players). */
  readonly neutral?: readonly Power[];
}

type SupportOrder = Extract<Order, { kind: 'support' }>;

const NO_ORDERS: ReadonlySet<Order> = new Set();

/** The orders the movement resolver should see, and the consent orders written for neutrals. */
export function neutralMovementOrders(
  position: Position,
  orders: readonly Order[],
  neutral: ReadonlySet<Power>,
  supportNeedsConsent: boolean,
): { orders: readonly Order[]; consents: ReadonlySet<Order> } {
  if (neutral.size === 0) return { orders, consents: NO_ORDERS };
  const kept = orders.filter((o) => !neutral.has(o.power));
  const consents = new Set<Order>();
  if (supportNeedsConsent) {
    const owner = new Map(position.units.map((u) => [provinceOf(u.loc), u.power] as const));
    for (const o of kept) {
      if (o.kind !== 'support') continue;
      const supported = owner.get(provinceOf(o.supported.loc));
      if (supported === undefined || !neutral.has(supported) || supported === o.power) continue;
      const consent: SupportOrder = { ...o, power: supported };
      consents.add(consent);
    }
  }
  return { orders: [...kept, ...consents], consents };
}

/** Results without the consent orders written on a neutral's behalf. */
export function withoutConsents(results: OrderResult[], consents: ReadonlySet<Order>): OrderResult[] {
  return consents.size === 0 ? results : results.filter((r) => !consents.has(r.order));
}

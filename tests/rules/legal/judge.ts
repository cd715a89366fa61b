// The judge of the legal-order tests: the adjudicator, through its results only. Legality does
// not depend on the other orders, so one adjudication tries one order for every unit at once.
// One case needs more: an army told to go "via convoy" to a neighbour with no fleets to carry it
// is turned into a hold ("no-convoy-route"), which reads like a legal convoyed move no fleet
// happened to convoy; such an order is tried again with every fleet at sea ordered to convoy it.
import {
  adjudicate,
  provinceOf,
  type Adjudication,
  type GameMap,
  type Order,
  type OrderResult,
  type Position,
  type Unit,
  type VariantPhaseSetup,
} from '../../../src/rules';
import { canonical, key } from './helpers';

export interface Tally {
  offered: Record<string, number>;
  acceptedOthers: Record<string, number>;
  refused: number;
  positions: number;
  retreatPositions: number;
  adjustmentPositions: number;
  failures: string[];
}

export const newTally = (): Tally => ({ offered: {}, acceptedOthers: {}, refused: 0, positions: 0, retreatPositions: 0, adjustmentPositions: 0, failures: [] });
export const bump = (m: Record<string, number>, k: string): void => {
  m[k] = (m[k] ?? 0) + 1;
};

export const resultsByOrder = (adj: Adjudication): Map<Order, OrderResult> => new Map(adj.results.map((r) => [r.order, r]));

function asksConvoyToNeighbour(o: Order, map: GameMap, unit: Unit): boolean {
  return o.kind === 'move' && o.viaConvoy === true && unit.type === 'A' && (map.armyEdges[provinceOf(unit.loc)] ?? []).includes(provinceOf(o.to));
}

/** Is the army's move "via convoy" carried when every fleet at sea convoys it? (Neutral fleets
 *  too: legality counts them, and only whose orders are read depends on neutrality.) */
function carried(position: Position, setup: VariantPhaseSetup, o: Extract<Order, { kind: 'move' }>): boolean {
  const army = provinceOf(o.unit.loc);
  const to = provinceOf(o.to);
  const convoys: Order[] = position.units
    .filter((f) => f.type === 'F' && setup.map.provinces[provinceOf(f.loc)]?.kind === 'sea')
    .map((f) => ({ kind: 'convoy', power: f.power, unit: { type: 'F', loc: f.loc }, army, to }));
  const adj = adjudicate(position, [o, ...convoys], { ...setup.options, neutral: [] });
  return resultsByOrder(adj).get(o)?.reason?.kind !== 'no-convoy-route';
}

export interface Item {
  readonly order: Order;
  readonly offered: boolean;
}

/** Tries each unit's items, one per unit per adjudication, and checks both directions. */
export function judge(
  position: Position,
  setup: VariantPhaseSetup,
  queues: readonly { unit?: Unit; offered: ReadonlySet<string>; items: readonly Item[] }[],
  where: string,
  tally: Tally,
): void {
  const rounds = Math.max(0, ...queues.map((q) => q.items.length));
  for (let r = 0; r < rounds; r++) {
    const orders = queues.flatMap((q) => (q.items[r] ? [q.items[r]!.order] : []));
    const results = resultsByOrder(adjudicate(position, orders, setup.options));
    for (const q of queues) {
      const item = q.items[r];
      if (!item) continue;
      const o = item.order;
      const result = results.get(o);
      if (!result) {
        tally.failures.push(`${where}: no result for ${key(o)}`);
        continue;
      }
      let accepted = result.reason?.kind !== 'illegal';
      if (accepted && result.reason?.kind === 'no-convoy-route' && q.unit && asksConvoyToNeighbour(o, setup.map, q.unit)) {
        accepted = carried(position, setup, o as Extract<Order, { kind: 'move' }>);
      }
      if (item.offered) {
        bump(tally.offered, o.kind);
        if (!accepted) tally.failures.push(`${where}: offered ${key(o)}, adjudicated ${JSON.stringify(result.reason)}`);
      } else if (accepted) {
        bump(tally.acceptedOthers, o.kind);
        const c = key(canonical(o, position, setup.map));
        if (!q.offered.has(c)) tally.failures.push(`${where}: accepted ${key(o)} (read as ${c}), not offered`);
      } else {
        tally.refused += 1;
      }
    }
  }
}

// The standard board: provinces plus the adjacency built from edges.ts.
import type { GameMap, Loc, ProvinceId } from '../types';
import { buildSymmetric } from './build';
import { ARMY_EDGE_SOURCE, FLEET_EDGE_SOURCE } from './edges';
import { STANDARD_PROVINCES } from './provinces';

const ids: ProvinceId[] = Object.keys(STANDARD_PROVINCES).sort();

// Where a fleet can stand: every sea, every coastal province without split coasts, and each
// split coast. Inland provinces, Switzerland and bare 'spa'/'stp'/'bul' have no fleetEdges entry.
const fleetLocs: Loc[] = ids.flatMap((id) => {
  const p = STANDARD_PROVINCES[id]!;
  if (p.kind === 'sea') return [id];
  if (p.kind !== 'coast') return [];
  return p.coasts ? p.coasts.map((c) => `${id}/${c}`) : [id];
});

/** The standard 1901 board. armyEdges has an entry for every province (empty for seas and
 *  Switzerland); fleetEdges has an entry for every place a fleet can stand. */
export const STANDARD_MAP: GameMap = {
  provinces: STANDARD_PROVINCES,
  armyEdges: buildSymmetric(ARMY_EDGE_SOURCE, ids),
  fleetEdges: buildSymmetric(FLEET_EDGE_SOURCE, fleetLocs),
};

// Which units go when a power owes removals it did not order (civil disorder, or too few
// removal orders). The rule, and the choices made where the rulebooks leave room:
//
// 'home-centres' (default) — seed 000 XV.5 (the 1971/1982 rule): remove first the unit most
// distant from its power's nearest home supply centre (owned or not), "by the shortest route,
// including a possible convoy", fleets before armies at equal distance, then by province name.
// Seed 002 says "farthest from the nation"; we read the nation as its home centres, as
// DATC 4.D.8 reports the community always did. Counting, per DATC v2's consensus:
//   - an army counts one step per province entered, and may walk over sea provinces (a convoy),
//     so its distance is over every adjacency of the board, land or sea;
//   - a fleet counts ordinary fleet moves, coast by coast; either coast of a home centre counts.
//
// 'owned-centres' — the 2023 rulebook as DATC v3.1 §6.J tests it: distance to the nearest centre
// the power owns, counting every adjacency regardless of unit type, and units standing on any
// supply centre are kept while others can go.
//
// Ties are broken by the full province name in Spanish, the language of the rulebooks we follow
// (seed 000 XV.5: "nombres completos ... en una clasificación alfabética"; seed 002: "en orden
// alfabético por las regiones"), compared without accents or case, then by location. DATC 4.D.8
// would use English names; the rulebooks win (README, rule choices).
import { provinceOf } from '../map';
import type { GameMap, Loc, Position, Power, ProvinceId, Unit } from '../types';
import type { RemovalRule } from './options';

const boardAdjacency = new WeakMap<GameMap, ReadonlyMap<ProvinceId, readonly ProvinceId[]>>();

/** Province-level adjacency over land and sea together (army edges plus fleet edges). */
function anyAdjacency(map: GameMap): ReadonlyMap<ProvinceId, readonly ProvinceId[]> {
  const cached = boardAdjacency.get(map);
  if (cached) return cached;
  const sets = new Map<ProvinceId, Set<ProvinceId>>();
  const link = (a: ProvinceId, b: ProvinceId): void => {
    if (a === b) return;
    let set = sets.get(a);
    if (!set) sets.set(a, (set = new Set()));
    set.add(b);
  };
  for (const from of Object.keys(map.armyEdges).sort()) {
    for (const to of map.armyEdges[from] ?? []) link(from, to);
  }
  for (const from of Object.keys(map.fleetEdges).sort()) {
    for (const to of map.fleetEdges[from] ?? []) link(provinceOf(from), provinceOf(to));
  }
  const out = new Map<ProvinceId, readonly ProvinceId[]>();
  for (const id of [...sets.keys()].sort()) out.set(id, [...(sets.get(id) ?? [])].sort());
  boardAdjacency.set(map, out);
  return out;
}

/** Breadth-first distances from every source at once, over `neighbours`. */
function distancesFrom(sources: readonly string[], neighbours: (node: string) => readonly string[]): Map<string, number> {
  const dist = new Map<string, number>();
  let frontier = [...new Set(sources)].sort();
  for (const s of frontier) dist.set(s, 0);
  for (let d = 1; frontier.length > 0; d++) {
    const next: string[] = [];
    for (const node of frontier) {
      for (const n of neighbours(node)) {
        if (!dist.has(n)) {
          dist.set(n, d);
          next.push(n);
        }
      }
    }
    frontier = next;
  }
  return dist;
}

function targetProvinces(position: Pick<Position, 'centres'>, power: Power, map: GameMap, rule: RemovalRule): ProvinceId[] {
  if (rule === 'owned-centres')
    return Object.keys(position.centres)
      .filter((id) => position.centres[id] === power)
      .sort();
  return Object.keys(map.provinces)
    .filter((id) => map.provinces[id]?.supplyCentre === true && map.provinces[id]?.home === power)
    .sort();
}

/** Distance of each unit of `power` under `rule` (Infinity when no route exists). */
export function removalDistances(position: Pick<Position, 'units' | 'centres'>, power: Power, map: GameMap, rule: RemovalRule): Map<Loc, number> {
  const targets = new Set(targetProvinces(position, power, map, rule));
  const adjacency = anyAdjacency(map);
  const byProvince = distancesFrom([...targets], (p) => adjacency.get(p) ?? []);
  const fleetSources = Object.keys(map.fleetEdges).filter((loc) => targets.has(provinceOf(loc)));
  const byFleetLoc = distancesFrom(fleetSources, (loc) => map.fleetEdges[loc] ?? []);
  const out = new Map<Loc, number>();
  for (const unit of position.units) {
    if (unit.power !== power) continue;
    const d = rule === 'home-centres' && unit.type === 'F' ? byFleetLoc.get(unit.loc) : byProvince.get(provinceOf(unit.loc));
    out.set(unit.loc, d ?? Number.POSITIVE_INFINITY);
  }
  return out;
}

function sortableName(map: GameMap, loc: Loc): string {
  const id = provinceOf(loc);
  const name = map.provinces[id]?.name.es ?? id;
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The power's units, first to be removed first. */
export function removalPriority(position: Pick<Position, 'units' | 'centres'>, power: Power, map: GameMap, rule: RemovalRule): Unit[] {
  const distance = removalDistances(position, power, map, rule);
  const onCentre = (u: Unit): number => (rule === 'owned-centres' && map.provinces[provinceOf(u.loc)]?.supplyCentre === true ? 1 : 0);
  const far = (u: Unit): number => distance.get(u.loc) ?? Number.POSITIVE_INFINITY;
  return position.units
    .filter((u) => u.power === power)
    .sort(
      (a, b) =>
        onCentre(a) - onCentre(b) ||
        (far(a) === far(b) ? 0 : far(a) > far(b) ? -1 : 1) ||
        (a.type === b.type ? 0 : a.type === 'F' ? -1 : 1) ||
        compareText(sortableName(map, a.loc), sortableName(map, b.loc)) ||
        compareText(a.loc, b.loc),
    );
}

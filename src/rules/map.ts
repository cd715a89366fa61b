// The board as data and the adjacency questions the rest of the engine asks of it.
// Every query takes the map first, so variants (a derived GameMap) use the same functions.
import type { Coast, GameMap, Loc, Power, ProvinceId, ProvinceKind, UnitType } from './types';

export { STANDARD_MAP } from './map/standard';
export { HOME_CENTRES, STARTING_POSITION, SUPPLY_CENTRES } from './map/start';

const NO_LOCS: readonly Loc[] = [];

/** 'stp/sc' -> 'stp'; 'par' -> 'par'. */
export function provinceOf(loc: Loc): ProvinceId {
  const slash = loc.indexOf('/');
  return slash < 0 ? loc : loc.slice(0, slash);
}

/** 'stp/sc' -> 'sc'; anything without a (known) coast -> undefined. */
export function coastOf(loc: Loc): Coast | undefined {
  const slash = loc.indexOf('/');
  if (slash < 0) return undefined;
  const coast = loc.slice(slash + 1);
  return coast === 'nc' || coast === 'sc' || coast === 'ec' ? coast : undefined;
}

/** Kind of the province a loc lies in; undefined for an unknown province. */
export function kindOf(map: GameMap, loc: Loc): ProvinceKind | undefined {
  return map.provinces[provinceOf(loc)]?.kind;
}

export function isSea(map: GameMap, loc: Loc): boolean {
  return kindOf(map, loc) === 'sea';
}

/** A land province with a coastline (fleets and armies may both stand there). */
export function isCoastal(map: GameMap, loc: Loc): boolean {
  return kindOf(map, loc) === 'coast';
}

/** An inland province (armies only). */
export function isLand(map: GameMap, loc: Loc): boolean {
  return kindOf(map, loc) === 'land';
}

/** Every place a unit can stand in a province: an army's loc is the province id, a fleet on a
 *  split coast stands on one of its coasts ('stp', 'stp/nc', 'stp/sc'); [] for impassable or
 *  unknown provinces. Sorted. */
export function locsOf(map: GameMap, province: ProvinceId): Loc[] {
  const p = map.provinces[province];
  if (!p || p.kind === 'impassable') return [];
  return [province, ...(p.coasts ?? []).map((c) => `${province}/${c}`)];
}

/** True if some unit could stand at `loc` (see locsOf). Which unit type may is a separate question. */
export function isValidLoc(map: GameMap, loc: Loc): boolean {
  return locsOf(map, provinceOf(loc)).includes(loc);
}

/** The coasts of a split-coast province ([] for any other province). */
export function coastsOf(map: GameMap, province: ProvinceId): readonly Coast[] {
  return map.provinces[province]?.coasts ?? [];
}

/** Whether a unit of this type may stand at `loc`: an army on any land province (never with a
 *  coast in its loc), a fleet at sea, on a coastal province, or on a named split coast. */
export function canStand(map: GameMap, type: UnitType, loc: Loc): boolean {
  if (type === 'F') return map.fleetEdges[loc] !== undefined;
  const kind = map.provinces[loc]?.kind;
  return kind === 'land' || kind === 'coast';
}

/** Where an army in `province` can move without a convoy. Sorted. */
export function armyNeighbours(map: GameMap, province: Loc): readonly ProvinceId[] {
  return map.armyEdges[provinceOf(province)] ?? NO_LOCS;
}

/** Army adjacency between provinces; coasts in either argument are ignored. */
export function isArmyAdjacent(map: GameMap, a: Loc, b: Loc): boolean {
  return (map.armyEdges[provinceOf(a)] ?? NO_LOCS).includes(provinceOf(b));
}

/** Where a fleet at `loc` can move, coast-specific; [] if no fleet can stand at `loc`
 *  (inland provinces and the bare id of a split-coast province). Sorted. */
export function fleetNeighbours(map: GameMap, loc: Loc): readonly Loc[] {
  return map.fleetEdges[loc] ?? NO_LOCS;
}

/** Exact, coast-specific fleet adjacency: 'mar' -> 'spa/sc' is true, 'mar' -> 'spa' is false. */
export function isFleetAdjacent(map: GameMap, from: Loc, to: Loc): boolean {
  return fleetNeighbours(map, from).includes(to);
}

/** The locs of `toProvince` that a fleet at `from` can move to (two for mao -> spa). Sorted. */
export function fleetCoastsReachable(map: GameMap, from: Loc, toProvince: ProvinceId): Loc[] {
  return fleetNeighbours(map, from).filter((loc) => provinceOf(loc) === toProvince);
}

/** Whether a unit could move into the province without a convoy: the test for a support
 *  (a fleet may support into a split-coast province if it can reach either coast). */
export function canUnitReachProvince(map: GameMap, type: UnitType, from: Loc, toProvince: ProvinceId): boolean {
  return type === 'A' ? isArmyAdjacent(map, from, toProvince) : fleetCoastsReachable(map, from, toProvince).length > 0;
}

/** The supply centres of any map, sorted (SUPPLY_CENTRES is this for the standard map). */
export function supplyCentresOf(map: GameMap): ProvinceId[] {
  return Object.keys(map.provinces)
    .filter((id) => map.provinces[id]?.supplyCentre)
    .sort();
}

/** A power's home centres on any map, sorted (HOME_CENTRES is this for the standard map). */
export function homeCentresOf(map: GameMap, power: Power): ProvinceId[] {
  return Object.keys(map.provinces)
    .filter((id) => map.provinces[id]?.home === power)
    .sort();
}

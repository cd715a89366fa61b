// Look-up tables derived once per GameMap, so the hot path of adjudication only does Map/Set
// look-ups instead of scanning the map's edge arrays.
import type { GameMap, Loc, ProvinceId, ProvinceKind } from '../types';

export interface Board {
  readonly map: GameMap;
  readonly kind: ReadonlyMap<ProvinceId, ProvinceKind>;
  readonly armyAdj: ReadonlyMap<ProvinceId, ReadonlySet<ProvinceId>>;
  readonly fleetAdj: ReadonlyMap<Loc, ReadonlySet<Loc>>;
  /** From a fleet location: for each province it touches, the locations of it that it reaches (sorted). */
  readonly fleetReach: ReadonlyMap<Loc, ReadonlyMap<ProvinceId, readonly Loc[]>>;
  /** Sea provinces a fleet can sail to from any coast of the province (sorted): the convoy graph. */
  readonly seasNear: ReadonlyMap<ProvinceId, readonly ProvinceId[]>;
  /** Provinces that have split coasts. */
  readonly splitCoasts: ReadonlySet<ProvinceId>;
  /** Bit of each sea in a sea set (convoy routes are searched on 32-bit sets of seas). */
  readonly seaBit: ReadonlyMap<ProvinceId, number>;
  /** For each province, the set of seas next to it (seasNear as bits). */
  readonly seaMaskNear: ReadonlyMap<ProvinceId, number>;
  /** For each sea's bit position, the seas next to that sea. */
  readonly seaLinks: Int32Array;
}

const EMPTY_SET: ReadonlySet<string> = new Set();
const EMPTY_LIST: readonly string[] = [];
const EMPTY_REACH: ReadonlyMap<ProvinceId, readonly Loc[]> = new Map();

export function provinceOf(loc: Loc): ProvinceId {
  const slash = loc.indexOf('/');
  return slash < 0 ? loc : loc.slice(0, slash);
}

export function hasCoast(loc: Loc): boolean {
  return loc.indexOf('/') >= 0;
}

const cache = new WeakMap<GameMap, Board>();

export function boardOf(map: GameMap): Board {
  let board = cache.get(map);
  if (!board) {
    board = buildBoard(map);
    cache.set(map, board);
  }
  return board;
}

function buildBoard(map: GameMap): Board {
  const kind = new Map<ProvinceId, ProvinceKind>();
  const splitCoasts = new Set<ProvinceId>();
  for (const id of Object.keys(map.provinces).sort()) {
    const p = map.provinces[id]!;
    kind.set(id, p.kind);
    if (p.coasts && p.coasts.length > 0) splitCoasts.add(id);
  }

  const armyAdj = new Map<ProvinceId, Set<ProvinceId>>();
  for (const from of Object.keys(map.armyEdges).sort()) {
    armyAdj.set(from, new Set(map.armyEdges[from]));
  }

  const fleetAdj = new Map<Loc, Set<Loc>>();
  const fleetReach = new Map<Loc, Map<ProvinceId, Loc[]>>();
  const seasNear = new Map<ProvinceId, Set<ProvinceId>>();
  const addSea = (p: ProvinceId, sea: ProvinceId) => {
    let s = seasNear.get(p);
    if (!s) seasNear.set(p, (s = new Set()));
    s.add(sea);
  };
  for (const from of Object.keys(map.fleetEdges).sort()) {
    const targets = [...map.fleetEdges[from]!].sort();
    fleetAdj.set(from, new Set(targets));
    const reach = new Map<ProvinceId, Loc[]>();
    for (const to of targets) {
      const p = provinceOf(to);
      const list = reach.get(p);
      if (list) list.push(to);
      else reach.set(p, [to]);
      // Convoy routes only run through seas; record each sea next to each province both ways.
      const fromProv = provinceOf(from);
      if (kind.get(p) === 'sea') addSea(fromProv, p);
      if (kind.get(fromProv) === 'sea') addSea(p, fromProv);
    }
    fleetReach.set(from, reach);
  }
  const seasSorted = new Map<ProvinceId, readonly ProvinceId[]>();
  for (const [p, s] of seasNear) seasSorted.set(p, [...s].sort());

  const seas = [...kind.keys()].filter((p) => kind.get(p) === 'sea');
  if (seas.length > 31) throw new Error(`a map with ${seas.length} seas: convoy routes support at most 31`);
  const seaBit = new Map<ProvinceId, number>();
  seas.forEach((sea, i) => seaBit.set(sea, 1 << i));
  const seaMaskNear = new Map<ProvinceId, number>();
  for (const [p, near] of seasSorted) {
    let mask = 0;
    for (const sea of near) mask |= seaBit.get(sea) ?? 0;
    seaMaskNear.set(p, mask);
  }
  const seaLinks = new Int32Array(32);
  seas.forEach((sea, i) => (seaLinks[i] = seaMaskNear.get(sea) ?? 0));

  return { map, kind, armyAdj, fleetAdj, fleetReach, seasNear: seasSorted, splitCoasts, seaBit, seaMaskNear, seaLinks };
}

export function armyNeighbours(board: Board, p: ProvinceId): ReadonlySet<ProvinceId> {
  return board.armyAdj.get(p) ?? EMPTY_SET;
}

export function fleetNeighbourLocs(board: Board, loc: Loc): ReadonlySet<Loc> {
  return board.fleetAdj.get(loc) ?? EMPTY_SET;
}

export function fleetReachOf(board: Board, loc: Loc): ReadonlyMap<ProvinceId, readonly Loc[]> {
  return board.fleetReach.get(loc) ?? EMPTY_REACH;
}

export function seasNearOf(board: Board, p: ProvinceId): readonly ProvinceId[] {
  return board.seasNear.get(p) ?? EMPTY_LIST;
}

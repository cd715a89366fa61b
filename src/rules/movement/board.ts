// Look-up tables derived once per GameMap. Adjudication works on small integers, not strings:
// every province and every coast of a split-coast province is a "place" with a number, and the
// questions the resolver asks (may this army move there? which coasts can this fleet reach?) are
// array reads. Strings are only met when orders are read in and when results are written out.
import type { GameMap, ProvinceKind } from '../types';

/** Province kinds as numbers (0: not a province). */
export const LAND = 1;
export const SEA = 2;
export const COAST = 3;
export const IMPASSABLE = 4;

const KIND_CODE: Readonly<Record<ProvinceKind, number>> = { land: LAND, sea: SEA, coast: COAST, impassable: IMPASSABLE };

export interface Board {
  readonly map: GameMap;
  /** Places 0 .. provinces-1 are the provinces, in id order; the coasts ('stp/nc') follow. */
  readonly provinces: number;
  /** Name of each place: a province id or a coast loc. */
  readonly names: readonly string[];
  /** Place of each province id and coast loc. */
  readonly index: ReadonlyMap<string, number>;
  /** Place + 1 of each three-letter lower-case name, indexed by its letters (see short()); 0
   *  if none. Most names in orders are these, and reading a table beats hashing a string. */
  readonly short: Int16Array;
  /** Province of each place. */
  readonly provOf: Int32Array;
  /** Kind of each province (LAND, SEA, COAST, IMPASSABLE). */
  readonly kind: Uint8Array;
  /** 1 for provinces with split coasts. */
  readonly split: Uint8Array;
  /** Army moves: armyAdj[a * provinces + b] is 1 when an army may move from province a to b. */
  readonly armyAdj: Uint8Array;
  /** Army neighbours of each province, by name. */
  readonly armyNear: readonly (readonly number[])[];
  /** Fleet moves between places: fleetAdj[a * places + b]. */
  readonly fleetAdj: Uint8Array;
  /** Fleet neighbours of each place, by name. */
  readonly fleetNear: readonly (readonly number[])[];
  /** From a fleet's place into a province (place * provinces + province): how many places of the
   *  province the fleet reaches, and the first of them by name. */
  readonly reachCount: Uint8Array;
  readonly reachFirst: Int32Array;
  /** Bit of each sea province in a sea set (convoy routes are searched on 32-bit sets); 0 for land. */
  readonly seaBit: Int32Array;
  /** For each province, the seas next to it, as bits. */
  readonly seaMaskNear: Int32Array;
  /** For each sea's bit position, the seas next to that sea. */
  readonly seaLinks: Int32Array;
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

const byName =
  (names: readonly string[]) =>
  (a: number, b: number): number =>
    names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0;

function buildBoard(map: GameMap): Board {
  const ids = Object.keys(map.provinces).sort();
  const n = ids.length;
  const coastLocs: string[] = [];
  for (const id of ids) for (const c of map.provinces[id]!.coasts ?? []) coastLocs.push(`${id}/${c}`);
  const names = [...ids, ...coastLocs];
  const places = names.length;
  const index = new Map<string, number>();
  names.forEach((name, i) => index.set(name, i));
  const short = new Int16Array(26 * 26 * 26);
  names.forEach((name, i) => {
    const k = shortKey(name);
    if (k >= 0) short[k] = i + 1;
  });
  const provOf = new Int32Array(places);
  names.forEach((name, i) => {
    const slash = name.indexOf('/');
    provOf[i] = slash < 0 ? i : index.get(name.slice(0, slash))!;
  });

  const kind = new Uint8Array(n);
  const split = new Uint8Array(n);
  ids.forEach((id, i) => {
    const p = map.provinces[id]!;
    kind[i] = KIND_CODE[p.kind];
    if (p.coasts && p.coasts.length > 0) split[i] = 1;
  });
  const placeOf = (name: string, edgeOf: string): number => {
    const i = index.get(name);
    if (i === undefined) throw new Error(`map edge ${edgeOf}-${name}: unknown place ${name}`);
    return i;
  };

  const armyAdj = new Uint8Array(n * n);
  const armyNear: number[][] = ids.map(() => []);
  for (const from of Object.keys(map.armyEdges)) {
    const a = placeOf(from, from);
    for (const to of map.armyEdges[from]!) {
      const b = placeOf(to, from);
      if (armyAdj[a * n + b]) continue;
      armyAdj[a * n + b] = 1;
      armyNear[a]!.push(b);
    }
  }
  for (const list of armyNear) list.sort(byName(names));

  const fleetAdj = new Uint8Array(places * places);
  const fleetNear: number[][] = names.map(() => []);
  const reachCount = new Uint8Array(places * n);
  const reachFirst = new Int32Array(places * n).fill(-1);
  for (const from of Object.keys(map.fleetEdges)) {
    const a = placeOf(from, from);
    for (const to of map.fleetEdges[from]!) {
      const b = placeOf(to, from);
      if (fleetAdj[a * places + b]) continue;
      fleetAdj[a * places + b] = 1;
      fleetNear[a]!.push(b);
    }
  }
  for (let a = 0; a < places; a++) {
    const near = fleetNear[a]!.sort(byName(names));
    for (const b of near) {
      const cell = a * n + provOf[b]!;
      if (reachCount[cell] === 0) reachFirst[cell] = b;
      reachCount[cell] = reachCount[cell]! + 1;
    }
  }

  // Convoy routes only run through seas: the seas next to each province, as bits.
  const seas = ids.map((_, i) => i).filter((i) => kind[i] === SEA);
  if (seas.length > 31) throw new Error(`a map with ${seas.length} seas: convoy routes support at most 31`);
  const seaBit = new Int32Array(n);
  seas.forEach((sea, k) => (seaBit[sea] = 1 << k));
  const seaMaskNear = new Int32Array(n);
  for (let a = 0; a < places; a++) {
    for (const b of fleetNear[a]!) {
      const pa = provOf[a]!;
      const pb = provOf[b]!;
      seaMaskNear[pa]! |= seaBit[pb]!;
      seaMaskNear[pb]! |= seaBit[pa]!;
    }
  }
  const seaLinks = new Int32Array(32);
  seas.forEach((sea, k) => (seaLinks[k] = seaMaskNear[sea]!));

  return {
    map,
    provinces: n,
    names,
    index,
    short,
    provOf,
    kind,
    split,
    armyAdj,
    armyNear,
    fleetAdj,
    fleetNear,
    reachCount,
    reachFirst,
    seaBit,
    seaMaskNear,
    seaLinks,
  };
}

/** Slot of a three-letter lower-case name in Board.short, or -1. */
function shortKey(name: string): number {
  if (name.length !== 3) return -1;
  const a = name.charCodeAt(0) - 97;
  const b = name.charCodeAt(1) - 97;
  const c = name.charCodeAt(2) - 97;
  // One unsigned test per letter: anything outside a..z wraps to a large number.
  return a >>> 0 < 26 && b >>> 0 < 26 && c >>> 0 < 26 ? (a * 26 + b) * 26 + c : -1;
}

/** The place a loc names, or -1. */
export function placeIn(board: Board, loc: string): number {
  const k = shortKey(loc);
  if (k >= 0) return board.short[k]! - 1;
  return board.index.get(loc) ?? -1;
}

/** The province of a loc as an order writes it, or -1 if the map has no such province. A coast
 *  the province lacks ('par/nc') still names the province: whether the coast matters is the
 *  caller's question. */
export function provinceIn(board: Board, loc: string): number {
  const place = placeIn(board, loc);
  if (place >= 0) return board.provOf[place]!;
  const slash = loc.indexOf('/');
  if (slash < 0) return -1;
  const p = board.index.get(loc.slice(0, slash));
  return p === undefined ? -1 : board.provOf[p]!;
}

export function hasCoast(loc: string): boolean {
  return loc.indexOf('/') >= 0;
}

/** May an army move from province a to province b? */
export function armyMoves(board: Board, a: number, b: number): boolean {
  return board.armyAdj[a * board.provinces + b] === 1;
}

/** How many places of province p a fleet at place `from` can sail to. */
export function fleetReach(board: Board, from: number, p: number): number {
  return board.reachCount[from * board.provinces + p]!;
}

/** May a fleet sail from place a to place b? */
export function fleetMoves(board: Board, a: number, b: number): boolean {
  return board.fleetAdj[a * board.names.length + b] === 1;
}

/** The first place of province p (by name) a fleet at place `from` reaches; -1 if none. */
export function firstReached(board: Board, from: number, p: number): number {
  return board.reachFirst[from * board.provinces + p]!;
}

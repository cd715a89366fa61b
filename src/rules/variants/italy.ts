// The two-player board: Italy "es neutral y no se puede entrar en su territorio" (seed 002), "se
// convierte como Suiza en un territorio impasable" (seed 001). The Italian provinces keep their
// kind (Italy's own units still stand in them and hold), but every edge into or out of them is
// removed, so no unit can move, retreat, be convoyed or support into them, and no support can
// reach the Italian units either.
import { STANDARD_MAP } from '../map';
import type { GameMap, Loc, ProvinceId } from '../types';

export const ITALIAN_PROVINCES: readonly ProvinceId[] = ['apu', 'nap', 'pie', 'rom', 'tus', 'ven'];

function provinceOfLoc(loc: Loc): ProvinceId {
  const slash = loc.indexOf('/');
  return slash < 0 ? loc : loc.slice(0, slash);
}

function cut<K extends string>(edges: Readonly<Record<K, readonly string[]>>, closed: ReadonlySet<ProvinceId>): Record<K, string[]> {
  const out = {} as Record<K, string[]>;
  for (const from of Object.keys(edges).sort() as K[]) {
    if (closed.has(provinceOfLoc(from))) continue;
    out[from] = (edges[from] ?? []).filter((to) => !closed.has(provinceOfLoc(to)));
  }
  return out;
}

/** A map on which the given provinces cannot be entered or left. */
export function closeProvinces(map: GameMap, provinces: readonly ProvinceId[]): GameMap {
  const closed = new Set(provinces);
  return { provinces: map.provinces, armyEdges: cut(map.armyEdges, closed), fleetEdges: cut(map.fleetEdges, closed) };
}

/** The standard board with Italy closed (built once, so the engine's per-map caches hold). */
export const ITALY_CLOSED_MAP: GameMap = closeProvinces(STANDARD_MAP, ITALIAN_PROVINCES);

// Moving around the map with the arrow keys: from a province to the neighbouring one that lies
// in the arrow's direction. The map is one stop in the Tab order; arrows move within it.
import { STANDARD_MAP, provinceOf } from '../../rules';
import type { ProvinceId } from '../../rules';
import type { Point } from './art';
import { PROVINCE_ART } from './map-data';
import { passable } from './hit';

export type Arrow = 'ArrowUp' | 'ArrowDown' | 'ArrowLeft' | 'ArrowRight';

const DIRECTION: Readonly<Record<Arrow, Point>> = {
  ArrowUp: { x: 0, y: -1 },
  ArrowDown: { x: 0, y: 1 },
  ArrowLeft: { x: -1, y: 0 },
  ArrowRight: { x: 1, y: 0 },
};

export function isArrow(key: string): key is Arrow {
  return key in DIRECTION;
}

/** Provinces sharing a border or a coast with `id` on the standard board (armies' or fleets' way). */
export function bordering(id: ProvinceId): Set<ProvinceId> {
  const out = new Set<ProvinceId>(STANDARD_MAP.armyEdges[id] ?? []);
  for (const [from, tos] of Object.entries(STANDARD_MAP.fleetEdges)) {
    if (provinceOf(from) === id) for (const to of tos) out.add(provinceOf(to));
  }
  out.delete(id);
  return out;
}

const spot = (id: ProvinceId): Point => PROVINCE_ART[id]!.unit;

/**
 * The province an arrow key moves to from `from`: among the provinces whose spot lies within 70°
 * of the arrow's direction, a bordering one if any (nearest, straighter first), else the nearest
 * of all. `from` itself when nothing lies that way (the map's edge).
 */
export function neighbourInDirection(from: ProvinceId, arrow: Arrow): ProvinceId {
  const dir = DIRECTION[arrow];
  const p = spot(from);
  const near = bordering(from);
  let best: { id: ProvinceId; score: number; bordering: boolean } | undefined;
  for (const id of Object.keys(PROVINCE_ART)) {
    if (id === from || !passable(id)) continue;
    const q = spot(id);
    const dx = q.x - p.x;
    const dy = q.y - p.y;
    const d = Math.hypot(dx, dy);
    if (d === 0) continue;
    const cos = (dx * dir.x + dy * dir.y) / d;
    if (cos < Math.cos((70 * Math.PI) / 180)) continue;
    // Off-axis provinces count as further away, so the arrow goes where it points.
    const score = d * (1 + 2 * (1 - cos));
    const b = near.has(id);
    if (!best || (b && !best.bordering) || (b === best.bordering && score < best.score)) best = { id, score, bordering: b };
  }
  return best?.id ?? from;
}

// What a tap on the board means, as a pure function of where the finger landed: the drawing's
// outlines read as polygons, the province under a point, and the rules a finger needs — a tap
// near a unit is a tap on that unit, a tap on a border or beside a tiny province goes to the
// nearest place within a finger's reach, and split coasts are chosen after the province unless
// the zoom makes each coast big enough to hit. Node-tested (tests/ui/map-hit.test.ts).
import { STANDARD_MAP, provinceOf } from '../../rules';
import type { Loc, ProvinceId } from '../../rules';
import type { Point } from './art';
import { locPoint } from './geometry';
import { PROVINCE_ART } from './map-data';

/** Within this many screen pixels of a unit's spot, a tap is a tap on that unit. */
export const UNIT_REACH_PX = 12;
/** Half a fingertip (the 44 px rule): a tap that misses every shape goes to a place this close. */
export const FINGER_REACH_PX = 22;

type Polygon = readonly Point[];

/** Reads the drawing's path data (M, L, Z and circular arcs A) into polygons; arcs become short segments. */
export function polygonsOf(d: string): Polygon[] {
  const out: Point[][] = [];
  let current: Point[] = [];
  const tokens = d.match(/[MLAZmlaz]|-?\d*\.?\d+(?:e-?\d+)?/g) ?? [];
  let i = 0;
  let cmd = '';
  const num = (): number => Number(tokens[i++]);
  while (i < tokens.length) {
    const tok = tokens[i]!;
    if (/^[A-Za-z]$/.test(tok)) {
      cmd = tok.toUpperCase();
      i++;
      if (cmd === 'Z') {
        if (current.length > 0) out.push(current);
        current = [];
      }
      continue;
    }
    if (cmd === 'M') {
      if (current.length > 0) out.push(current);
      current = [{ x: num(), y: num() }];
      cmd = 'L';
    } else if (cmd === 'L') {
      current.push({ x: num(), y: num() });
    } else if (cmd === 'A') {
      const r = num();
      num(); // ry: the drawing's arcs are circular
      num(); // rotation
      const large = num();
      const sweep = num();
      const end = { x: num(), y: num() };
      const start = current[current.length - 1] ?? end;
      current.push(...arcPoints(start, end, r, large === 1, sweep === 1), end);
    } else {
      i++; // a number without a command we read: skip it
    }
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Points along a circular arc from `a` to `b` (SVG's endpoint form), ends excluded. */
function arcPoints(a: Point, b: Point, r: number, large: boolean, sweep: boolean): Point[] {
  const mx = (a.x + b.x) / 2;
  const my = (a.y + b.y) / 2;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const half = Math.hypot(dx, dy) / 2;
  if (half === 0 || r < half) return [];
  const h = Math.sqrt(r * r - half * half);
  // The centre lies on the perpendicular bisector; which side depends on the flags.
  const sign = large === sweep ? -1 : 1;
  const cx = mx - (sign * h * dy) / (2 * half);
  const cy = my + (sign * h * dx) / (2 * half);
  const t0 = Math.atan2(a.y - cy, a.x - cx);
  let t1 = Math.atan2(b.y - cy, b.x - cx);
  if (sweep && t1 < t0) t1 += 2 * Math.PI;
  if (!sweep && t1 > t0) t1 -= 2 * Math.PI;
  const steps = 8;
  const out: Point[] = [];
  for (let k = 1; k < steps; k++) {
    const t = t0 + ((t1 - t0) * k) / steps;
    out.push({ x: cx + r * Math.cos(t), y: cy + r * Math.sin(t) });
  }
  return out;
}

function insidePolygon(p: Point, poly: Polygon): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i]!;
    const b = poly[j]!;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

interface Shape {
  readonly id: ProvinceId;
  readonly polygons: readonly Polygon[];
}

let shapes: readonly Shape[] | undefined;

/** Land before sea: the drawing's North Sea is a plain shape lying under the coast. */
function allShapes(): readonly Shape[] {
  if (shapes) return shapes;
  const ids = Object.keys(PROVINCE_ART).sort();
  const kindOf = (id: string) => STANDARD_MAP.provinces[id]?.kind;
  const ordered = [...ids.filter((id) => kindOf(id) !== 'sea'), ...ids.filter((id) => kindOf(id) === 'sea')];
  shapes = ordered.map((id) => ({ id, polygons: PROVINCE_ART[id]!.paths.flatMap(polygonsOf) }));
  return shapes;
}

/** The province drawn under a map point (impassable ones included), or null off every shape. */
export function provinceAt(p: Point): ProvinceId | null {
  for (const s of allShapes()) if (s.polygons.some((poly) => insidePolygon(p, poly))) return s.id;
  return null;
}

export function passable(id: ProvinceId): boolean {
  const kind = STANDARD_MAP.provinces[id]?.kind;
  return kind !== undefined && kind !== 'impassable';
}

export interface TapContext {
  /** Screen pixels per map unit at the current zoom. */
  readonly scale: number;
  /** Where units are drawn (dislodged ones beside their province), by the location they stand on. */
  readonly units: readonly { readonly loc: Loc; readonly at: Point }[];
  /** What the current step accepts: preferred when the finger lands near one. */
  readonly targets: readonly Loc[];
}

/** The split coasts of a province, with their spots. */
function coastsOf(id: ProvinceId): { loc: Loc; at: Point }[] {
  return Object.entries(PROVINCE_ART[id]?.coasts ?? {}).map(([c, at]) => ({ loc: `${id}/${c}`, at }));
}

/** Each coast of a split-coast province is big enough to hit when their spots are a fingertip apart. */
export function coastsHittable(id: ProvinceId, scale: number): boolean {
  const coasts = coastsOf(id);
  if (coasts.length < 2) return false;
  for (let i = 0; i < coasts.length; i++) {
    for (let j = i + 1; j < coasts.length; j++) {
      const a = coasts[i]!.at;
      const b = coasts[j]!.at;
      if (Math.hypot(a.x - b.x, a.y - b.y) * scale < 2 * FINGER_REACH_PX) return false;
    }
  }
  return true;
}

/** A tap on a province: its nearest coast when the coasts are big enough to hit, else the province. */
function onProvince(id: ProvinceId, p: Point, scale: number): Loc {
  if (!coastsHittable(id, scale)) return id;
  let best: { loc: Loc; d: number } | undefined;
  for (const c of coastsOf(id)) {
    const d = Math.hypot(c.at.x - p.x, c.at.y - p.y) * scale;
    if (d <= FINGER_REACH_PX && (!best || d < best.d)) best = { loc: c.loc, d };
  }
  return best?.loc ?? id;
}

const distancePx = (a: Point, b: Point, scale: number): number => Math.hypot(a.x - b.x, a.y - b.y) * scale;

/**
 * What a tap at map point `p` means:
 * 1. within UNIT_REACH_PX of a unit: that unit's province (the nearest unit);
 * 2. inside a passable province: that province — unless targets are shown, it is not one, and a
 *    target's spot is within a finger's reach (a near miss of a small target);
 * 3. on a border, off the map's shapes or on impassable ground: the nearest target, else the
 *    nearest province's spot, within a finger's reach;
 * null when nothing is that close. Split coasts come back as the province unless hittable.
 */
export function resolveTap(p: Point, ctx: TapContext): Loc | null {
  const { scale } = ctx;
  let unit: { loc: Loc; d: number } | undefined;
  for (const u of ctx.units) {
    const d = distancePx(u.at, p, scale);
    if (d <= UNIT_REACH_PX && (!unit || d < unit.d)) unit = { loc: u.loc, d };
  }
  if (unit) return provinceOf(unit.loc);

  const under = provinceAt(p);
  const onTarget = (id: ProvinceId): boolean => ctx.targets.some((t) => provinceOf(t) === id);
  const nearestTarget = (): Loc | null => {
    let best: { loc: Loc; d: number } | undefined;
    for (const t of ctx.targets) {
      const d = distancePx(locPoint(t), p, scale);
      if (d <= FINGER_REACH_PX && (!best || d < best.d)) best = { loc: t, d };
    }
    return best ? onProvince(provinceOf(best.loc), p, scale) : null;
  };
  if (under !== null && passable(under)) {
    if (ctx.targets.length === 0 || onTarget(under)) return onProvince(under, p, scale);
    return nearestTarget() ?? under;
  }
  const target = nearestTarget();
  if (target !== null) return target;
  let best: { id: ProvinceId; d: number } | undefined;
  for (const id of Object.keys(PROVINCE_ART)) {
    if (!passable(id)) continue;
    const d = distancePx(PROVINCE_ART[id]!.unit, p, scale);
    if (d <= FINGER_REACH_PX && (!best || d < best.d)) best = { id, d };
  }
  return best ? onProvince(best.id, p, scale) : null;
}

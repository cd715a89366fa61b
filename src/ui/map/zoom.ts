// Pinch-zoom and pan as arithmetic on the SVG viewBox, kept apart from pointer handling so it can
// be tested without a browser.
import { MAP_HEIGHT, MAP_WIDTH } from './map-data';

export interface View {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

export const FULL_VIEW: View = { x: 0, y: 0, w: MAP_WIDTH, h: MAP_HEIGHT };
/** Closest zoom: a sixth of the map across, about three provinces on a phone. */
export const MIN_WIDTH = MAP_WIDTH / 6;

/** Keeps the view inside the map and between the whole map and the closest zoom. */
export function clampView(v: View): View {
  const w = Math.min(MAP_WIDTH, Math.max(MIN_WIDTH, v.w));
  const h = (w * MAP_HEIGHT) / MAP_WIDTH;
  const x = Math.min(MAP_WIDTH - w, Math.max(0, v.x));
  const y = Math.min(MAP_HEIGHT - h, Math.max(0, v.y));
  return { x, y, w, h };
}

/** Zoom by `factor` (> 1 zooms in) keeping the map point (cx, cy) where it is on screen. */
export function zoomAt(v: View, factor: number, cx: number, cy: number): View {
  const w = Math.min(MAP_WIDTH, Math.max(MIN_WIDTH, v.w / factor));
  const k = w / v.w;
  return clampView({ x: cx - (cx - v.x) * k, y: cy - (cy - v.y) * k, w, h: v.h * k });
}

/** Move the view by a drag of (dx, dy) in map units (the map follows the finger). */
export function panBy(v: View, dx: number, dy: number): View {
  return clampView({ ...v, x: v.x - dx, y: v.y - dy });
}

export function zoomCentre(v: View, factor: number): View {
  return zoomAt(v, factor, v.x + v.w / 2, v.y + v.h / 2);
}

/** The view moved (not zoomed) as little as needed to show the map point (x, y) with a margin. */
export function showPoint(v: View, x: number, y: number): View {
  const mx = v.w / 8;
  const my = v.h / 8;
  const nx = x < v.x + mx ? x - mx : x > v.x + v.w - mx ? x - v.w + mx : v.x;
  const ny = y < v.y + my ? y - my : y > v.y + v.h - my ? y - v.h + my : v.y;
  return nx === v.x && ny === v.y ? v : clampView({ ...v, x: nx, y: ny });
}

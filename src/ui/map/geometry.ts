// Where things sit on the drawing: a unit at a location, an order as an arrow, a result as a mark.
// Pure functions of the rules' data, so the drawing can be checked without a browser.
import { coastOf, provinceOf } from '../../rules';
import type { Loc, Order, OrderResult } from '../../rules';
import type { Point } from './art';
import { PROVINCE_ART } from './map-data';

/** Where a unit at `loc` is drawn: the coast's spot for a fleet on a split coast, else the province's. */
export function locPoint(loc: Loc): Point {
  const art = PROVINCE_ART[provinceOf(loc)];
  if (!art) return { x: 0, y: 0 };
  const coast = coastOf(loc);
  return (coast && art.coasts?.[coast]) || art.unit;
}

export type GlyphKind = 'move' | 'support' | 'convoy' | 'hold' | 'retreat' | 'build' | 'remove';

/** One order as something to draw: a path through `points` (one point for hold/build/remove). */
export interface Glyph {
  readonly kind: GlyphKind;
  readonly points: readonly Point[];
  /** Known only once adjudicated; undefined while drafting. */
  readonly success?: boolean;
  readonly key: string;
}

const mid = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/** Pulls the end of a segment back by `by` so an arrowhead stops short of the unit it points at. */
export function shorten(from: Point, to: Point, by: number): Point {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const len = Math.hypot(dx, dy);
  if (len <= by * 2) return to;
  return { x: to.x - (dx / len) * by, y: to.y - (dy / len) * by };
}

function orderGlyph(order: Order, orders: readonly Order[], success: boolean | undefined, index: number): Glyph | undefined {
  if (order.kind === 'waive') return undefined;
  const from = locPoint(order.unit.loc);
  const base = { key: `${index}:${order.kind}:${order.unit.loc}`, ...(success === undefined ? {} : { success }) };
  switch (order.kind) {
    case 'hold':
      return { kind: 'hold', points: [from], ...base };
    case 'move':
      return { kind: 'move', points: [from, locPoint(order.to)], ...base };
    case 'retreat':
      return { kind: 'retreat', points: [from, locPoint(order.to)], ...base };
    case 'support': {
      const supported = locPoint(order.supported.loc);
      if (order.to === undefined) return { kind: 'support', points: [from, supported], ...base };
      // A support of a move points at the middle of that move's arrow, as on paper.
      const move = orders.find((o) => o.kind === 'move' && provinceOf(o.unit.loc) === provinceOf(order.supported.loc));
      const target = move && move.kind === 'move' && provinceOf(move.to) === order.to ? locPoint(move.to) : locPoint(order.to);
      return { kind: 'support', points: [from, mid(supported, target)], ...base };
    }
    case 'convoy':
      return { kind: 'convoy', points: [locPoint(order.army), from, locPoint(order.to)], ...base };
    case 'build':
      return { kind: 'build', points: [from], ...base };
    case 'disband':
    case 'remove':
      return { kind: 'remove', points: [from], ...base };
  }
}

/** Glyphs for drafted orders, or for adjudicated ones when `results` is given. */
export function orderGlyphs(orders: readonly Order[], results?: readonly OrderResult[]): Glyph[] {
  if (results) {
    const adjudicated = results.map((r) => r.order);
    return results.flatMap((r, i) => {
      // Units that were given no order held by default: a ring on each would only add noise.
      if (r.reason?.kind === 'no-order') return [];
      const g = orderGlyph(r.order, adjudicated, r.success, i);
      return g ? [g] : [];
    });
  }
  return orders.flatMap((o, i) => {
    const g = orderGlyph(o, orders, undefined, i);
    return g ? [g] : [];
  });
}

export type MarkKind = 'bounced' | 'cut' | 'dislodged' | 'failed';

export interface Mark {
  readonly kind: MarkKind;
  readonly at: Point;
  /** The unit the mark is about. */
  readonly loc: Loc;
}

/** What the results overlay shows: bounces (and moves beaten by a stronger one) where they
 *  happened, cut supports, dislodged units; any other failure as a mark on the unit. */
export function resultMarks(results: readonly OrderResult[]): Mark[] {
  const marks: Mark[] = [];
  for (const r of results) {
    if (r.success || r.order.kind === 'waive') continue;
    const loc = r.order.unit.loc;
    const reason = r.reason?.kind;
    if ((reason === 'bounced' || reason === 'beaten') && (r.order.kind === 'move' || r.order.kind === 'retreat')) {
      const from = locPoint(loc);
      const to = locPoint(r.order.to);
      marks.push({ kind: 'bounced', at: shorten(from, to, Math.min(12, Math.hypot(to.x - from.x, to.y - from.y) / 3)), loc });
    } else if (reason === 'cut') marks.push({ kind: 'cut', at: locPoint(loc), loc });
    else if (reason === 'dislodged') marks.push({ kind: 'dislodged', at: locPoint(loc), loc });
    else marks.push({ kind: 'failed', at: locPoint(loc), loc });
  }
  return marks;
}

// The board's pure parts: arrows for orders, marks for results, and zoom/pan arithmetic.
import { describe, expect, it } from 'vitest';
import { STARTING_POSITION, adjudicate } from '../../src/rules';
import type { Order } from '../../src/rules';
import { locPoint, orderGlyphs, resultMarks } from '../../src/ui/map/geometry';
import { MAP_HEIGHT, MAP_WIDTH } from '../../src/ui/map/map-data';
import { FULL_VIEW, MIN_WIDTH, clampView, panBy, zoomAt, zoomCentre } from '../../src/ui/map/zoom';

const parBur: Order = { kind: 'move', power: 'france', unit: { type: 'A', loc: 'par' }, to: 'bur' };
const munBur: Order = { kind: 'move', power: 'germany', unit: { type: 'A', loc: 'mun' }, to: 'bur' };
const marSupport: Order = { kind: 'support', power: 'france', unit: { type: 'A', loc: 'mar' }, supported: { type: 'A', loc: 'par' }, to: 'bur' };

describe('order glyphs', () => {
  it('draws a move from the unit to the destination and a support to the middle of the move', () => {
    const glyphs = orderGlyphs([parBur, marSupport]);
    expect(glyphs.map((g) => g.kind)).toEqual(['move', 'support']);
    expect(glyphs[0]!.points).toEqual([locPoint('par'), locPoint('bur')]);
    const p = locPoint('par');
    const b = locPoint('bur');
    expect(glyphs[1]!.points[1]).toEqual({ x: (p.x + b.x) / 2, y: (p.y + b.y) / 2 });
    expect(glyphs.every((g) => g.success === undefined)).toBe(true);
  });

  it('marks the success of adjudicated orders and puts the bounce marks on the contested move', () => {
    const verdict = adjudicate(STARTING_POSITION, [parBur, munBur]);
    const glyphs = orderGlyphs([], verdict.results);
    expect(glyphs).toHaveLength(2); // the units left without orders get no hold ring
    const moves = glyphs.filter((g) => g.kind === 'move');
    expect(moves).toHaveLength(2);
    expect(moves.every((g) => g.success === false)).toBe(true);
    const marks = resultMarks(verdict.results);
    expect(marks.map((m) => `${m.kind}:${m.loc}`).sort()).toEqual(['bounced:mun', 'bounced:par']);
  });

  it('a supported move succeeds; the beaten one is marked where it was stopped', () => {
    const verdict = adjudicate(STARTING_POSITION, [parBur, munBur, marSupport]);
    const moves = orderGlyphs([], verdict.results).filter((g) => g.kind === 'move');
    expect(moves.map((g) => [g.points[0], g.success])).toEqual(
      expect.arrayContaining([
        [locPoint('par'), true],
        [locPoint('mun'), false],
      ]),
    );
    expect(resultMarks(verdict.results).map((m) => `${m.kind}:${m.loc}`)).toEqual(['bounced:mun']);
  });
});

describe('zoom and pan', () => {
  it('zooms in around a point that stays in place', () => {
    const v = zoomAt(FULL_VIEW, 2, 300, 280);
    expect(v.w).toBeCloseTo(MAP_WIDTH / 2);
    expect(v.h).toBeCloseTo(MAP_HEIGHT / 2);
    // (300,280) was at fraction (300/610, 280/560) of the screen and still is.
    expect((300 - v.x) / v.w).toBeCloseTo(300 / MAP_WIDTH);
    expect((280 - v.y) / v.h).toBeCloseTo(280 / MAP_HEIGHT);
  });

  it('never zooms out past the whole map nor in past the limit, and stays on the map', () => {
    expect(zoomCentre(FULL_VIEW, 0.1)).toEqual(FULL_VIEW);
    expect(zoomCentre(FULL_VIEW, 100).w).toBeCloseTo(MIN_WIDTH);
    const v = panBy(zoomCentre(FULL_VIEW, 3), 10_000, 10_000);
    expect(v.x).toBe(0);
    expect(v.y).toBe(0);
    const w = panBy(zoomCentre(FULL_VIEW, 3), -10_000, -10_000);
    expect(w.x + w.w).toBeCloseTo(MAP_WIDTH);
    expect(w.y + w.h).toBeCloseTo(MAP_HEIGHT);
    expect(clampView({ x: -5, y: -5, w: 5000, h: 1 })).toEqual(FULL_VIEW);
  });

  it('pans with the finger', () => {
    const v = zoomCentre(FULL_VIEW, 2);
    const moved = panBy(v, 20, 10);
    expect(moved.x).toBeCloseTo(v.x - 20);
    expect(moved.y).toBeCloseTo(v.y - 10);
  });
});

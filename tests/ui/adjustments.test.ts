// Winter for the screens (src/ui/orders/adjustments.ts): counts and free centres straight from the
// rules engine, what stays open as orders are drafted, and why a tap did nothing.
import { describe, expect, it } from 'vitest';
import { STANDARD_MAP, STARTING_POSITION, adjudicate, adjustmentOrders, type Order, type Position } from '../../src/rules';
import { adjustmentNotice, adjustmentOf, adjustments, buildSites } from '../../src/ui/orders/adjustments';
import { adjustmentText } from '../../src/ui/orders/AdjustmentSummary';
import { noticeText } from '../../src/ui/orders/OrderEntry';

/** Winter 1901 after Austria took Serbia and Greece: two builds, Budapest and Trieste free. */
function winter(): Position {
  const spring: Order[] = [
    { kind: 'move', power: 'austria', unit: { type: 'A', loc: 'bud' }, to: 'ser' },
    { kind: 'move', power: 'austria', unit: { type: 'F', loc: 'tri' }, to: 'alb' },
  ];
  const fall: Order[] = [{ kind: 'move', power: 'austria', unit: { type: 'F', loc: 'alb' }, to: 'gre' }];
  const p1 = adjudicate(STARTING_POSITION, spring).next;
  const p2 = adjudicate(p1, fall).next;
  expect(p2.phase.kind).toBe('adjustment');
  return p2;
}

const build = (loc: string, type: 'A' | 'F' = 'A'): Order => ({ kind: 'build', power: 'austria', unit: { type, loc } });

describe('winter counts', () => {
  const position = winter();

  it('gives each power its builds and free home centres, as adjustmentOrders does', () => {
    const a = adjustmentOf(position, 'austria');
    const rules = adjustmentOrders(position, 'austria', STANDARD_MAP);
    expect(a.delta).toBe(rules.delta);
    expect(a.delta).toBe(2);
    expect(a.free).toEqual(['bud', 'tri']);
    expect(adjustmentText(a, 'en')).toBe('+2 builds (Budapest, Trieste free)');
    expect(adjustmentText(a, 'es')).toBe('+2 construcciones (Budapest, Trieste libres)');
    expect(adjustments(position).map((x) => x.power)).toEqual(['austria']);
  });

  it('lights the free centres while builds remain, and says why a tap beyond the count does nothing', () => {
    expect(buildSites(position, ['austria'], [])).toEqual(['bud', 'tri']);
    const one = [build('bud')];
    expect(buildSites(position, ['austria'], one)).toEqual(['tri']);
    expect(adjustmentOf(position, 'austria', one).room).toBe(1);
    // Vienna is a home centre but its army stands there: not a place to build, and the screen says where is.
    expect(adjustmentNotice(position, ['austria'], one, 'vie')).toEqual({ kind: 'not-a-build-site', power: 'austria', free: ['bud', 'tri'] });
    expect(noticeText(adjustmentNotice(position, ['austria'], one, 'vie')!, 'en')).toBe('Austria can build only in its free home centres: Budapest, Trieste.');
    // With every build drafted nothing is lit, and a tap elsewhere needs no word.
    const two = [build('bud'), build('tri', 'F')];
    expect(buildSites(position, ['austria'], two)).toEqual([]);
    expect(adjustmentNotice(position, ['austria'], two, 'vie')).toBeNull();
  });

  it('names a build beyond the count with the count and the centre', () => {
    // Austria took only Serbia and moved both armies out: one build, Vienna and Budapest free.
    const spring: Order[] = [
      { kind: 'move', power: 'austria', unit: { type: 'A', loc: 'bud' }, to: 'ser' },
      { kind: 'move', power: 'austria', unit: { type: 'A', loc: 'vie' }, to: 'gal' },
    ];
    const p = adjudicate(adjudicate(STARTING_POSITION, spring).next, []).next;
    const a = adjustmentOf(p, 'austria');
    expect(a.delta).toBe(1);
    expect(a.free).toEqual(['bud', 'vie']);
    const drafted = [build('vie')];
    expect(buildSites(p, ['austria'], drafted)).toEqual([]);
    const n = adjustmentNotice(p, ['austria'], drafted, 'bud');
    expect(n).toEqual({ kind: 'no-more-builds', power: 'austria', delta: 1, at: 'bud' });
    expect(noticeText(n!, 'en')).toBe('Austria has only 1 build, already ordered: remove one (✕ in the list) to build in Budapest instead.');
    expect(noticeText(n!, 'es')).toContain('Austria solo tiene 1 construcción');
    // Tapping the drafted centre again is the entry's business (undo), not a notice.
    expect(adjustmentNotice(p, ['austria'], drafted, 'vie')).toBeNull();
  });

  it('names removals and a removal beyond the count', () => {
    // Austria takes Venice: Italy has three units on two centres.
    const spring: Order[] = [
      { kind: 'move', power: 'austria', unit: { type: 'A', loc: 'vie' }, to: 'tyr' },
      { kind: 'move', power: 'italy', unit: { type: 'A', loc: 'ven' }, to: 'pie' },
    ];
    const fall: Order[] = [
      { kind: 'move', power: 'austria', unit: { type: 'F', loc: 'tri' }, to: 'ven' },
      { kind: 'support', power: 'austria', unit: { type: 'A', loc: 'tyr' }, supported: { type: 'F', loc: 'tri' }, to: 'ven' },
    ];
    const p = adjudicate(adjudicate(STARTING_POSITION, spring).next, fall).next;
    const italy = adjustmentOf(p, 'italy');
    expect(italy.delta).toBe(-1);
    expect(adjustmentText(italy, 'en')).toBe('−1 removal');
    expect(adjustmentText(italy, 'es')).toBe('−1 destrucción');
    const removed: Order[] = [{ kind: 'remove', power: 'italy', unit: { type: 'A', loc: 'pie' } }];
    expect(adjustmentNotice(p, ['italy'], removed, 'rom')).toEqual({ kind: 'no-more-removals', power: 'italy', delta: -1 });
    expect(adjustmentNotice(p, ['italy'], [], 'par')).toEqual({ kind: 'not-a-removal', power: 'italy' });
  });
});

// The draft reducer and the practice board's reducer: pure state in, state out.
import { describe, expect, it } from 'vitest';
import { STARTING_POSITION, adjudicate, explainResult } from '../../src/rules';
import type { Order } from '../../src/rules';
import { draftKey, draftReducer, unitsWithoutOrders } from '../../src/ui/orders/draft';
import { practiceFrom, practiceReducer } from '../../src/ui/practice/practice';

const parBur: Order = { kind: 'move', power: 'france', unit: { type: 'A', loc: 'par' }, to: 'bur' };
const parHold: Order = { kind: 'hold', power: 'france', unit: { type: 'A', loc: 'par' } };
const munBur: Order = { kind: 'move', power: 'germany', unit: { type: 'A', loc: 'mun' }, to: 'bur' };
const stpBot: Order = { kind: 'move', power: 'russia', unit: { type: 'F', loc: 'stp/sc' }, to: 'bot' };

describe('draft', () => {
  it('keeps one order per unit, sorted, the latest winning', () => {
    let d = draftReducer([], { type: 'set', order: parBur });
    d = draftReducer(d, { type: 'set', order: munBur });
    d = draftReducer(d, { type: 'set', order: parHold });
    expect(d).toEqual([munBur, parHold]);
    d = draftReducer(d, { type: 'set-many', orders: [stpBot, parBur] });
    expect(d.map(draftKey)).toEqual(['mun', 'par', 'stp']);
    expect(d[1]).toEqual(parBur);
    expect(draftReducer(d, { type: 'clear', key: 'stp' }).map(draftKey)).toEqual(['mun', 'par']);
    expect(draftReducer(d, { type: 'clear-all' })).toEqual([]);
  });

  it('lists the units still without an order', () => {
    const d = draftReducer([], { type: 'set', order: parBur });
    expect(unitsWithoutOrders(STARTING_POSITION, d, ['france']).map((u) => u.loc)).toEqual(['bre', 'mar']);
  });
});

describe('practice board', () => {
  it('adjudicates a bounce, explains it, then moves to the next phase and resets', () => {
    let s = practiceFrom(STARTING_POSITION);
    s = practiceReducer(s, { type: 'draft', action: { type: 'set', order: parBur } });
    s = practiceReducer(s, { type: 'draft', action: { type: 'set', order: munBur } });
    s = practiceReducer(s, { type: 'adjudicate' });
    expect(s.verdict).toEqual(adjudicate(STARTING_POSITION, [munBur, parBur]));
    const par = s.verdict!.results.find((r) => r.order.kind === 'move' && r.order.unit.loc === 'par')!;
    expect(par.success).toBe(false);
    expect(explainResult(par, 'en')).toContain('bounced with mun');
    // While the verdict is shown the orders are frozen.
    expect(practiceReducer(s, { type: 'draft', action: { type: 'clear-all' } }).draft).toHaveLength(2);
    const back = practiceReducer(s, { type: 'back' });
    expect(back.verdict).toBeUndefined();
    expect(back.draft).toHaveLength(2);
    s = practiceReducer(s, { type: 'next' });
    expect(s.position.phase).toEqual({ year: 1901, season: 'fall', kind: 'movement' });
    expect(s.draft).toEqual([]);
    expect(s.played).toHaveLength(1);
    s = practiceReducer(s, { type: 'reset' });
    expect(s).toEqual(practiceFrom(STARTING_POSITION));
  });
});

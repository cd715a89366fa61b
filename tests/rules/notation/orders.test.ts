import { describe, expect, it } from 'vitest';
import { parseOrders } from '../../../src/rules';
import { ctxOf } from './helpers';

describe('parseOrders', () => {
  it('reads one order per line or several separated by semicolons, with line numbers', () => {
    const text = 'A par - bur\n\nF bre - mao; A mar S A par - bur\n# a comment\nA Xyz H\nA par';
    const r = parseOrders(text, ctxOf());
    expect(r.orders.map((o) => o.kind)).toEqual(['move', 'move', 'support']);
    expect(r.lines.map((l) => l.line)).toEqual([1, 3, 3]);
    expect(r.lines[1]!.text).toBe('F bre - mao');
    expect(r.errors).toEqual([
      { line: 5, text: 'A Xyz H', error: { code: 'unknown-province', text: 'Xyz', candidates: [] } },
      { line: 6, text: 'A par', error: { code: 'incomplete', text: 'A par' } },
    ]);
  });

  it('switches power at a "Power:" header in English or Spanish', () => {
    const text = 'England:\nF lon - nth\nA lvp - yor\nFrancia: E Par-Bor\nF bre H\nGermany: A mun H';
    const r = parseOrders(text, ctxOf({ power: 'italy', lang: 'es' }));
    expect(r.errors).toEqual([]);
    expect(r.orders.map((o) => o.power)).toEqual(['england', 'england', 'france', 'france', 'germany']);
  });

  it('reads a whole rulebook example (seed 000, example 1) in Spanish', () => {
    const text = 'Inglaterra : F Din-Kie; F MNt-Din; F Hel A F MNt-Din\nRusia : E Ber-Kie; F Bal A F Ska-Din; F Ska-Din';
    const r = parseOrders(text, ctxOf({ lang: 'es' }));
    expect(r.errors).toEqual([]);
    expect(r.orders).toHaveLength(6);
    expect(r.orders[2]).toEqual({
      kind: 'support',
      power: 'england',
      unit: { type: 'F', loc: 'hel' },
      supported: { type: 'F', loc: 'nth' },
      to: 'den',
    });
    expect(r.orders[3]).toEqual({ kind: 'move', power: 'russia', unit: { type: 'A', loc: 'ber' }, to: 'kie' });
  });

  it('returns nothing for empty text', () => {
    expect(parseOrders('', ctxOf())).toEqual({ orders: [], lines: [], errors: [] });
  });
});

describe('parseOrders: lists', () => {
  it('skips list markers before orders', () => {
    const r = parseOrders('1. A par - bur\n2) F bre H\n- A mar S A par - bur\n* F bre - mao\n• A par H', ctxOf());
    expect(r.errors).toEqual([]);
    expect(r.orders.map((o) => o.kind)).toEqual(['move', 'hold', 'support', 'move', 'hold']);
  });
});

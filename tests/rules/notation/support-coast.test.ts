// A support may name the coast of the move it supports (DATC 6.B.9): the parser keeps it, the
// formatter writes it back, and the adjudicator matches it only against a move to that coast.
import { describe, expect, it } from 'vitest';
import { adjudicate, formatOrder, parseOrder } from '../../../src/rules';
import type { Order, Position } from '../../../src/rules';

const position: Position = {
  phase: { year: 1901, season: 'spring', kind: 'movement' },
  units: [
    { type: 'F', power: 'france', loc: 'mao' },
    { type: 'F', power: 'france', loc: 'por' },
    { type: 'F', power: 'italy', loc: 'lyo' },
    { type: 'F', power: 'italy', loc: 'wes' },
  ],
  centres: {},
  dislodged: [],
};

describe('support naming a coast', () => {
  it('is read with its coast in both languages and formatted back', () => {
    const en = parseOrder('F Por S F MAO - Spa/NC', { power: 'france', phase: 'movement', lang: 'en', position });
    const es = parseOrder('F Por A F AtC - Esp CN', { power: 'france', phase: 'movement', lang: 'es', position });
    expect(en.ok && en.order).toMatchObject({ kind: 'support', to: 'spa/nc' });
    expect(es.ok && es.order).toEqual(en.ok && en.order);
    const back = parseOrder(formatOrder((en as { order: Order }).order, 'en'), { power: 'france', phase: 'movement', lang: 'en', position });
    expect(back.ok && back.order).toEqual(en.ok && en.order);
  });

  it('counts only for a move to that coast', () => {
    const orders = (coast: string): Order[] => [
      { kind: 'move', power: 'france', unit: { type: 'F', loc: 'mao' }, to: 'spa/sc' },
      { kind: 'support', power: 'france', unit: { type: 'F', loc: 'por' }, supported: { type: 'F', loc: 'mao' }, to: coast },
      { kind: 'move', power: 'italy', unit: { type: 'F', loc: 'wes' }, to: 'spa/sc' },
      { kind: 'support', power: 'italy', unit: { type: 'F', loc: 'lyo' }, supported: { type: 'F', loc: 'wes' }, to: 'spa/sc' },
    ];
    const wrong = adjudicate(position, orders('spa/nc'));
    expect(wrong.next.units.find((u) => u.loc === 'spa/sc')?.power).toBe('italy');
    const right = adjudicate(position, orders('spa/sc'));
    expect(right.next.units.find((u) => u.loc.startsWith('spa'))).toBeUndefined(); // 2 against 2: both bounce
    const none = adjudicate(position, orders('spa'));
    expect(none.next.units.find((u) => u.loc.startsWith('spa'))).toBeUndefined();
  });
});

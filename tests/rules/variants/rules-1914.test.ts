// The "1914" rule set (seed 001) through the engine: consent for foreign supports, dislodged
// units destroyed, every unit ordered.
import { describe, expect, it } from 'vitest';
import { adjudicate, missingOrders, variantById, variantPhase, type Phase } from '../../../src/rules';
import { centres, listUnits, position, units } from '../adjudicate/helpers';
import { hold, mv, sup } from '../adjudicate/orders';

const v = variantById('1914')!;
const SPRING_1904: Phase = { year: 1904, season: 'spring', kind: 'movement' };
const opts = variantPhase(v, SPRING_1904).options;

describe('1914 rules', () => {
  // Seed 001's own example: "Italia anota: El ejército de Venecia apoya al austrohúngaro de Trieste.
  // El ejército de Trieste queda en Trieste apoyado por el ejército italiano de Venecia."
  const pos = position(SPRING_1904, units({ italy: 'A ven', austria: 'A tri', turkey: 'A ser, A alb' }), centres({}));
  const attack = [mv('turkey', 'A ser', 'tri'), sup('turkey', 'A alb', 'A ser', 'tri')];

  it('lets a one-sided foreign support fail: Trieste did not write it, so the Turkish attack dislodges it and it is destroyed', () => {
    const adj = adjudicate(pos, [...attack, sup('italy', 'A ven', 'A tri'), hold('austria', 'A tri')], opts);
    expect(listUnits(adj.next.units, 'turkey')).toEqual(['A alb', 'A tri']);
    expect(listUnits(adj.next.units, 'austria')).toEqual([]);
    // Destroyed: no retreat phase although Trieste's army had places to go (Vienna, Budapest, Tyrolia).
    expect(adj.dislodged.map((d) => d.unit.loc)).toEqual(['tri']);
    expect(adj.next.phase).toEqual({ year: 1904, season: 'fall', kind: 'movement' });
  });

  it('counts the support when the supported power writes it too', () => {
    const consent = sup('austria', 'A ven', 'A tri');
    const adj = adjudicate(pos, [...attack, sup('italy', 'A ven', 'A tri'), hold('austria', 'A tri'), consent], opts);
    expect(listUnits(adj.next.units, 'austria')).toEqual(['A tri']);
    expect(adj.results.find((r) => r.order === consent)?.success).toBe(true);
  });

  it('needs no consent under the classic rules (the same orders hold Trieste)', () => {
    const adj = adjudicate(pos, [...attack, sup('italy', 'A ven', 'A tri'), hold('austria', 'A tri')]);
    expect(listUnits(adj.next.units, 'austria')).toEqual(['A tri']);
  });

  it('lists the units a power has not ordered yet (seal is refused until none are left)', () => {
    const start = v.start;
    expect(missingOrders(start, 'italy', []).map((u) => u.loc)).toEqual(['nap', 'rom', 'ven']);
    expect(missingOrders(start, 'italy', [hold('italy', 'A ven'), mv('italy', 'F nap', 'ion')]).map((u) => u.loc)).toEqual(['rom']);
    // A consent written for a foreign unit does not count as an order for one's own unit.
    expect(missingOrders(start, 'italy', [hold('italy', 'A ven'), hold('italy', 'F nap'), sup('italy', 'A tyr', 'A ven')]).map((u) => u.loc)).toEqual(['rom']);
    expect(missingOrders({ ...start, phase: { year: 1904, season: 'winter', kind: 'adjustment' } }, 'italy', [])).toEqual([]);
  });
});

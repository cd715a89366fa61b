// Neutral powers (seed 000 XV.3; seed 002 "Modo de juego alternativo"; seed 001): their units
// hold without supporting each other, anyone may support them, a dislodged one is destroyed.
import { describe, expect, it } from 'vitest';
import { adjudicate, variantById, variantPhase, type Phase } from '../../../src/rules';
import { centres, listUnits, position, units, WINTER_1901 } from '../adjudicate/helpers';
import { hold, mv, sup } from '../adjudicate/orders';

const SPRING_1901: Phase = { year: 1901, season: 'spring', kind: 'movement' };
const FALL_1901: Phase = { year: 1901, season: 'fall', kind: 'movement' };
const six = variantPhase(variantById('six-players')!, SPRING_1901);
const sixOf1914 = variantPhase(variantById('1914-six-players')!, { year: 1904, season: 'spring', kind: 'movement' });

describe('a neutral power', () => {
  it("ignores orders in the neutral power's name: its units stay where they are", () => {
    const pos = position(SPRING_1901, units({ italy: 'A ven, A rom' }), centres({ italy: 'ven rom' }));
    const adj = adjudicate(pos, [mv('italy', 'A ven', 'tyr'), mv('italy', 'A rom', 'apu')], six.options);
    expect(listUnits(adj.next.units)).toEqual(['A rom', 'A ven']);
    expect(adj.results.every((r) => r.order.kind === 'hold' && r.reason?.kind === 'no-order')).toBe(true);
  });

  it('gets no support from its own units: A ven is dislodged by two attackers although A rom and A tus "support" it', () => {
    const pos = position(SPRING_1901, units({ italy: 'A ven, A rom, A tus', austria: 'A tyr, A tri' }), centres({ italy: 'ven rom' }));
    const orders = [sup('italy', 'A rom', 'A ven'), sup('italy', 'A tus', 'A ven'), mv('austria', 'A tri', 'ven'), sup('austria', 'A tyr', 'A tri', 'ven')];
    const adj = adjudicate(pos, orders, six.options);
    expect(listUnits(adj.next.units, 'austria')).toEqual(['A tyr', 'A ven']);
    expect(listUnits(adj.next.units, 'italy')).toEqual(['A rom', 'A tus']);
    // The same orders in a seven-player game: Italy's two supports hold Venice.
    const seven = adjudicate(pos, orders);
    expect(listUnits(seven.next.units, 'italy')).toEqual(['A rom', 'A tus', 'A ven']);
  });

  it('can be supported to hold by any player', () => {
    const pos = position(SPRING_1901, units({ italy: 'A ven', austria: 'A tyr, A tri', france: 'A pie' }), centres({ italy: 'ven' }));
    const orders = [mv('austria', 'A tri', 'ven'), sup('austria', 'A tyr', 'A tri', 'ven'), sup('france', 'A pie', 'A ven')];
    const adj = adjudicate(pos, orders, six.options);
    expect(listUnits(adj.next.units, 'italy')).toEqual(['A ven']);
    expect(listUnits(adj.next.units, 'austria')).toEqual(['A tri', 'A tyr']);
  });

  it('is supported without consent under the 1914 rules, where any other foreign support needs it', () => {
    const pos = position(
      { year: 1904, season: 'spring', kind: 'movement' },
      units({ italy: 'A ven', austria: 'A tyr, A tri', france: 'A pie' }),
      centres({ italy: 'ven' }),
    );
    const orders = [mv('austria', 'A tri', 'ven'), sup('austria', 'A tyr', 'A tri', 'ven'), sup('france', 'A pie', 'A ven')];
    const adj = adjudicate(pos, orders, sixOf1914.options);
    expect(listUnits(adj.next.units, 'italy')).toEqual(['A ven']);
    // No order in Italy's name leaks into the results.
    expect(adj.results.filter((r) => r.order.power === 'italy').map((r) => r.order.kind)).toEqual(['hold']);
  });

  it('loses a dislodged unit at once: no retreat phase, the unit is gone', () => {
    const pos = position(FALL_1901, units({ italy: 'A ven', austria: 'A tyr, A tri' }), centres({ italy: 'ven' }));
    const orders = [mv('austria', 'A tri', 'ven'), sup('austria', 'A tyr', 'A tri', 'ven')];
    const adj = adjudicate(pos, orders, six.options);
    expect(adj.dislodged.map((d) => [d.unit.loc, d.retreats])).toEqual([['ven', []]]);
    expect(adj.next.phase.kind).not.toBe('retreat');
    expect(listUnits(adj.next.units, 'italy')).toEqual([]);
    // Seven players: the Italian army could retreat (to Piedmont, Tuscany, Rome or Apulia).
    const seven = adjudicate(pos, orders);
    expect(seven.next.phase.kind).toBe('retreat');
    expect(seven.dislodged[0]!.retreats.length).toBeGreaterThan(0);
  });

  it('keeps a retreat phase for the other powers while its own dislodged unit is destroyed', () => {
    const pos = position(FALL_1901, units({ italy: 'A ven', austria: 'A tyr, A tri, A vie', russia: 'A gal, A boh' }), centres({ italy: 'ven' }));
    const orders = [
      mv('austria', 'A tri', 'ven'),
      sup('austria', 'A tyr', 'A tri', 'ven'),
      hold('austria', 'A vie'),
      mv('russia', 'A gal', 'vie'),
      sup('russia', 'A boh', 'A gal', 'vie'),
    ];
    const adj = adjudicate(pos, orders, six.options);
    expect(adj.next.phase.kind).toBe('retreat');
    expect(adj.next.dislodged.map((d) => d.unit.power)).toEqual(['austria']);
  });

  it('builds nothing and loses units by the distance rule in the adjustments', () => {
    // Italy has lost Rome and Venice; it keeps Naples and three units: two must go.
    const pos = position(WINTER_1901, units({ italy: 'A ven, A rom, F nap', france: 'A par' }), centres({ italy: 'nap', france: 'par mar ven rom' }));
    const adj = adjudicate(pos, [{ kind: 'remove', power: 'italy', unit: { type: 'F', loc: 'nap' } }], six.options);
    // Its own order is void. All three stand on home centres (distance 0): the fleet goes first,
    // then Roma before Venecia by name.
    expect(listUnits(adj.next.units, 'italy')).toEqual(['A ven']);
    const builds = variantPhase(variantById('six-players')!, WINTER_1901);
    const empty = position(WINTER_1901, units({ italy: 'A ven' }), centres({ italy: 'ven rom nap' }));
    const built = adjudicate(empty, [{ kind: 'build', power: 'italy', unit: { type: 'A', loc: 'rom' } }], builds.options);
    expect(listUnits(built.next.units, 'italy')).toEqual(['A ven']);
  });
});

// The two-player game: Italy neutral and closed until the toss year is over, then played by
// the seat that won the toss.
import { describe, expect, it } from 'vitest';
import { adjudicate, ITALIAN_PROVINCES, ITALY_CLOSED_MAP, STANDARD_MAP, variantById, variantPhase, type Phase } from '../../../src/rules';
import { centres, listUnits, position, units } from '../adjudicate/helpers';
import { conv, mv, sup } from '../adjudicate/orders';

const two = variantById('two-players')!;
const SPRING_1914: Phase = { year: 1914, season: 'spring', kind: 'movement' };
const FALL_1914: Phase = { year: 1914, season: 'fall', kind: 'movement' };
const SPRING_1915: Phase = { year: 1915, season: 'spring', kind: 'movement' };

describe('two players: Italy before the toss', () => {
  const setup = variantPhase(two, SPRING_1914, 'england-france-russia');

  it('closes every Italian province: no edge leads in or out', () => {
    expect(setup.map).toBe(ITALY_CLOSED_MAP);
    for (const [from, to] of Object.entries(ITALY_CLOSED_MAP.armyEdges)) {
      expect(ITALIAN_PROVINCES).not.toContain(from);
      for (const p of to) expect(ITALIAN_PROVINCES).not.toContain(p);
    }
    for (const [from, to] of Object.entries(ITALY_CLOSED_MAP.fleetEdges)) {
      expect(ITALIAN_PROVINCES).not.toContain(from);
      for (const p of to) expect(ITALIAN_PROVINCES).not.toContain(p);
    }
    // Everything else is untouched.
    expect(ITALY_CLOSED_MAP.armyEdges['tyr']).toEqual(STANDARD_MAP.armyEdges['tyr']!.filter((p) => p !== 'ven' && p !== 'pie'));
    expect(ITALY_CLOSED_MAP.fleetEdges['nth']).toEqual(STANDARD_MAP.fleetEdges['nth']);
  });

  it('keeps Italy neutral and out of both seats', () => {
    expect(setup.neutral).toEqual(['italy']);
    expect(setup.seatOf.italy).toBeUndefined();
    expect(variantPhase(two, FALL_1914, 'england-france-russia').neutral).toEqual(['italy']);
  });

  it('refuses moves, convoys and supports into Italy', () => {
    const pos = position(
      SPRING_1914,
      units({ austria: 'A tri, A tyr', france: 'A mar, F lyo, F tys', italy: 'A ven, A rom, F nap' }),
      centres({ italy: 'ven rom nap' }),
    );
    const orders = [
      mv('austria', 'A tri', 'ven'),
      sup('austria', 'A tyr', 'A tri', 'ven'),
      mv('france', 'A mar', 'tus'),
      conv('france', 'F lyo', 'mar', 'tus'),
      mv('france', 'F tys', 'nap'),
    ];
    const adj = adjudicate(pos, orders, setup.options);
    expect(listUnits(adj.next.units, 'italy')).toEqual(['F nap', 'A rom', 'A ven']);
    expect(listUnits(adj.next.units, 'austria')).toEqual(['A tri', 'A tyr']);
    expect(listUnits(adj.next.units, 'france')).toEqual(['F lyo', 'A mar', 'F tys']);
    // The same orders on the open board take Venice.
    const open = adjudicate(pos, orders, { neutral: ['italy'] });
    expect(listUnits(open.next.units, 'austria')).toEqual(['A tyr', 'A ven']);
  });
});

describe('two players: Italy after the toss', () => {
  it('joins the winning seat from the Spring after the toss year, on the open board', () => {
    const after = variantPhase(two, SPRING_1915, 'austria-germany-turkey');
    expect(after.map).toBe(STANDARD_MAP);
    expect(after.neutral).toEqual([]);
    expect(after.seatOf.italy).toBe('austria-germany-turkey');
    expect(after.seats.find((s) => s.id === 'austria-germany-turkey')!.powers).toEqual(['austria', 'germany', 'italy', 'turkey']);
    expect(after.seats.find((s) => s.id === 'england-france-russia')!.powers).toEqual(['england', 'france', 'russia']);
  });

  it('stays neutral and closed when nobody won the toss', () => {
    const after = variantPhase(two, SPRING_1915, null);
    expect(after.map).toBe(ITALY_CLOSED_MAP);
    expect(after.neutral).toEqual(['italy']);
  });

  it('under the 1914 rules the toss is in 1904 and Italy changes hands in Spring 1905', () => {
    const v = variantById('1914-two-players')!;
    expect(variantPhase(v, { year: 1904, season: 'winter', kind: 'adjustment' }, 'england-france-russia').neutral).toEqual(['italy']);
    expect(variantPhase(v, { year: 1905, season: 'spring', kind: 'movement' }, 'england-france-russia').seatOf.italy).toBe('england-france-russia');
  });
});

// Winning a variant: per power (the rulebooks), per seat in the two-player games, by alliance
// under the 1914 rules.
import { describe, expect, it } from 'vitest';
import { allianceWinners, fullYearsStood, SUPPLY_CENTRES, variantById, variantWinners, type Phase, type Power, type Unit } from '../../../src/rules';

function owning(spec: Partial<Record<Power, number>>): Record<string, Power> {
  const out: Record<string, Power> = {};
  let i = 0;
  for (const [power, n] of Object.entries(spec) as [Power, number][]) for (let k = 0; k < n; k++) out[SUPPLY_CENTRES[i++]!] = power;
  return out;
}

function armies(spec: Partial<Record<Power, number>>): Unit[] {
  const out: Unit[] = [];
  let i = 0;
  for (const [power, n] of Object.entries(spec) as [Power, number][]) for (let k = 0; k < n; k++) out.push({ type: 'A', power, loc: `x${i++}` });
  return out;
}

const WINTER = (year: number): Phase => ({ year, season: 'winter', kind: 'adjustment' });

describe('variant victory', () => {
  it('counts centres per power even when one player holds several (four players)', () => {
    const four = variantById('four-players')!;
    // Germany and Turkey together hold 20, neither 18: nobody has won.
    expect(variantWinners(four, { units: [], centres: owning({ germany: 10, turkey: 10 }) })).toEqual([]);
    expect(variantWinners(four, { units: [], centres: owning({ germany: 18, turkey: 2 }) })).toEqual(['germany']);
  });

  it('adds up a seat in the two-player game: 24 centres among its powers', () => {
    const two = variantById('two-players')!;
    expect(variantWinners(two, { units: [], centres: owning({ england: 10, france: 8, russia: 5 }) })).toEqual([]);
    expect(variantWinners(two, { units: [], centres: owning({ england: 10, france: 8, russia: 6 }) })).toEqual(['england', 'france', 'russia']);
  });

  it('counts units, not centres, in the 1914 two-player game', () => {
    const two = variantById('1914-two-players')!;
    const centres = owning({ austria: 10, germany: 10, turkey: 6 });
    expect(variantWinners(two, { units: armies({ austria: 10, germany: 10, turkey: 3 }), centres })).toEqual([]);
    expect(variantWinners(two, { units: armies({ austria: 10, germany: 10, turkey: 4 }), centres })).toEqual(['austria', 'germany', 'turkey']);
  });

  it('counts full game years of an alliance', () => {
    const spring = (y: number): Phase => ({ year: y, season: 'spring', kind: 'movement' });
    const fall = (y: number): Phase => ({ year: y, season: 'fall', kind: 'movement' });
    expect(fullYearsStood(spring(1904), WINTER(1904))).toBe(1);
    expect(fullYearsStood(spring(1904), WINTER(1905))).toBe(2);
    expect(fullYearsStood(spring(1904), spring(1906))).toBe(2);
    expect(fullYearsStood(fall(1904), WINTER(1905))).toBe(1);
    expect(fullYearsStood(fall(1904), WINTER(1906))).toBe(2);
    expect(fullYearsStood(fall(1904), fall(1904))).toBe(0);
  });

  it('lets an alliance of two full years with 18 centres win jointly under the 1914 rules only', () => {
    const v = variantById('1914')!;
    const centres = owning({ england: 9, germany: 9, russia: 8 });
    const old = { powers: ['england', 'germany'] as Power[], since: { year: 1904, season: 'spring', kind: 'movement' } as Phase };
    const young = { ...old, since: { year: 1905, season: 'fall', kind: 'movement' } as Phase };
    expect(allianceWinners(v, { phase: WINTER(1905), centres }, [old])).toEqual(['england', 'germany']);
    expect(allianceWinners(v, { phase: WINTER(1905), centres }, [young])).toEqual([]);
    expect(allianceWinners(v, { phase: WINTER(1905), centres: owning({ england: 9, germany: 8 }) }, [old])).toEqual([]);
    expect(allianceWinners(variantById('standard')!, { phase: WINTER(1905), centres }, [old])).toEqual([]);
  });
});

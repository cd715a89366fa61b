// The variants as the rulebooks list them: who plays what, who nobody plays, when it starts.
import { describe, expect, it } from 'vitest';
import { POWERS, STARTING_POSITION, VARIANTS, variantById, type Power } from '../../../src/rules';

const seatsOf = (id: string): string[][] => variantById(id)!.seats.map((s) => [...s.powers]);

describe('variant registry', () => {
  it('has unique ids and a Spanish and English name and description for each', () => {
    const ids = VARIANTS.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const v of VARIANTS) {
      expect(v.name.es.length).toBeGreaterThan(5);
      expect(v.name.en.length).toBeGreaterThan(5);
      expect(v.description.es.length).toBeGreaterThan(20);
      expect(v.description.en.length).toBeGreaterThan(20);
      expect(variantById(v.id)).toBe(v);
    }
    expect(variantById('no-such-variant')).toBeUndefined();
  });

  it('gives every power to exactly one seat or to the neutrals, with one seat per player', () => {
    for (const v of VARIANTS) {
      const held = [...v.seats.flatMap((s) => s.powers), ...v.neutral].sort();
      expect(held, v.id).toEqual([...POWERS]);
      expect(v.seats.length, v.id).toBe(v.players);
      for (const s of v.seats) expect(s.id, v.id).toBe(s.powers.join('-'));
    }
  });

  it('starts every variant from the standard set-up; classic in 1901, two-player classic in 1914, "1914" rules in 1904', () => {
    const years = Object.fromEntries(VARIANTS.map((v) => [v.id, v.start.phase.year]));
    for (const v of VARIANTS) {
      expect(v.start.units).toEqual(STARTING_POSITION.units);
      expect(v.start.centres).toEqual(STARTING_POSITION.centres);
      expect(v.start.phase.season).toBe('spring');
      expect(v.start.phase.kind).toBe('movement');
    }
    expect(years['standard']).toBe(1901);
    expect(years['six-players']).toBe(1901);
    expect(years['two-players']).toBe(1914);
    for (const v of VARIANTS.filter((x) => x.id.startsWith('1914'))) expect(years[v.id]).toBe(1904);
  });

  it('follows seed 000 XV.3 and seed 002 for the classic splits', () => {
    expect(variantById('six-players')!.neutral).toEqual(['italy']);
    expect(variantById('five-players')!.neutral).toEqual(['germany', 'italy']);
    expect(seatsOf('four-players')).toEqual([['austria', 'france'], ['england'], ['germany', 'turkey'], ['italy', 'russia']]);
    // Seed 002's only split and seed 000's second one.
    expect(seatsOf('three-players')).toEqual([
      ['austria', 'england', 'germany'],
      ['france', 'turkey'],
      ['italy', 'russia'],
    ]);
    // Seed 000's first split: Russia alone.
    expect(seatsOf('three-players-russia')).toEqual([['austria', 'italy', 'turkey'], ['england', 'france', 'germany'], ['russia']]);
    const two = variantById('two-players')!;
    expect(seatsOf('two-players')).toEqual([
      ['austria', 'germany', 'turkey'],
      ['england', 'france', 'russia'],
    ]);
    expect(two.neutral).toEqual(['italy']);
    expect(two.victory).toEqual({ by: 'seat', count: 'centres', needed: 24 });
    expect(two.toss?.year).toBe(1914);
  });

  it("follows seed 001's own splits for the 1914 rules", () => {
    expect(variantById('1914-six-players')!.neutral).toEqual(['italy']);
    expect(variantById('1914-five-players')!.neutral).toEqual(['italy', 'turkey']);
    expect(seatsOf('1914-four-players')).toEqual([['austria', 'france'], ['england'], ['germany', 'turkey'], ['italy', 'russia']]);
    expect(seatsOf('1914-three-players')).toEqual([
      ['austria', 'italy', 'russia'],
      ['england', 'germany'],
      ['france', 'turkey'],
    ]);
    expect(seatsOf('1914-three-players-no-italy')).toEqual([
      ['austria', 'russia'],
      ['england', 'germany'],
      ['france', 'turkey'],
    ]);
    expect(variantById('1914-three-players-no-italy')!.neutral).toEqual(['italy']);
    const two = variantById('1914-two-players')!;
    expect(two.toss?.year).toBe(1904);
    expect(two.victory).toEqual({ by: 'seat', count: 'units', needed: 24 });
    expect(two.rules.allianceVictory).toBe(false);
  });

  it('switches the 1914 rules on only in the 1914 variants', () => {
    for (const v of VARIANTS) {
      const is1914 = v.id.startsWith('1914');
      expect(v.rules.supportNeedsConsent, v.id).toBe(is1914);
      expect(v.rules.destroyDislodged, v.id).toBe(is1914);
      expect(v.rules.allOrdersRequired, v.id).toBe(is1914);
    }
    expect(variantById('1914')!.rules.allianceVictory).toBe(true);
    expect(variantById('standard')!.rules.allianceVictory).toBe(false);
  });

  it('says in the 1914 description that the standard map is kept (no Slovakia, no Denmark sea)', () => {
    for (const v of VARIANTS.filter((x) => x.id.startsWith('1914'))) {
      expect(v.description.es).toMatch(/mapa estándar/);
      expect(v.description.es).toMatch(/Eslovaquia/);
      expect(v.description.en).toMatch(/standard map/);
      expect(v.description.en).toMatch(/Denmark sea/);
    }
  });

  it('names each power once per seat, in the fixed power order', () => {
    for (const v of VARIANTS) {
      for (const s of v.seats) {
        const order = s.powers.map((p: Power) => POWERS.indexOf(p));
        expect([...order].sort((a, b) => a - b)).toEqual(order);
      }
    }
  });
});

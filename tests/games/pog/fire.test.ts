import { describe, expect, it } from 'vitest';
import { FIRE_TABLES } from '../../../src/games/pog/data';
import { columnIndex, lossNumber } from '../../../src/games/pog/fire';

describe('the fire tables (12.2.7-12.2.8)', () => {
  it("give the loss numbers of the seed's examples", () => {
    // Extended example, August 1914: GE 1st, 2nd and 3rd Armies (15) roll 2 against Sedan -> 5.
    expect(lossNumber('army', 15, 0, 2)).toBe(5);
    // The FR 5th Army (3) answers with a 3 -> 2.
    expect(lossNumber('army', 3, 0, 3)).toBe(2);
    // RU 3rd and 8th Armies (6) roll 3 against Tarnopol -> 4.
    expect(lossNumber('army', 6, 0, 3)).toBe(4);
    // The AH corps left (1) fires on the corps table with a 4 -> 1.
    expect(lossNumber('corps', 1, 0, 4)).toBe(1);
    // Allied action 6: the RU 8th Army (3) on Munkacs shifts from column 3 to 2 for the mountain and
    // rolls 3 -> 2; the reduced AH 2nd Army (1) rolls 1 -> 0.
    expect(lossNumber('army', 3, 1, 3)).toBe(2);
    expect(lossNumber('army', 3, 1, 4)).not.toBe(lossNumber('army', 3, 0, 4));
    expect(lossNumber('army', 1, 0, 1)).toBe(0);
  });

  it('find the greatest column not above the strength', () => {
    const army = FIRE_TABLES.army;
    expect([1, 5, 6, 8, 9, 11, 12, 14, 15, 16, 30].map((s) => army[columnIndex(army, s)]!.from)).toEqual([1, 5, 6, 6, 9, 9, 12, 12, 15, 16, 16]);
    const corps = FIRE_TABLES.corps;
    expect([0, 1, 7, 8, 20].map((s) => corps[columnIndex(corps, s)]!.from)).toEqual([0, 1, 7, 8, 8]);
  });

  it('clamp shifts to the table and modified rolls to 1-6', () => {
    expect(lossNumber('army', 1, 3, 6)).toBe(2);
    expect(lossNumber('army', 16, -2, 1)).toBe(5);
    expect(lossNumber('army', 4, 0, 5, 3)).toBe(lossNumber('army', 4, 0, 6));
    expect(lossNumber('corps', 8, 0, 2, -4)).toBe(2);
    expect(() => lossNumber('army', 4, 0, 7)).toThrow();
    expect(() => lossNumber('army', 4, 0, 0)).toThrow();
  });
});

// The 1901 turns of seed 002's sample game ("Una partida de ejemplo") run through the whole
// phase sequence: Spring, Fall, the centre update, the Winter builds the rulebook lists, Spring 1902.
import { describe, expect, it } from 'vitest';
import { adjudicate, adjustmentsNeeded, centreCounts, STARTING_POSITION } from '../../../src/rules';
import { build, listUnits } from './helpers';
import { conv, hold, mv, sup } from './orders';

const SPRING_1901 = [
  mv('austria', 'A vie', 'tri'),
  mv('austria', 'A bud', 'gal'),
  mv('austria', 'F tri', 'alb'),
  mv('england', 'A lvp', 'yor'),
  mv('england', 'F lon', 'nth'),
  mv('england', 'F edi', 'nwg'),
  mv('france', 'A par', 'bur'),
  mv('france', 'A mar', 'spa'),
  mv('france', 'F bre', 'pic'),
  mv('germany', 'A ber', 'kie'),
  mv('germany', 'A mun', 'ruh'),
  mv('germany', 'F kie', 'den'),
  mv('italy', 'A ven', 'pie'),
  mv('italy', 'A rom', 'ven'),
  mv('italy', 'F nap', 'ion'),
  mv('russia', 'A mos', 'ukr'),
  mv('russia', 'A war', 'gal'),
  mv('russia', 'F stp/sc', 'bot'),
  mv('russia', 'F sev', 'bla'),
  mv('turkey', 'A con', 'bul'),
  mv('turkey', 'A smy', 'con'),
  mv('turkey', 'F ank', 'bla'),
];

// The rulebook prints England's fleet orders as "F MNo, F MNo–MBa": the Norwegian Sea fleet to the Barents Sea.
const FALL_1901 = [
  hold('austria', 'A tri'),
  mv('austria', 'A bud', 'ser'),
  mv('austria', 'F alb', 'gre'),
  mv('england', 'A yor', 'nwy'),
  conv('england', 'F nth', 'yor', 'nwy'),
  mv('england', 'F nwg', 'bar'),
  mv('france', 'A bur', 'mar'),
  mv('france', 'A spa', 'por'),
  mv('france', 'F pic', 'bel'),
  mv('germany', 'A kie', 'hol'),
  mv('germany', 'A ruh', 'bel'),
  hold('germany', 'F den'),
  hold('italy', 'A ven'),
  mv('italy', 'A pie', 'mar'),
  mv('italy', 'F ion', 'tun'),
  sup('russia', 'A ukr', 'F sev', 'rum'),
  mv('russia', 'A war', 'gal'),
  mv('russia', 'F bot', 'swe'),
  mv('russia', 'F sev', 'rum'),
  mv('turkey', 'A bul', 'ser'),
  mv('turkey', 'A con', 'bul'),
  mv('turkey', 'F ank', 'bla'),
];

const WINTER_1901 = [
  build('england', 'F edi'),
  build('germany', 'F kie'),
  build('germany', 'A mun'),
  build('russia', 'A stp'),
  build('russia', 'A sev'),
  build('turkey', 'A smy'),
  build('austria', 'A vie'),
  build('italy', 'F nap'),
  build('france', 'F mar'),
];

describe('seed 002 sample game, 1901', () => {
  const spring = adjudicate(STARTING_POSITION, SPRING_1901);
  const fall = adjudicate(spring.next, FALL_1901);
  const winter = adjudicate(fall.next, WINTER_1901);

  it('Spring 1901: only the moves to the Black Sea and Galicia fail; no retreats, on to Fall', () => {
    const failed = spring.results
      .filter((r) => !r.success)
      .map((r) => ('unit' in r.order ? r.order.unit.loc : ''))
      .sort();
    expect(failed).toEqual(['ank', 'bud', 'sev', 'war']);
    expect(spring.dislodged).toEqual([]);
    expect(spring.contested).toEqual(['bla', 'gal']);
    expect(spring.next.phase).toEqual({ year: 1901, season: 'fall', kind: 'movement' });
    // Spring moves take no centres: Spain is passed through, Denmark entered, nobody owns them yet.
    expect(spring.next.centres).toEqual(STARTING_POSITION.centres);
  });

  it('Fall 1901: centres change hands and Winter follows', () => {
    expect(fall.dislodged).toEqual([]);
    expect(fall.next.phase).toEqual({ year: 1901, season: 'winter', kind: 'adjustment' });
    const c = fall.next.centres;
    expect([c.gre, c.nwy, c.por, c.hol, c.den, c.tun, c.rum, c.swe, c.bul]).toEqual([
      'austria',
      'england',
      'france',
      'germany',
      'germany',
      'italy',
      'russia',
      'russia',
      'turkey',
    ]);
    // Spain was left in the Fall: it stays neutral, as do Serbia and Belgium (standoffs).
    expect([c.spa, c.ser, c.bel]).toEqual([undefined, undefined, undefined]);
    expect(centreCounts(fall.next)).toEqual({ austria: 4, england: 4, france: 4, germany: 5, italy: 4, russia: 6, turkey: 4 });
    // "Inglaterra, Turquía, Austria, Italia y Francia tienen derecho a construir uno, mientras que Rusia y Alemania ... a dos."
    expect(adjustmentsNeeded(fall.next)).toEqual({ austria: 1, england: 1, france: 1, germany: 2, italy: 1, russia: 2, turkey: 1 });
  });

  it('Winter 1901: the rulebook builds all succeed and Spring 1902 begins', () => {
    expect(winter.results.every((r) => r.success)).toBe(true);
    expect(winter.results).toHaveLength(9);
    expect(winter.next.phase).toEqual({ year: 1902, season: 'spring', kind: 'movement' });
    expect(winter.next.units).toHaveLength(31);
    expect(listUnits(winter.next.units, 'russia')).toEqual(['A gal', 'F rum', 'A sev', 'A stp', 'F swe', 'A ukr']);
    expect(winter.next.units.map((u) => u.loc)).toEqual(winter.next.units.map((u) => u.loc).sort());
  });

  it('is deterministic: the same input gives the same bytes', () => {
    const again = adjudicate(adjudicate(adjudicate(STARTING_POSITION, SPRING_1901).next, FALL_1901).next, WINTER_1901);
    expect(JSON.stringify(again)).toEqual(JSON.stringify(winter));
    const shuffled = adjudicate(fall.next, [...WINTER_1901].reverse());
    expect(JSON.stringify(shuffled.next)).toEqual(JSON.stringify(winter.next));
  });
});

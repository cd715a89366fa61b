// Supply centres, home centres and the Spring 1901 position of the standard game.
import { POWERS, type Position, type Power, type ProvinceId, type Unit } from '../types';
import { STANDARD_PROVINCES } from './provinces';

const ids = Object.keys(STANDARD_PROVINCES).sort();

/** The 34 supply centres, sorted. */
export const SUPPLY_CENTRES: readonly ProvinceId[] = ids.filter((id) => STANDARD_PROVINCES[id]!.supplyCentre);

/** Each power's home centres (where it may build), sorted. */
const homeOf = (power: Power): readonly ProvinceId[] => ids.filter((id) => STANDARD_PROVINCES[id]!.home === power);
export const HOME_CENTRES: Readonly<Record<Power, readonly ProvinceId[]>> = {
  austria: homeOf('austria'),
  england: homeOf('england'),
  france: homeOf('france'),
  germany: homeOf('germany'),
  italy: homeOf('italy'),
  russia: homeOf('russia'),
  turkey: homeOf('turkey'),
};

// As set up by the rulebooks (seed 000 §II, seed 002's table): Russia's northern fleet on the south coast.
const SETUP: Readonly<Record<Power, string>> = {
  austria: 'A vie, A bud, F tri',
  england: 'F lon, F edi, A lvp',
  france: 'A par, A mar, F bre',
  germany: 'A ber, A mun, F kie',
  italy: 'A rom, A ven, F nap',
  russia: 'A mos, F sev, A war, F stp/sc',
  turkey: 'F ank, A con, A smy',
};

const startingUnits: Unit[] = POWERS.flatMap((power) =>
  SETUP[power].split(', ').map((s): Unit => {
    const [type, loc] = s.split(' ');
    return { type: type === 'F' ? 'F' : 'A', power, loc: loc ?? '' };
  }),
).sort((a, b) => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0));

/** Spring 1901, movement: every power on its home centres, which it owns. */
export const STARTING_POSITION: Position = {
  phase: { year: 1901, season: 'spring', kind: 'movement' },
  units: startingUnits,
  centres: Object.fromEntries(
    SUPPLY_CENTRES.flatMap((id) => {
      const home = STANDARD_PROVINCES[id]!.home;
      return home ? [[id, home]] : [];
    }),
  ),
  dislodged: [],
};

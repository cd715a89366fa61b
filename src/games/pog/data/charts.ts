// The game's charts as data: fire tables, terrain and trench effects, mandated offensives, peace
// terms, the turn track and the thresholds the rules name. Section numbers are the seed's.
import type { Commitment, Nation, Terrain } from './types';

/** One column of a fire table: it applies from `from` combat factors up (12.2.7); `losses` is the
 *  loss number for die rolls 1 to 6. */
export interface FireColumn {
  readonly from: number;
  readonly losses: readonly [number, number, number, number, number, number];
}

/** The two fire tables (12.2.7): a side with at least one army (even reduced) fires on the army
 *  table, otherwise on the corps (and forts) table. */
export const FIRE_TABLES: Readonly<Record<'corps' | 'army', readonly FireColumn[]>> = {
  corps: [
    { from: 0, losses: [0, 0, 0, 0, 1, 1] },
    { from: 1, losses: [0, 0, 0, 1, 1, 1] },
    { from: 2, losses: [0, 1, 1, 1, 1, 1] },
    { from: 3, losses: [1, 1, 1, 1, 2, 2] },
    { from: 4, losses: [1, 1, 1, 2, 2, 2] },
    { from: 5, losses: [1, 1, 2, 2, 2, 3] },
    { from: 6, losses: [1, 1, 2, 2, 3, 3] },
    { from: 7, losses: [1, 2, 2, 3, 3, 4] },
    { from: 8, losses: [2, 2, 3, 3, 4, 4] },
  ],
  army: [
    { from: 1, losses: [0, 1, 1, 1, 2, 2] },
    { from: 2, losses: [1, 1, 2, 2, 3, 3] },
    { from: 3, losses: [1, 2, 2, 3, 3, 4] },
    { from: 4, losses: [2, 2, 3, 3, 4, 4] },
    { from: 5, losses: [2, 3, 3, 4, 4, 5] },
    { from: 6, losses: [3, 3, 4, 4, 5, 5] },
    { from: 9, losses: [3, 4, 4, 5, 5, 7] },
    { from: 12, losses: [4, 4, 5, 5, 7, 7] },
    { from: 15, losses: [4, 5, 5, 7, 7, 7] },
    { from: 16, losses: [5, 5, 7, 7, 7, 7] },
  ],
};

/** What a space's terrain does in combat: how many columns the attacker's fire shifts left, whether
 *  an advance must stop on entering it (12.6.3), whether a defender there may cancel a retreat with
 *  one more step loss (12.5.3), and whether it forbids a flank attack attempt (12.3.1). Terrain and
 *  trench shifts add up (the seed's questions and answers). */
export interface TerrainEffect {
  readonly attackShift: number;
  readonly stopsAdvance: boolean;
  readonly cancelsRetreat: boolean;
  readonly noFlank: boolean;
}

export const TERRAIN: Readonly<Record<Terrain, TerrainEffect>> = {
  clear: { attackShift: 0, stopsAdvance: false, cancelsRetreat: false, noFlank: false },
  forest: { attackShift: 0, stopsAdvance: true, cancelsRetreat: true, noFlank: false },
  desert: { attackShift: 0, stopsAdvance: false, cancelsRetreat: true, noFlank: false },
  mountain: { attackShift: 1, stopsAdvance: true, cancelsRetreat: true, noFlank: true },
  swamp: { attackShift: 1, stopsAdvance: true, cancelsRetreat: true, noFlank: true },
};

/** Columns left for the attacker's fire by the defender's trench level (not against an unoccupied
 *  fort); trenches also let the defender cancel a retreat (12.5.3) and forbid a flank attempt. */
export const TRENCH_SHIFT: Readonly<Record<1 | 2, number>> = { 1: 1, 2: 2 };

/** The attacker's die modifier when every attacking unit is in Sinai (12.2.6), until the Allies
 *  play Sinai Pipeline (for the Allies only). */
export const SINAI = { space: 'sinai', drm: -3 } as const;

/** Flank attack attempt (12.3.3): succeeds on a modified roll of this or more. */
export const FLANK_SUCCESS = 4;

/** A mandated offensive result: the nation that must attack, 'ah-it' (Austria-Hungary against
 *  Italy, 7.1.6), or null for none. */
export type Offensive = Nation | 'ah-it' | null;

/** The mandated offensive tables (7.1), by modified roll 1-7. A Central Powers 7 (a 6 with
 *  Hoffmann's +1) is read as none: see docs/pog-differences.md. */
export const MANDATED_OFFENSIVES: Readonly<Record<'ap' | 'cp', readonly Offensive[]>> = {
  ap: ['fr', 'fr', 'br', 'it', 'it', 'ru', null],
  cp: ['ah', 'ah-it', 'tu', 'ge', null, null, null],
};

/** Peace terms refused (16.5.2): the offering side rolls; 'for' moves VP one space in its favour,
 *  'against' one space against it. A 3 counts as 'for' when the combined war status is below 20. */
export const PEACE_TERMS = {
  forOnOrBelow: 2,
  forOnThreeBelowCombined: 20,
  againstOn: 6,
} as const;

export type Season = 'summer' | 'fall' | 'winter' | 'spring';

/** One turn of the turn track: August and September 1914 are turns of their own; then one turn per
 *  season; a winter turn is named by the year it ends in ("Winter 1915" is turn 4). */
export interface Turn {
  readonly turn: number;
  readonly year: number;
  readonly season: Season;
  readonly month?: 'august' | 'september';
}

const seasons: readonly Season[] = ['fall', 'winter', 'spring', 'summer'];

export const TURNS: readonly Turn[] = [
  { turn: 1, year: 1914, season: 'summer', month: 'august' },
  { turn: 2, year: 1914, season: 'summer', month: 'september' },
  ...Array.from({ length: 18 }, (_, i): Turn => {
    const season = seasons[i % 4]!;
    const year = 1914 + Math.floor((i + 3) / 4);
    return { turn: i + 3, year, season };
  }),
];

/** Numbers the rules name. */
export const LIMITS = {
  /** Cards in a hand after the draw (G; 9.1.4 optional: 8). */
  hand: 7,
  /** Action rounds per action phase (8.1.1). */
  actionRounds: 6,
  /** Units per space (10.1.1). */
  stacking: 3,
  /** The VP marker at the start (4.1.2). */
  vpStart: 10,
  /** Automatic victory in segment E.2 (5.2): the Central Powers at this VP or more, the Allies at
   *  this or less. */
  vpCentralWins: 20,
  vpAlliedWins: 0,
  /** Who may offer peace terms (16.5.1): the Central Powers at this VP or more, the Allies at this
   *  or less. */
  peaceCentralFrom: 11,
  peaceAlliedUpTo: 9,
  /** Armistice when the combined war status reaches this in the War Status Phase (16.2.1). */
  armistice: 40,
  /** Zimmermann Telegram allowed from this combined war status (16.3.2). */
  zimmermann: 30,
  /** Tsar Takes Command allowed with this many Russian VP spaces held by the Central Powers (16.4.3). */
  tsarTakesCommandVp: 3,
  /** Fall of the Tsar allowed when combined war status plus Russian VP spaces held reach this (16.4.4). */
  fallOfTheTsar: 33,
  /** Russian VP spaces (Baku excluded) that allow the Bolshevik Revolution when all are held (16.4.6). */
  russianVpSpaces: 7,
} as const;

/** The player's war status that raises the commitment level (16.1.3-4). */
export const COMMITMENT_AT: Readonly<Record<Exclude<Commitment, 'mobilization'>, number>> = {
  limited: 4,
  total: 11,
};

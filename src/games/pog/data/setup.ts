// The initial set-up (the seed's "Colocación inicial", 4.2), the same for all three scenarios, and
// where each neutral nation's units go when it enters the war (4.2.2). Units in `reduced` start on
// their reduced side. Generic corps are numbered in the order this file places them; the remaining
// ones arrive with the reinforcement cards (cards.ts).
import type { Placement } from './types';

const corps = (nation: string, from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `${nation}-corps-${from + i}`);

/** The units on the map and in the reserve boxes at the start of every scenario. */
export const SETUP: readonly Placement[] = [
  // Central Powers: Austria-Hungary.
  { at: 'cp-reserve', units: corps('ah', 1, 5) },
  { at: 'cracow', units: ['ah-corps-6'], trench: 1 },
  { at: 'tarnow', units: ['ah-1-army'] },
  { at: 'przemysl', units: ['ah-4-army'] },
  { at: 'tarnopol', units: ['ah-3-army'] },
  { at: 'czernowitz', units: ['ah-corps-7'] },
  { at: 'munkacs', reduced: ['ah-2-army'] },
  { at: 'timisvar', units: ['ah-corps-8'] },
  { at: 'novi-sad', units: ['ah-5-army'] },
  { at: 'sarajevo', units: ['ah-6-army'] },
  { at: 'trent', trench: 1 },
  { at: 'villach', units: ['ah-corps-9'], trench: 1 },
  { at: 'trieste', trench: 1 },
  // Central Powers: Germany.
  { at: 'cp-reserve', units: corps('ge', 1, 8) },
  { at: 'bremen', reduced: ['ge-corps-9'] },
  { at: 'aachen', units: ['ge-1-army'] },
  { at: 'koblenz', units: ['ge-2-army', 'ge-3-army'] },
  { at: 'metz', units: ['ge-4-army', 'ge-5-army'], trench: 1 },
  { at: 'strasbourg', units: ['ge-6-army'] },
  { at: 'mulhouse', reduced: ['ge-7-army'], trench: 1 },
  { at: 'konigsberg', trench: 1 },
  { at: 'insterberg', units: ['ge-8-army', 'ge-corps-10'] },
  { at: 'oppeln', reduced: ['ge-corps-11'] },
  // Allies: Belgium.
  { at: 'antwerp', units: ['be-1-army'] },
  { at: 'ap-reserve', units: ['be-corps-1'] },
  // Allies: Britain.
  { at: 'ap-reserve', units: ['br-corps-1', 'br-bef-corps'] },
  { at: 'brussels', units: ['br-bef-army'], trench: 1 },
  { at: 'port-said', reduced: ['br-corps-2'], trench: 1 },
  { at: 'cairo', reduced: ['br-corps-3'], trench: 1 },
  { at: 'basra', reduced: ['br-corps-4'], trench: 1 },
  // Allies: France.
  { at: 'ap-reserve', units: corps('fr', 1, 7) },
  { at: 'sedan', units: ['fr-5-army'] },
  { at: 'verdun', units: ['fr-3-army', 'fr-4-army'], trench: 1 },
  { at: 'nancy', units: ['fr-1-army', 'fr-2-army'], trench: 1 },
  { at: 'belfort', units: corps('fr', 8, 9), trench: 1 },
  { at: 'bar-le-duc', reduced: ['fr-9-army'] },
  { at: 'paris', reduced: ['fr-6-army'], trench: 1 },
  { at: 'grenoble', units: ['fr-corps-10'] },
  // Allies: Montenegro.
  { at: 'cetinje', units: ['mn-corps-1'] },
  // Allies: Russia.
  { at: 'ap-reserve', units: corps('ru', 1, 6) },
  { at: 'riga', units: ['ru-corps-7'], trench: 1 },
  { at: 'szawli', units: ['ru-corps-8'] },
  { at: 'kovno', units: ['ru-1-army'] },
  { at: 'grodno', units: ['ru-corps-9'] },
  { at: 'lomza', units: ['ru-2-army'] },
  { at: 'ivangorod', units: ['ru-4-army'] },
  { at: 'lublin', units: ['ru-5-army'] },
  { at: 'dubno', units: ['ru-3-army'] },
  { at: 'kamenets-podolski', units: ['ru-8-army'] },
  { at: 'odessa', units: ['ru-corps-10'], trench: 1 },
  { at: 'batum', units: ['ru-corps-11'] },
  { at: 'kars', units: ['ru-corps-12'] },
  { at: 'erivan', units: ['ru-corps-13'] },
  // Allies: Serbia.
  { at: 'ap-reserve', units: corps('sb', 1, 2) },
  { at: 'belgrade', units: ['sb-1-army'] },
  { at: 'valjevo', units: ['sb-2-army'] },
];

/** A neutral nation's units when it enters the war: fixed placements, and for Bulgaria and Romania
 *  one corps on each of any four other spaces of the nation, chosen by its player. */
export interface Entry {
  readonly placements: readonly Placement[];
  readonly anyOther?: { readonly units: readonly string[]; readonly spaces: number };
}

/** The nations that enter the war with units (Albania and Persia have none; US units arrive only by
 *  reinforcement cards). */
export type EnteringNation = 'bu' | 'gr' | 'it' | 'ro' | 'tu';

export const NEUTRAL_ENTRY: Readonly<Record<EnteringNation, Entry>> = {
  bu: {
    placements: [{ at: 'sofia', units: corps('bu', 1, 2) }],
    anyOther: { units: corps('bu', 3, 6), spaces: 4 },
  },
  gr: {
    placements: [
      { at: 'florina', units: ['gr-corps-1'] },
      { at: 'larisa', units: ['gr-corps-2'] },
      { at: 'athens', units: ['gr-corps-3'] },
    ],
  },
  it: {
    placements: [
      { at: 'ap-reserve', units: corps('it', 1, 4) },
      { at: 'turin', units: ['it-corps-5'] },
      { at: 'verona', reduced: ['it-1-army'] },
      { at: 'asiago', reduced: ['it-4-army'] },
      { at: 'maggiore', reduced: ['it-3-army'] },
      { at: 'udine', reduced: ['it-2-army'] },
      { at: 'rome', units: ['it-corps-6'] },
      { at: 'taranto', units: ['it-corps-7'] },
    ],
  },
  ro: {
    placements: [{ at: 'bucharest', units: corps('ro', 1, 2) }],
    anyOther: { units: corps('ro', 3, 6), spaces: 4 },
  },
  tu: {
    placements: [
      { at: 'adrianople', units: ['tu-corps-1'] },
      { at: 'gallipoli', units: ['tu-corps-2'] },
      { at: 'constantinople', units: ['tu-corps-3'] },
      { at: 'balikesir', units: ['tu-corps-4'] },
      { at: 'ankara', units: ['tu-corps-5'] },
      { at: 'adana', units: ['tu-corps-6'] },
      { at: 'rize', units: ['tu-corps-7'] },
      { at: 'erzerum', units: ['tu-corps-8'] },
      { at: 'giresun', trench: 1 },
      { at: 'van', units: ['tu-corps-9'] },
      { at: 'mosul', units: ['tu-corps-10'] },
      { at: 'baghdad', units: ['tu-corps-11'], trench: 1 },
      { at: 'damascus', units: ['tu-corps-12'] },
      { at: 'gaza', units: ['tu-corps-13'], trench: 1 },
      { at: 'medina', units: ['tu-corps-14'] },
    ],
  },
};

/** The optional alternative set-up (4.2.4), applied on top of SETUP: corps taken from the reserve
 *  boxes to spaces, one trench removed, five added. */
export const OPTIONAL_SETUP = {
  moves: [
    { unit: 'ah-corps-1', to: 'stanislau' },
    { unit: 'ah-corps-2', to: 'trent' },
    { unit: 'ru-corps-1', to: 'lutsk' },
  ],
  trenchRemoved: ['brussels'],
  trenchAdded: ['strasbourg', 'verona', 'asiago', 'maggiore', 'udine'],
} as const;

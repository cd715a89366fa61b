// The seed's three scenarios (5.3-5.5). All start in August 1914 with the same set-up (4.0).
import type { Text } from './types';

/** How the VP marker at the end decides the game: the Central Powers win at `centralFrom` or more,
 *  the Allies at `alliedUpTo` or less, anything between is a draw. */
export interface VictoryLevels {
  readonly centralFrom: number;
  readonly alliedUpTo: number;
}

export interface Scenario {
  readonly id: 'introductory' | 'limited' | 'campaign';
  readonly name: Text;
  /** The scenario ends after this turn (5.3.1, 5.4.1, 5.5.1). */
  readonly lastTurn: number;
  /** Whether the commitment level may rise (5.3.2: not in the introductory scenario). */
  readonly commitmentRises: boolean;
  /** Whether peace terms may be offered (5.3.3). */
  readonly peaceTerms: boolean;
  /** Whether a player reaching Total War ends the game (5.4.1). */
  readonly endsAtTotalWar: boolean;
  /** Victory levels; the campaign has two, after the Treaty of Brest-Litovsk or without it (5.5.2). */
  readonly victory: VictoryLevels;
  readonly victoryAfterBrestLitovsk?: VictoryLevels;
}

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'introductory',
    name: { en: 'Introductory', es: 'De Introducción' },
    lastTurn: 3,
    commitmentRises: false,
    peaceTerms: false,
    endsAtTotalWar: false,
    victory: { centralFrom: 14, alliedUpTo: 10 },
  },
  {
    id: 'limited',
    name: { en: 'Limited War', es: 'Guerra Limitada' },
    lastTurn: 10,
    commitmentRises: true,
    peaceTerms: true,
    endsAtTotalWar: true,
    victory: { centralFrom: 17, alliedUpTo: 12 },
  },
  {
    id: 'campaign',
    name: { en: 'Campaign', es: 'Campaña' },
    lastTurn: 20,
    commitmentRises: true,
    peaceTerms: true,
    endsAtTotalWar: false,
    victory: { centralFrom: 13, alliedUpTo: 9 },
    victoryAfterBrestLitovsk: { centralFrom: 11, alliedUpTo: 9 },
  },
];

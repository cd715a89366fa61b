// What a variant of the game is, as data: who plays which powers, who nobody plays, where and
// when it starts, which rule switches it flips and how it is won.
import type { Phase, Position, Power, ProvinceId, RuleOptions } from '../types';

/** One player's share of the board: the powers one key holds. */
export interface Seat {
  /** Stable id ('england', 'austria-france'): the powers joined by '-', in POWERS order. */
  readonly id: string;
  readonly powers: readonly Power[];
}

/** RuleOptions plus the switches only the protocol enforces (the engine ignores them). */
export interface VariantRules extends RuleOptions {
  /** "1914" rules: a player may seal only with an order for every unit. */
  readonly allOrdersRequired: boolean;
  /** "1914" rules: an alliance of two full years holding victoryCentres centres wins jointly. */
  readonly allianceVictory: boolean;
}

/** How the game is won outright. */
export interface Victory {
  /** 'power': one power's count (the rulebooks); 'seat': the sum over one player's powers (two players). */
  readonly by: 'power' | 'seat';
  /** Seed 000/002 count supply centres; seed 001's two-player game counts units ("ejércitos y flotas"). */
  readonly count: 'centres' | 'units';
  readonly needed: number;
}

/** The two-player game's coin toss for Italy. */
export interface ItalyToss {
  /** The Fall movement phase of this year is when the two sides toss (see the variant's description). */
  readonly year: number;
  /** Italy belongs to the winning seat from the Spring of the next year. */
  readonly power: Power;
  /** Provinces nobody may enter until then. */
  readonly impassable: readonly ProvinceId[];
}

export interface Text {
  readonly es: string;
  readonly en: string;
}

export interface Variant {
  readonly id: string;
  readonly name: Text;
  readonly description: Text;
  readonly players: number;
  readonly seats: readonly Seat[];
  /** Powers nobody plays from the start (before any toss). */
  readonly neutral: readonly Power[];
  readonly start: Position;
  readonly rules: VariantRules;
  readonly victory: Victory;
  readonly toss?: ItalyToss;
  /** Where the rulebooks describe it. */
  readonly source: string;
}

/** What the variant looks like in one phase, once the toss (if any) is known. */
export interface VariantPhase {
  readonly phase: Phase;
  readonly neutral: readonly Power[];
  /** Seat id per played power in this phase. */
  readonly seatOf: Readonly<Partial<Record<Power, string>>>;
  readonly seats: readonly Seat[];
}

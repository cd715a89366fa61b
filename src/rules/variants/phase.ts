// The variant as it stands in one phase. Only the two-player games change over time: until the
// toss year is over Italy is neutral and closed; from the next Spring it belongs to the seat that
// won the toss. If neither side took part in the toss, Italy simply stays neutral and closed.
import { STANDARD_MAP } from '../map';
import type { AdjudicateOptions, GameMap, Phase, Power } from '../types';
import type { NeutralOptions } from '../adjudicate/neutral';
import { ITALY_CLOSED_MAP } from './italy';
import type { Seat, Variant, VariantPhase } from './types';

export interface VariantPhaseSetup extends VariantPhase {
  readonly map: GameMap;
  /** What adjudicate() needs for this phase (add civilDisorder per phase). */
  readonly options: AdjudicateOptions & NeutralOptions;
}

/** Whether the toss is made in this phase: the Fall movement phase of the toss year, before that
 *  year's adjustments (seed 000/002). Seed 001 tosses after the Fall 1904 builds; Italy changes
 *  hands in the next Spring either way and, neutral and closed, cannot gain or lose a centre in
 *  between, so tossing with the Fall orders changes nothing but lets the orders' seal carry it. */
export function isTossPhase(variant: Variant, phase: Phase): boolean {
  return variant.toss !== undefined && phase.year === variant.toss.year && phase.season === 'fall' && phase.kind === 'movement';
}

/** Whether the toss of this variant has taken effect in `phase`. */
export function tossTakenEffect(variant: Variant, phase: Phase): boolean {
  return variant.toss !== undefined && phase.year > variant.toss.year;
}

/**
 * @param tossWinner the seat id that won the toss; null (or omitted) when nobody won it. Ignored
 *   before the toss takes effect and in variants without a toss.
 */
export function variantPhase(variant: Variant, phase: Phase, tossWinner?: string | null): VariantPhaseSetup {
  let seats: readonly Seat[] = variant.seats;
  let neutral: readonly Power[] = variant.neutral;
  let map: GameMap = STANDARD_MAP;
  const toss = variant.toss;
  if (toss !== undefined) {
    const winner = tossTakenEffect(variant, phase) ? variant.seats.find((s) => s.id === tossWinner) : undefined;
    if (winner === undefined) map = ITALY_CLOSED_MAP;
    else {
      neutral = neutral.filter((p) => p !== toss.power);
      seats = variant.seats.map((s) => (s === winner ? { id: s.id, powers: [...s.powers, toss.power].sort() } : s));
    }
  }
  const seatOf: Partial<Record<Power, string>> = {};
  for (const s of seats) for (const p of s.powers) seatOf[p] = s.id;
  return {
    phase,
    neutral,
    seats,
    seatOf,
    map,
    options: { map, rules: variant.rules, neutral },
  };
}

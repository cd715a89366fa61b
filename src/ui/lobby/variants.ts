// The new-game form's choice of variant, taken from the registry (src/rules/variants): first the
// number of players, then the rule set (classic or seed 001's "1914"), then the split of powers
// into seats among the registry's variants for that count. Also the seat look-ups the lobby uses.
import { VARIANTS, variantById, type Power, type Seat, type Variant } from '../../rules';

export type RuleSet = 'classic' | '1914';
export const RULE_SETS: readonly RuleSet[] = ['classic', '1914'];
export const PLAYER_COUNTS: readonly number[] = [2, 3, 4, 5, 6, 7];

/** Registry ids of the "1914" rule set all start with '1914' (see registry.ts). */
export function ruleSetOf(variant: Variant): RuleSet {
  return variant.id.startsWith('1914') ? '1914' : 'classic';
}

/** The registry's variants for this many players and rule set, in registry order. */
export function variantsFor(players: number, ruleSet: RuleSet): Variant[] {
  return VARIANTS.filter((v) => v.players === players && ruleSetOf(v) === ruleSet);
}

/** The variant the form shows: the chosen id if it fits the count and rule set, else the first that does. */
export function chosenVariant(players: number, ruleSet: RuleSet, id?: string): Variant | undefined {
  const list = variantsFor(players, ruleSet);
  return list.find((v) => v.id === id) ?? list[0];
}

/** The variant a game names; the standard game when the id is unknown (as the protocol does). */
export function variantFor(id: string | undefined): Variant {
  return (id === undefined ? undefined : variantById(id)) ?? VARIANTS[0]!;
}

/** Default short-game end year: six game years after the start (1907 for a game starting in 1901). */
export function defaultEndYear(variant: Variant): number {
  return variant.start.phase.year + 6;
}

/** The seat holding `power` from the start, or undefined for a neutral power. */
export function seatOf(variant: Variant, power: Power): Seat | undefined {
  return variant.seats.find((s) => s.powers.includes(power));
}

/** A seat is claimed in a JOIN by naming its first power. */
export function seatClaim(seat: Seat): Power {
  return seat.powers[0]!;
}

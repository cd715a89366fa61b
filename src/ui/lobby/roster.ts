// Who holds which seat when the game starts. A seat is one player's share of the powers (several
// in the small games); START still names all seven powers, every power of a seat under one key,
// and a neutral power under the creator's key as the protocol's placeholder. Only the standard
// game lets one player hold several seats (its old freedom, which the protocol keeps).
import { lotPlayersProblem, rosterProblem, type Player } from '../../protocol';
import { POWERS, type Power, type Variant } from '../../rules';
import { variantFor } from './variants';

export type Roster = Readonly<Record<Power, string>>;
/** Seat id -> player key. */
export type SeatDeal = Readonly<Partial<Record<string, string>>>;

/**
 * Claims first (a claim names any power of its seat; the earliest joiner by key order wins a
 * contested seat), then every free seat to the player holding fewest, ties by join order.
 */
export function defaultSeats(players: readonly Player[], variant: Variant = variantFor('standard')): SeatDeal {
  const out: Record<string, string> = {};
  for (const p of players) {
    const seat = p.claim === null ? undefined : variant.seats.find((s) => s.powers.includes(p.claim!));
    if (seat !== undefined && out[seat.id] === undefined && !Object.values(out).includes(p.key)) out[seat.id] = p.key;
  }
  return fillFreeSeats(
    out,
    players.map((p) => p.key),
    variant,
  );
}

/** Gives each unassigned seat to the player with fewest seats, in `order` on ties. */
export function fillFreeSeats(partial: SeatDeal, order: readonly string[], variant: Variant): SeatDeal {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(partial)) if (v !== undefined) out[k] = v;
  if (order.length === 0) return out;
  const count = (k: string) => Object.values(out).filter((x) => x === k).length;
  for (const seat of variant.seats) {
    if (out[seat.id] !== undefined) continue;
    let best = order[0]!;
    for (const k of order) if (count(k) < count(best)) best = k;
    out[seat.id] = best;
  }
  return out;
}

/** The START roster for a seat deal, or null while a seat is free. */
export function rosterOf(seats: SeatDeal, variant: Variant, creator: string): Roster | null {
  const out: Partial<Record<Power, string>> = {};
  for (const seat of variant.seats) {
    const key = seats[seat.id];
    if (key === undefined) return null;
    for (const p of seat.powers) out[p] = key;
  }
  for (const p of variant.neutral) out[p] = creator;
  return POWERS.every((p) => out[p] !== undefined) ? (out as Roster) : null;
}

/** Why this deal cannot start the game, or null: a free seat, someone who left, or (outside the standard game) a player on two seats. */
export function dealProblem(seats: SeatDeal, variant: Variant, players: readonly Player[], creator: string): 'free-seat' | 'not-joined' | 'two-seats' | null {
  const roster = rosterOf(seats, variant, creator);
  if (roster === null) return 'free-seat';
  const keys = new Set(players.map((p) => p.key));
  if (variant.seats.some((s) => !keys.has(seats[s.id]!))) return 'not-joined';
  if (variant.id !== 'standard' && rosterProblem(variant, roster, creator) !== null) return 'two-seats';
  return null;
}

/**
 * Whether a lot game can start with these players: the protocol deals whole seats in lot order
 * (lot.ts lotRoster), and only the standard game lets seats left over go round the table.
 */
export function lotProblem(players: readonly Player[], variant: Variant): 'need-players' | null {
  return lotPlayersProblem(variant, players.length) === null ? null : 'need-players';
}

/** Whether a full roster holds only joined players (kept for callers that build rosters by power). */
export function isComplete(r: Partial<Record<Power, string>>, players: readonly Player[]): r is Roster {
  const keys = new Set(players.map((p) => p.key));
  return POWERS.every((p) => r[p] !== undefined && keys.has(r[p]!));
}

/** The standard game's roster by power (one seat per power), claims first. */
export function defaultRoster(players: readonly Player[]): Partial<Record<Power, string>> {
  const variant = variantFor('standard');
  const seats = defaultSeats(players, variant);
  const out: Partial<Record<Power, string>> = {};
  for (const seat of variant.seats) if (seats[seat.id] !== undefined) for (const p of seat.powers) out[p] = seats[seat.id];
  return out;
}

// The clock and timeouts. There is no trusted clock, so no single phone's word about time can
// matter. The rules (README.md "The clock and timeouts", with why each is safe):
//  - every quorum and every median counts distinct players (keys), never powers;
//  - a phase opens at the clock median (clockMedian: in a version 7 game the lower median, the
//    later of two claims) of one claim per key of the ballot that closed the one before: its
//    counted LOCK's, or that phase's deadline (nextOpening); fewer than half the keys move it
//    nowhere beyond the others' claims, and a late entry of a closed phase changes no counted LOCK.
//    A game of version 6 or older keeps its old clock (the upper median; the REVEAL claims);
//  - a slot (a power, or a participant of the lot) is timed out in a phase when TIMEOUT votes
//    naming it, each claiming a time at or after the phase's threshold, come from more than half
//    of the other players and at least two of them; with a single other player, that one vote
//    counts only if the target's own key has signed a CLOCK claiming at least the threshold;
//  - a vote only ever adds: timeouts depend on votes, claims and commits alone, never on whether
//    the target has since acted, so what a timeout makes final stays final.
import { compareText } from './bytes';
import type { Message } from './envelope';
import { usesLockClock, type TimeoutPayload } from './messages';

/** The upper median (index ⌊n/2⌋ of the sorted list), or undefined for none. */
export function upperMedian(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * The median every clock rule of a game reads (one claim per key), by the game's version (its
 * CREATE's; messages.ts CLOCK_VERSION). Version 7 on: the later of two claims, else the lower
 * median (index ⌊(n−1)/2⌋ of the sorted list); fewer than half the claims can lift it above every
 * other claim or pull it below every other claim; with two keys a lone liar cannot pull it before
 * the other side's claim. Version 6 and older: the upper median, as the releases that played them.
 * Undefined for none.
 */
export function clockMedian(values: readonly number[], gameVersion: number): number | undefined {
  if (!usesLockClock(gameVersion)) return upperMedian(values);
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length === 2 ? 1 : Math.floor((sorted.length - 1) / 2)];
}

/** What a closed ballot's keys claimed, per key (ballot.ts BallotResult): the inputs of nextOpening. */
export interface ClosingClaims {
  /** The earliest time each key's counted LOCKs claim. */
  readonly lockClaims: ReadonlyMap<string, number>;
  /** The earliest time each key's valid REVEALs claim (the clock of version 6 and older). */
  readonly revealClaims: ReadonlyMap<string, number>;
}

/**
 * When the next phase (or the first phase after the lot) opens, never before the closed phase
 * opened. Version 7 on: the clock median of one claim per key of the closed ballot — the earliest
 * time its counted LOCKs claim, or the closed phase's deadline for a key with no counted LOCK.
 * Counted LOCKs are fixed by the entries that closed the phase (README "The clock and timeouts").
 * Version 6 and older: the upper median of the REVEAL claims held (openingTime), unchanged.
 */
export function nextOpening(previous: number, ballotKeys: readonly string[], claims: ClosingClaims, deadline: number, gameVersion: number): number {
  if (!usesLockClock(gameVersion)) return openingTime(previous, [...claims.revealClaims.values()]);
  const m = clockMedian(
    ballotKeys.map((k) => claims.lockClaims.get(k) ?? deadline),
    gameVersion,
  );
  return m === undefined ? previous : Math.max(previous, m);
}

/** The clock of version 6 and older: no earlier than the phase before, at the upper median of the REVEAL claims. */
export function openingTime(previous: number, revealClaims: readonly number[]): number {
  const u = upperMedian(revealClaims);
  return u === undefined ? previous : Math.max(previous, u);
}

export function quorumReached(voters: number, others: number): boolean {
  return voters * 2 > others && (voters >= 2 || others === 1);
}

export interface TimeoutInput {
  /** The slots that can be voted out (required and not conceded), sorted. */
  readonly slots: readonly string[];
  readonly holderOf: (slot: string) => string;
  /** The players of the phase (keys): who may vote and the base of every quorum. */
  readonly players: readonly string[];
  /**
   * Votes against a slot must claim at least this time: the orders deadline for a slot without a
   * commit, the earlier of it and the reveal-stage deadline for one with a commit. Commits only add,
   * so a threshold only ever comes earlier, and a vote that counted keeps counting.
   */
  readonly threshold: (slot: string) => number;
  readonly votes: readonly Message<TimeoutPayload>[];
  /** Per key, the latest time its CLOCK messages of the phase claim. */
  readonly clocks: ReadonlyMap<string, number>;
}

export interface TimeoutCount {
  readonly timedOut: string[];
  /** Per timed-out slot, when its quorum was reached: the claim of the vote that completed it. */
  readonly at: Record<string, number>;
  /** Per slot named in a counted vote, the keys voting it out (sorted). */
  readonly votes: Record<string, string[]>;
  readonly ignored: { id: string; reason: string }[];
}

export function countTimeouts(input: TimeoutInput): TimeoutCount {
  const ignored: { id: string; reason: string }[] = [];
  const players = new Set(input.players);
  const slots = new Set(input.slots);
  const named = new Map<string, Set<string>>();
  /** slot -> voter -> its earliest counted claim against the slot. */
  const claims = new Map<string, Map<string, number>>();
  for (const vote of input.votes) {
    const p = vote.payload;
    const reason = !players.has(p.from)
      ? 'voter-not-a-player'
      : p.slots.some((s) => !slots.has(s))
        ? 'timeout-names-slot-not-awaited'
        : p.slots.some((s) => input.holderOf(s) === p.from)
          ? 'timeout-names-own-slot'
          : null;
    if (reason !== null) {
      ignored.push({ id: vote.id, reason });
      continue;
    }
    const early = p.slots.filter((s) => p.time < input.threshold(s));
    if (early.length === p.slots.length) ignored.push({ id: vote.id, reason: 'timeout-before-deadline' });
    for (const s of p.slots) {
      if (early.includes(s)) continue;
      named.set(s, (named.get(s) ?? new Set()).add(p.from));
      const mine = claims.get(s) ?? new Map<string, number>();
      mine.set(p.from, Math.min(mine.get(p.from) ?? Infinity, p.time));
      claims.set(s, mine);
    }
  }
  const timedOut: string[] = [];
  const at: Record<string, number> = {};
  const votes: Record<string, string[]> = {};
  for (const s of [...input.slots].sort(compareText)) {
    const voters = [...(named.get(s) ?? [])].sort(compareText);
    if (voters.length === 0) continue;
    votes[s] = voters;
    const holder = input.holderOf(s);
    const others = input.players.filter((k) => k !== holder).length;
    // Two players: nothing tells an absent player from a lying clock, so the target's own clock must agree.
    const agreed = others !== 1 || (input.clocks.get(holder) ?? -Infinity) >= input.threshold(s);
    if (agreed && quorumReached(voters.length, others)) {
      timedOut.push(s);
      const needed = Math.max(others === 1 ? 1 : 2, Math.floor(others / 2) + 1);
      at[s] = [...claims.get(s)!.values()].sort((a, b) => a - b)[needed - 1]!;
    }
  }
  return { timedOut, at, votes, ignored };
}

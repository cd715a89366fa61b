// Fair choice by lot without a dealer: every participant seals a random value in the lot ballot
// (the same FINAL/LOCK/REVEAL ballot as a phase, with escrow: ballot.ts), and the outcome is a hash
// of all opened values, so nobody can steer it unless every other participant colludes. A
// participant whose value is not opened is seated last. The same seed serves any later fair
// choice (the two-player coin toss).
import { POWERS, type Power, type Variant } from '../rules';
import { compareText, concatBytes, fromHex, utf8 } from './bytes';
import { hashHex } from './canonical';

/** Seed from the revealed values, in participant-key order so delivery order cannot matter. */
export function lotSeed(revealed: ReadonlyMap<string, Uint8Array>): string {
  const keys = [...revealed.keys()].sort(compareText);
  return hashHex(concatBytes(utf8('pacto-lot'), ...keys.flatMap((k) => [fromHex(k) ?? utf8(k), revealed.get(k)!])));
}

/**
 * The one shuffle of the lot: items sorted by their rank under the seed, H(seed ‖ ":" ‖ name), 128
 * bits (hashHex), ties in `tie`'s order (a fixed order, so equal ranks favour nobody chosen after
 * the seed). The residual bias of every deal, exactly: tests/protocol/lot-bias.test.ts.
 */
export function shuffleBySeed<T>(seed: string, items: readonly T[], name: (x: T) => string, tie: (a: T, b: T) => number, rank = seedRank): T[] {
  const ranks = new Map(items.map((x) => [x, rank(seed, name(x))]));
  return [...items].sort((a, b) => compareText(ranks.get(a)!, ranks.get(b)!) || tie(a, b));
}

/** An item's rank under a seed: the first 128 bits of SHA-512 of `${seed}:${name}`, as hex. */
export function seedRank(seed: string, name: string): string {
  return hashHex(utf8(`${seed}:${name}`));
}

/** Revealers in an order drawn from the seed, then everyone who did not reveal, by key. */
export function lotOrder(participants: readonly string[], revealed: ReadonlyMap<string, Uint8Array>): string[] {
  const seed = lotSeed(revealed);
  const unique = [...new Set(participants)];
  const inLot = shuffleBySeed(
    seed,
    unique.filter((k) => revealed.has(k)),
    (k) => k,
    compareText,
  );
  const out = unique.filter((k) => !revealed.has(k)).sort(compareText);
  return [...inLot, ...out];
}

/** The seven powers shuffled by the seed, dealt one per seat in lot order; seats beyond the players stay unassigned. */
export function dealPowers(order: readonly string[], revealed: ReadonlyMap<string, Uint8Array>): Partial<Record<Power, string>> {
  const seed = lotSeed(revealed);
  const powers = shuffleBySeed(
    seed,
    POWERS,
    (p) => p,
    (a, b) => POWERS.indexOf(a) - POWERS.indexOf(b),
  );
  const out: Partial<Record<Power, string>> = {};
  order.forEach((player, i) => {
    const power = powers[i];
    if (power !== undefined) out[power] = player;
  });
  return out;
}

/**
 * A variant's seats shuffled by the seed and dealt one per player in lot order, as powers -> key.
 * With one power per seat (the standard game) this is exactly dealPowers.
 */
export function dealSeats(
  order: readonly string[],
  revealed: ReadonlyMap<string, Uint8Array>,
  seats: readonly { readonly id: string; readonly powers: readonly Power[] }[],
): Partial<Record<Power, string>> {
  const seed = lotSeed(revealed);
  const shuffled = shuffleBySeed(
    seed,
    seats,
    (x) => x.id,
    (a, b) => seats.indexOf(a) - seats.indexOf(b),
  );
  const out: Partial<Record<Power, string>> = {};
  order.forEach((player, i) => {
    for (const power of shuffled[i]?.powers ?? []) out[power] = player;
  });
  return out;
}

/** A fair bit (heads = true) from a lot: the two-player coin toss. */
export function coinToss(revealed: ReadonlyMap<string, Uint8Array>): boolean {
  return coinOf(lotSeed(revealed));
}

/** The toss's bit of a seed: its first byte even. 256 values, 128 of each: no bias (tests/protocol/lot-bias.test.ts). */
export function coinOf(seed: string): boolean {
  return parseInt(seed.slice(0, 2), 16) % 2 === 0;
}

/**
 * The roster a lot deals: whole seats in lot order (dealSeats); seats left over (fewer participants
 * than seats, which only the standard game allows) go round the table in the same order, each to
 * the participant holding fewest; a neutral power's placeholder is the creator.
 */
export function lotRoster(order: readonly string[], revealed: ReadonlyMap<string, Uint8Array>, variant: Variant, creator: string): Record<Power, string> {
  const dealt = dealSeats(order, revealed, variant.seats);
  const bySeat = new Map<string, string>();
  for (const seat of variant.seats) {
    const key = dealt[seat.powers[0]!];
    if (key !== undefined) bySeat.set(seat.id, key);
  }
  const count = (k: string) => [...bySeat.values()].filter((x) => x === k).length;
  for (const seat of variant.seats) {
    if (bySeat.has(seat.id) || order.length === 0) continue;
    let best = order[0]!;
    for (const k of order) if (count(k) < count(best)) best = k;
    bySeat.set(seat.id, best);
  }
  const out = {} as Record<Power, string>;
  for (const seat of variant.seats) for (const p of seat.powers) out[p] = bySeat.get(seat.id) ?? creator;
  for (const p of variant.neutral) out[p] = creator;
  for (const p of POWERS) out[p] ??= creator;
  return out;
}

// Fair choice by lot without a dealer: every participant commits to a random value (its hash),
// then reveals it; the outcome is a hash of all revealed values, so nobody can steer it unless
// every other participant colludes. A participant who does not reveal is seated last: the
// only thing withholding buys is a worse seat. The same seed serves any later fair choice
// (the two-player coin toss).
import { POWERS, type Power } from '../rules';
import { compareText, concatBytes, fromHex, utf8 } from './bytes';
import { hashHex } from './canonical';

export function lotCommitment(value: Uint8Array): string {
  return hashHex(value);
}

/** Seed from the revealed values, in participant-key order so delivery order cannot matter. */
export function lotSeed(revealed: ReadonlyMap<string, Uint8Array>): string {
  const keys = [...revealed.keys()].sort(compareText);
  return hashHex(concatBytes(utf8('pacto-lot'), ...keys.flatMap((k) => [fromHex(k) ?? utf8(k), revealed.get(k)!])));
}

/** Revealers in an order drawn from the seed, then everyone who did not reveal, by key. */
export function lotOrder(participants: readonly string[], revealed: ReadonlyMap<string, Uint8Array>): string[] {
  const seed = lotSeed(revealed);
  const rank = (k: string) => hashHex(utf8(`${seed}:${k}`));
  const unique = [...new Set(participants)];
  const inLot = unique.filter((k) => revealed.has(k)).sort((a, b) => compareText(rank(a), rank(b)) || compareText(a, b));
  const out = unique.filter((k) => !revealed.has(k)).sort(compareText);
  return [...inLot, ...out];
}

/** The seven powers shuffled by the seed, dealt one per seat in lot order; seats beyond the players stay unassigned. */
export function dealPowers(order: readonly string[], revealed: ReadonlyMap<string, Uint8Array>): Partial<Record<Power, string>> {
  const seed = lotSeed(revealed);
  const powers = [...POWERS].sort((a, b) => compareText(hashHex(utf8(`${seed}:${a}`)), hashHex(utf8(`${seed}:${b}`))));
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
  const shuffled = [...seats].sort((a, b) => compareText(hashHex(utf8(`${seed}:${a.id}`)), hashHex(utf8(`${seed}:${b.id}`))));
  const out: Partial<Record<Power, string>> = {};
  order.forEach((player, i) => {
    for (const power of shuffled[i]?.powers ?? []) out[power] = player;
  });
  return out;
}

/** A fair bit (heads = true) from a lot: the two-player coin toss. */
export function coinToss(revealed: ReadonlyMap<string, Uint8Array>): boolean {
  return parseInt(lotSeed(revealed).slice(0, 2), 16) % 2 === 0;
}

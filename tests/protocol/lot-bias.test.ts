// Issue 31: the lot's and the coin toss's residual bias at every table size, computed exactly (no
// sampling) from the protocol's derivation (src/protocol/lot.ts), with the seed taken as uniform
// (SHA-512 of every opened value: one honest value makes it so, in the random-oracle model).
//  - The lot orders the participants, and shuffles the powers or seats, by sorting them on 128-bit
//    ranks H(seed:name) (shuffleBySeed), ties in a fixed order. With N = 2^128 equally likely ranks
//    per item, an order π of n items comes from exactly C(N − d + n − 1, n) of the N^n rank tuples,
//    d being the number of adjacent pairs of π out of the tie order (where the ranks must differ):
//    so orders with fewer such pairs are a little likelier, by the chance of a tie, about n²/2·2^-128.
//  - The coin toss is the parity of the seed's first byte: 128 of the 256 values each way, no bias.
// The README states the bounds (src/protocol/README.md, "The lot").
import { describe, expect, it } from 'vitest';
import { coinOf, seedRank, shuffleBySeed } from '../../src/protocol/lot';
import { compareText } from '../../src/protocol/bytes';
import { rng } from './helpers';

/** C(a, k) for a BigInt a ≥ k ≥ 0. */
function choose(a: bigint, k: number): bigint {
  let out = 1n;
  for (let i = 0; i < k; i++) out = (out * (a - BigInt(i))) / BigInt(i + 1);
  return out;
}

function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]));
}

/** Adjacent pairs of π out of the tie order (items are their places in the tie order). */
const descents = (p: readonly number[]) => p.slice(1).filter((x, j) => p[j]! > x).length;

/** How many rank tuples (N values per item) sort n items into π, ties in the items' own order. */
const ways = (N: bigint, n: number, p: readonly number[]) => choose(N - BigInt(descents(p)) + BigInt(n) - 1n, n);

const factorial = (n: number): bigint => (n <= 1 ? 1n : BigInt(n) * factorial(n - 1));

/** Exact figures for n items over N ranks, as fractions over N^n · n! (so 1/n! and 1/n are whole). */
function exactBias(N: bigint, n: number) {
  const perms = permutations(n);
  const total = N ** BigInt(n);
  const f = factorial(n);
  const den = total * f;
  let maxOrder = 0n;
  let tv = 0n;
  // marginal[i][j] · n!: P(item i at place j), over den.
  const marginal = Array.from({ length: n }, () => Array.from({ length: n }, () => 0n));
  let sum = 0n;
  for (const p of perms) {
    const w = ways(N, n, p);
    sum += w;
    const diff = w * f - total; // (P(π) − 1/n!) · den
    const abs = diff < 0n ? -diff : diff;
    if (abs > maxOrder) maxOrder = abs;
    if (diff > 0n) tv += diff;
    p.forEach((item, place) => (marginal[item]![place]! += w * f));
  }
  let maxSeat = 0n;
  for (const row of marginal)
    for (const m of row) {
      const diff = m - den / BigInt(n); // (P − 1/n) · den
      const abs = diff < 0n ? -diff : diff;
      if (abs > maxSeat) maxSeat = abs;
    }
  return { sum, total, den, maxOrder, tv, maxSeat };
}

/** log2 of a fraction num/den (both positive), from each one's leading 53 bits. */
const log2 = (num: bigint, den: bigint) => {
  const lead = (x: bigint) => {
    const shift = Math.max(x.toString(2).length - 53, 0);
    return Math.log2(Number(x >> BigInt(shift))) + shift;
  };
  return lead(num) - lead(den);
};

describe('the lot’s shuffle: exact residual bias', () => {
  it('the rule counted above is the rule lot.ts applies: every rank tuple over a small rank space, both tie orders', () => {
    const N = 4;
    for (const n of [2, 3, 4]) {
      const names = Array.from({ length: n }, (_, i) => `k${i}`);
      const byKey = Array.from({ length: n }, (_, i) => names[i]!);
      // The lot order breaks ties by key text; the deals by the powers' (or seats') own order.
      for (const tie of [compareText, (a: string, b: string) => byKey.indexOf(a) - byKey.indexOf(b)]) {
        const counts = new Map<string, number>();
        for (let code = 0; code < N ** n; code++) {
          const ranks = new Map(names.map((x, i) => [x, String(Math.floor(code / N ** i) % N)]));
          const order = shuffleBySeed(
            'seed',
            names,
            (x) => x,
            tie,
            (_seed, name) => ranks.get(name)!,
          );
          const key = order.map((x) => names.indexOf(x)).join(',');
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        for (const p of permutations(n)) expect(counts.get(p.join(',')) ?? 0, p.join(',')).toBe(Number(ways(BigInt(N), n, p)));
      }
    }
    // The ranks the protocol uses are 128 bits.
    expect(seedRank('00', 'austria')).toMatch(/^[0-9a-f]{32}$/);
  });

  const N = 2n ** 128n;
  const bound = 2n ** 64n; // bias < 2^-64
  const figures = [2, 3, 4, 5, 6, 7].map((n) => ({ n, ...exactBias(N, n) }));

  for (const { n, sum, total, den, maxOrder, tv, maxSeat } of figures) {
    it(`${n} players: every order of the players, and of the powers or seats, has probability 1/${n}! within 2^-64`, () => {
      expect(sum).toBe(total); // the counts cover every rank tuple exactly once
      // Not zero (ties are possible), below the bound, and below the tie chance C(n,2)/N.
      expect(maxOrder > 0n).toBe(true);
      expect(maxOrder * bound < den).toBe(true);
      expect(tv * bound < den).toBe(true);
      expect(tv * N * 2n <= den * BigInt(n * (n - 1))).toBe(true);
      // A player's place in the order (so its seat, dealt by place), or a power's place in the shuffle.
      expect(maxSeat > 0n).toBe(true);
      expect(maxSeat * bound < den).toBe(true);
    });
  }

  it('the deal at every table size (the players’ order, then the seats’ shuffle): within 2^-126 of uniform', () => {
    // The deal is a function of two independent shuffles, so any outcome's bias is at most the sum of
    // their distances from uniform (total variation); the seats are at most seven.
    const tv7 = figures.at(-1)!;
    for (const { n, tv, den } of figures) expect(log2(tv * tv7.den + tv7.tv * den, den * tv7.den), `${n} players`).toBeLessThan(-125.9);
    // The figures the README states: log2 of the largest bias of one player's place (so its seat, or
    // a power's place in the shuffle), and of the distance of the whole order from uniform.
    const stated = (f: (x: (typeof figures)[number]) => bigint) => Object.fromEntries(figures.map((x) => [x.n, Math.round(log2(f(x), x.den) * 10) / 10]));
    expect(stated((x) => x.maxSeat)).toEqual({ 2: -129, 3: -129, 4: -129, 5: -129, 6: -129, 7: -129 });
    expect(stated((x) => x.tv)).toEqual({ 2: -129, 3: -129, 4: -127.8, 5: -127.8, 6: -127, 7: -127 });
  });
});

describe('the two-player coin toss: no bias', () => {
  it('the parity of the seed’s first byte: 128 of the 256 values each way, whatever follows', () => {
    const r = rng(31);
    for (let k = 0; k < 4; k++) {
      const tail = Array.from(r.bytes(15), (b) => b.toString(16).padStart(2, '0')).join('');
      let heads = 0;
      for (let b = 0; b < 256; b++) if (coinOf(b.toString(16).padStart(2, '0') + tail)) heads++;
      expect(heads).toBe(128);
    }
  });
});

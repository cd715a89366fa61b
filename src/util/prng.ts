// A small seeded generator (mulberry32) for simulations, benchmarks and property tests: the same
// seed replays the same game. Never used for anything secret (keys and nonces come from tweetnacl).
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `pick(n)`: an integer in [0, n), the shape the rules engine's random helpers take. */
export function picker(seed: number): (n: number) => number {
  const next = prng(seed);
  return (n) => Math.floor(next() * n);
}

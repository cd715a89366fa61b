// The figures behind docs/sealed-design.md (issue 12), reproducible: `npx tsx scripts/sealed-measure.ts`.
//  1. Plaintext lengths of sealed order sets per phase kind (canonical JSON, as seal.ts seals them),
//     from the rules engine's random legal orders over seeded random games, and the length of the
//     longest legal order per unit kind: what padding buckets must cover.
//  2. How many bits the unpadded length leaks about a power's orders in Spring 1901.
// Pure and seeded: the same numbers on every run.
import {
  adjudicate,
  legalOrdersForUnit,
  POWERS,
  randomOrders,
  STARTING_POSITION,
  STANDARD_MAP,
  adjustmentOrders,
  type Order,
  type Position,
  type Power,
} from '../src/rules';
import { canonicalEncode } from '../src/protocol';
import { rng } from '../tests/protocol/helpers';

const len = (orders: readonly Order[]) => canonicalEncode(orders).length;
const holds = (pos: Position, p: Power): Order[] =>
  pos.units.filter((u) => u.power === p).map((u) => ({ kind: 'hold', power: p, unit: { type: u.type, loc: u.loc } }));

interface Sample {
  kind: string;
  units: number;
  len: number;
  hold: number;
  maxLegal: number;
}
const samples: Sample[] = [];
let longestOrder = 0;
let longestOrderText = '';

for (let game = 0; game < 60; game++) {
  const r = rng(1000 + game);
  let pos = STARTING_POSITION;
  for (let phase = 0; phase < 40; phase++) {
    const kind = pos.phase.kind;
    const all: Order[] = [];
    for (const p of POWERS) {
      const given = randomOrders(pos, p, r.int);
      all.push(...given);
      let units: number;
      let maxLegal = 2; // "[]"
      if (kind === 'movement') {
        const mine = pos.units.filter((u) => u.power === p);
        units = mine.length;
        for (const u of mine) {
          const legal = legalOrdersForUnit(pos, u.loc, STANDARD_MAP);
          const lens = legal.map((o) => canonicalEncode(o).length);
          const m = Math.max(...lens);
          maxLegal += m + 1;
          const i = lens.indexOf(m);
          if (m > longestOrder) {
            longestOrder = m;
            longestOrderText = new TextDecoder().decode(canonicalEncode(legal[i]!));
          }
        }
      } else if (kind === 'retreat') {
        const mine = pos.dislodged.filter((d) => d.unit.power === p);
        units = mine.length;
        for (const d of mine) maxLegal += Math.max(...legalOrdersForUnit(pos, d.unit.loc, STANDARD_MAP).map((o) => canonicalEncode(o).length)) + 1;
      } else {
        const a = adjustmentOrders(pos, p, STANDARD_MAP);
        units = Math.abs(a.delta);
        const pool = a.delta > 0 ? a.builds : a.removals;
        const per = pool.length === 0 ? 0 : Math.max(...pool.map((o) => canonicalEncode(o).length));
        maxLegal += units * (per + 1);
      }
      if (units === 0 && kind !== 'movement') continue;
      if (units === 0) continue;
      samples.push({ kind, units, len: len(given), hold: kind === 'movement' ? len(holds(pos, p)) : len([]), maxLegal });
    }
    const next = adjudicate(pos, all).next;
    pos = next;
    if (pos.units.length === 0) break;
  }
}

function quantiles(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (f: number) => s[Math.min(s.length - 1, Math.floor(f * s.length))]!;
  return { n: s.length, min: s[0], p50: q(0.5), p90: q(0.9), p99: q(0.99), max: s.at(-1) };
}

console.log('longest single legal order (canonical JSON bytes):', longestOrder, longestOrderText);
for (const kind of ['movement', 'retreat', 'adjustment']) {
  const ks = samples.filter((s) => s.kind === kind);
  console.log(`\n${kind}: plaintext bytes of random legal order sets`, JSON.stringify(quantiles(ks.map((s) => s.len))));
  console.log(`${kind}: bytes per unit (random)`, JSON.stringify(quantiles(ks.map((s) => s.len / s.units))));
  console.log(`${kind}: bytes per unit (longest legal order of each unit)`, JSON.stringify(quantiles(ks.map((s) => (s.maxLegal - 2) / s.units))));
  if (kind === 'movement') {
    console.log(`${kind}: all-hold bytes per unit`, JSON.stringify(quantiles(ks.map((s) => s.hold / s.units))));
    const byUnits = new Map<number, number[]>();
    for (const s of ks) byUnits.set(s.units, [...(byUnits.get(s.units) ?? []), s.maxLegal]);
    console.log(
      `${kind}: max over samples of the longest legal set, by unit count`,
      JSON.stringify(Object.fromEntries([...byUnits].sort((a, b) => a[0] - b[0]).map(([u, xs]) => [u, Math.max(...xs)]))),
    );
  }
}

// 2. Leak of the raw length in Spring 1901: entropy of the length over 20000 random order sets per power.
console.log('\nSpring 1901, unpadded length leak (bits of entropy of the length), random legal orders:');
const r = rng(7);
for (const p of POWERS) {
  const counts = new Map<number, number>();
  const N = 20000;
  for (let i = 0; i < N; i++) {
    const l = len(randomOrders(STARTING_POSITION, p, r.int));
    counts.set(l, (counts.get(l) ?? 0) + 1);
  }
  let h = 0;
  for (const c of counts.values()) h -= (c / N) * Math.log2(c / N);
  const hold = len(holds(STARTING_POSITION, p));
  console.log(
    `  ${p}: ${h.toFixed(2)} bits over ${counts.size} lengths; all-hold length ${hold} seen in random sets: ${counts.has(hold) ? `${(((counts.get(hold) ?? 0) / N) * 100).toFixed(2)}%` : 'never'}`,
  );
}

// Rules-engine speed: adjudicating a mid-game movement phase (30+ units, random legal orders with
// supports and convoys). Target: median <= 20 microseconds on one core.
import { POWERS, STANDARD_MAP, adjudicate, provinceOf, randomOrders } from '../src/rules';
import type { Order, Position, Power, Unit } from '../src/rules';
import { picker } from '../src/util/prng';
import { report, summarise } from './report';

/** A random mid-game position: `count` units spread over the board, centres shared out. */
export function randomMidGame(pick: (n: number) => number, count: number): Position {
  const provinces = Object.values(STANDARD_MAP.provinces).filter((p) => p.kind !== 'impassable');
  const free = [...provinces];
  const units: Unit[] = [];
  while (units.length < count && free.length > 0) {
    const p = free.splice(pick(free.length), 1)[0]!;
    const power = POWERS[pick(POWERS.length)]!;
    const fleetLocs = (p.coasts ? p.coasts.map((c) => `${p.id}/${c}`) : [p.id]).filter((l) => l in STANDARD_MAP.fleetEdges);
    const type = p.kind === 'sea' ? 'F' : p.kind === 'land' ? 'A' : pick(2) === 0 ? 'A' : 'F';
    const loc = type === 'F' ? fleetLocs[pick(fleetLocs.length)]! : p.id;
    units.push({ type, power, loc });
  }
  units.sort((a, b) => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0));
  const centres: Partial<Record<string, Power>> = {};
  for (const p of provinces) if (p.supplyCentre) centres[p.id] = POWERS[pick(POWERS.length)]!;
  for (const u of units) if (STANDARD_MAP.provinces[provinceOf(u.loc)]?.supplyCentre) centres[provinceOf(u.loc)] = u.power;
  return { phase: { year: 1905, season: 'spring', kind: 'movement' }, units, centres, dislodged: [] };
}

const ROUNDS = 3;

export function benchRules(phases = 10_000): void {
  const pick = picker(1901);
  const cases: { position: Position; orders: Order[] }[] = [];
  for (let i = 0; i < phases; i++) {
    const position = randomMidGame(pick, 30 + pick(5));
    const orders = POWERS.flatMap((p) => randomOrders(position, p, pick));
    cases.push({ position, orders });
  }
  const kinds = { move: 0, support: 0, convoy: 0, hold: 0 };
  for (const c of cases) for (const o of c.orders) if (o.kind in kinds) kinds[o.kind as keyof typeof kinds]++;
  // Warm-up: one untimed pass over every case, so the timings measure the optimised code.
  for (const c of cases) adjudicate(c.position, c.orders);
  // Three timed passes: the headline median is over all of them, and each pass's median is
  // printed too, so a pass disturbed by the machine (it is shared) shows as such.
  const times: number[] = [];
  const roundMedians: number[] = [];
  const t0 = process.hrtime.bigint();
  for (let round = 0; round < ROUNDS; round++) {
    const roundTimes: number[] = [];
    for (const c of cases) {
      const s = process.hrtime.bigint();
      adjudicate(c.position, c.orders);
      roundTimes.push(Number(process.hrtime.bigint() - s) / 1000);
    }
    roundMedians.push(summarise(roundTimes).median);
    for (const t of roundTimes) times.push(t);
  }
  const totalMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const s = summarise(times);
  const units = cases.reduce((n, c) => n + c.position.units.length, 0) / cases.length;
  report('rules: adjudicate a mid-game movement phase', [
    ['phases', phases],
    ['units per phase (mean)', units.toFixed(1)],
    ['orders: moves/supports/convoys/holds', `${kinds.move}/${kinds.support}/${kinds.convoy}/${kinds.hold}`],
    ['timed passes over them', ROUNDS],
    ['median', `${s.median.toFixed(2)} µs`],
    ['median of each pass', roundMedians.map((m) => `${m.toFixed(2)} µs`).join(', ')],
    ['p95', `${s.p95.toFixed(2)} µs`],
    ['phases per second', Math.round((ROUNDS * phases) / (totalMs / 1000))],
    ['target median', '20 µs'],
    ['median / target', (s.median / 20).toFixed(2)],
  ]);
}

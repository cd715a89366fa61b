// A compact order notation for the movement tests, so each case reads like the DATC text:
// "A ven - tri", "F tri S A ven", "A bur S A par - mar", "F nth C A lon - bel", "A lon - bel via",
// "A yor H", or just "A yor" for a unit without an order.
import { adjudicateMovement, type AdjudicateOptions, type Order, type Position, type Power, type Unit } from '../../../src/rules';
import type { MovementOutcome } from '../../../src/rules';

export type Setup = Partial<Record<Power, readonly string[]>>;

export interface Parsed {
  readonly unit: Unit;
  readonly order?: Order;
}

export function parse(power: Power, text: string): Parsed {
  const t = text.trim().split(/\s+/);
  const type = t[0] as 'A' | 'F';
  const loc = t[1]!;
  const unit: Unit = { type, power, loc };
  const ref = { type, loc };
  switch (t[2]) {
    case undefined:
      return { unit };
    case 'H':
      return { unit, order: { kind: 'hold', power, unit: ref } };
    case '-':
      return {
        unit,
        order: { kind: 'move', power, unit: ref, to: t[3]!, ...(t[4] === 'via' ? { viaConvoy: true } : {}) },
      };
    case 'S': {
      const supported = { type: t[3] as 'A' | 'F', loc: t[4]! };
      return { unit, order: { kind: 'support', power, unit: ref, supported, ...(t[5] === '-' ? { to: t[6]! } : {}) } };
    }
    case 'C':
      return { unit, order: { kind: 'convoy', power, unit: ref, army: t[4]!, to: t[6]! } };
    default:
      throw new Error(`cannot read "${text}"`);
  }
}

/** Units from every line (first mention of a province wins), orders from lines that have one. */
export function build(setup: Setup): { position: Position; orders: Order[] } {
  const units = new Map<string, Unit>();
  const orders: Order[] = [];
  for (const [power, lines] of Object.entries(setup) as [Power, readonly string[]][]) {
    for (const line of lines) {
      const { unit, order } = parse(power, line);
      const province = unit.loc.split('/')[0]!;
      if (!units.has(province)) units.set(province, unit);
      if (order) orders.push(order);
    }
  }
  const sorted = [...units.values()].sort((a, b) => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0));
  return {
    position: { phase: { year: 1901, season: 'spring', kind: 'movement' }, units: sorted, centres: {}, dislodged: [] },
    orders,
  };
}

export function run(setup: Setup, options?: AdjudicateOptions): MovementOutcome & { ok: (loc: string) => boolean } {
  const { position, orders } = build(setup);
  const outcome = adjudicateMovement(position, orders, options);
  const ok = (loc: string): boolean => {
    const r = outcome.results.find((x) => 'unit' in x.order && x.order.unit.loc === loc);
    if (!r) throw new Error(`no result for ${loc}`);
    return r.success;
  };
  return { ...outcome, ok };
}

export function resultAt(outcome: MovementOutcome, loc: string) {
  const r = outcome.results.find((x) => 'unit' in x.order && x.order.unit.loc === loc);
  if (!r) throw new Error(`no result for ${loc}`);
  return r;
}

/** Where each unit of the outcome stands, as "A par" strings, sorted. */
export function board(outcome: MovementOutcome): string[] {
  return outcome.units.map((u) => `${u.type} ${u.loc}`);
}

export function dislodgedLocs(outcome: MovementOutcome): string[] {
  return outcome.dislodged.map((d) => d.unit.loc).sort();
}

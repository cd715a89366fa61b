// Runs one DATC scenario through adjudicate() and checks what the case states: every order's
// outcome, exactly which units are dislodged, the retreat options a case names, and the units on
// the board afterwards. Mismatches are collected, so a failing case reports all of them at once.
import { expect } from 'vitest';
import { adjudicate } from '../../../src/rules';
import type { Adjudication, AdjudicateOptions, Order, OrderResult, Position, Power, RemovalOptions, RemovalRule, Unit } from '../../../src/rules';
import { scenariosOf, type Outcome, type Scenario } from './datc-cases';
import { parseOrder, parseUnit, powerOfCode, unitKey, unitOfOrder, type DatcPhase } from './datc-notation';

const province = (loc: string): string => loc.split('/')[0]!;

function byLoc(a: Unit, b: Unit): number {
  return a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : a.power < b.power ? -1 : a.power > b.power ? 1 : 0;
}

function orderList(s: { orders: Readonly<Record<string, Outcome>>; order_list?: Scenario['order_list'] }): [string, Outcome][] {
  return s.order_list ? s.order_list.map(([o, r]) => [o, r]) : Object.entries(s.orders);
}

/** DATC boards hold only the units a case names: its starting_state, then each order's unit
 *  unless the province is already taken (6.A.6 orders a unit that is not there). */
function boardOf(startingState: readonly string[] | undefined, orders: readonly [string, Outcome][]): Unit[] {
  const units = (startingState ?? []).map(parseUnit);
  for (const [text] of orders) {
    const unit = unitOfOrder(text);
    if (!units.some((u) => province(u.loc) === province(unit.loc))) units.push(unit);
  }
  return units.sort(byLoc);
}

/** JSON with object keys sorted at every level, so equal orders compare equal. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{${entries
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
    .join(',')}}`;
}

function sameOrder(a: Order, b: Order): boolean {
  return canonical(a) === canonical(b);
}

function looselySame(a: Order, b: Order): boolean {
  if (a.kind !== b.kind || a.power !== b.power) return false;
  if (!('unit' in a) || !('unit' in b)) return true;
  return province(a.unit.loc) === province(b.unit.loc);
}

/** Pairs each written order with its result: the result for the identical order first, then
 *  one for the same kind of order by the same power for the same province (the engine may
 *  normalise a coast); each result is used once. */
function matchResults(orders: readonly Order[], results: readonly OrderResult[]): (OrderResult | undefined)[] {
  const free = new Set(results.map((_, i) => i));
  const out: (OrderResult | undefined)[] = orders.map(() => undefined);
  const pass = (same: (a: Order, b: Order) => boolean): void => {
    orders.forEach((order, k) => {
      if (out[k] !== undefined) return;
      const i = [...free].find((j) => same(results[j]!.order, order));
      if (i !== undefined) {
        free.delete(i);
        out[k] = results[i];
      }
    });
  };
  pass(sameOrder);
  pass(looselySame);
  return out;
}

function checkOutcomes(label: string, written: readonly [string, Outcome][], phase: DatcPhase, adjudication: Adjudication, problems: string[]): void {
  const orders = written.map(([text]) => parseOrder(text, phase));
  const results = matchResults(orders, adjudication.results);
  written.forEach(([text, outcome], k) => {
    if (outcome === null) return;
    const result = results[k];
    const duplicate = written.findIndex(([t]) => t === text) !== k;
    if (result === undefined) {
      // A repeated order may be folded into the first one; the final units still check it.
      if (!duplicate) problems.push(`${label}: no result for "${text}"`);
      return;
    }
    const expected = outcome === 'Succeeds';
    if (result.success !== expected) {
      problems.push(`${label}: "${text}" should ${expected ? 'succeed' : 'fail'}, got ${JSON.stringify(result)}`);
    }
  });
}

/** What the move outcomes imply: a unit is dislodged when another unit moves into its province
 *  and it does not itself move away. */
function expectedDislodged(units: readonly Unit[], written: readonly [string, Outcome][]): Unit[] {
  const movedBy = new Map<string, string>();
  const movedAway = new Set<string>();
  for (const [text, outcome] of written) {
    const order = parseOrder(text, 'Main');
    if (order.kind !== 'move') continue;
    if (outcome === null) throw new Error(`transcription incomplete: no outcome for the move "${text}"`);
    const unit = unitOfOrder(text);
    const real = units.find((u) => province(u.loc) === province(unit.loc) && u.power === unit.power);
    if (outcome === 'Succeeds' && real) {
      movedBy.set(province(order.to), unitKey(real));
      movedAway.add(unitKey(real));
    }
  }
  return units.filter((u) => {
    const by = movedBy.get(province(u.loc));
    return by !== undefined && by !== unitKey(u) && !movedAway.has(unitKey(u));
  });
}

/** Units after a movement phase, as the move outcomes say (dislodged units are off the board). */
function expectedAfterMoves(units: readonly Unit[], written: readonly [string, Outcome][], dislodged: readonly Unit[]): Unit[] {
  const gone = new Set(dislodged.map(unitKey));
  return units
    .filter((u) => !gone.has(unitKey(u)))
    .map((u) => {
      for (const [text, outcome] of written) {
        const order = parseOrder(text, 'Main');
        const ordered = unitOfOrder(text);
        if (order.kind === 'move' && outcome === 'Succeeds' && ordered.power === u.power && province(ordered.loc) === province(u.loc)) {
          return { ...u, loc: u.type === 'A' ? province(order.to) : order.to };
        }
      }
      return u;
    });
}

function keys(units: readonly Unit[]): string[] {
  return units.map(unitKey).sort();
}

function checkUnits(label: string, actual: readonly Unit[], expected: readonly Unit[], problems: string[]): void {
  const a = keys(actual);
  const e = keys(expected);
  if (JSON.stringify(a) !== JSON.stringify(e)) problems.push(`${label}: units ${JSON.stringify(a)}, expected ${JSON.stringify(e)}`);
}

function checkRetreats(scenario: Scenario, adjudication: Adjudication, problems: string[]): void {
  for (const [unitText, want] of Object.entries(scenario.retreats ?? {})) {
    const unit = parseUnit(unitText);
    const entry = adjudication.dislodged.find((d) => unitKey(d.unit) === unitKey(unit));
    if (!entry) {
      problems.push(`retreats: ${unitText} is not dislodged`);
      continue;
    }
    const offered = entry.retreats.map(province);
    for (const p of want.include ?? [])
      if (!offered.includes(p)) problems.push(`retreats: ${unitText} should be offered ${p}, got ${JSON.stringify(entry.retreats)}`);
    for (const p of want.exclude ?? []) if (offered.includes(p)) problems.push(`retreats: ${unitText} must not be offered ${p}`);
  }
}

function removalRuleOf(text: string): RemovalRule {
  if (text !== 'home-centres' && text !== 'owned-centres') throw new Error(`unknown removal rule ${text}`);
  return text;
}

// removalRule is adjudication's own switch (RemovalOptions), beyond the shared AdjudicateOptions.
function optionsOf(scenario: Scenario): AdjudicateOptions & RemovalOptions {
  return {
    ...(scenario.civil_disorder_powers ? { civilDisorder: scenario.civil_disorder_powers.map(powerOfCode) } : {}),
    ...(scenario.removal_rule ? { removalRule: removalRuleOf(scenario.removal_rule) } : {}),
  };
}

function runMovement(
  scenario: Scenario,
  startingState: readonly string[] | undefined,
  written: [string, Outcome][],
  problems: string[],
): { units: Unit[]; adjudication: Adjudication; dislodged: Unit[] } {
  const units = boardOf(startingState, written);
  const position: Position = {
    phase: { year: 1901, season: 'spring', kind: 'movement' },
    units,
    centres: {},
    dislodged: [],
  };
  const orders = written.map(([text]) => parseOrder(text, 'Main'));
  const adjudication = adjudicate(position, orders, optionsOf(scenario));
  checkOutcomes('movement', written, 'Main', adjudication, problems);
  const dislodged = expectedDislodged(units, written);
  const gotDislodged = keys(adjudication.dislodged.map((d) => d.unit));
  if (JSON.stringify(gotDislodged) !== JSON.stringify(keys(dislodged))) {
    problems.push(`dislodged ${JSON.stringify(gotDislodged)}, expected ${JSON.stringify(keys(dislodged))}`);
  }
  checkRetreats(scenario, adjudication, problems);
  return { units, adjudication, dislodged };
}

function runMain(scenario: Scenario, problems: string[]): void {
  const written = orderList(scenario);
  const { units, adjudication, dislodged } = runMovement(scenario, scenario.starting_state, written, problems);
  const expected = scenario.final_units ? scenario.final_units.map(parseUnit) : expectedAfterMoves(units, written, dislodged);
  checkUnits('after movement', adjudication.next.units, expected, problems);
}

function runRetreat(scenario: Scenario, problems: string[]): void {
  const pre = scenario.preceding_main_phase;
  if (!pre) throw new Error(`${scenario.name}: a retreat case needs its movement phase`);
  const preWritten = Object.entries(pre.orders);
  const { units, adjudication, dislodged } = runMovement(scenario, pre.starting_state ?? scenario.starting_state, preWritten, problems);
  const written = orderList(scenario);
  const retreat = adjudicate(
    adjudication.next,
    written.map(([text]) => parseOrder(text, 'Retreat')),
    optionsOf(scenario),
  );
  checkOutcomes('retreat', written, 'Retreat', retreat, problems);
  const retreated = written
    .filter(([, outcome]) => outcome === 'Succeeds')
    .map(([text]) => {
      const order = parseOrder(text, 'Retreat');
      const unit = unitOfOrder(text);
      if (order.kind !== 'retreat') throw new Error(`only a retreat can succeed by moving: ${text}`);
      return { ...unit, loc: unit.type === 'A' ? province(order.to) : order.to };
    });
  const expected = scenario.final_units ? scenario.final_units.map(parseUnit) : [...expectedAfterMoves(units, preWritten, dislodged), ...retreated];
  checkUnits('after retreats', retreat.next.units, expected, problems);
}

function runBuild(scenario: Scenario, problems: string[]): void {
  if (!scenario.centres || !scenario.final_units) {
    throw new Error(`${scenario.name}: build cases come from datc-extra.json with centres and final_units`);
  }
  const centres: Partial<Record<string, Power>> = {};
  for (const [id, code] of Object.entries(scenario.centres).sort()) centres[id] = powerOfCode(code);
  const position: Position = {
    phase: { year: 1901, season: 'winter', kind: 'adjustment' },
    units: (scenario.starting_state ?? []).map(parseUnit).sort(byLoc),
    centres,
    dislodged: [],
  };
  const written = orderList(scenario);
  const adjudication = adjudicate(
    position,
    written.map(([text]) => parseOrder(text, 'Build')),
    optionsOf(scenario),
  );
  checkOutcomes('adjustment', written, 'Build', adjudication, problems);
  checkUnits('after adjustments', adjudication.next.units, scenario.final_units.map(parseUnit), problems);
}

/** Runs every scenario of a DATC id and fails with the full list of what went wrong. */
export function runDatc(id: string): void {
  const problems: string[] = [];
  for (const scenario of scenariosOf(id)) {
    const mine: string[] = [];
    if (scenario.phase === 'Main') runMain(scenario, mine);
    else if (scenario.phase === 'Retreat') runRetreat(scenario, mine);
    else runBuild(scenario, mine);
    problems.push(...mine.map((p) => `[${scenario.name}] ${p}`));
  }
  expect(problems).toEqual([]);
}

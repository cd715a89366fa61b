// The diagrams of seed 002 (the current Avalon Hill rulebook in Spanish), run through the real
// parser and adjudicator. Seed 002 is the reference where rule editions differ, so these
// outcomes are the ones the engine must reproduce. The data and the reading of every diagram
// whose text is incomplete are in fixtures/seed002-diagrams*.ts.
import { describe, expect, it } from 'vitest';
import { buildPosition } from './fixtures/harness';
import { DIAGRAMS, type Diagram } from './fixtures/seed002-diagrams';
import { MOVE_CHECKS, PROSE_CASES } from './fixtures/seed002-diagrams-prose';
import {
  expectedDislodgements,
  expectedMoveCheck,
  expectedOutcomes,
  moveCheckOutcome,
  normalisedUnits,
  observedDislodgements,
  observedOutcomes,
  parseLine,
  resultOf,
  runDiagram,
  unexpectedRejections,
  unitsAfter,
} from './fixtures/seed002-diagrams-run';

function checkDiagram(d: Diagram): void {
  const run = runDiagram(d);
  const adj = run.adjudication;

  // Every order an expectation names must be one of the printed orders, so a typo cannot
  // silently drop an assertion.
  const printed = run.lines.map((l) => l.printed);
  const named = [...d.fails, ...(d.illegal ?? []), ...(d.unasserted ?? []), ...(d.cut ?? []).map(([t]) => t)];
  expect(
    named.filter((t) => !printed.includes(t)),
    'expectations naming no printed order',
  ).toEqual([]);

  // Every printed order that is not illegal on purpose must parse.
  expect(unexpectedRejections(d, run), 'parser rejections').toEqual([]);

  expect(unitsAfter(adj), 'units on the board after the phase').toEqual(normalisedUnits(d.after));
  expect(observedDislodgements(adj.dislodged), 'dislodged units').toEqual(expectedDislodgements(d.dislodged));
  expect([...adj.contested].sort(), 'provinces left empty by a standoff').toEqual([...d.contested].sort());
  expect(observedOutcomes(d, run), 'success of each order').toEqual(expectedOutcomes(d));

  for (const [text, by] of d.cut ?? []) {
    const line = run.lines.find((l) => l.printed === text);
    expect(line, `order ${text}`).toBeDefined();
    if (line) expect(resultOf(adj, line)?.reason, `why ${text} failed`).toEqual({ kind: 'cut', by });
  }
}

describe('seed 002 diagrams 4-32', () => {
  for (const d of DIAGRAMS) {
    it(`seed 002 diagrama ${d.id}: ${d.title}`, () => checkDiagram(d));
  }
});

describe('seed 002 diagrams 1-3 and the movement notes', () => {
  for (const group of MOVE_CHECKS) {
    const label = /^\d+$/.test(group.id) ? `diagrama ${group.id}` : group.id;
    it(`seed 002 ${label}: ${group.title}`, () => {
      const observed = group.checks.map((c) => `${c.order} => ${moveCheckOutcome(c)}`);
      const expected = group.checks.map((c) => `${c.order} => ${expectedMoveCheck(c)}`);
      expect(observed).toEqual(expected);
    });
  }
});

describe('seed 002 prose around the diagrams: mismatched orders and "vía transporte"', () => {
  for (const d of PROSE_CASES) {
    it(`seed 002 ${d.id}: ${d.title}`, () => checkDiagram(d));
  }

  it('seed 002 vía transporte: the phrase marks the move as meant to go by convoy', () => {
    const position = buildPosition({ units: { england: ['A nwy'], germany: ['F ska'] } });
    const asked = parseLine('england', 'E Nor–Sue vía transporte', position);
    const plain = parseLine('england', 'E Nor–Sue', position);
    expect(asked.error).toBeUndefined();
    expect(asked.order).toMatchObject({ kind: 'move', power: 'england', unit: { type: 'A', loc: 'nwy' }, to: 'swe', viaConvoy: true });
    expect(plain.order).toMatchObject({ kind: 'move', to: 'swe' });
    expect(plain.order && 'viaConvoy' in plain.order ? plain.order.viaConvoy : undefined).not.toBe(true);
  });
});

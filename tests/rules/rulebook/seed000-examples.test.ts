// Seed 000's worked examples (Ejemplo 1-13 and the examples in the text of X.1, XIII and XV.1),
// fed to the real parser and adjudicator in the rulebook's own notation.
import { describe, expect, it } from 'vitest';
import { parseOrder } from '../../../src/rules';
import { SEED000_CASES, SEED000_NOTATION } from './fixtures/seed000-examples';
import { expectMisprintsNotMisread, expectOutcome } from './fixtures/seed000-outcome';
import { runScenario } from './fixtures/harness';

describe('seed 000 worked examples', () => {
  for (const c of SEED000_CASES) {
    it(`seed 000 ${c.id}: ${c.title}`, () => {
      const run = runScenario({ units: c.units, orders: c.orders });
      expect(run.orders).toHaveLength(Object.values(c.orders).reduce((n, list) => n + (list?.length ?? 0), 0));
      expectOutcome(run.adjudication, run.position, c.expect);
      expectMisprintsNotMisread(run.position, c.orders);
    });
  }

  it('seed 000 X.1 and XIII.1: the notation examples parse to the orders they describe', () => {
    for (const n of SEED000_NOTATION) {
      const parsed = parseOrder(n.text, { power: n.power, phase: 'movement', lang: 'es' });
      expect(parsed.ok, n.text).toBe(true);
      if (parsed.ok) expect(parsed.order, n.text).toMatchObject({ ...n.order, power: n.power });
    }
  });
});

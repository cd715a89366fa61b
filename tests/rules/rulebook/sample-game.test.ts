// Seed 002's sample game, Spring 1901 to Winter 1902, played through the real parser and
// adjudicator: each phase starts from the engine's own `next` of the phase before, beginning with
// STARTING_POSITION, so a wrong result anywhere shows up in every later phase too.
import { describe, expect, it } from 'vitest';
import { POWERS, STARTING_POSITION, type Position, type Power } from '../../../src/rules';
import { runScenario, type ScenarioRun } from './fixtures/harness';
import { SAMPLE_GAME, type SampleGamePhase } from './fixtures/sample-game';
import { expectMisprintsNotMisread, expectOutcome } from './fixtures/seed000-outcome';

// Each test needs the runs of the phases before it; compute them once, in order.
const runs: ScenarioRun[] = [];
function runUpTo(index: number): ScenarioRun {
  while (runs.length <= index) {
    const step = SAMPLE_GAME[runs.length] as SampleGamePhase;
    const position: Position = runs.length === 0 ? STARTING_POSITION : (runs[runs.length - 1] as ScenarioRun).adjudication.next;
    runs.push(runScenario({ position, orders: step.orders }));
  }
  return runs[index] as ScenarioRun;
}

function centresByPower(position: Position): Partial<Record<Power, string[]>> {
  const out: Partial<Record<Power, string[]>> = {};
  for (const [province, power] of Object.entries(position.centres)) if (power) (out[power] ??= []).push(province);
  for (const list of Object.values(out)) list.sort();
  return out;
}

/** Builds (+) or removals (-) due: owned centres minus units, per power. */
function adjustmentsDue(position: Position): Partial<Record<Power, number>> {
  const out: Partial<Record<Power, number>> = {};
  for (const power of POWERS) {
    const centres = Object.values(position.centres).filter((p) => p === power).length;
    const units = position.units.filter((u) => u.power === power).length;
    out[power] = centres - units;
  }
  return out;
}

describe('seed 002 sample game', () => {
  it('starts from the standard position of Spring 1901', () => {
    expect(STARTING_POSITION.phase).toEqual(SAMPLE_GAME[0]?.phase);
    expect(STARTING_POSITION.units).toHaveLength(22);
  });

  SAMPLE_GAME.forEach((step, index) => {
    it(`seed 002 sample game: ${step.name}`, () => {
      const run = runUpTo(index);
      expect(run.position.phase).toEqual(step.phase);
      expectOutcome(run.adjudication, run.position, step.expect);
      expectMisprintsNotMisread(run.position, step.orders);
      const next = run.adjudication.next;
      expect(next.phase).toEqual(step.expect.nextPhase);
      if (step.expect.centres) expect(centresByPower(next)).toEqual(step.expect.centres);
      if (step.expect.adjustments) expect(adjustmentsDue(next)).toEqual(step.expect.adjustments);
    });
  });

  it('seed 002 sample game: Otoño 1902 leaves two units to retreat and the fleet of Rumania with none', () => {
    const fall = SAMPLE_GAME.findIndex((s) => s.name === 'Otoño 1902');
    const next = runUpTo(fall).adjudication.next;
    const waiting = next.dislodged.filter((d) => d.retreats.length > 0).map((d) => `${d.unit.power} ${d.unit.loc}`);
    expect(waiting.sort()).toEqual(['france bur', 'russia stp']);
    // "debe ser inmediatamente eliminada": if the engine keeps it for the retreat phase at all,
    // it has nowhere to go.
    const rum = next.dislodged.find((d) => d.unit.loc === 'rum');
    if (rum) expect(rum.retreats).toEqual([]);
    expect(next.units.some((u) => u.power === 'russia' && u.loc === 'rum')).toBe(false);
  });
});

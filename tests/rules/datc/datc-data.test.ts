// Checks on the DATC data alone (no engine): every case id has scenarios the runner can read, and
// nothing in the data points at a case that does not exist.
import { describe, expect, it } from 'vitest';
import datcJson from './data/datc.json';
import extraJson from './data/datc-extra.json';
import { idOfUrl, scenariosOf } from './datc-cases';
import { parseOrder, parseUnit, unitOfOrder } from './datc-notation';

// Number of test cases in each section of DATC v3.1 chapter 6 (164 in all).
const SECTION_SIZES: Readonly<Record<string, number>> = { A: 12, B: 15, C: 9, D: 34, E: 15, F: 25, G: 20, H: 16, I: 7, J: 11 };
const IDS = Object.entries(SECTION_SIZES).flatMap(([s, n]) => Array.from({ length: n }, (_, i) => `6.${s}.${i + 1}`));

describe('DATC data', () => {
  it('covers the 164 cases of chapter 6', () => {
    expect(IDS).toHaveLength(164);
    for (const id of IDS) expect(scenariosOf(id).length, id).toBeGreaterThan(0);
  });

  it('names only existing cases', () => {
    const known = new Set(IDS);
    const jsonIds = (datcJson as unknown as { cases: { url: string }[] }).cases.map((c) => idOfUrl(c.url));
    const extraIds = (extraJson as unknown as { entries: { id: string }[] }).entries.map((e) => e.id);
    expect([...jsonIds, ...extraIds].filter((id) => id === undefined || !known.has(id))).toEqual([]);
    // The runner reads one extra entry per id; a second one would be silently ignored.
    expect(extraIds.filter((id, i) => extraIds.indexOf(id) !== i)).toEqual([]);
  });

  it('has orders and units the runner can read, and an outcome for every movement-phase move', () => {
    const problems: string[] = [];
    for (const id of IDS) {
      for (const s of scenariosOf(id)) {
        try {
          (s.starting_state ?? []).forEach(parseUnit);
          (s.final_units ?? []).forEach(parseUnit);
          const main = s.phase === 'Main' ? s.orders : (s.preceding_main_phase?.orders ?? {});
          for (const [text, outcome] of Object.entries(main)) {
            unitOfOrder(text);
            if (parseOrder(text, 'Main').kind === 'move' && outcome === null) problems.push(`${id}: no outcome for ${text}`);
          }
          if (s.phase !== 'Main') {
            const own = s.order_list ?? Object.entries(s.orders);
            for (const [text] of own) parseOrder(text, s.phase);
          }
          if (s.phase === 'Build' && (!s.centres || !s.final_units)) problems.push(`${id}: build case without centres/final_units`);
        } catch (e) {
          problems.push(`${id}: ${(e as Error).message}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

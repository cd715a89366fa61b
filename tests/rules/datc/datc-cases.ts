// The DATC chapter 6 cases as the tests run them: the entries of datc.json (Ted Driggs, MIT), with
// the corrections and transcriptions of datc-extra.json applied (the DATC v3.1 document wins over
// the json, which was written for v3.0). See data/README.md.
import datcJson from './data/datc.json';
import extraJson from './data/datc-extra.json';
import type { DatcPhase } from './datc-notation';

export type Outcome = 'Succeeds' | 'Fails' | null;

/** One scenario, in datc.json's shape plus the fields only datc-extra.json uses. */
export interface Scenario {
  readonly name: string;
  readonly url?: string;
  readonly phase: DatcPhase;
  readonly edition?: string;
  readonly ignore?: string;
  readonly starting_state?: readonly string[];
  readonly preceding_main_phase?: { readonly starting_state?: readonly string[]; readonly orders: Readonly<Record<string, Outcome>> };
  readonly orders: Readonly<Record<string, Outcome>>;
  /** Orders as a list, for when the same order is given twice (a JSON object cannot hold that). */
  readonly order_list?: readonly (readonly [string, Outcome])[];
  /** Build phase: the complete ownership of centres, province -> power code. */
  readonly centres?: Readonly<Record<string, string>>;
  /** Expected units after the phase (Build phase; or a Main phase where derivation cannot know a coast). */
  readonly final_units?: readonly string[];
  /** Powers passed as options.civilDisorder. */
  readonly civil_disorder_powers?: readonly string[];
  /** Passed as options.removalRule (an option of src/rules/adjudicate/options.ts). */
  readonly removal_rule?: string;
  /** Retreat options of dislodged units ("ENG: F nth") that must, or must not, be offered. */
  readonly retreats?: Readonly<Record<string, { readonly include?: readonly string[]; readonly exclude?: readonly string[] }>>;
}

export interface ExtraEntry {
  readonly id: string;
  readonly note: string;
  /** Replaces every datc.json entry of this id. */
  readonly scenarios?: readonly Scenario[];
  /** datc.json entries to run, as "name" or "name@edition" (default: those with neither `edition` nor `ignore`). */
  readonly use?: readonly string[];
  /** Corrected or filled-in outcomes, applied to every used entry that has the order. */
  readonly outcomes?: Readonly<Record<string, Outcome>>;
  readonly retreats?: Scenario['retreats'];
  readonly final_units?: readonly string[];
}

interface ExtraFile {
  readonly entries: readonly ExtraEntry[];
}

const jsonCases = (datcJson as unknown as { cases: readonly Scenario[] }).cases;
const extras = (extraJson as unknown as ExtraFile).entries;

export function idOfUrl(url: string | undefined): string | undefined {
  return url === undefined ? undefined : /#(6\.[A-J]\.\d+)$/.exec(url)?.[1];
}

function patch(scenario: Scenario, extra: ExtraEntry, used: Set<string>): Scenario {
  const orders = { ...scenario.orders };
  const pre = scenario.preceding_main_phase;
  const preOrders = pre ? { ...pre.orders } : undefined;
  for (const [order, outcome] of Object.entries(extra.outcomes ?? {})) {
    if (order in orders) {
      orders[order] = outcome;
      used.add(order);
    } else if (preOrders && order in preOrders) {
      preOrders[order] = outcome;
      used.add(order);
    }
  }
  return {
    ...scenario,
    orders,
    ...(pre && preOrders ? { preceding_main_phase: { ...pre, orders: preOrders } } : {}),
    ...(extra.retreats ? { retreats: extra.retreats } : {}),
    ...(extra.final_units ? { final_units: extra.final_units } : {}),
  };
}

/** The scenarios to run for a DATC id; throws when the data cannot say what to expect. */
export function scenariosOf(id: string): Scenario[] {
  const fromJson = jsonCases.filter((c) => idOfUrl(c.url) === id);
  const extra = extras.find((e) => e.id === id);
  if (extra?.scenarios) return [...extra.scenarios];
  const chosen = extra?.use
    ? extra.use.map((ref) => {
        const [name, edition] = ref.split('@');
        const found = fromJson.find((c) => c.name === name && c.edition === edition);
        if (!found) throw new Error(`${id}: no datc.json entry ${ref}`);
        return found;
      })
    : fromJson.filter((c) => c.edition === undefined && c.ignore === undefined);
  if (chosen.length === 0) throw new Error(`${id}: no scenario in datc.json or datc-extra.json`);
  if (!extra) return chosen;
  const used = new Set<string>();
  const out = chosen.map((c) => patch(c, extra, used));
  for (const order of Object.keys(extra.outcomes ?? {})) {
    if (!used.has(order)) throw new Error(`${id}: outcome for "${order}" matches no order`);
  }
  return out;
}

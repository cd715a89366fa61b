// Options as the adjudication modules see them: every default filled in once, here.
import { STANDARD_MAP } from '../map';
import { STANDARD_RULES } from '../types';
import type { AdjudicateOptions, GameMap, Power, RuleOptions } from '../types';
import type { NeutralOptions } from './neutral';

/**
 * How units are picked for removal when a power owes removals it did not order.
 * - 'home-centres' (default): seed 000 XV.5 and the 1971/1982 rulebooks — distance to the
 *   nearest home supply centre of the power (owned or not); see civil-disorder.ts.
 * - 'owned-centres': the 2023 rulebook, which DATC v3.1 §6.J tests — distance to the nearest
 *   supply centre the power owns, counting any adjacency, units off supply centres first.
 */
export type RemovalRule = 'home-centres' | 'owned-centres';

/** AdjudicateOptions (types.ts) plus the switches that only adjudication needs. */
export interface RemovalOptions {
  readonly removalRule?: RemovalRule;
}

export interface Settings {
  readonly map: GameMap;
  readonly rules: RuleOptions;
  readonly civilDisorder: ReadonlySet<Power>;
  readonly removalRule: RemovalRule;
  /** Neutral powers (neutral.ts): held like civil disorder, dislodged units destroyed. */
  readonly neutral: ReadonlySet<Power>;
}

export function settingsOf(options: (AdjudicateOptions & RemovalOptions & NeutralOptions) | undefined): Settings {
  return {
    map: options?.map ?? STANDARD_MAP,
    rules: { ...STANDARD_RULES, ...(options?.rules ?? {}) },
    civilDisorder: new Set(options?.civilDisorder ?? []),
    removalRule: options?.removalRule ?? 'home-centres',
    neutral: new Set(options?.neutral ?? []),
  };
}

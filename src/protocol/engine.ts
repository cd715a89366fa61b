// The rules engine as the reducer sees it. Injected so a game names the engine it was played
// with, variants can bring their own start, and tests can run the protocol on a tiny stub.
import {
  adjudicate,
  adjustmentsNeeded,
  POWERS,
  RULES_ENGINE_VERSION,
  variantById,
  type Adjudication,
  type AdjudicateOptions,
  type Order,
  type Phase,
  type NeutralOptions,
  type Position,
  type Power,
} from '../rules';

export interface Engine {
  /** Compared with the engine named in CREATE: a different version says so instead of guessing. */
  readonly version: string;
  /** The starting position of a variant, or null if this engine does not know it. */
  start(variant: string): Position | null;
  /** options carry the variant's map and neutral powers for the phase (src/protocol/variants.ts). */
  adjudicate(position: Position, orders: readonly Order[], options: AdjudicateOptions & NeutralOptions): Adjudication;
  /** Powers that have something to order in this position (sorted). */
  ordersNeeded(position: Position): Power[];
}

export function phaseKey(phase: Phase): string {
  return `${phase.year}-${phase.season}-${phase.kind}`;
}

export const standardEngine: Engine = {
  version: RULES_ENGINE_VERSION,
  start: (variant) => variantById(variant)?.start ?? null,
  adjudicate: (position, orders, options) => adjudicate(position, orders, options),
  ordersNeeded(position) {
    switch (position.phase.kind) {
      case 'movement':
        return POWERS.filter((p) => position.units.some((u) => u.power === p));
      case 'retreat':
        return POWERS.filter((p) => position.dislodged.some((d) => d.unit.power === p));
      case 'adjustment': {
        const needed = adjustmentsNeeded(position);
        return POWERS.filter((p) => needed[p] !== 0);
      }
    }
  },
};

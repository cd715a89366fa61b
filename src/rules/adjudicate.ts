// Adjudication of any phase, and the bookkeeping around it: retreats, adjustments, the phase
// sequence, supply-centre ownership, elimination and victory. The movement resolver itself is
// movement.ts; the pieces used here live in ./adjudicate/, whose README lists the rule choices.
import type { Adjudication, AdjudicateOptions, Order, Position } from './types';
import { adjudicateAdjustments } from './adjudicate/adjustment';
import { sortCentres } from './adjudicate/centres';
import { movementPhase } from './adjudicate/movement-phase';
import type { NeutralOptions } from './adjudicate/neutral';
import { settingsOf, type RemovalOptions } from './adjudicate/options';
import { closeTurn, nextPhase } from './adjudicate/phase';
import { adjudicateRetreats } from './adjudicate/retreat';

export { adjustmentsNeeded, centreCounts, eliminatedPowers, freeHomeCentres, unitCounts, updateCentres } from './adjudicate/centres';
export { removalDistances, removalPriority } from './adjudicate/civil-disorder';
export type { RemovalOptions, RemovalRule } from './adjudicate/options';
export type { NeutralOptions } from './adjudicate/neutral';
export { closeTurn, needsAdjustment, nextPhase } from './adjudicate/phase';
export { winner } from './adjudicate/victory';

/**
 * Adjudicates the orders given in `position` and advances to the next phase that needs orders.
 * Pure: the same position, orders and options always give the same bytes.
 */
export function adjudicate(position: Position, orders: readonly Order[], options?: AdjudicateOptions & RemovalOptions & NeutralOptions): Adjudication {
  const settings = settingsOf(options);
  // Outside movement a neutral power is treated as in civil disorder: no retreats, no builds,
  // removals by the distance rule.
  const held = () => new Set([...settings.civilDisorder, ...settings.neutral]);
  switch (position.phase.kind) {
    case 'movement':
      return movementPhase(position, orders, options, settings);
    case 'retreat': {
      const outcome = adjudicateRetreats(position, orders, settings.map, held());
      const next = closeTurn(position.phase, [...position.units, ...outcome.retreated], position.centres, settings.map);
      return { before: position, results: outcome.results, dislodged: [], contested: [], next };
    }
    case 'adjustment': {
      const outcome = adjudicateAdjustments(position, orders, settings.map, held(), settings.removalRule);
      const next: Position = {
        phase: nextPhase(position.phase),
        units: outcome.units,
        centres: sortCentres(position.centres),
        dislodged: [],
      };
      return { before: position, results: outcome.results, dislodged: [], contested: [], next };
    }
  }
}

// A movement phase around the resolver in movement.ts (which also rejects orders of other
// phases): its outcome decides whether a retreat phase follows.
import { adjudicateMovement } from '../movement';
import type { Adjudication, AdjudicateOptions, Order, Position } from '../types';
import { neutralMovementOrders, withoutConsents } from './neutral';
import type { Settings } from './options';
import { closeTurn } from './phase';
import { sortCentres } from './centres';
import { sortUnits } from './units';

export function movementPhase(position: Position, orders: readonly Order[], options: AdjudicateOptions | undefined, settings: Settings): Adjudication {
  const { orders: read, consents } = neutralMovementOrders(position, orders, settings.neutral, settings.rules.supportNeedsConsent);
  const outcome = adjudicateMovement(position, read, { map: settings.map, rules: settings.rules, civilDisorder: options?.civilDisorder });
  // A dislodged neutral unit is destroyed (seed 000 XV.3): it gets no place to retreat to.
  const dislodged = outcome.dislodged
    .map((d) => (settings.neutral.has(d.unit.power) && d.retreats.length > 0 ? { ...d, retreats: [] } : d))
    .sort((a, b) => (a.unit.loc < b.unit.loc ? -1 : a.unit.loc > b.unit.loc ? 1 : 0));
  const contested = [...outcome.contested].sort();
  // A retreat phase only when some dislodged unit has somewhere to go: one with nowhere is
  // disbanded at once (seed 002), and under destroyDislodged every dislodged unit is.
  const retreatPhase = !settings.rules.destroyDislodged && dislodged.some((d) => d.retreats.length > 0);
  const next: Position = retreatPhase
    ? {
        phase: { ...position.phase, kind: 'retreat' },
        units: sortUnits(outcome.units),
        centres: sortCentres(position.centres),
        // A destroyed neutral unit has nothing to order in the retreat phase.
        dislodged: dislodged.filter((d) => !settings.neutral.has(d.unit.power)),
      }
    : closeTurn(position.phase, outcome.units, position.centres, settings.map);
  return { before: position, results: withoutConsents(outcome.results, consents), dislodged, contested, next };
}

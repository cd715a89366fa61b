// The calendar (seed 002, "Secuencia de juego"): Spring movement, Spring retreats, Fall
// movement, Fall retreats, then after each Fall the supply-centre update and the Winter
// adjustments. Phases in which nobody has anything to order are skipped, so a position always
// stands in the next phase that needs orders.
import type { GameMap, Phase, Position, Power, ProvinceId, Unit } from '../types';
import { adjustmentsNeeded, sortCentres, updateCentres } from './centres';
import { sortUnits } from './units';

/** The phase after `phase` in the full calendar, before any skipping. */
export function nextPhase(phase: Phase): Phase {
  const { year, season, kind } = phase;
  if (kind === 'movement' && season !== 'winter') return { year, season, kind: 'retreat' };
  if (season === 'spring') return { year, season: 'fall', kind: 'movement' };
  if (season === 'fall') return { year, season: 'winter', kind: 'adjustment' };
  return { year: year + 1, season: 'spring', kind: 'movement' };
}

/** Whether any power has a build it could make or a removal it must make. */
export function needsAdjustment(position: Pick<Position, 'units' | 'centres'>, map: GameMap): boolean {
  const needed = adjustmentsNeeded(position, map);
  return Object.values(needed).some((n) => n !== 0);
}

/**
 * The position once a Spring or Fall turn is over (movement done, retreats done or not needed):
 * after Fall the centres change hands, and Winter is skipped when nobody has anything to adjust.
 */
export function closeTurn(phase: Phase, units: readonly Unit[], centres: Readonly<Partial<Record<ProvinceId, Power>>>, map: GameMap): Position {
  const sorted = sortUnits(units);
  if (phase.season === 'spring') {
    return { phase: { year: phase.year, season: 'fall', kind: 'movement' }, units: sorted, centres: sortCentres(centres), dislodged: [] };
  }
  const owned = updateCentres(centres, sorted, map);
  const winter: Position = { phase: { year: phase.year, season: 'winter', kind: 'adjustment' }, units: sorted, centres: owned, dislodged: [] };
  if (needsAdjustment(winter, map)) return winter;
  return { ...winter, phase: { year: phase.year + 1, season: 'spring', kind: 'movement' } };
}

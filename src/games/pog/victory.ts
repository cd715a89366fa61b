// Victory (5.0): the automatic victories (5.2, segment E.2), the armistice (16.2.1, E.3), the end of
// a scenario (5.3-5.5) and who wins by the VP marker. Pure functions for the war status phase and
// the end of the turn, which `sequence.ts` does not reach yet.
import { LIMITS, type Side, type VictoryLevels } from './data';
import { scenarioOf, type PogState, type Result } from './state';

/** The levels that decide the game now: the campaign's depend on whether the Treaty of
 *  Brest-Litovsk was played (5.5.2). */
export function victoryLevels(state: PogState): VictoryLevels {
  const scenario = scenarioOf(state);
  return state.events.includes('treaty_of_brest_litovsk') && scenario.victoryAfterBrestLitovsk !== undefined
    ? scenario.victoryAfterBrestLitovsk
    : scenario.victory;
}

/** Who wins at the end by the VP marker (5.3.4, 5.4.2, 5.5.2). */
export function winnerByVp(state: PogState): Side | 'draw' {
  const levels = victoryLevels(state);
  if (state.vp >= levels.centralFrom) return 'cp';
  if (state.vp <= levels.alliedUpTo) return 'ap';
  return 'draw';
}

/** Segments E.2 and E.3: an automatic victory at 20 VP or more for the Central Powers, 0 or less for
 *  the Allies (5.2); else an armistice when the combined war status is 40 or more (16.2.1), decided
 *  by the VP marker. Null when the game goes on. */
export function warStatusEnd(state: PogState): Result | null {
  if (state.vp >= LIMITS.vpCentralWins) return { winner: 'cp', reason: 'automatic' };
  if (state.vp <= LIMITS.vpAlliedWins) return { winner: 'ap', reason: 'automatic' };
  if (state.combined >= LIMITS.armistice) return { winner: winnerByVp(state), reason: 'armistice' };
  return null;
}

/** The end of a scenario other than by victory or peace: the Limited War scenario ends when a player
 *  reaches Total War (5.4.1), every scenario after its last turn; decided by the VP marker. Null when
 *  the game goes on. */
export function scenarioEnd(state: PogState): Result | null {
  const scenario = scenarioOf(state);
  if (scenario.endsAtTotalWar && (state.commitment.ap === 'total' || state.commitment.cp === 'total'))
    return { winner: winnerByVp(state), reason: 'total-war' };
  if (state.turn >= scenario.lastTurn) return { winner: winnerByVp(state), reason: 'scenario-end' };
  return null;
}

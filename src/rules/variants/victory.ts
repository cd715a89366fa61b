// How a variant is won. Centres and adjustments are always counted per power, even when one
// player holds several (seed 000 XV.3, seed 002); only the two-player games add up a player's
// powers ("el primer jugador que controle veinticuatro Centros", seed 002; "gana el jugador que
// llegue a poseer un total de 24 ejércitos y flotas", seed 001). The "1914" rules add the
// alliance victory of seed 001 ("FINAL DEL JUEGO").
import { centreCounts, unitCounts } from '../adjudicate/centres';
import { POWERS, type Phase, type Position, type Power } from '../types';
import type { Seat, Variant } from './types';

function counts(variant: Variant, position: Pick<Position, 'units' | 'centres'>): Record<Power, number> {
  return variant.victory.count === 'units' ? unitCounts(position) : centreCounts(position);
}

/** The one group at or above `needed` with strictly more than any other group; a tie is no winner. */
function strictLeader(groups: readonly (readonly Power[])[], score: Record<Power, number>, needed: number): Power[] {
  const totals = groups.map((g) => g.reduce((n, p) => n + score[p], 0));
  const best = Math.max(-1, ...totals);
  const leaders = groups.filter((_, i) => totals[i] === best);
  const [only] = leaders;
  return leaders.length === 1 && only !== undefined && best >= needed ? [...only] : [];
}

/**
 * The powers that have won outright (all of one seat's powers when the variant counts seats),
 * or []. Meaningful after a Fall turn, like `winner`.
 */
export function variantWinners(variant: Variant, position: Pick<Position, 'units' | 'centres'>, seats: readonly Seat[] = variant.seats): Power[] {
  const score = counts(variant, position);
  const groups = variant.victory.by === 'seat' ? seats.map((s) => s.powers) : POWERS.map((p) => [p]);
  return strictLeader(groups, score, variant.victory.needed);
}

export interface Alliance {
  /** Sorted, at least two. */
  readonly powers: readonly Power[];
  /** The first phase in which every member had declared it. */
  readonly since: Phase;
}

/** Game years the alliance has stood through completely, judged on the position after a turn. */
export function fullYearsStood(since: Phase, now: Phase): number {
  const first = since.season === 'spring' && since.kind === 'movement' ? since.year : since.year + 1;
  // The last Fall turn that is over: in Winter Y or Spring Y+1 it is Y's.
  const lastDone = now.season === 'winter' ? now.year : now.year - 1;
  return Math.max(0, lastDone - first + 1);
}

/**
 * Seed 001: "El juego finaliza cuando una potencia (o una alianza de potencias) ocupe un mínimo de
 * 18 Centros ... La victoria de una alianza será válida siempre y cuando ésta tenga una antigüedad
 * no menor de dos rondas completas (o ciclo anual)." The alliance of at least two full years with
 * the most centres, at least rules.victoryCentres, wins; a tie at the top is no winner.
 */
export function allianceWinners(variant: Variant, position: Pick<Position, 'phase' | 'centres'>, alliances: readonly Alliance[]): Power[] {
  if (!variant.rules.allianceVictory) return [];
  const standing = alliances.filter((a) => a.powers.length >= 2 && fullYearsStood(a.since, position.phase) >= 2);
  return strictLeader(
    standing.map((a) => a.powers),
    centreCounts(position),
    variant.rules.victoryCentres,
  );
}

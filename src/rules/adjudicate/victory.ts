// Outright victory: seed 002 — the first power to control 18 supply centres after a Fall turn.
import { STANDARD_RULES } from '../types';
import type { Position, Power, RuleOptions } from '../types';
import { centreCounts } from './centres';

/**
 * The power holding at least `rules.victoryCentres` centres, else undefined. Meaningful on the
 * position that follows a Fall turn (ownership only changes then). With a variant threshold low
 * enough for two powers to reach it, only a strict leader wins; a tie is no winner.
 */
export function winner(position: Pick<Position, 'centres'>, rules?: Partial<RuleOptions>): Power | undefined {
  const needed = rules?.victoryCentres ?? STANDARD_RULES.victoryCentres;
  const counts = centreCounts(position);
  const ranked = (Object.keys(counts) as Power[]).sort((a, b) => counts[b] - counts[a] || (a < b ? -1 : 1));
  const [first, second] = ranked;
  if (first === undefined || counts[first] < needed) return undefined;
  if (second !== undefined && counts[second] === counts[first]) return undefined;
  return first;
}

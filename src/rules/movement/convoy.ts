// Convoy routes over the sea graph. Armies only embark and land on coastal provinces, and only
// fleets standing in sea provinces carry them (rulebook: fleets on coasts cannot convoy).
import type { ProvinceId } from '../types';
import { seasNearOf, type Board } from './board';

/**
 * Is there a chain of seas, all in the set `carriers` (as bits, see Board.seaBit), from the coast
 * `from` to the coast `to`? A breadth-first search on 32-bit sets: no allocation.
 */
export function routeExists(board: Board, from: ProvinceId, to: ProvinceId, carriers: number): boolean {
  if (from === to || board.kind.get(from) !== 'coast' || board.kind.get(to) !== 'coast') return false;
  const landing = board.seaMaskNear.get(to) ?? 0;
  let reached = (board.seaMaskNear.get(from) ?? 0) & carriers;
  let frontier = reached;
  while (frontier !== 0) {
    if ((reached & landing) !== 0) return true;
    let next = 0;
    for (let m = frontier; m !== 0; m &= m - 1) next |= board.seaLinks[31 - Math.clz32(m & -m)]!;
    frontier = next & carriers & ~reached;
    reached |= frontier;
  }
  return (reached & landing) !== 0;
}

/**
 * Seas (among `carriers`) that are needed by at least one route from `from` to
 * `to`: seas on a route with no shortcut. DATC 4.E.1 / 6.G.19 call a convoy order by any other
 * fleet illegal, so it cannot show convoy intent.
 */
export function necessarySeas(
  board: Board,
  from: ProvinceId,
  to: ProvinceId,
  carriers: number,
): Set<ProvinceId> {
  const needed = new Set<ProvinceId>();
  if (board.kind.get(from) !== 'coast' || board.kind.get(to) !== 'coast' || from === to) return needed;
  const start = seasNearOf(board, from);
  const landing = seasNearOf(board, to);
  const path: ProvinceId[] = [];
  const carries = (sea: ProvinceId): boolean => ((board.seaBit.get(sea) ?? 0) & carriers) !== 0;

  // A sea may join the path only if nothing earlier on the path (nor the start) touches it:
  // otherwise a shorter route skips the seas in between.
  const touchesEarlier = (sea: ProvinceId): boolean => {
    if (start.includes(sea)) return true;
    const near = seasNearOf(board, sea);
    for (let k = 0; k < path.length - 1; k++) if (near.includes(path[k]!)) return true;
    return false;
  };
  const extend = (sea: ProvinceId): void => {
    path.push(sea);
    if (landing.includes(sea)) {
      for (const s of path) needed.add(s);
    } else {
      for (const next of seasNearOf(board, sea)) {
        if (board.kind.get(next) !== 'sea' || !carries(next) || path.includes(next)) continue;
        if (touchesEarlier(next)) continue;
        extend(next);
      }
    }
    path.pop();
  };
  for (const s of start) if (carries(s)) extend(s);
  return needed;
}

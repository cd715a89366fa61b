// Convoy routes over the sea graph. Armies only embark and land on coastal provinces, and only
// fleets standing in sea provinces carry them (rulebook: fleets on coasts cannot convoy).
import type { ProvinceId } from '../types';
import { seasNearOf, type Board } from './board';

/** Is there a chain of seas, each accepted by `carries`, from `from` to `to`? */
export function routeExists(
  board: Board,
  from: ProvinceId,
  to: ProvinceId,
  carries: (sea: ProvinceId) => boolean,
): boolean {
  if (board.kind.get(from) !== 'coast' || board.kind.get(to) !== 'coast' || from === to) return false;
  const landing = seasNearOf(board, to);
  const seen = new Set<ProvinceId>();
  const queue: ProvinceId[] = [];
  for (const s of seasNearOf(board, from)) {
    if (carries(s)) {
      seen.add(s);
      queue.push(s);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const s = queue[head]!;
    if (landing.includes(s)) return true;
    for (const next of seasNearOf(board, s)) {
      if (!seen.has(next) && board.kind.get(next) === 'sea' && carries(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}

/**
 * Seas (among those accepted by `carries`) that are needed by at least one route from `from` to
 * `to`: seas on a route with no shortcut. DATC 4.E.1 / 6.G.19 call a convoy order by any other
 * fleet illegal, so it cannot show convoy intent.
 */
export function necessarySeas(
  board: Board,
  from: ProvinceId,
  to: ProvinceId,
  carries: (sea: ProvinceId) => boolean,
): Set<ProvinceId> {
  const needed = new Set<ProvinceId>();
  if (board.kind.get(from) !== 'coast' || board.kind.get(to) !== 'coast' || from === to) return needed;
  const start = seasNearOf(board, from);
  const landing = seasNearOf(board, to);
  const path: ProvinceId[] = [];

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

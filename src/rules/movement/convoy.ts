// Convoy routes over the sea graph. Armies only embark and land on coastal provinces, and only
// fleets standing in sea provinces carry them (rulebook: fleets on coasts cannot convoy). Sets of
// seas are 32-bit masks (Board.seaBit), so route searches allocate nothing.
import { COAST, type Board } from './board';

const bitAt = (m: number): number => 31 - Math.clz32(m & -m);

/** Is there a chain of seas, all in `carriers`, from the coastal province `from` to `to`? */
export function routeExists(board: Board, from: number, to: number, carriers: number): boolean {
  if (from === to || board.kind[from] !== COAST || board.kind[to] !== COAST) return false;
  const landing = board.seaMaskNear[to]!;
  let reached = board.seaMaskNear[from]! & carriers;
  let frontier = reached;
  while (frontier !== 0) {
    if ((reached & landing) !== 0) return true;
    let next = 0;
    for (let m = frontier; m !== 0; m &= m - 1) next |= board.seaLinks[bitAt(m)]!;
    frontier = next & carriers & ~reached;
    reached |= frontier;
  }
  return (reached & landing) !== 0;
}

/**
 * Seas (among `carriers`) that are needed by at least one route from `from` to `to`: seas on a
 * route with no shortcut. DATC 4.E.1 / 6.G.19 call a convoy order by any other fleet illegal, so
 * it cannot show convoy intent.
 */
export function necessarySeas(board: Board, from: number, to: number, carriers: number): number {
  if (board.kind[from] !== COAST || board.kind[to] !== COAST || from === to) return 0;
  const start = board.seaMaskNear[from]!;
  const landing = board.seaMaskNear[to]!;
  const links = board.seaLinks;
  let needed = 0;
  // Depth-first over simple paths. A sea may join the path only if neither the start nor any sea
  // on the path before the current one touches it: otherwise a shorter route skips the seas in
  // between.
  const extend = (sea: number, onPath: number): void => {
    const bit = 1 << sea;
    const path = onPath | bit;
    if ((landing & bit) !== 0) {
      needed |= path;
      return;
    }
    for (let m = links[sea]! & carriers & ~path; m !== 0; m &= m - 1) {
      const next = bitAt(m);
      if ((start & (1 << next)) !== 0 || (links[next]! & onPath) !== 0) continue;
      extend(next, path);
    }
  };
  for (let m = start & carriers; m !== 0; m &= m - 1) extend(bitAt(m), 0);
  return needed;
}

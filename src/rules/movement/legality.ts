// Whether a movement-phase order is legal: one function per order kind, on the board's numbered
// places and the units as they stand (the workspace of context.ts). The adjudicator reads orders
// through these (orders.ts turns an illegal order into a hold with the reason returned here), and
// the legal-order list (legal.ts) is these same functions asked of every candidate: godip's
// Validate/Options pair, with one predicate behind both. Legality depends on the position only,
// never on the other orders given.
import type { IllegalReason } from '../types';
import { IMPASSABLE, LAND, SEA, armyMoves, fleetMoves, fleetReach, firstReached } from './board';
import { necessarySeas, routeExists } from './convoy';
import type { Ctx } from './context';

/** A move's place when it is legal; else why not. 'no-convoy-route': an army told to go "via
 *  convoy" to a neighbour no chain of fleets could carry it to holds (DATC 4.A.3) without being
 *  illegal. */
export type MoveCheck = number | IllegalReason | 'no-convoy-route';

/** A coast-specific destination was written ('spa/nc'): `named` is its place, or -1 when the
 *  province has no such coast. NO_COAST: the order names the province only. */
export const NO_COAST = -2;

/**
 * Where unit u would go if ordered to province `to` (-1: not on the map), as the place it would
 * stand on; or why it may not. `named` is the place of the coast written (or NO_COAST).
 */
export function moveCheck(ctx: Ctx, u: number, to: number, named: number, viaConvoy: boolean): MoveCheck {
  const board = ctx.board;
  const from = ctx.prov[u]!;
  if (to < 0 || board.kind[to] === IMPASSABLE) return 'not-adjacent';
  if (to === from) return 'move-to-self';
  const toKind = board.kind[to]!;

  if (ctx.fleet[u] !== 1) {
    if (toKind === SEA) return 'army-to-sea';
    if (!armyMoves(board, from, to)) return routeExists(board, from, to, ctx.fleetSeas) ? to : 'not-adjacent';
    // "Via convoy" with no fleet that could ever carry it: no land fallback (DATC 4.A.3).
    return viaConvoy && !routeExists(board, from, to, ctx.fleetSeas) ? 'no-convoy-route' : to;
  }

  if (viaConvoy) return 'fleet-cannot-be-convoyed';
  if (toKind === LAND) return 'fleet-to-land';
  const here = ctx.place[u]!;
  const reachable = fleetReach(board, here, to);
  if (reachable === 0) return 'not-adjacent';
  if (board.split[to] !== 1) return to; // DATC 4.B.6: a coast named for a province without coasts is ignored.
  if (named !== NO_COAST) {
    // DATC 4.B.3: a named coast the fleet cannot reach makes the order illegal.
    return named >= 0 && fleetMoves(board, here, named) ? named : 'not-adjacent';
  }
  // DATC 4.B.1 / 4.B.2: the coast may be left out only when one coast is reachable.
  return reachable === 1 ? firstReached(board, here, to) : 'coast-required';
}

/** Can unit u move into province p by itself (the test for supporting into p)? */
function canReach(ctx: Ctx, u: number, p: number): boolean {
  const board = ctx.board;
  if (ctx.fleet[u] !== 1) return board.kind[p] !== SEA && armyMoves(board, ctx.prov[u]!, p);
  return fleetReach(board, ctx.place[u]!, p) > 0;
}

/**
 * Why unit s may not support the unit in province `target` (-1: not on the map) to hold
 * (`dest` undefined) or to move to province `dest` (-1: not on the map). A support naming an
 * empty province is legal if the supporter could reach; it then matches nothing.
 */
export function supportCheck(ctx: Ctx, s: number, target: number, dest: number | undefined): IllegalReason | undefined {
  const self = ctx.prov[s]!;
  if (target === self) return 'support-self';
  if (dest === undefined) return target < 0 || !canReach(ctx, s, target) ? 'support-unreachable' : undefined;
  // DATC 6.D.34: supporting into one's own province is illegal (a unit cannot move there).
  if (dest < 0 || dest === self || dest === target || !canReach(ctx, s, dest)) return 'support-unreachable';
  const t = target < 0 ? -1 : ctx.at[target]!;
  if (t >= 0 && !supportedMovePossible(ctx, s, t, dest)) return 'support-unreachable';
  return undefined;
}

/** DATC 6.D.31: the supported move must be possible without the supporter's own help. */
function supportedMovePossible(ctx: Ctx, s: number, t: number, dest: number): boolean {
  const board = ctx.board;
  if (ctx.fleet[t] === 1) return fleetReach(board, ctx.place[t]!, dest) > 0;
  if (board.kind[dest] === SEA) return false;
  const from = ctx.prov[t]!;
  if (armyMoves(board, from, dest)) return true;
  return routeExists(board, from, dest, ctx.fleetSeas & ~board.seaBit[ctx.prov[s]!]!);
}

/**
 * Why unit u may not convoy the army in province `from` to province `to` (-1: not on the map).
 * Only a fleet at sea convoys, only an army is convoyed, and the fleet must lie on a route with
 * no shortcut (DATC 4.E.1 / 6.G.19): any other convoy order is illegal.
 */
export function convoyCheck(ctx: Ctx, u: number, from: number, to: number): IllegalReason | undefined {
  const board = ctx.board;
  if (ctx.fleet[u] !== 1) return 'convoy-by-non-fleet';
  if (board.kind[ctx.prov[u]!] !== SEA) return 'convoy-from-land';
  const a = from < 0 ? -1 : ctx.at[from]!;
  if (a >= 0 && ctx.fleet[a] === 1) return 'convoy-non-army';
  if (from < 0 || to < 0) return 'not-adjacent';
  if (from === to) return 'move-to-self';
  return (necessarySeas(board, from, to, ctx.fleetSeas) & board.seaBit[ctx.prov[u]!]!) !== 0 ? undefined : 'not-adjacent';
}

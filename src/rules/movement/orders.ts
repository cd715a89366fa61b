// Reading the orders: which order counts for each unit, which are illegal (and so become holds,
// DATC 4.E.1), which moves go by convoy (seed 002 convoy intent), and which supports and convoys
// match the order of the unit they name.
import { provinceOf } from '../map';
import type { IllegalReason, Order, Power } from '../types';
import { IMPASSABLE, LAND, SEA, armyMoves, fleetMoves, fleetReach, hasCoast, placeIn, provinceIn, firstReached } from './board';
import { necessarySeas, routeExists } from './convoy';
import { CONVOY, HOLD, MOVE, SUPPORT, type Ctx } from './context';

export interface ReadOptions {
  readonly civilDisorder: ReadonlySet<Power>;
  readonly supportNeedsConsent: boolean;
}

type MoveOrder = Extract<Order, { kind: 'move' }>;
type SupportOrder = Extract<Order, { kind: 'support' }>;
type ConvoyOrder = Extract<Order, { kind: 'convoy' }>;

export function readOrders(ctx: Ctx, orders: readonly Order[], opts: ReadOptions): void {
  const consent = opts.supportNeedsConsent ? new Set<string>() : undefined;
  const consentOrders: SupportOrder[] = [];
  assignOrders(ctx, orders, opts, consent, consentOrders);

  const { n, given } = ctx;
  // Convoys first: a move shows convoy intent through the legal convoy orders for it.
  let convoys = false;
  for (let u = 0; u < n; u++) if (given[u]?.kind === 'convoy') convoys = readConvoy(ctx, u, given[u] as ConvoyOrder) || convoys;
  // Moves before supports: a support is legal only if the move it names could be made.
  for (let u = 0; u < n; u++) if (given[u]?.kind === 'move') readMove(ctx, u, given[u] as MoveOrder, convoys);
  for (let u = 0; u < n; u++) if (given[u]?.kind === 'support') readSupport(ctx, u, given[u] as SupportOrder);
  match(ctx, consent);

  for (const o of consentOrders) {
    const p = provinceIn(ctx.board, o.unit.loc);
    const s = p < 0 ? -1 : ctx.at[p]!;
    const ok = s >= 0 && ctx.kind[s] === SUPPORT && ctx.matched[s] === 1 && sameSupport(ctx, s, o);
    ctx.extras.push(ok ? { order: o, success: true } : { order: o, success: false, reason: { kind: 'support-not-matched' } });
  }
}

function assignOrders(
  ctx: Ctx,
  orders: readonly Order[],
  opts: ReadOptions,
  consent: Set<string> | undefined,
  consentOrders: SupportOrder[],
): void {
  const disorder = opts.civilDisorder.size > 0 ? opts.civilDisorder : undefined;
  for (const o of orders) {
    // Civil disorder: the power's orders are not read at all, so its units hold.
    if (disorder?.has(o.power)) continue;
    if (o.kind !== 'hold' && o.kind !== 'move' && o.kind !== 'support' && o.kind !== 'convoy') {
      ctx.extras.push({ order: o, success: false, reason: { kind: 'illegal', why: 'wrong-phase' } });
      continue;
    }
    const p = provinceIn(ctx.board, o.unit.loc);
    const u = p < 0 ? -1 : ctx.at[p]!;
    if (u < 0 || ctx.power[u] !== o.power) {
      if (consent && o.kind === 'support') {
        // 1914 rules: a power writes the foreign support it accepts for its own unit.
        consent.add(supportKey(o.power, p, provinceIn(ctx.board, o.supported.loc), o.to === undefined ? -1 : provinceIn(ctx.board, o.to)));
        consentOrders.push(o);
      } else {
        ctx.extras.push({ order: o, success: false, reason: { kind: 'illegal', why: 'no-such-unit' } });
      }
      continue;
    }
    if (ctx.given[u] !== undefined) {
      ctx.extras.push({ order: o, success: false, reason: { kind: 'illegal', why: 'duplicate-order' } });
      continue;
    }
    ctx.given[u] = o;
  }
}

function supportKey(power: Power, supporter: number, supported: number, to: number): string {
  return `${power}|${supporter}|${supported}|${to}`;
}

function sameSupport(ctx: Ctx, s: number, o: SupportOrder): boolean {
  const t = ctx.target[s]!;
  const to = o.to === undefined ? -1 : provinceIn(ctx.board, o.to);
  return t >= 0 && ctx.prov[t] === provinceIn(ctx.board, o.supported.loc) && ctx.supDest[s] === to;
}

function demote(ctx: Ctx, u: number, why: IllegalReason): void {
  ctx.kind[u] = HOLD;
  ctx.demoted[u] = { kind: 'illegal', why };
}

/** Reads a convoy order; true when it is legal. */
function readConvoy(ctx: Ctx, u: number, o: ConvoyOrder): boolean {
  const why = convoyIllegal(ctx, u, o);
  if (why) {
    demote(ctx, u, why);
    return false;
  }
  ctx.kind[u] = CONVOY;
  // The army must be named by its province id exactly ('bul', not 'bul/ec'): a convoy naming a
  // coast carries nobody. (Kept as engine version 1 adjudicated it.)
  const army = placeIn(ctx.board, o.army);
  ctx.target[u] = army >= 0 && army < ctx.board.provinces ? ctx.at[army]! : -1;
  ctx.dest[u] = provinceIn(ctx.board, o.to);
  return true;
}

function convoyIllegal(ctx: Ctx, u: number, o: ConvoyOrder): IllegalReason | undefined {
  const board = ctx.board;
  if (ctx.fleet[u] !== 1) return 'convoy-by-non-fleet';
  if (board.kind[ctx.prov[u]!] !== SEA) return 'convoy-from-land';
  const from = provinceIn(board, o.army);
  const to = provinceIn(board, o.to);
  const a = from < 0 ? -1 : ctx.at[from]!;
  if (a >= 0 && ctx.fleet[a] === 1) return 'convoy-non-army';
  if (from < 0 || to < 0) return provinceOf(o.army) === provinceOf(o.to) ? 'move-to-self' : 'not-adjacent';
  if (from === to) return 'move-to-self';
  return (necessarySeas(board, from, to, ctx.fleetSeas) & board.seaBit[ctx.prov[u]!]!) !== 0 ? undefined : 'not-adjacent';
}

function readMove(ctx: Ctx, u: number, o: MoveOrder, convoys: boolean): void {
  const board = ctx.board;
  const from = ctx.prov[u]!;
  const to = provinceIn(board, o.to);
  if (to < 0 || board.kind[to] === IMPASSABLE) return demote(ctx, u, 'not-adjacent');
  if (to === from) return demote(ctx, u, 'move-to-self');
  const toKind = board.kind[to]!;

  if (ctx.fleet[u] !== 1) {
    if (toKind === SEA) return demote(ctx, u, 'army-to-sea');
    const adjacent = armyMoves(board, from, to);
    // Seed 002 (2000 rulebook): one legal convoy order by a fleet of the army's own power shows the intent.
    const byConvoy = !adjacent || o.viaConvoy === true || (convoys && ownConvoyFor(ctx, u, to));
    if (byConvoy && !routeExists(board, from, to, ctx.fleetSeas)) {
      if (!adjacent) return demote(ctx, u, 'not-adjacent');
      // "Via convoy" with no fleet that could ever carry it: no land fallback (DATC 4.A.3), so it holds.
      ctx.kind[u] = HOLD;
      ctx.demoted[u] = { kind: 'no-convoy-route' };
      return;
    }
    setMove(ctx, u, to, to, byConvoy);
    return;
  }

  if (o.viaConvoy === true) return demote(ctx, u, 'fleet-cannot-be-convoyed');
  if (toKind === LAND) return demote(ctx, u, 'fleet-to-land');
  const here = ctx.place[u]!;
  const reachable = fleetReach(board, here, to);
  if (reachable === 0) return demote(ctx, u, 'not-adjacent');
  let place: number;
  if (board.split[to] === 1) {
    if (hasCoast(o.to)) {
      // DATC 4.B.3: a named coast the fleet cannot reach makes the order illegal.
      place = placeIn(board, o.to);
      if (place < 0 || !fleetMoves(board, here, place)) return demote(ctx, u, 'not-adjacent');
    } else {
      // DATC 4.B.1 / 4.B.2: the coast may be left out only when one coast is reachable.
      if (reachable !== 1) return demote(ctx, u, 'coast-required');
      place = firstReached(board, here, to);
    }
  } else {
    place = to; // DATC 4.B.6: a coast named for a province without coasts is ignored.
  }
  setMove(ctx, u, to, place, false);
}

/** Does a legal convoy order of the army's own power carry army u to province `to`? */
function ownConvoyFor(ctx: Ctx, u: number, to: number): boolean {
  for (let f = 0; f < ctx.n; f++) {
    if (ctx.kind[f] === CONVOY && ctx.target[f] === u && ctx.dest[f] === to && ctx.power[f] === ctx.power[u]) return true;
  }
  return false;
}

function setMove(ctx: Ctx, u: number, to: number, place: number, byConvoy: boolean): void {
  ctx.kind[u] = MOVE;
  ctx.dest[u] = to;
  ctx.destPlace[u] = place;
  ctx.byConvoy[u] = byConvoy ? 1 : 0;
}

/** Can unit u move into province p by itself (the test for supporting into p)? */
function canReach(ctx: Ctx, u: number, p: number): boolean {
  const board = ctx.board;
  if (ctx.fleet[u] !== 1) return board.kind[p] !== SEA && armyMoves(board, ctx.prov[u]!, p);
  return fleetReach(board, ctx.place[u]!, p) > 0;
}

function readSupport(ctx: Ctx, s: number, o: SupportOrder): void {
  const board = ctx.board;
  const target = provinceIn(board, o.supported.loc);
  const self = ctx.prov[s]!;
  ctx.supDest[s] = -1;
  ctx.supDestPlace[s] = -1;
  if (target === self) return demote(ctx, s, 'support-self');
  // A support naming an empty (or unknown) province is legal if it could reach; it matches nothing.
  const t = target < 0 ? -1 : ctx.at[target]!;
  if (o.to === undefined) {
    if (target < 0 || !canReach(ctx, s, target)) return demote(ctx, s, 'support-unreachable');
  } else {
    const dest = provinceIn(board, o.to);
    // DATC 6.D.34: supporting into one's own province is illegal (a unit cannot move there).
    if (dest < 0 || dest === self || dest === target || !canReach(ctx, s, dest)) return demote(ctx, s, 'support-unreachable');
    if (t >= 0 && !supportedMovePossible(ctx, s, t, dest)) return demote(ctx, s, 'support-unreachable');
    ctx.supDest[s] = dest;
    // A named coast binds only a fleet going to a split-coast province (DATC 6.B.9); else ignored.
    if (t >= 0 && hasCoast(o.to) && board.split[dest] === 1 && ctx.fleet[t] === 1) {
      // A coast the province does not have can match no move.
      const place = placeIn(board, o.to);
      ctx.supDestPlace[s] = place >= 0 ? place : board.names.length;
    }
  }
  ctx.kind[s] = SUPPORT;
  ctx.target[s] = t;
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

function match(ctx: Ctx, consent: ReadonlySet<string> | undefined): void {
  const { n, kind, target, dest } = ctx;
  // Lists are built back to front so each runs in unit order.
  for (let u = n - 1; u >= 0; u--) {
    if (kind[u] !== MOVE) continue;
    const d = dest[u]!;
    ctx.nextAttacker[u] = ctx.firstAttacker[d]!;
    ctx.firstAttacker[d] = u;
  }
  for (let f = n - 1; f >= 0; f--) {
    if (kind[f] !== CONVOY) continue;
    const a = target[f]!;
    if (a >= 0 && kind[a] === MOVE && ctx.byConvoy[a] === 1 && dest[a] === dest[f]) {
      ctx.matched[f] = 1;
      ctx.nextConvoyer[f] = ctx.firstConvoyer[a]!;
      ctx.firstConvoyer[a] = f;
    }
  }
  for (let s = n - 1; s >= 0; s--) {
    if (kind[s] !== SUPPORT) continue;
    const t = target[s]!;
    if (t < 0) continue;
    const d = ctx.supDest[s]!;
    const ok =
      d < 0
        ? kind[t] !== MOVE
        : kind[t] === MOVE && dest[t] === d && (ctx.supDestPlace[s]! < 0 || ctx.destPlace[t] === ctx.supDestPlace[s]);
    if (!ok) continue;
    if (consent && ctx.power[s] !== ctx.power[t] && !consent.has(supportKey(ctx.power[t]!, ctx.prov[s]!, ctx.prov[t]!, d))) continue;
    ctx.matched[s] = 1;
    ctx.nextSupport[s] = ctx.firstSupport[t]!;
    ctx.firstSupport[t] = s;
  }
}

// Reading the orders: which order counts for each unit, which are illegal (and so become holds,
// DATC 4.E.1), which moves go by convoy (seed 002 convoy intent), and which supports and convoys
// match the order of the unit they name.
import { provinceOf } from '../map';
import type { IllegalReason, Order, Power } from '../types';
import { armyMoves, hasCoast, placeIn, provinceIn } from './board';
import { NO_COAST, convoyCheck, moveCheck, supportCheck } from './legality';
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

function assignOrders(ctx: Ctx, orders: readonly Order[], opts: ReadOptions, consent: Set<string> | undefined, consentOrders: SupportOrder[]): void {
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
  const from = provinceIn(ctx.board, o.army);
  const to = provinceIn(ctx.board, o.to);
  let why = convoyCheck(ctx, u, from, to);
  // Two names of one province the map does not know: a convoy to where the army stands.
  if (why === 'not-adjacent' && (from < 0 || to < 0) && provinceOf(o.army) === provinceOf(o.to)) why = 'move-to-self';
  if (why) {
    demote(ctx, u, why);
    return false;
  }
  ctx.kind[u] = CONVOY;
  // The army must be named by its province id exactly ('bul', not 'bul/ec'): a convoy naming a
  // coast carries nobody. (Kept as engine version 1 adjudicated it.)
  const army = placeIn(ctx.board, o.army);
  ctx.target[u] = army >= 0 && army < ctx.board.provinces ? ctx.at[army]! : -1;
  ctx.dest[u] = to;
  return true;
}

function readMove(ctx: Ctx, u: number, o: MoveOrder, convoys: boolean): void {
  const board = ctx.board;
  const to = provinceIn(board, o.to);
  const viaConvoy = o.viaConvoy === true;
  const place = moveCheck(ctx, u, to, hasCoast(o.to) ? placeIn(board, o.to) : NO_COAST, viaConvoy);
  if (typeof place !== 'number') {
    if (place !== 'no-convoy-route') return demote(ctx, u, place);
    ctx.kind[u] = HOLD;
    ctx.demoted[u] = { kind: 'no-convoy-route' };
    return;
  }
  // An army goes by convoy when it must, when told to, or (seed 002, 2000 rulebook) when a legal
  // convoy order by a fleet of its own power shows the intent; a route then exists (moveCheck).
  const byConvoy = ctx.fleet[u] !== 1 && (!armyMoves(board, ctx.prov[u]!, to) || viaConvoy || (convoys && ownConvoyFor(ctx, u, to)));
  setMove(ctx, u, to, place, byConvoy);
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

function readSupport(ctx: Ctx, s: number, o: SupportOrder): void {
  const board = ctx.board;
  const target = provinceIn(board, o.supported.loc);
  const dest = o.to === undefined ? undefined : provinceIn(board, o.to);
  ctx.supDest[s] = -1;
  ctx.supDestPlace[s] = -1;
  const why = supportCheck(ctx, s, target, dest);
  if (why) return demote(ctx, s, why);
  const t = target < 0 ? -1 : ctx.at[target]!;
  if (dest !== undefined && o.to !== undefined) {
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
    const ok = d < 0 ? kind[t] !== MOVE : kind[t] === MOVE && dest[t] === d && (ctx.supDestPlace[s]! < 0 || ctx.destPlace[t] === ctx.supDestPlace[s]);
    if (!ok) continue;
    if (consent && ctx.power[s] !== ctx.power[t] && !consent.has(supportKey(ctx.power[t]!, ctx.prov[s]!, ctx.prov[t]!, d))) continue;
    ctx.matched[s] = 1;
    ctx.nextSupport[s] = ctx.firstSupport[t]!;
    ctx.firstSupport[t] = s;
  }
}

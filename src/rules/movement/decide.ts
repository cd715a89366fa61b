// The conditions of DATC 5.B written as code: when a move, a support or a convoy succeeds, and
// the strengths (attack, hold, defend, prevent) those conditions compare.
import { routeExists } from './convoy';
import { CONVOY, MOVE, SUPPORT, type Ctx } from './context';
import { resolve } from './resolver';

export function adjudicate(ctx: Ctx, u: number): boolean {
  switch (ctx.kind[u]) {
    case MOVE:
      return moveSucceeds(ctx, u);
    case SUPPORT:
      return supportHolds(ctx, u);
    case CONVOY:
      return convoySucceeds(ctx, u);
    default:
      return false;
  }
}

export function decided(ctx: Ctx, u: number): boolean {
  return resolve(ctx, u, adjudicate);
}

function moveSucceeds(ctx: Ctx, u: number): boolean {
  if (!path(ctx, u)) return false;
  const attack = attackStrength(ctx, u);
  const h = headToHead(ctx, u);
  if (h >= 0) {
    if (attack <= defendStrength(ctx, h)) return false;
  } else if (attack <= holdStrength(ctx, ctx.dest[u]!)) {
    return false;
  }
  for (let k = ctx.firstAttacker[ctx.dest[u]!]!; k >= 0; k = ctx.nextAttacker[k]!) {
    if (k !== u && attack <= preventStrength(ctx, k)) return false;
  }
  return true;
}

/** Support is cut by an attack from anywhere but the province it supports into, or by dislodgement. */
function supportHolds(ctx: Ctx, s: number): boolean {
  if (ctx.matched[s] !== 1) return false;
  const power = ctx.power[s];
  const against = ctx.supDest[s];
  for (let k = ctx.firstAttacker[ctx.prov[s]!]!; k >= 0; k = ctx.nextAttacker[k]!) {
    if (ctx.power[k] === power) continue; // seed 002 rule 16: own units never cut
    if (ctx.prov[k] === against) {
      // The unit supported against can only cut by dislodging (DATC 4.A.4: even when convoyed).
      if (decided(ctx, k)) return false;
    } else if (path(ctx, k)) {
      return false;
    }
  }
  return true;
}

/** A convoy succeeds while its fleet is not dislodged (the Szykman rule may still fail it). */
function convoySucceeds(ctx: Ctx, f: number): boolean {
  if (ctx.matched[f] !== 1) return false;
  const power = ctx.power[f];
  for (let k = ctx.firstAttacker[ctx.prov[f]!]!; k >= 0; k = ctx.nextAttacker[k]!) {
    if (ctx.power[k] !== power && decided(ctx, k)) return false;
  }
  return true;
}

/** A direct move always has its path; a convoyed one needs a chain of successful convoys. */
export function path(ctx: Ctx, u: number): boolean {
  if (ctx.byConvoy[u] !== 1) return true;
  let usable = 0;
  for (let f = ctx.firstConvoyer[u]!; f >= 0; f = ctx.nextConvoyer[f]!) if (decided(ctx, f)) usable |= ctx.board.seaBit[ctx.prov[f]!]!;
  return usable !== 0 && routeExists(ctx.board, ctx.prov[u]!, ctx.dest[u]!, usable);
}

/** The unit at u's destination moving straight back into u's province, both without convoy. */
export function headToHead(ctx: Ctx, u: number): number {
  if (ctx.byConvoy[u] === 1) return -1;
  const v = ctx.at[ctx.dest[u]!]!;
  if (v < 0 || ctx.kind[v] !== MOVE || ctx.byConvoy[v] === 1) return -1;
  return ctx.dest[v] === ctx.prov[u] ? v : -1;
}

function countSupports(ctx: Ctx, u: number): number {
  let n = 0;
  for (let s = ctx.firstSupport[u]!; s >= 0; s = ctx.nextSupport[s]!) if (decided(ctx, s)) n++;
  return n;
}

export function holdStrength(ctx: Ctx, p: number): number {
  const v = ctx.at[p]!;
  if (v < 0) return 0;
  if (ctx.kind[v] === MOVE) return decided(ctx, v) ? 0 : 1;
  return 1 + countSupports(ctx, v);
}

export function attackStrength(ctx: Ctx, u: number): number {
  if (!path(ctx, u)) return 0;
  const v = ctx.at[ctx.dest[u]!]!;
  if (v < 0 || (ctx.kind[v] === MOVE && headToHead(ctx, u) < 0 && decided(ctx, v))) {
    return 1 + countSupports(ctx, u);
  }
  // Seed 002 rule 12: no power dislodges, or helps to dislodge, its own unit.
  const defender = ctx.power[v];
  if (ctx.power[u] === defender) return 0;
  let n = 1;
  for (let s = ctx.firstSupport[u]!; s >= 0; s = ctx.nextSupport[s]!) if (ctx.power[s] !== defender && decided(ctx, s)) n++;
  return n;
}

export function defendStrength(ctx: Ctx, u: number): number {
  return 1 + countSupports(ctx, u);
}

export function preventStrength(ctx: Ctx, u: number): number {
  if (!path(ctx, u)) return 0;
  const h = headToHead(ctx, u);
  if (h >= 0 && decided(ctx, h)) return 0;
  return 1 + countSupports(ctx, u);
}

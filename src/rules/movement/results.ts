// Turning resolved decisions into plain data: one result per unit with its reason, the dislodged
// units with their retreats, the standoff provinces, and the units after the moves.
import type { Dislodged, Loc, Order, OrderResult, ProvinceId, Reason, Unit } from '../types';
import { IMPASSABLE, SEA } from './board';
import { CONVOY, MOVE, SUPPORT, type Ctx } from './context';
import { decided, defendStrength, headToHead, holdStrength, path, preventStrength, attackStrength } from './decide';

/** What happened: ctx.moved and ctx.dislodger (kept in the workspace, see context.ts). */
export type Aftermath = Pick<Ctx, 'moved' | 'dislodger'>;

export function aftermath(ctx: Ctx): Aftermath {
  const { n, kind, moved, dislodger } = ctx;
  for (let u = 0; u < n; u++) if (kind[u] === MOVE && decided(ctx, u)) moved[u] = 1;
  for (let k = 0; k < n; k++) {
    if (!moved[k]) continue;
    const u = ctx.at[ctx.dest[k]!]!;
    if (u >= 0 && !moved[u]) dislodger[u] = k;
  }
  return ctx;
}

export function unitResults(ctx: Ctx, after: Aftermath): OrderResult[] {
  const out: OrderResult[] = new Array<OrderResult>(ctx.n);
  for (let u = 0; u < ctx.n; u++) out[u] = unitResult(ctx, after, u);
  return out;
}

function unitResult(ctx: Ctx, after: Aftermath, u: number): OrderResult {
  const unit = ctx.units[u]!;
  const d = after.dislodger[u]!;
  const dislodged: Reason | undefined = d >= 0 ? { kind: 'dislodged', by: ctx.units[d]!.loc } : undefined;
  const given = ctx.given[u];
  if (given === undefined) {
    const order: Order = { kind: 'hold', power: unit.power, unit: { type: unit.type, loc: unit.loc } };
    return { order, success: d < 0, reason: dislodged ?? { kind: 'no-order' } };
  }
  const demoted = ctx.demoted[u];
  if (demoted) return { order: given, success: false, reason: demoted };
  switch (ctx.kind[u]) {
    case MOVE:
      return after.moved[u] ? { order: given, success: true } : { order: given, success: false, reason: moveFailure(ctx, after, u) };
    case SUPPORT:
      if (ctx.matched[u] !== 1) return { order: given, success: false, reason: { kind: 'support-not-matched' } };
      if (decided(ctx, u)) return { order: given, success: true };
      return { order: given, success: false, reason: dislodged ?? cutBy(ctx, u) };
    case CONVOY:
      if (ctx.matched[u] !== 1) return { order: given, success: false, reason: { kind: 'void' } };
      if (decided(ctx, u)) return { order: given, success: true };
      return { order: given, success: false, reason: dislodged ?? { kind: 'void' } };
    default:
      return dislodged ? { order: given, success: false, reason: dislodged } : { order: given, success: true };
  }
}

function cutBy(ctx: Ctx, s: number): Reason {
  const power = ctx.power[s];
  for (let k = ctx.firstAttacker[ctx.prov[s]!]!; k >= 0; k = ctx.nextAttacker[k]!) {
    if (ctx.power[k] !== power && ctx.prov[k] !== ctx.supDest[s] && path(ctx, k)) {
      return { kind: 'cut', by: ctx.units[k]!.loc };
    }
  }
  return { kind: 'void' };
}

function moveFailure(ctx: Ctx, after: Aftermath, u: number): Reason {
  if (!path(ctx, u)) return convoyFailure(ctx, after, u);
  const dest = ctx.dest[u]!;
  const rivals = ctx.firstAttacker[dest]!;
  const next = ctx.nextAttacker;
  const h = headToHead(ctx, u);
  if (h >= 0 && after.moved[h]) return { kind: 'beaten', by: ctx.units[h]!.loc };
  for (let k = rivals; k >= 0; k = next[k]!) if (after.moved[k]) return { kind: 'beaten', by: ctx.units[k]!.loc };
  const attack = attackStrength(ctx, u);
  const with_: Loc[] = [];
  const v = ctx.at[dest]!;
  if (h >= 0) {
    if (defendStrength(ctx, h) >= attack) with_.push(ctx.units[h]!.loc);
  } else if (v >= 0 && holdStrength(ctx, dest) >= attack) {
    with_.push(ctx.units[v]!.loc);
  }
  for (let k = rivals; k >= 0; k = next[k]!) if (k !== u && preventStrength(ctx, k) >= attack) with_.push(ctx.units[k]!.loc);
  with_.sort();
  return { kind: 'bounced', with: with_ };
}

function convoyFailure(ctx: Ctx, after: Aftermath, u: number): Reason {
  let disruptedBy: Loc | undefined;
  for (let f = ctx.firstConvoyer[u]!; f >= 0; f = ctx.nextConvoyer[f]!) {
    if (decided(ctx, f)) continue;
    const d = after.dislodger[f]!;
    const by = d >= 0 ? ctx.units[d]!.loc : ctx.units[f]!.loc;
    if (disruptedBy === undefined || by < disruptedBy) disruptedBy = by;
  }
  return disruptedBy === undefined ? { kind: 'no-convoy-route' } : { kind: 'convoy-disrupted', by: disruptedBy };
}

/** Provinces left empty after a standoff (some failed move into them still had prevent
 *  strength), in province order, which is id order. */
export function contestedProvinces(ctx: Ctx, after: Aftermath): number[] {
  const out: number[] = [];
  for (let u = 0; u < ctx.n; u++) {
    if (ctx.kind[u] !== MOVE) continue;
    const p = ctx.dest[u]!;
    // Each attacked province once: when its first attacker comes up.
    if (ctx.firstAttacker[p] !== u || occupiedAfter(ctx, after, p)) continue;
    for (let k = u; k >= 0; k = ctx.nextAttacker[k]!) {
      if (!after.moved[k] && preventStrength(ctx, k) > 0) {
        out.push(p);
        break;
      }
    }
  }
  return out.length > 1 ? out.sort((a, b) => a - b) : out;
}

export function provinceNames(ctx: Ctx, provinces: readonly number[]): ProvinceId[] {
  return provinces.map((p) => ctx.board.names[p]!);
}

const byLoc = (a: Unit, b: Unit): number => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0);

/** Units after the moves, sorted by loc: the units that stayed keep their (sorted) order, and
 *  the few that moved are merged in. */
export function unitsAfter(ctx: Ctx, after: Aftermath): Unit[] {
  const stayed: Unit[] = [];
  const moved: Unit[] = [];
  for (let u = 0; u < ctx.n; u++) {
    if (after.dislodger[u]! >= 0) continue;
    const unit = ctx.units[u]!;
    if (after.moved[u]) moved.push({ type: unit.type, power: unit.power, loc: ctx.board.names[ctx.destPlace[u]!]! });
    else stayed.push(unit);
  }
  for (let k = 1; k < stayed.length; k++) if (stayed[k - 1]!.loc > stayed[k]!.loc) return stayed.concat(moved).sort(byLoc);
  moved.sort(byLoc);
  const out: Unit[] = new Array<Unit>(stayed.length + moved.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < out.length; k++) {
    out[k] = j >= moved.length || (i < stayed.length && stayed[i]!.loc < moved[j]!.loc) ? stayed[i++]! : moved[j++]!;
  }
  return out;
}

/** Is province p occupied once the moves are made? */
export function occupiedAfter(ctx: Ctx, after: Aftermath, p: number): boolean {
  const u = ctx.at[p]!;
  // A unit that stayed is still there, or its dislodger is.
  if (u >= 0 && !after.moved[u]) return true;
  for (let k = ctx.firstAttacker[p]!; k >= 0; k = ctx.nextAttacker[k]!) if (after.moved[k]) return true;
  return false;
}

export function dislodgedUnits(ctx: Ctx, after: Aftermath, contested: readonly number[]): Dislodged[] {
  const out: Dislodged[] = [];
  const board = ctx.board;
  for (let u = 0; u < ctx.n; u++) {
    const d = after.dislodger[u]!;
    if (d < 0) continue;
    // DATC 4.A.5: an attacker that came by convoy leaves its origin open for the retreat.
    const barred = ctx.byConvoy[d] === 1 ? -1 : ctx.prov[d]!;
    const retreats: Loc[] = [];
    // Neighbour lists are sorted by name, so the retreats come out sorted.
    if (ctx.fleet[u] !== 1) {
      for (const p of board.armyNear[ctx.prov[u]!]!) {
        if (board.kind[p] !== SEA && retreatOpen(ctx, after, contested, barred, p)) retreats.push(board.names[p]!);
      }
    } else {
      for (const place of board.fleetNear[ctx.place[u]!]!) {
        if (retreatOpen(ctx, after, contested, barred, board.provOf[place]!)) retreats.push(board.names[place]!);
      }
    }
    out.push({ unit: ctx.units[u]!, attackerFrom: board.names[ctx.prov[d]!]!, retreats });
  }
  return out;
}

function retreatOpen(ctx: Ctx, after: Aftermath, contested: readonly number[], barred: number, p: number): boolean {
  const kind = ctx.board.kind[p]!;
  return kind !== 0 && kind !== IMPASSABLE && p !== barred && !contested.includes(p) && !occupiedAfter(ctx, after, p);
}

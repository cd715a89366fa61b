// Turning resolved decisions into plain data: one result per unit with its reason, the dislodged
// units with their retreats, the standoff provinces, and the units after the moves.
import type { Dislodged, Loc, Order, OrderResult, ProvinceId, Reason, Unit } from '../types';
import { armyNeighbours, fleetNeighbourLocs, provinceOf } from './board';
import type { Ctx } from './context';
import {
  decided,
  defendStrength,
  headToHead,
  holdStrength,
  path,
  preventStrength,
  attackStrength,
} from './decide';

export interface Aftermath {
  /** Index of the unit that dislodged each unit, or -1. */
  readonly dislodger: Int32Array;
  readonly moved: Uint8Array;
}

export function aftermath(ctx: Ctx): Aftermath {
  const { n, kind } = ctx;
  const moved = new Uint8Array(n);
  for (let u = 0; u < n; u++) if (kind[u] === 'move' && decided(ctx, u)) moved[u] = 1;
  const dislodger = new Int32Array(n).fill(-1);
  for (const [p, movers] of ctx.attackers) {
    const u = ctx.at.get(p);
    if (u === undefined || moved[u]) continue;
    for (const k of movers) if (moved[k]) dislodger[u] = k;
  }
  return { dislodger, moved };
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
    case 'move':
      return after.moved[u] ? { order: given, success: true } : { order: given, success: false, reason: moveFailure(ctx, after, u) };
    case 'support':
      if (ctx.matched[u] !== 1) return { order: given, success: false, reason: { kind: 'support-not-matched' } };
      if (decided(ctx, u)) return { order: given, success: true };
      return { order: given, success: false, reason: dislodged ?? cutBy(ctx, u) };
    case 'convoy':
      if (ctx.matched[u] !== 1) return { order: given, success: false, reason: { kind: 'void' } };
      if (decided(ctx, u)) return { order: given, success: true };
      return { order: given, success: false, reason: dislodged ?? { kind: 'void' } };
    default:
      return dislodged ? { order: given, success: false, reason: dislodged } : { order: given, success: true };
  }
}

function cutBy(ctx: Ctx, s: number): Reason {
  const power = ctx.units[s]!.power;
  for (const k of ctx.attackers.get(ctx.prov[s]!) ?? []) {
    if (ctx.units[k]!.power !== power && ctx.prov[k] !== ctx.supDest[s] && path(ctx, k)) {
      return { kind: 'cut', by: ctx.units[k]!.loc };
    }
  }
  return { kind: 'void' };
}

function moveFailure(ctx: Ctx, after: Aftermath, u: number): Reason {
  if (!path(ctx, u)) return convoyFailure(ctx, after, u);
  const dest = ctx.dest[u]!;
  const rivals = ctx.attackers.get(dest)!;
  const h = headToHead(ctx, u);
  if (h >= 0 && after.moved[h]) return { kind: 'beaten', by: ctx.units[h]!.loc };
  for (const k of rivals) if (after.moved[k]) return { kind: 'beaten', by: ctx.units[k]!.loc };
  const attack = attackStrength(ctx, u);
  const with_: Loc[] = [];
  const v = ctx.at.get(dest);
  if (h >= 0) {
    if (defendStrength(ctx, h) >= attack) with_.push(ctx.units[h]!.loc);
  } else if (v !== undefined && holdStrength(ctx, dest) >= attack) {
    with_.push(ctx.units[v]!.loc);
  }
  for (const k of rivals) if (k !== u && preventStrength(ctx, k) >= attack) with_.push(ctx.units[k]!.loc);
  with_.sort();
  return { kind: 'bounced', with: with_ };
}

function convoyFailure(ctx: Ctx, after: Aftermath, u: number): Reason {
  const fleets = ctx.convoyers[u]!;
  let disruptedBy: Loc | undefined;
  for (const f of fleets) {
    if (decided(ctx, f)) continue;
    const d = after.dislodger[f]!;
    const by = d >= 0 ? ctx.units[d]!.loc : ctx.units[f]!.loc;
    if (disruptedBy === undefined || by < disruptedBy) disruptedBy = by;
  }
  return disruptedBy === undefined ? { kind: 'no-convoy-route' } : { kind: 'convoy-disrupted', by: disruptedBy };
}

/** Provinces left empty after a standoff: some failed move into them still had prevent strength. */
export function contestedProvinces(ctx: Ctx, after: Aftermath): ProvinceId[] {
  const out: ProvinceId[] = [];
  for (const [p, movers] of ctx.attackers) {
    if (occupiedAfter(ctx, after, p)) continue;
    for (const k of movers) {
      if (!after.moved[k] && preventStrength(ctx, k) > 0) {
        out.push(p);
        break;
      }
    }
  }
  return out.sort();
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
    if (after.moved[u]) moved.push({ type: unit.type, power: unit.power, loc: ctx.destLoc[u]! });
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
export function occupiedAfter(ctx: Ctx, after: Aftermath, p: ProvinceId): boolean {
  const u = ctx.at.get(p);
  // A unit that stayed is still there, or its dislodger is.
  if (u !== undefined && !after.moved[u]) return true;
  const movers = ctx.attackers.get(p);
  if (movers) for (const k of movers) if (after.moved[k]) return true;
  return false;
}

export function dislodgedUnits(ctx: Ctx, after: Aftermath, contested: readonly ProvinceId[]): Dislodged[] {
  const out: Dislodged[] = [];
  for (let u = 0; u < ctx.n; u++) {
    const d = after.dislodger[u]!;
    if (d < 0) continue;
    const unit = ctx.units[u]!;
    // DATC 4.A.5: an attacker that came by convoy leaves its origin open for the retreat.
    const barred = ctx.byConvoy[d] === 1 ? '' : ctx.prov[d]!;
    const retreats: Loc[] = [];
    if (unit.type === 'A') {
      for (const p of armyNeighbours(ctx.board, ctx.prov[u]!)) {
        if (ctx.board.kind.get(p) !== 'sea' && retreatOpen(ctx, after, contested, barred, p)) retreats.push(p);
      }
    } else {
      for (const loc of fleetNeighbourLocs(ctx.board, unit.loc)) {
        if (retreatOpen(ctx, after, contested, barred, provinceOf(loc))) retreats.push(loc);
      }
    }
    retreats.sort();
    out.push({ unit, attackerFrom: ctx.prov[d]!, retreats });
  }
  return out;
}

function retreatOpen(ctx: Ctx, after: Aftermath, contested: readonly ProvinceId[], barred: ProvinceId, p: ProvinceId): boolean {
  const kind = ctx.board.kind.get(p);
  return (
    kind !== undefined &&
    kind !== 'impassable' &&
    p !== barred &&
    !contested.includes(p) &&
    !occupiedAfter(ctx, after, p)
  );
}

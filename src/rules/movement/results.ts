// Turning resolved decisions into plain data: one result per unit with its reason, the dislodged
// units with their retreats, the standoff provinces, and the units after the moves.
import type { Dislodged, Loc, Order, OrderResult, ProvinceId, Reason, Unit } from '../types';
import { armyNeighbours, fleetNeighbourLocs, provinceOf } from './board';
import { CONVOY, MOVE, SUPPORT, type Ctx } from './context';
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
  for (let u = 0; u < n; u++) if (kind[u] === MOVE && decided(ctx, u)) moved[u] = 1;
  const dislodger = new Int32Array(n).fill(-1);
  for (let u = 0; u < n; u++) {
    if (moved[u]) continue;
    const attackers = ctx.attackers.get(ctx.prov[u]!);
    if (attackers) for (const k of attackers) if (moved[k]) dislodger[u] = k;
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
    case MOVE:
      return after.moved[u] ? { order: given, success: true } : { order: given, success: false, reason: moveFailure(ctx, after, u) };
    case SUPPORT:
      if (ctx.supMatched[u] !== 1) return { order: given, success: false, reason: { kind: 'support-not-matched' } };
      if (decided(ctx, u)) return { order: given, success: true };
      return { order: given, success: false, reason: dislodged ?? cutBy(ctx, u) };
    case CONVOY:
      if (ctx.cvMatched[u] !== 1) return { order: given, success: false, reason: { kind: 'void' } };
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
export function contestedProvinces(ctx: Ctx, after: Aftermath, occupied: ReadonlySet<ProvinceId>): ProvinceId[] {
  const out: ProvinceId[] = [];
  for (const [p, movers] of ctx.attackers) {
    if (occupied.has(p)) continue;
    for (const k of movers) {
      if (!after.moved[k] && preventStrength(ctx, k) > 0) {
        out.push(p);
        break;
      }
    }
  }
  return out.sort();
}

export function unitsAfter(ctx: Ctx, after: Aftermath): Unit[] {
  const out: Unit[] = [];
  for (let u = 0; u < ctx.n; u++) {
    if (after.dislodger[u]! >= 0) continue;
    const unit = ctx.units[u]!;
    out.push(after.moved[u] ? { type: unit.type, power: unit.power, loc: ctx.destLoc[u]! } : unit);
  }
  return out.sort((a, b) => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0));
}

export function dislodgedUnits(
  ctx: Ctx,
  after: Aftermath,
  occupied: ReadonlySet<ProvinceId>,
  contested: readonly ProvinceId[],
): Dislodged[] {
  const out: Dislodged[] = [];
  for (let u = 0; u < ctx.n; u++) {
    const d = after.dislodger[u]!;
    if (d < 0) continue;
    const unit = ctx.units[u]!;
    // DATC 4.A.5: an attacker that came by convoy leaves its origin open for the retreat.
    const barred = ctx.byConvoy[d] === 1 ? '' : ctx.prov[d]!;
    const open = (p: ProvinceId): boolean => {
      const k = ctx.board.kind.get(p);
      return k !== undefined && k !== 'impassable' && p !== barred && !occupied.has(p) && !contested.includes(p);
    };
    const retreats: Loc[] = [];
    if (unit.type === 'A') {
      for (const p of armyNeighbours(ctx.board, ctx.prov[u]!)) if (ctx.board.kind.get(p) !== 'sea' && open(p)) retreats.push(p);
    } else {
      for (const loc of fleetNeighbourLocs(ctx.board, unit.loc)) if (open(provinceOf(loc))) retreats.push(loc);
    }
    retreats.sort();
    out.push({ unit, attackerFrom: ctx.prov[d]!, retreats });
  }
  return out;
}

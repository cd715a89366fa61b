// Which orders a unit may be given (godip's Options; the app offers only these, the benchmark and
// the protocol's simulated games draw from them). Legal means "the adjudicator will not call it
// illegal", and the list is made by asking the adjudicator's own predicates (movement/legality.ts,
// retreatTarget, checkBuild) about every candidate, so the two cannot disagree. Whether an order
// succeeds is the adjudicator's business.
//
// The list holds each order once, written as the adjudicator reads it: units by where they stand,
// a fleet's destination with its coast, supports and convoys to provinces. Orders the adjudicator
// accepts but that can do nothing are left out: a support or convoy naming an empty province.
import type { GameMap, Loc, Order, Position, Power, ProvinceId, UnitRef } from './types';
import { STANDARD_MAP, locsOf, provinceOf } from './map';
import { SEA, armyMoves, boardOf } from './movement/board';
import { newCtx, type Ctx } from './movement/context';
import { NO_COAST, convoyCheck, moveCheck, supportCheck } from './movement/legality';
import { retreatTarget } from './adjudicate/retreat';
import { checkBuild } from './adjudicate/adjustment';
import { adjustmentsNeeded } from './adjudicate/centres';

/** Every legal order for the unit at `loc` (exactly where it stands: 'stp/sc', not 'stp') in the
 *  position's phase, on the phase's map (a variant's map may close provinces). Sorted for
 *  determinism: hold, moves, supports unit by unit, convoys. [] outside movement and retreats. */
export function legalOrdersForUnit(position: Position, loc: Loc, map: GameMap): Order[] {
  if (position.phase.kind === 'retreat') return retreatOptions(position, loc, map);
  if (position.phase.kind !== 'movement') return [];
  const u = position.units.findIndex((x) => x.loc === loc);
  if (u < 0) return [];
  const board = boardOf(map);
  // The adjudicator's workspace, set up for this position; nothing is adjudicated in it here.
  const ctx = newCtx(board, position.units);
  const unit = position.units[u]!;
  const power = unit.power;
  const ref: UnitRef = { type: unit.type, loc: unit.loc };
  const out: Order[] = [{ kind: 'hold', power, unit: ref }];
  for (const m of moveOptions(ctx, u))
    out.push(m.via ? { kind: 'move', power, unit: ref, to: m.to, viaConvoy: true } : { kind: 'move', power, unit: ref, to: m.to });

  const reach = reachedProvinces(ctx, u);
  for (let t = 0; t < ctx.n; t++) {
    if (t === u) continue;
    const other = position.units[t]!;
    const supported: UnitRef = { type: other.type, loc: other.loc };
    const target = ctx.prov[t]!;
    if (supportCheck(ctx, u, target, undefined) === undefined) out.push({ kind: 'support', power, unit: ref, supported });
    for (const d of reach) {
      if (supportCheck(ctx, u, target, d) === undefined) out.push({ kind: 'support', power, unit: ref, supported, to: board.names[d]! });
    }
  }

  // Convoys: only a fleet at sea convoys and only an army is convoyed (convoyCheck says so too;
  // asking it about every pair of units would double the time of the list).
  if (ctx.fleet[u] === 1 && board.kind[ctx.prov[u]!] === SEA) {
    for (let a = 0; a < ctx.n; a++) {
      if (ctx.fleet[a] === 1) continue;
      const army = ctx.prov[a]!;
      for (let d = 0; d < board.provinces; d++) {
        if (convoyCheck(ctx, u, army, d) === undefined) out.push({ kind: 'convoy', power, unit: ref, army: board.names[army]!, to: board.names[d]! });
      }
    }
  }
  return out;
}

/** Where unit u may move: first without a convoy (the map's neighbours), then the provinces it
 *  may reach by convoy, by name; a neighbour reached by convoy too comes again, "via convoy". */
function moveOptions(ctx: Ctx, u: number): { to: Loc; via: boolean }[] {
  const board = ctx.board;
  const out: { to: Loc; via: boolean }[] = [];
  if (ctx.fleet[u] === 1) {
    for (const b of board.fleetNear[ctx.place[u]!]!) {
      // A neighbour is a province, or one coast of a split-coast province: the coast is named.
      const place = moveCheck(ctx, u, board.provOf[b]!, b === board.provOf[b] ? NO_COAST : b, false);
      if (typeof place === 'number') out.push({ to: board.names[place]!, via: false });
    }
    return out;
  }
  const from = ctx.prov[u]!;
  for (const p of board.armyNear[from]!) {
    if (typeof moveCheck(ctx, u, p, NO_COAST, false) === 'number') out.push({ to: board.names[p]!, via: false });
  }
  for (let p = 0; p < board.provinces; p++) {
    // Beyond the neighbours only a convoy reaches; to a neighbour, a convoy must be asked for.
    const neighbour = armyMoves(board, from, p);
    if (typeof moveCheck(ctx, u, p, NO_COAST, neighbour) === 'number') out.push({ to: board.names[p]!, via: neighbour });
  }
  return out;
}

/** Provinces unit u could move into by itself, by number (= by name): where it may support. */
function reachedProvinces(ctx: Ctx, u: number): number[] {
  const board = ctx.board;
  if (ctx.fleet[u] !== 1) return [...board.armyNear[ctx.prov[u]!]!];
  return [...new Set(board.fleetNear[ctx.place[u]!]!.map((b) => board.provOf[b]!))].sort((a, b) => a - b);
}

/** A dislodged unit's retreats (each one the adjudicator takes as written) and disbanding. */
function retreatOptions(position: Position, loc: Loc, map: GameMap): Order[] {
  const d = position.dislodged.find((x) => x.unit.loc === loc);
  if (!d) return [];
  const power = d.unit.power;
  const ref: UnitRef = { type: d.unit.type, loc: d.unit.loc };
  const out: Order[] = [];
  for (const to of d.retreats) {
    const target = retreatTarget(d, to, map);
    if ('loc' in target && target.loc === to) out.push({ kind: 'retreat', power, unit: ref, to });
  }
  out.push({ kind: 'disband', power, unit: ref });
  return out;
}

/** What a power may order in an adjustment phase: `delta` builds (each offered build is one the
 *  adjudicator takes: a unit type, and a coast where needed, in a free owned home centre), or
 *  -`delta` removals (any of its units). */
export function adjustmentOrders(position: Position, power: Power, map: GameMap): { builds: Order[]; removals: Order[]; delta: number } {
  const delta = adjustmentsNeeded(position, map)[power];
  const builds: Order[] = [];
  if (delta > 0) {
    const occupied = new Set(position.units.map((u) => provinceOf(u.loc)));
    const homes = Object.keys(map.provinces)
      .filter((id) => map.provinces[id]!.home === power)
      .sort();
    for (const h of homes) {
      // Candidates: an army there, a fleet on the province and on each of its coasts.
      const candidates: Order[] = [
        { kind: 'build', power, unit: { type: 'A', loc: h } },
        ...locsOf(map, h).map((loc): Order => ({ kind: 'build', power, unit: { type: 'F', loc } })),
      ];
      for (const o of candidates) if (o.kind === 'build' && !('illegal' in checkBuild(o, position, map, occupied, NO_BUILDS))) builds.push(o);
    }
  }
  const removals: Order[] =
    delta < 0 ? position.units.filter((u) => u.power === power).map((u) => ({ kind: 'remove', power, unit: { type: u.type, loc: u.loc } })) : [];
  return { builds, removals, delta };
}

const NO_BUILDS: ReadonlySet<string> = new Set();

/**
 * A complete random order set for one power in the current phase, drawn from the legal orders.
 * `pick(n)` must return an integer in [0, n): randomness comes in from the caller, so the engine
 * stays pure and a seeded generator replays the same game.
 */
export function randomOrders(position: Position, power: Power, pick: (n: number) => number, map: GameMap = STANDARD_MAP): Order[] {
  const choose = <T>(xs: readonly T[]): T | undefined => (xs.length === 0 ? undefined : xs[Math.min(xs.length - 1, Math.max(0, pick(xs.length)))]);
  if (position.phase.kind === 'retreat') {
    return position.dislodged
      .filter((d) => d.unit.power === power)
      .flatMap((d) => {
        const o = choose(legalOrdersForUnit(position, d.unit.loc, map));
        return o ? [o] : [];
      });
  }
  if (position.phase.kind === 'adjustment') {
    const { builds, removals, delta } = adjustmentOrders(position, power, map);
    const out: Order[] = [];
    const pool = delta > 0 ? [...builds] : [...removals];
    const taken = new Set<ProvinceId>();
    for (let i = 0; i < Math.abs(delta) && pool.length > 0; i++) {
      const o = choose(pool.filter((x) => x.kind !== 'waive' && !taken.has(provinceOf(x.unit.loc))));
      if (!o || o.kind === 'waive') break;
      taken.add(provinceOf(o.unit.loc));
      out.push(o);
    }
    return out;
  }
  // Movement: mix kinds the way players do, so supports and convoys are exercised, not drowned.
  return position.units
    .filter((u) => u.power === power)
    .map((u) => {
      const all = legalOrdersForUnit(position, u.loc, map);
      const byKind = (k: Order['kind']) => all.filter((o) => o.kind === k);
      const roll = pick(10);
      const want = roll < 5 ? byKind('move') : roll < 8 ? byKind('support') : roll < 9 ? byKind('convoy') : byKind('hold');
      return choose(want.length > 0 ? want : all) ?? { kind: 'hold', power, unit: { type: u.type, loc: u.loc } };
    });
}

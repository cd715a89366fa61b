// Reading the orders: which order counts for each unit, which are illegal (and so become holds,
// DATC 4.E.1), which moves go by convoy (seed 002 convoy intent), and which supports and convoys
// match the order of the unit they name.
import type { IllegalReason, Loc, Order, Power, ProvinceId } from '../types';
import { fleetReachOf, hasCoast, provinceOf, armyNeighbours } from './board';
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
  const consent = new Set<string>();
  const consentOrders: SupportOrder[] = [];
  assignOrders(ctx, orders, opts, consent, consentOrders);

  const fleetAtSea = (sea: ProvinceId): boolean => {
    const u = ctx.at.get(sea);
    return u !== undefined && ctx.units[u]!.type === 'F' && ctx.board.kind.get(sea) === 'sea';
  };
  // Legal convoy orders by "army province>destination", for convoy intent.
  const legalConvoys = new Map<string, number[]>();
  const necessary = new Map<string, Set<ProvinceId>>();

  for (let u = 0; u < ctx.n; u++) {
    const o = ctx.given[u];
    if (o?.kind !== 'convoy' || ctx.unordered[u]) continue;
    const why = convoyIllegal(ctx, u, o, necessary, fleetAtSea);
    if (why) demote(ctx, u, why);
    else {
      ctx.kind[u] = CONVOY;
      const a = ctx.at.get(o.army);
      ctx.cvArmy[u] = a ?? -1;
      const key = `${o.army}>${provinceOf(o.to)}`;
      const list = legalConvoys.get(key);
      if (list) list.push(u);
      else legalConvoys.set(key, [u]);
    }
  }
  for (let u = 0; u < ctx.n; u++) {
    const o = ctx.given[u];
    if (o?.kind === 'move' && !ctx.unordered[u]) readMove(ctx, u, o, legalConvoys, fleetAtSea);
  }
  for (let u = 0; u < ctx.n; u++) {
    const o = ctx.given[u];
    if (o?.kind === 'support' && !ctx.unordered[u]) readSupport(ctx, u, o, fleetAtSea);
  }
  match(ctx, opts.supportNeedsConsent ? consent : undefined);

  for (const o of consentOrders) {
    const s = ctx.at.get(provinceOf(o.unit.loc));
    const ok = s !== undefined && ctx.kind[s] === SUPPORT && ctx.supMatched[s] === 1 && sameSupport(ctx, s, o);
    ctx.extras.push(ok ? { order: o, success: true } : { order: o, success: false, reason: { kind: 'support-not-matched' } });
  }
}

function assignOrders(
  ctx: Ctx,
  orders: readonly Order[],
  opts: ReadOptions,
  consent: Set<string>,
  consentOrders: SupportOrder[],
): void {
  for (const o of orders) {
    if (opts.civilDisorder.has(o.power)) continue;
    if (o.kind !== 'hold' && o.kind !== 'move' && o.kind !== 'support' && o.kind !== 'convoy') {
      ctx.extras.push({ order: o, success: false, reason: { kind: 'illegal', why: 'wrong-phase' } });
      continue;
    }
    const u = ctx.at.get(provinceOf(o.unit.loc));
    if (u === undefined || ctx.units[u]!.power !== o.power) {
      if (opts.supportNeedsConsent && o.kind === 'support') {
        // 1914 rules: a power writes the foreign support it accepts for its own unit.
        consent.add(supportKey(o.power, provinceOf(o.unit.loc), o.supported.loc, o.to));
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
  for (let u = 0; u < ctx.n; u++) {
    const unit = ctx.units[u]!;
    if (ctx.given[u] === undefined || opts.civilDisorder.has(unit.power)) {
      ctx.given[u] = undefined;
      ctx.unordered[u] = 1;
    }
  }
}

function supportKey(power: Power, supporter: ProvinceId, supported: Loc, to: ProvinceId | undefined): string {
  return `${power}|${supporter}|${provinceOf(supported)}|${to === undefined ? '' : provinceOf(to)}`;
}

function sameSupport(ctx: Ctx, s: number, o: SupportOrder): boolean {
  const t = ctx.supTarget[s]!;
  return (
    t >= 0 && ctx.prov[t] === provinceOf(o.supported.loc) && ctx.supDest[s] === (o.to === undefined ? '' : provinceOf(o.to))
  );
}

function demote(ctx: Ctx, u: number, why: IllegalReason): void {
  ctx.kind[u] = HOLD;
  ctx.demoted[u] = { kind: 'illegal', why };
}

function convoyIllegal(
  ctx: Ctx,
  u: number,
  o: ConvoyOrder,
  necessary: Map<string, Set<ProvinceId>>,
  fleetAtSea: (sea: ProvinceId) => boolean,
): IllegalReason | undefined {
  const board = ctx.board;
  if (ctx.units[u]!.type !== 'F') return 'convoy-by-non-fleet';
  if (board.kind.get(ctx.prov[u]!) !== 'sea') return 'convoy-from-land';
  const from = provinceOf(o.army);
  const to = provinceOf(o.to);
  const a = ctx.at.get(from);
  if (a !== undefined && ctx.units[a]!.type !== 'A') return 'convoy-non-army';
  if (from === to) return 'move-to-self';
  const key = `${from}>${to}`;
  let seas = necessary.get(key);
  if (!seas) {
    seas = necessarySeas(board, from, to, fleetAtSea);
    necessary.set(key, seas);
  }
  return seas.has(ctx.prov[u]!) ? undefined : 'not-adjacent';
}

function readMove(
  ctx: Ctx,
  u: number,
  o: MoveOrder,
  legalConvoys: ReadonlyMap<string, number[]>,
  fleetAtSea: (sea: ProvinceId) => boolean,
): void {
  const board = ctx.board;
  const unit = ctx.units[u]!;
  const from = ctx.prov[u]!;
  const to = provinceOf(o.to);
  const toKind = board.kind.get(to);
  if (toKind === undefined || toKind === 'impassable') return demote(ctx, u, 'not-adjacent');
  if (to === from) return demote(ctx, u, 'move-to-self');

  if (unit.type === 'A') {
    if (toKind === 'sea') return demote(ctx, u, 'army-to-sea');
    const adjacent = armyNeighbours(board, from).has(to);
    let byConvoy = !adjacent || o.viaConvoy === true;
    if (!byConvoy) {
      // Seed 002 (2000 rulebook): one convoying fleet of the army's own power shows the intent.
      const fleets = legalConvoys.get(`${from}>${to}`);
      if (fleets) for (const f of fleets) if (ctx.units[f]!.power === unit.power) byConvoy = true;
    }
    if (byConvoy && !routeExists(board, from, to, fleetAtSea)) {
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
  if (toKind === 'land') return demote(ctx, u, 'fleet-to-land');
  const reachable = fleetReachOf(board, unit.loc).get(to);
  if (!reachable || reachable.length === 0) return demote(ctx, u, 'not-adjacent');
  let loc: Loc;
  if (board.splitCoasts.has(to)) {
    if (hasCoast(o.to)) {
      // DATC 4.B.3: a named coast the fleet cannot reach makes the order illegal.
      if (!reachable.includes(o.to)) return demote(ctx, u, 'not-adjacent');
      loc = o.to;
    } else {
      // DATC 4.B.1 / 4.B.2: the coast may be left out only when one coast is reachable.
      if (reachable.length !== 1) return demote(ctx, u, 'coast-required');
      loc = reachable[0]!;
    }
  } else {
    loc = to; // DATC 4.B.6: a coast named for a province without coasts is ignored.
  }
  setMove(ctx, u, to, loc, false);
}

function setMove(ctx: Ctx, u: number, to: ProvinceId, loc: Loc, byConvoy: boolean): void {
  ctx.kind[u] = MOVE;
  ctx.dest[u] = to;
  ctx.destLoc[u] = loc;
  ctx.byConvoy[u] = byConvoy ? 1 : 0;
}

/** Can unit u move into province p by itself (the test for supporting into p)? */
function canReach(ctx: Ctx, u: number, p: ProvinceId): boolean {
  const unit = ctx.units[u]!;
  if (unit.type === 'A') return ctx.board.kind.get(p) !== 'sea' && armyNeighbours(ctx.board, ctx.prov[u]!).has(p);
  return fleetReachOf(ctx.board, unit.loc).has(p);
}

function readSupport(ctx: Ctx, s: number, o: SupportOrder, fleetAtSea: (sea: ProvinceId) => boolean): void {
  const board = ctx.board;
  const target = provinceOf(o.supported.loc);
  const self = ctx.prov[s]!;
  if (target === self) return demote(ctx, s, 'support-self');
  const t = ctx.at.get(target);
  if (o.to === undefined) {
    if (!canReach(ctx, s, target)) return demote(ctx, s, 'support-unreachable');
  } else {
    const dest = provinceOf(o.to);
    // DATC 6.D.34: supporting into one's own province is illegal (a unit cannot move there).
    if (dest === self || dest === target || !canReach(ctx, s, dest)) return demote(ctx, s, 'support-unreachable');
    if (t !== undefined && !supportedMovePossible(ctx, s, t, dest, fleetAtSea)) return demote(ctx, s, 'support-unreachable');
    ctx.supDest[s] = dest;
    if (hasCoast(o.to) && board.splitCoasts.has(dest) && ctx.units[t ?? s]!.type === 'F') ctx.supDestLoc[s] = o.to;
  }
  ctx.kind[s] = SUPPORT;
  ctx.supTarget[s] = t ?? -1;
}

/** DATC 6.D.31: the supported move must be possible without the supporter's own help. */
function supportedMovePossible(
  ctx: Ctx,
  s: number,
  t: number,
  dest: ProvinceId,
  fleetAtSea: (sea: ProvinceId) => boolean,
): boolean {
  const unit = ctx.units[t]!;
  const from = ctx.prov[t]!;
  if (unit.type === 'F') return fleetReachOf(ctx.board, unit.loc).has(dest);
  if (ctx.board.kind.get(dest) === 'sea') return false;
  if (armyNeighbours(ctx.board, from).has(dest)) return true;
  const supporter = ctx.prov[s]!;
  return routeExists(ctx.board, from, dest, (sea) => sea !== supporter && fleetAtSea(sea));
}

function match(ctx: Ctx, consent: ReadonlySet<string> | undefined): void {
  const { n, kind } = ctx;
  for (let u = 0; u < n; u++) {
    if (kind[u] !== MOVE) continue;
    const d = ctx.dest[u]!;
    const list = ctx.attackers.get(d);
    if (list) list.push(u);
    else ctx.attackers.set(d, [u]);
  }
  for (let f = 0; f < n; f++) {
    if (kind[f] !== CONVOY) continue;
    const a = ctx.cvArmy[f]!;
    const o = ctx.given[f] as ConvoyOrder;
    if (a >= 0 && kind[a] === MOVE && ctx.byConvoy[a] === 1 && ctx.dest[a] === provinceOf(o.to)) {
      ctx.cvMatched[f] = 1;
      ctx.convoyers[a]!.push(f);
    }
  }
  for (let s = 0; s < n; s++) {
    if (kind[s] !== SUPPORT) continue;
    const t = ctx.supTarget[s]!;
    if (t < 0) continue;
    const d = ctx.supDest[s]!;
    const ok =
      d === ''
        ? kind[t] !== MOVE
        : kind[t] === MOVE && ctx.dest[t] === d && (ctx.supDestLoc[s] === '' || ctx.destLoc[t] === ctx.supDestLoc[s]);
    if (!ok) continue;
    const sp = ctx.units[s]!.power;
    const tp = ctx.units[t]!.power;
    if (consent && sp !== tp && !consent.has(`${tp}|${ctx.prov[s]}|${ctx.prov[t]}|${d}`)) continue;
    ctx.supMatched[s] = 1;
    ctx.supports[t]!.push(s);
  }
}

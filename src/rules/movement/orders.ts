// Reading the orders: which order counts for each unit, which are illegal (and so become holds,
// DATC 4.E.1), which moves go by convoy (seed 002 convoy intent), and which supports and convoys
// match the order of the unit they name.
import type { IllegalReason, Loc, Order, Power, ProvinceId } from '../types';
import { fleetReachOf, hasCoast, provinceOf, armyNeighbours } from './board';
import { necessarySeas, routeExists } from './convoy';
import { addTo, type Ctx } from './context';

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
  const byKind: Grouped = { convoys: [], moves: [], supports: [] };
  assignOrders(ctx, orders, opts, consent, consentOrders, byKind);

  // Legal convoy orders by "army province>destination", for convoy intent (rare: made on demand).
  let legalConvoys: Map<string, number[]> | undefined;
  let necessary: Map<string, Set<ProvinceId>> | undefined;
  for (const u of byKind.convoys) {
    const o = ctx.given[u] as ConvoyOrder;
    const why = convoyIllegal(ctx, u, o, (necessary ??= new Map()));
    if (why) demote(ctx, u, why);
    else {
      ctx.kind[u] = 'convoy';
      const a = ctx.at.get(o.army);
      ctx.target[u] = a ?? -1;
      const key = `${o.army}>${provinceOf(o.to)}`;
      legalConvoys ??= new Map();
      const list = legalConvoys.get(key);
      if (list) list.push(u);
      else legalConvoys.set(key, [u]);
    }
  }
  // Moves before supports: a support is legal only if the move it names could be made.
  for (const u of byKind.moves) readMove(ctx, u, ctx.given[u] as MoveOrder, legalConvoys);
  for (const u of byKind.supports) readSupport(ctx, u, ctx.given[u] as SupportOrder);
  match(ctx, consent);

  for (const o of consentOrders) {
    const s = ctx.at.get(provinceOf(o.unit.loc));
    const ok = s !== undefined && ctx.kind[s] === 'support' && ctx.matched[s] === 1 && sameSupport(ctx, s, o);
    ctx.extras.push(ok ? { order: o, success: true } : { order: o, success: false, reason: { kind: 'support-not-matched' } });
  }
}

/** Units by the kind of their order, in unit order (so every later pass stays sorted). */
interface Grouped {
  readonly convoys: number[];
  readonly moves: number[];
  readonly supports: number[];
}

function assignOrders(
  ctx: Ctx,
  orders: readonly Order[],
  opts: ReadOptions,
  consent: Set<string> | undefined,
  consentOrders: SupportOrder[],
  byKind: Grouped,
): void {
  const disorder = opts.civilDisorder.size > 0 ? opts.civilDisorder : undefined;
  for (const o of orders) {
    // Civil disorder: the power's orders are not read at all, so its units hold.
    if (disorder?.has(o.power)) continue;
    if (o.kind !== 'hold' && o.kind !== 'move' && o.kind !== 'support' && o.kind !== 'convoy') {
      ctx.extras.push({ order: o, success: false, reason: { kind: 'illegal', why: 'wrong-phase' } });
      continue;
    }
    const u = ctx.at.get(provinceOf(o.unit.loc));
    if (u === undefined || ctx.units[u]!.power !== o.power) {
      if (consent && o.kind === 'support') {
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
    const kind = ctx.given[u]?.kind;
    if (kind === 'move') byKind.moves.push(u);
    else if (kind === 'support') byKind.supports.push(u);
    else if (kind === 'convoy') byKind.convoys.push(u);
  }
}

function supportKey(power: Power, supporter: ProvinceId, supported: Loc, to: ProvinceId | undefined): string {
  return `${power}|${supporter}|${provinceOf(supported)}|${to === undefined ? '' : provinceOf(to)}`;
}

function sameSupport(ctx: Ctx, s: number, o: SupportOrder): boolean {
  const t = ctx.target[s]!;
  return (
    t >= 0 && ctx.prov[t] === provinceOf(o.supported.loc) && ctx.supDest[s] === (o.to === undefined ? '' : provinceOf(o.to))
  );
}

function demote(ctx: Ctx, u: number, why: IllegalReason): void {
  ctx.kind[u] = 'hold';
  ctx.demoted[u] = { kind: 'illegal', why };
}

function convoyIllegal(
  ctx: Ctx,
  u: number,
  o: ConvoyOrder,
  necessary: Map<string, Set<ProvinceId>>,
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
    seas = necessarySeas(board, from, to, ctx.fleetSeas);
    necessary.set(key, seas);
  }
  return seas.has(ctx.prov[u]!) ? undefined : 'not-adjacent';
}

function readMove(
  ctx: Ctx,
  u: number,
  o: MoveOrder,
  legalConvoys: ReadonlyMap<string, number[]> | undefined,
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
    if (!byConvoy && legalConvoys) {
      // Seed 002 (2000 rulebook): one convoying fleet of the army's own power shows the intent.
      const fleets = legalConvoys.get(`${from}>${to}`);
      if (fleets) for (const f of fleets) if (ctx.units[f]!.power === unit.power) byConvoy = true;
    }
    if (byConvoy && !routeExists(board, from, to, ctx.fleetSeas)) {
      if (!adjacent) return demote(ctx, u, 'not-adjacent');
      // "Via convoy" with no fleet that could ever carry it: no land fallback (DATC 4.A.3), so it holds.
      ctx.kind[u] = 'hold';
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
  ctx.kind[u] = 'move';
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

function readSupport(ctx: Ctx, s: number, o: SupportOrder): void {
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
    if (t !== undefined && !supportedMovePossible(ctx, s, t, dest)) return demote(ctx, s, 'support-unreachable');
    ctx.supDest[s] = dest;
    // A named coast binds only a fleet going to a split-coast province (DATC 6.B.9); else ignored.
    if (t !== undefined && hasCoast(o.to) && board.splitCoasts.has(dest) && ctx.units[t]!.type === 'F') {
      ctx.supDestLoc[s] = o.to;
    }
  }
  ctx.kind[s] = 'support';
  ctx.target[s] = t ?? -1;
}

/** DATC 6.D.31: the supported move must be possible without the supporter's own help. */
function supportedMovePossible(
  ctx: Ctx,
  s: number,
  t: number,
  dest: ProvinceId,
): boolean {
  const unit = ctx.units[t]!;
  const from = ctx.prov[t]!;
  if (unit.type === 'F') return fleetReachOf(ctx.board, unit.loc).has(dest);
  if (ctx.board.kind.get(dest) === 'sea') return false;
  if (armyNeighbours(ctx.board, from).has(dest)) return true;
  const supporter = ctx.prov[s]!;
  return routeExists(ctx.board, from, dest, ctx.fleetSeas & ~(ctx.board.seaBit.get(supporter) ?? 0));
}

function match(ctx: Ctx, consent: ReadonlySet<string> | undefined): void {
  const { n, kind } = ctx;
  for (let u = 0; u < n; u++) {
    if (kind[u] !== 'move') continue;
    const d = ctx.dest[u]!;
    const list = ctx.attackers.get(d);
    if (list) list.push(u);
    else ctx.attackers.set(d, [u]);
  }
  for (let f = 0; f < n; f++) {
    if (kind[f] !== 'convoy') continue;
    const a = ctx.target[f]!;
    const o = ctx.given[f] as ConvoyOrder;
    if (a >= 0 && kind[a] === 'move' && ctx.byConvoy[a] === 1 && ctx.dest[a] === provinceOf(o.to)) {
      ctx.matched[f] = 1;
      addTo(ctx.convoyers, a, f);
    }
  }
  for (let s = 0; s < n; s++) {
    if (kind[s] !== 'support') continue;
    const t = ctx.target[s]!;
    if (t < 0) continue;
    const d = ctx.supDest[s]!;
    const ok =
      d === ''
        ? kind[t] !== 'move'
        : kind[t] === 'move' && ctx.dest[t] === d && (ctx.supDestLoc[s] === '' || ctx.destLoc[t] === ctx.supDestLoc[s]);
    if (!ok) continue;
    const sp = ctx.units[s]!.power;
    const tp = ctx.units[t]!.power;
    if (consent && sp !== tp && !consent.has(`${tp}|${ctx.prov[s]}|${ctx.prov[t]}|${d}`)) continue;
    ctx.matched[s] = 1;
    addTo(ctx.supports, t, s);
  }
}

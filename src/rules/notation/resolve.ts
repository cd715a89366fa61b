// Turns a syntactic reading into an Order: fills an omitted unit type from the position
// (seed 002: "Aunque se omita la designación de la Unidad, la orden es ejecutable"), works out
// coasts that only one reading allows, and names the order kind the phase gives it (a move in
// a retreat phase is a retreat; a disband in adjustments is a removal). Legality is left to
// the adjudicator: nothing here checks adjacency or ownership.
import type { GameMap, Loc, Order, PhaseKind, Position, Power, ProvinceId, Unit, UnitRef, UnitType } from '../types';
import { fleetCoastsReachable, fleetNeighbours, provinceOf } from '../map';
import type { OrderParseError } from './errors';
import type { RawLoc, RawOrder, RawUnit } from './grammar';

export interface ResolveContext {
  readonly power: Power;
  readonly phase: PhaseKind;
  readonly position?: Position;
  readonly map: GameMap;
}

export type Resolved = { readonly ok: true; readonly order: Order } | { readonly ok: false; readonly error: OrderParseError };

class Reject {
  constructor(readonly error: OrderParseError) {}
}

function locOf(raw: RawLoc): Loc {
  return raw.coast === undefined ? raw.province : `${raw.province}/${raw.coast}`;
}

function hasCoasts(map: GameMap, province: ProvinceId): boolean {
  return (map.provinces[province]?.coasts ?? []).length > 0;
}

/** The unit standing in a province. In a retreat phase the ordered unit is a dislodged one. */
function unitIn(ctx: ResolveContext, province: ProvinceId, subject: boolean): Unit | undefined {
  const pos = ctx.position;
  if (!pos) return undefined;
  const here = (u: Unit): boolean => provinceOf(u.loc) === province;
  if (subject && ctx.phase === 'retreat') {
    const dislodged = pos.dislodged.map((d) => d.unit).filter(here);
    const mine = dislodged.find((u) => u.power === ctx.power);
    if (mine ?? dislodged[0]) return mine ?? dislodged[0];
  }
  return pos.units.find(here);
}

type Role = 'subject' | 'new' | 'other';

/** The unit an order names. `toward` is where the order sends it, to tell which coast a fleet
 *  on a split-coast province stands on when nothing else says. */
function unitRef(ctx: ResolveContext, raw: RawUnit, role: Role, toward?: RawLoc): UnitRef {
  const found = role === 'new' ? undefined : unitIn(ctx, raw.province, role === 'subject');
  const type: UnitType | undefined = raw.type ?? found?.type;
  if (type === undefined) {
    throw new Reject(ctx.position && role !== 'new' ? { code: 'no-unit', province: raw.province } : { code: 'unit-type-required', province: raw.province });
  }
  if (type === 'A' || !hasCoasts(ctx.map, raw.province)) return { type, loc: raw.province };
  if (raw.coast !== undefined) return { type, loc: locOf(raw) };
  if (found && found.type === 'F') return { type, loc: found.loc };
  if (toward && role === 'subject') {
    const coasts = (ctx.map.provinces[raw.province]?.coasts ?? []).filter((c) =>
      fleetNeighbours(ctx.map, `${raw.province}/${c}`).some((l) => provinceOf(l) === toward.province),
    );
    if (coasts.length === 1) return { type, loc: `${raw.province}/${coasts[0]}` };
  }
  // A supported fleet is named by its province; the adjudicator matches it by province too.
  if (role === 'other') return { type, loc: raw.province };
  throw new Reject({ code: 'coast-required', province: raw.province });
}

/** Where a move or retreat goes: armies go to the province; a fleet to the coast written, or the
 *  only coast it can reach. With two reachable coasts the player must say which (seed 000 VIII.3). */
function destination(ctx: ResolveContext, unit: UnitRef, raw: RawLoc): Loc {
  if (unit.type === 'A' || !hasCoasts(ctx.map, raw.province)) return raw.province;
  if (raw.coast !== undefined) return locOf(raw);
  const reachable = fleetCoastsReachable(ctx.map, unit.loc, raw.province);
  if (reachable.length === 1) return reachable[0]!;
  if (reachable.length > 1) throw new Reject({ code: 'coast-required', province: raw.province });
  return raw.province;
}

function build(raw: RawOrder, ctx: ResolveContext): Order {
  const power = ctx.power;
  switch (raw.kind) {
    case 'waive':
      return { kind: 'waive', power };
    case 'build':
      return { kind: 'build', power, unit: unitRef(ctx, raw.unit, 'new') };
    case 'bare': {
      // In adjustments a unit alone is a removal if one stands there, else a build (seed 002's
      // sample game: 'Austria construye "E Vie"', 'Rusia retira "E Gal"').
      if (unitIn(ctx, raw.unit.province, true)) return { kind: 'remove', power, unit: unitRef(ctx, raw.unit, 'subject') };
      return { kind: 'build', power, unit: unitRef(ctx, raw.unit, 'new') };
    }
    case 'disband-first':
    case 'disband': {
      const unit = unitRef(ctx, raw.unit, 'subject');
      return ctx.phase === 'adjustment' ? { kind: 'remove', power, unit } : { kind: 'disband', power, unit };
    }
    case 'hold':
      return { kind: 'hold', power, unit: unitRef(ctx, raw.unit, 'subject') };
    case 'move': {
      const unit = unitRef(ctx, raw.unit, 'subject', raw.to);
      const to = destination(ctx, unit, raw.to);
      if (ctx.phase === 'retreat') return { kind: 'retreat', power, unit, to };
      return raw.viaConvoy ? { kind: 'move', power, unit, to, viaConvoy: true } : { kind: 'move', power, unit, to };
    }
    case 'retreat': {
      const unit = unitRef(ctx, raw.unit, 'subject', raw.to);
      return { kind: 'retreat', power, unit, to: destination(ctx, unit, raw.to) };
    }
    case 'support': {
      const unit = unitRef(ctx, raw.unit, 'subject', raw.to);
      const supported = unitRef(ctx, raw.supported, 'other');
      return raw.to === undefined
        ? { kind: 'support', power, unit, supported }
        : { kind: 'support', power, unit, supported, to: raw.to.coast ? `${raw.to.province}/${raw.to.coast}` : raw.to.province };
    }
    case 'convoy': {
      if (raw.army.type === 'F') throw new Reject({ code: 'convoy-of-fleet', province: raw.army.province });
      const unit = unitRef(ctx, raw.unit, 'subject');
      return { kind: 'convoy', power, unit, army: raw.army.province, to: raw.to.province };
    }
  }
}

export function resolveOrder(raw: RawOrder, ctx: ResolveContext): Resolved {
  try {
    return { ok: true, order: build(raw, ctx) };
  } catch (e) {
    if (e instanceof Reject) return { ok: false, error: e.error };
    throw e;
  }
}

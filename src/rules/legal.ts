// Which orders a unit may be given: the app offers only these, the benchmark and the protocol's
// simulated games draw from them. Legal here means "the adjudicator will not call it illegal";
// whether it succeeds is the adjudicator's business.
import type { GameMap, Loc, Order, Position, Power, ProvinceId, Unit } from './types';
import { STANDARD_MAP, fleetNeighbours, locsOf, provinceOf } from './map';

function armyNeighbours(map: GameMap, province: ProvinceId): readonly ProvinceId[] {
  return map.armyEdges[province] ?? [];
}

/** The seas that hold a fleet (any power's): the only places a convoy route can pass. */
function fleetHeldSeas(map: GameMap, position: Position): ReadonlySet<ProvinceId> {
  const seas = new Set<ProvinceId>();
  for (const u of position.units) if (u.type === 'F' && map.provinces[u.loc]?.kind === 'sea') seas.add(u.loc);
  return seas;
}

/** Provinces an army at `from` could reach through seas that hold fleets (any power's). */
export function convoyDestinations(map: GameMap, position: Position, from: ProvinceId, via?: ProvinceId): ProvinceId[] {
  return destinationsThrough(map, fleetHeldSeas(map, position), from, via);
}

function destinationsThrough(map: GameMap, held: ReadonlySet<ProvinceId>, from: ProvinceId, via?: ProvinceId): ProvinceId[] {
  const fleetSea = (p: ProvinceId): boolean => held.has(p);
  const seen = new Set<ProvinceId>();
  const queue: ProvinceId[] = [];
  for (const loc of fleetNeighboursOfProvince(map, from)) {
    const p = provinceOf(loc);
    if (fleetSea(p) && !seen.has(p)) {
      seen.add(p);
      queue.push(p);
    }
  }
  const out = new Set<ProvinceId>();
  for (let i = 0; i < queue.length; i++) {
    const sea = queue[i]!;
    for (const loc of fleetNeighbours(map, sea)) {
      const p = provinceOf(loc);
      const kind = map.provinces[p]?.kind;
      if (kind === 'sea') {
        if (fleetSea(p) && !seen.has(p)) {
          seen.add(p);
          queue.push(p);
        }
      } else if (kind === 'coast' && p !== from && (via === undefined || pathUses(map, held, from, p, via))) {
        out.add(p);
      }
    }
  }
  return [...out].sort();
}

/** Every fleet location adjacent to any coast of `province` (armies board convoys from the province). */
function fleetNeighboursOfProvince(map: GameMap, province: ProvinceId): Loc[] {
  const out = new Set<Loc>();
  for (const loc of locsOf(map, province)) for (const n of fleetNeighbours(map, loc)) out.add(n);
  return [...out];
}

/** Is there a chain of fleet-held seas from `from` to `to` that passes through the sea `via`? */
function pathUses(map: GameMap, held: ReadonlySet<ProvinceId>, from: ProvinceId, to: ProvinceId, via: ProvinceId): boolean {
  const fleetSea = (p: ProvinceId): boolean => held.has(p);
  // from -> ... -> via and via -> ... -> to, each over fleet-held seas.
  const reach = (start: ProvinceId, goal: (sea: ProvinceId) => boolean): boolean => {
    const seen = new Set<ProvinceId>();
    const queue = fleetNeighboursOfProvince(map, start).map(provinceOf).filter(fleetSea);
    for (const q of queue) seen.add(q);
    for (let i = 0; i < queue.length; i++) {
      const sea = queue[i]!;
      if (goal(sea)) return true;
      for (const l of fleetNeighbours(map, sea)) {
        const p = provinceOf(l);
        if (fleetSea(p) && !seen.has(p)) {
          seen.add(p);
          queue.push(p);
        }
      }
    }
    return false;
  };
  return fleetSea(via) && reach(from, (s) => s === via) && reach(to, (s) => s === via);
}

/** Provinces (with the move's target loc) a unit can move to without a convoy. */
function directMoves(map: GameMap, unit: Unit): Loc[] {
  if (unit.type === 'A') {
    return armyNeighbours(map, provinceOf(unit.loc)).filter((p) => map.provinces[p]?.kind !== 'sea' && map.provinces[p]?.kind !== 'impassable');
  }
  return [...fleetNeighbours(map, unit.loc)];
}

/** Provinces a unit could support into: where it could move itself, ignoring coasts and convoys. */
function supportReach(map: GameMap, unit: Unit): Set<ProvinceId> {
  return new Set(directMoves(map, unit).map(provinceOf));
}

/** Every legal movement-phase order for the unit at `loc`, sorted for determinism. */
export function legalOrdersForUnit(position: Position, loc: Loc, map: GameMap = STANDARD_MAP): Order[] {
  if (position.phase.kind === 'retreat') {
    const d = position.dislodged.find((x) => x.unit.loc === loc);
    if (!d) return [];
    const ref = { type: d.unit.type, loc: d.unit.loc };
    return [
      ...d.retreats.map((to): Order => ({ kind: 'retreat', power: d.unit.power, unit: ref, to })),
      { kind: 'disband', power: d.unit.power, unit: ref },
    ];
  }
  const unit = position.units.find((u) => u.loc === loc);
  if (!unit || position.phase.kind !== 'movement') return [];
  const power = unit.power;
  const ref = { type: unit.type, loc: unit.loc };
  const out: Order[] = [{ kind: 'hold', power, unit: ref }];
  const origin = provinceOf(unit.loc);
  const held = fleetHeldSeas(map, position);

  const direct = directMoves(map, unit);
  for (const to of direct) out.push({ kind: 'move', power, unit: ref, to });
  if (unit.type === 'A') {
    const directSet = new Set(direct);
    for (const to of destinationsThrough(map, held, origin)) {
      out.push(directSet.has(to) ? { kind: 'move', power, unit: ref, to, viaConvoy: true } : { kind: 'move', power, unit: ref, to });
    }
  }

  const reach = supportReach(map, unit);
  for (const other of position.units) {
    if (other.loc === unit.loc) continue;
    const otherProvince = provinceOf(other.loc);
    const supported = { type: other.type, loc: other.loc };
    if (reach.has(otherProvince)) out.push({ kind: 'support', power, unit: ref, supported });
    const targets = new Set(directMoves(map, other).map(provinceOf));
    if (other.type === 'A') for (const p of destinationsThrough(map, held, otherProvince)) targets.add(p);
    for (const to of [...targets].sort()) {
      if (to !== origin && reach.has(to)) out.push({ kind: 'support', power, unit: ref, supported, to });
    }
  }

  if (unit.type === 'F' && map.provinces[origin]?.kind === 'sea') {
    for (const army of position.units) {
      if (army.type !== 'A') continue;
      const from = provinceOf(army.loc);
      for (const to of destinationsThrough(map, held, from, origin)) {
        out.push({ kind: 'convoy', power, unit: ref, army: from, to });
      }
    }
  }
  return out;
}

/** Builds a power may order now (one per free owned home centre and unit type/coast), or removals. */
export function adjustmentOrders(position: Position, power: Power, map: GameMap = STANDARD_MAP): { builds: Order[]; removals: Order[]; delta: number } {
  const owned = Object.values(position.centres).filter((p) => p === power).length;
  const units = position.units.filter((u) => u.power === power);
  const occupied = new Set(position.units.map((u) => provinceOf(u.loc)));
  const free = Object.values(map.provinces)
    .filter((p) => p.home === power && position.centres[p.id] === power && !occupied.has(p.id))
    .map((p) => p.id);
  // Builds are limited by free home centres; removals are not limited by anything.
  const delta = owned > units.length ? Math.min(owned - units.length, free.length) : owned - units.length;
  const builds: Order[] = [];
  if (owned > units.length) {
    for (const h of [...free].sort()) {
      const kind = map.provinces[h]?.kind;
      if (kind === 'land' || kind === 'coast') builds.push({ kind: 'build', power, unit: { type: 'A', loc: h } });
      if (kind === 'coast') for (const loc of locsOf(map, h).filter((l) => l in map.fleetEdges)) builds.push({ kind: 'build', power, unit: { type: 'F', loc } });
    }
  }
  const removals: Order[] = owned < units.length ? units.map((u) => ({ kind: 'remove', power, unit: { type: u.type, loc: u.loc } })) : [];
  return { builds, removals, delta };
}

/**
 * A complete random order set for one power in the current phase, drawn from the legal orders.
 * `pick(n)` must return an integer in [0, n): randomness comes in from the caller, so the engine
 * stays pure and a seeded generator replays the same game.
 */
export function randomOrders(position: Position, power: Power, pick: (n: number) => number, map: GameMap = STANDARD_MAP): Order[] {
  const choose = <T,>(xs: readonly T[]): T | undefined => (xs.length === 0 ? undefined : xs[Math.min(xs.length - 1, Math.max(0, pick(xs.length)))]);
  if (position.phase.kind === 'retreat') {
    return position.dislodged.filter((d) => d.unit.power === power).flatMap((d) => {
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
  return position.units.filter((u) => u.power === power).map((u) => {
    const all = legalOrdersForUnit(position, u.loc, map);
    const byKind = (k: Order['kind']) => all.filter((o) => o.kind === k);
    const roll = pick(10);
    const want = roll < 5 ? byKind('move') : roll < 8 ? byKind('support') : roll < 9 ? byKind('convoy') : byKind('hold');
    return choose(want.length > 0 ? want : all) ?? { kind: 'hold', power, unit: { type: u.type, loc: u.loc } };
  });
}

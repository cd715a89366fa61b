// Random positions on any map, candidate orders of every shape for a unit, and what "the same
// order" means once the adjudicator has read it. Used by the legal-order property tests.
import {
  POWERS,
  coastOf,
  fleetCoastsReachable,
  locsOf,
  provinceOf,
  type GameMap,
  type Loc,
  type Order,
  type Phase,
  type Position,
  type Power,
  type Unit,
  type UnitRef,
} from '../../../src/rules';

export type Pick = (n: number) => number;

export const oneOf = <T>(pick: Pick, xs: readonly T[]): T => xs[pick(xs.length)]!;

const memo = new WeakMap<GameMap, Map<string, Loc[]>>();
function remembered(map: GameMap, k: string, make: () => Loc[]): Loc[] {
  let m = memo.get(map);
  if (!m) memo.set(map, (m = new Map()));
  let v = m.get(k);
  if (!v) m.set(k, (v = make()));
  return v;
}

/** Every place an order may name on the map: each province (Switzerland too) and each coast. */
export function placesOf(map: GameMap): Loc[] {
  return remembered(map, '', () =>
    Object.keys(map.provinces)
      .sort()
      .flatMap((id) => [id, ...(map.provinces[id]!.coasts ?? []).map((c) => `${id}/${c}`)]),
  );
}

/** Places within two steps of `loc`, by army or fleet: where most legal orders go. */
export function nearby(map: GameMap, loc: Loc): Loc[] {
  return remembered(map, loc, () => nearbyNow(map, loc));
}

function nearbyNow(map: GameMap, loc: Loc): Loc[] {
  const step = (l: Loc): Loc[] => {
    const p = provinceOf(l);
    return [...(map.armyEdges[p] ?? []), ...locsOf(map, p).flatMap((x) => map.fleetEdges[x] ?? [])];
  };
  const one = step(loc);
  const all = new Set([...one, ...one.flatMap(step)]);
  for (const l of [...all]) for (const x of locsOf(map, provinceOf(l))) all.add(x);
  return [...all].sort();
}

/** A random position: each province holds a unit with probability `density`, of a random power
 *  and type (a fleet on a random coast of a split-coast province). Italy's provinces of a map
 *  that closes them hold units too (Italy's own, in the two-player game). */
export function randomPosition(pick: Pick, map: GameMap, phase: Phase, density: number): Position {
  const units: Unit[] = [];
  for (const id of Object.keys(map.provinces).sort()) {
    const p = map.provinces[id]!;
    if (p.kind === 'impassable' || pick(1000) >= density * 1000) continue;
    const type = p.kind === 'sea' ? 'F' : p.kind === 'land' ? 'A' : pick(2) === 0 ? 'A' : 'F';
    const loc = type === 'F' && p.coasts && p.coasts.length > 0 ? `${id}/${oneOf(pick, p.coasts)}` : id;
    units.push({ type, power: oneOf(pick, POWERS), loc });
  }
  units.sort((a, b) => (a.loc < b.loc ? -1 : 1));
  const centres: Partial<Record<string, Power>> = {};
  for (const id of Object.keys(map.provinces).sort()) {
    if (map.provinces[id]!.supplyCentre && pick(4) !== 0) centres[id] = oneOf(pick, POWERS);
  }
  return { phase, units, centres, dislodged: [] };
}

const refOf = (u: Unit): UnitRef => ({ type: u.type, loc: u.loc });

/** A unit named as it stands, or (a fleet on a split coast) by its province only. */
function nameOf(pick: Pick, u: Unit): UnitRef {
  return u.loc.includes('/') && pick(3) === 0 ? { type: u.type, loc: provinceOf(u.loc) } : refOf(u);
}

/**
 * `count` movement orders for `unit` of every shape: holds; moves to neighbours, to places two
 * steps away and anywhere on the map, by coast or province, with and without "via convoy";
 * supports to hold and to move of every other unit, to anywhere; convoys of every other unit to
 * anywhere. Supports and convoys name units that are there (naming an empty province is legal
 * and useless, and the list leaves it out).
 */
export function movementCandidates(pick: Pick, map: GameMap, position: Position, unit: Unit, count: number): Order[] {
  const all = placesOf(map);
  const others = position.units.filter((u) => u !== unit);
  const around = new Set(nearby(map, unit.loc).map(provinceOf));
  const close = others.filter((u) => around.has(provinceOf(u.loc)));
  // Another unit, usually a close one: supports and convoys of far units are rarely legal.
  const other = (): Unit => (close.length > 0 && pick(3) !== 0 ? oneOf(pick, close) : oneOf(pick, others));
  const place = (around: Loc): Loc => {
    const near = nearby(map, around);
    return pick(3) === 0 || near.length === 0 ? oneOf(pick, all) : oneOf(pick, near);
  };
  const power = unit.power;
  const out: Order[] = [];
  for (let i = 0; i < count; i++) {
    const shape = pick(10);
    const me = nameOf(pick, unit);
    if (shape === 0 || others.length === 0) out.push({ kind: 'hold', power, unit: me });
    else if (shape <= 3) {
      const to = place(unit.loc);
      out.push(pick(3) === 0 ? { kind: 'move', power, unit: me, to, viaConvoy: true } : { kind: 'move', power, unit: me, to });
    } else if (shape <= 7) {
      const them = other();
      const supported = nameOf(pick, them);
      if (pick(4) === 0) out.push({ kind: 'support', power, unit: me, supported });
      else out.push({ kind: 'support', power, unit: me, supported, to: place(pick(2) === 0 ? them.loc : unit.loc) });
    } else {
      const them = other();
      out.push({ kind: 'convoy', power, unit: me, army: provinceOf(them.loc), to: place(pick(2) === 0 ? them.loc : unit.loc) });
    }
  }
  return out;
}

const unitKey = (u: UnitRef): string => `${u.type} ${u.loc}`;

/** An order as a string, field order aside. */
export function key(o: Order): string {
  switch (o.kind) {
    case 'waive':
      return `${o.power} waive`;
    case 'hold':
    case 'disband':
    case 'build':
    case 'remove':
      return `${o.power} ${unitKey(o.unit)} ${o.kind}`;
    case 'move':
      return `${o.power} ${unitKey(o.unit)} - ${o.to}${o.viaConvoy === true ? ' via convoy' : ''}`;
    case 'retreat':
      return `${o.power} ${unitKey(o.unit)} R ${o.to}`;
    case 'support':
      return `${o.power} ${unitKey(o.unit)} S ${unitKey(o.supported)}${o.to === undefined ? '' : ` - ${o.to}`}`;
    case 'convoy':
      return `${o.power} ${unitKey(o.unit)} C A ${o.army} - ${o.to}`;
  }
}

/**
 * The order the adjudicator reads from `o`, written one way: units as they stand; an army's
 * destination, a support's and a convoy's as provinces; a fleet's destination on its coast when
 * it can reach only one; "via convoy" only to a neighbour (elsewhere a convoy is the only way).
 * In a retreat phase a move is a retreat and a removal a disband; in adjustments a disband is a
 * removal and an army's build ignores a coast. (The rules the adjudicator states for poorly
 * written orders: DATC 4.B.1-4.B.6, seed 002.)
 */
export function canonical(o: Order, position: Position, map: GameMap): Order {
  const standing = (loc: Loc): Unit | undefined => {
    const p = provinceOf(loc);
    const list = position.phase.kind === 'retreat' ? position.dislodged.map((d) => d.unit) : position.units;
    return list.find((u) => provinceOf(u.loc) === p);
  };
  const ref = (r: UnitRef): UnitRef => {
    const u = standing(r.loc);
    return u ? refOf(u) : r;
  };
  const split = (loc: Loc): boolean => (map.provinces[provinceOf(loc)]?.coasts ?? []).length > 0;
  switch (o.kind) {
    case 'hold':
      return { kind: 'hold', power: o.power, unit: ref(o.unit) };
    case 'move':
    case 'retreat': {
      const unit = ref(o.unit);
      const p = provinceOf(o.to);
      let to: Loc = p;
      if (unit.type === 'F' && split(o.to)) {
        if (coastOf(o.to)) to = o.to;
        else if (position.phase.kind === 'retreat') {
          const open = position.dislodged.find((d) => d.unit.loc === unit.loc)?.retreats.filter((l) => provinceOf(l) === p) ?? [];
          to = open.length === 1 ? open[0]! : o.to;
        } else {
          const reach = fleetCoastsReachable(map, unit.loc, p);
          to = reach.length === 1 ? reach[0]! : o.to;
        }
      }
      if (position.phase.kind === 'retreat') return { kind: 'retreat', power: o.power, unit, to };
      const neighbour = unit.type === 'A' && (map.armyEdges[provinceOf(unit.loc)] ?? []).includes(p);
      return o.kind === 'move' && o.viaConvoy === true && neighbour
        ? { kind: 'move', power: o.power, unit, to, viaConvoy: true }
        : { kind: 'move', power: o.power, unit, to };
    }
    case 'support': {
      const base = { kind: 'support' as const, power: o.power, unit: ref(o.unit), supported: ref(o.supported) };
      return o.to === undefined ? base : { ...base, to: provinceOf(o.to) };
    }
    case 'convoy':
      return { kind: 'convoy', power: o.power, unit: ref(o.unit), army: provinceOf(o.army), to: provinceOf(o.to) };
    case 'disband':
    case 'remove':
      return position.phase.kind === 'adjustment'
        ? { kind: 'remove', power: o.power, unit: ref(o.unit) }
        : { kind: 'disband', power: o.power, unit: ref(o.unit) };
    case 'build':
      return o.unit.type === 'A' || !split(o.unit.loc) ? { kind: 'build', power: o.power, unit: { type: o.unit.type, loc: provinceOf(o.unit.loc) } } : o;
    case 'waive':
      return o;
  }
}

/**
 * Orders that dislodge some units: up to `count` times, an army or fleet moves into a province
 * held by another power's unit (not of `spare`) with the support of a third unit, both taken from
 * the legal lists. Everyone else holds.
 */
export function attackOrders(pick: Pick, position: Position, legal: ReadonlyMap<Loc, readonly Order[]>, count: number, spare: ReadonlySet<Power>): Order[] {
  const holder = new Map(position.units.map((u) => [provinceOf(u.loc), u] as const));
  const used = new Set<Loc>();
  const orders: Order[] = [];
  const start = pick(Math.max(1, position.units.length));
  for (let k = 0; k < position.units.length && orders.length < 2 * count; k++) {
    const attacker = position.units[(start + k) % position.units.length]!;
    if (used.has(attacker.loc)) continue;
    for (const move of legal.get(attacker.loc) ?? []) {
      if (move.kind !== 'move') continue;
      const target = provinceOf(move.to);
      const victim = holder.get(target);
      if (!victim || victim.power === attacker.power || spare.has(victim.power) || used.has(victim.loc)) continue;
      const helper = position.units.find(
        (h) =>
          !used.has(h.loc) &&
          h !== attacker &&
          h !== victim &&
          (legal.get(h.loc) ?? []).some((o) => o.kind === 'support' && o.supported.loc === attacker.loc && o.to === target),
      );
      if (!helper) continue;
      const support = legal.get(helper.loc)!.find((o) => o.kind === 'support' && o.supported.loc === attacker.loc && o.to === target)!;
      orders.push(move, support);
      for (const u of [attacker, victim, helper]) used.add(u.loc);
      break;
    }
  }
  return orders;
}

/** Every movement order for `unit` naming units where they stand: hold, a move to every place
 *  with and without "via convoy", a support of every other unit to hold and to every place, a
 *  convoy of every other unit to every place. */
export function everyMovementOrder(map: GameMap, position: Position, unit: Unit): Order[] {
  const power = unit.power;
  const me = refOf(unit);
  const all = placesOf(map);
  const out: Order[] = [{ kind: 'hold', power, unit: me }];
  for (const to of all) out.push({ kind: 'move', power, unit: me, to }, { kind: 'move', power, unit: me, to, viaConvoy: true });
  for (const other of position.units) {
    if (other === unit) continue;
    const supported = refOf(other);
    out.push({ kind: 'support', power, unit: me, supported });
    for (const to of all) {
      out.push({ kind: 'support', power, unit: me, supported, to });
      out.push({ kind: 'convoy', power, unit: me, army: provinceOf(other.loc), to });
    }
  }
  return out;
}

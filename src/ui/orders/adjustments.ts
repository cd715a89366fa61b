// Winter for the screens: how many builds or removals each power has, where it may build, what is
// still open given the orders drafted, and why a tap did nothing. Every number comes from the
// rules engine's adjustmentOrders; nothing here decides a rule. Pure (tests/ui/adjustments.test.ts).
import { POWERS, STANDARD_MAP, adjustmentOrders, provinceOf } from '../../rules';
import type { GameMap, Loc, Order, Position, Power, ProvinceId } from '../../rules';

export interface Adjustment {
  readonly power: Power;
  /** Builds (> 0) or removals (< 0) the power owes. */
  readonly delta: number;
  /** Where it may build: its free home centres (empty when it removes). */
  readonly free: readonly ProvinceId[];
  /** Builds or removals already in the draft. */
  readonly drafted: number;
  /** Builds or removals still open. */
  readonly room: number;
}

const isAdjustment = (o: Order): boolean => o.kind === 'build' || o.kind === 'remove';
const at = (o: Order): ProvinceId => (o.kind === 'waive' ? '' : provinceOf(o.unit.loc));

export function adjustmentOf(position: Position, power: Power, draft: readonly Order[] = [], map: GameMap = STANDARD_MAP): Adjustment {
  const { builds, delta } = adjustmentOrders(position, power, map);
  const free = delta > 0 ? [...new Set(builds.map(at))].sort() : [];
  const drafted = draft.filter((o) => o.power === power && isAdjustment(o)).length;
  return { power, delta, free, drafted, room: Math.max(0, Math.abs(delta) - drafted) };
}

/** Every power of `powers` that builds or removes this winter, in the rulebook's order of powers. */
export function adjustments(position: Position, powers: readonly Power[] = POWERS, draft: readonly Order[] = [], map: GameMap = STANDARD_MAP): Adjustment[] {
  if (position.phase.kind !== 'adjustment') return [];
  return POWERS.filter((p) => powers.includes(p))
    .map((p) => adjustmentOf(position, p, draft, map))
    .filter((a) => a.delta !== 0);
}

/** Centres where `powers` may still build (to light them on the map): free, not yet drafted, builds left. */
export function buildSites(position: Position, powers: readonly Power[], draft: readonly Order[], map: GameMap = STANDARD_MAP): ProvinceId[] {
  const drafted = new Set(draft.filter(isAdjustment).map(at));
  return adjustments(position, powers, draft, map)
    .filter((a) => a.delta > 0 && a.room > 0)
    .flatMap((a) => a.free.filter((p) => !drafted.has(p)))
    .sort();
}

export type AdjustmentNotice =
  /** A free home centre, but every build is already drafted elsewhere. */
  | { readonly kind: 'no-more-builds'; readonly power: Power; readonly delta: number; readonly at: ProvinceId }
  /** Builds are owed, but not here. */
  | { readonly kind: 'not-a-build-site'; readonly power: Power; readonly free: readonly ProvinceId[] }
  /** A unit of the power, but every removal is already drafted. */
  | { readonly kind: 'no-more-removals'; readonly power: Power; readonly delta: number }
  /** Removals are owed: a unit of the power must be tapped. */
  | { readonly kind: 'not-a-removal'; readonly power: Power };

/** Why a tap on `tapped` in a winter phase did nothing, or null when it did something or needs no word. */
export function adjustmentNotice(
  position: Position,
  powers: readonly Power[],
  draft: readonly Order[],
  tapped: Loc,
  map: GameMap = STANDARD_MAP,
): AdjustmentNotice | null {
  const province = provinceOf(tapped);
  const owed = adjustments(position, powers, draft, map);
  const draftedHere = draft.some((o) => isAdjustment(o) && at(o) === province);
  if (draftedHere) return null;
  const unitHere = position.units.find((u) => provinceOf(u.loc) === province);
  for (const a of owed) {
    if (a.delta > 0 && a.room === 0 && a.free.includes(province)) return { kind: 'no-more-builds', power: a.power, delta: a.delta, at: province };
    if (a.delta < 0 && a.room === 0 && unitHere?.power === a.power) return { kind: 'no-more-removals', power: a.power, delta: a.delta };
  }
  const building = owed.find((a) => a.delta > 0 && a.room > 0);
  if (building && !building.free.includes(province)) return { kind: 'not-a-build-site', power: building.power, free: building.free };
  const removing = owed.find((a) => a.delta < 0 && a.room > 0);
  if (removing && unitHere?.power !== removing.power) return { kind: 'not-a-removal', power: removing.power };
  return null;
}

// Supply-centre bookkeeping: who owns what, what each power may build or must remove, who is out.
import { STANDARD_MAP, provinceOf } from '../map';
import { POWERS } from '../types';
import type { GameMap, Position, Power, ProvinceId, Unit } from '../types';

type Centres = Readonly<Partial<Record<ProvinceId, Power>>>;

/** A centres record with its keys in sorted order, so equal ownership serialises to equal bytes. */
export function sortCentres(centres: Centres): Partial<Record<ProvinceId, Power>> {
  // Positions are immutable and almost always already sorted: checking is far cheaper than rebuilding.
  if (isSortedRecord(centres)) return centres as Partial<Record<ProvinceId, Power>>;
  const out: Partial<Record<ProvinceId, Power>> = {};
  for (const id of Object.keys(centres).sort()) {
    const owner = centres[id];
    if (owner !== undefined) out[id] = owner;
  }
  return out;
}

function isSortedRecord(centres: Centres): boolean {
  let previous = '';
  for (const id in centres) {
    if (id <= previous || centres[id] === undefined) return false;
    previous = id;
  }
  return true;
}

/** Ownership after a Fall turn: a centre passes to the power with a unit in it; an empty
 *  centre keeps its owner (seed 002, "El control de los Centros de Suministro"). */
export function updateCentres(centres: Centres, units: readonly Unit[], map: GameMap): Partial<Record<ProvinceId, Power>> {
  const next: Partial<Record<ProvinceId, Power>> = { ...centres };
  for (const unit of units) {
    const id = provinceOf(unit.loc);
    if (map.provinces[id]?.supplyCentre) next[id] = unit.power;
  }
  return sortCentres(next);
}

function zeroes(): Record<Power, number> {
  const out = {} as Record<Power, number>;
  for (const power of POWERS) out[power] = 0;
  return out;
}

export function centreCounts(position: Pick<Position, 'centres'>): Record<Power, number> {
  const counts = zeroes();
  for (const owner of Object.values(position.centres)) if (owner !== undefined) counts[owner] += 1;
  return counts;
}

export function unitCounts(position: Pick<Position, 'units'>): Record<Power, number> {
  const counts = zeroes();
  for (const unit of position.units) counts[unit.power] += 1;
  return counts;
}

/** Home centres of `power` that it owns and nobody stands in: where it may build now. */
export function freeHomeCentres(position: Pick<Position, 'units' | 'centres'>, power: Power, map: GameMap): ProvinceId[] {
  const occupied = new Set(position.units.map((u) => provinceOf(u.loc)));
  return Object.keys(map.provinces)
    .sort()
    .filter((id) => {
      const province = map.provinces[id];
      return province?.supplyCentre === true && province.home === power && position.centres[id] === power && !occupied.has(id);
    });
}

/**
 * Per power: builds it may make (positive; centres beyond units, capped by free owned home
 * centres) or removals it must make (negative). Zero for everyone else.
 */
export function adjustmentsNeeded(position: Pick<Position, 'units' | 'centres'>, map: GameMap = STANDARD_MAP): Record<Power, number> {
  const centres = centreCounts(position);
  const units = unitCounts(position);
  const out = zeroes();
  for (const power of POWERS) {
    const surplus = centres[power] - units[power];
    if (surplus < 0) out[power] = surplus;
    else if (surplus > 0) out[power] = Math.min(surplus, freeHomeCentres(position, power, map).length);
  }
  return out;
}

/** Powers with neither units nor centres: out of the game (sorted). */
export function eliminatedPowers(position: Pick<Position, 'units' | 'centres'>): Power[] {
  const centres = centreCounts(position);
  const units = unitCounts(position);
  return POWERS.filter((p) => centres[p] === 0 && units[p] === 0);
}

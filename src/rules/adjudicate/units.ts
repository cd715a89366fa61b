// Units are kept sorted by loc in every Position, so equal positions serialise to equal bytes.
import type { Unit } from '../types';

export function sortUnits(units: readonly Unit[]): readonly Unit[] {
  for (let i = 1; i < units.length; i++) {
    if (units[i - 1]!.loc >= units[i]!.loc) return [...units].sort(byLoc);
  }
  return units; // already sorted; positions are never mutated
}

function byLoc(a: Unit, b: Unit): number {
  return a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0;
}

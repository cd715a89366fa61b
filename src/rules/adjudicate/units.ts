// Units are kept sorted by loc in every Position, so equal positions serialise to equal bytes.
import type { Unit } from '../types';

export function sortUnits(units: readonly Unit[]): Unit[] {
  return [...units].sort((a, b) => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0));
}

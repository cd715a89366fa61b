// The fire tables (12.2.7-12.2.8): from a side's combat strength, its table, the column shifts and
// a modified die roll, the loss number it inflicts.
import { FIRE_TABLES, type FireColumn } from './data';

/** The index of the column a combat strength fires on: the greatest column not above it. */
export function columnIndex(table: readonly FireColumn[], strength: number): number {
  let index = 0;
  table.forEach((col, i) => {
    if (col.from <= strength) index = i;
  });
  return index;
}

/** The loss number inflicted: `shiftLeft` columns left (negative: right), clamped to the table's
 *  ends (12.2.7); the die roll plus its modifier is read as 1 to 6 (12.2.8). */
export function lossNumber(table: 'corps' | 'army', strength: number, shiftLeft: number, roll: number, drm = 0): number {
  if (!Number.isInteger(roll) || roll < 1 || roll > 6) throw new Error(`a die roll is 1 to 6, not ${roll}`);
  const columns = FIRE_TABLES[table];
  const col = Math.min(columns.length - 1, Math.max(0, columnIndex(columns, strength) - shiftLeft));
  const modified = Math.min(6, Math.max(1, roll + drm));
  return columns[col]!.losses[modified - 1]!;
}

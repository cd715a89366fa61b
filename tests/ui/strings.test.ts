// The outer screens' and order entry's string tables (src/ui/lobby/strings.ts,
// src/ui/orders/strings.ts) have every key in both languages, none empty, and the map's labels
// are the player's language (Switzerland is "Sui" on the Spanish map, not the id "swi").
import { describe, expect, it } from 'vitest';
import { STANDARD_MAP } from '../../src/rules';
import { APP_STRINGS } from '../../src/ui/lobby/strings';
import { mapLabel } from '../../src/ui/map/Board';
import { ORDER_STRINGS } from '../../src/ui/orders/strings';

/** Every leaf of a table; functions are called with sample arguments. */
function leaves(value: unknown, path = ''): [string, unknown][] {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value === 'function') return [[path, (value as (...a: unknown[]) => unknown)(2, 'X, Y', 'Z')]];
  return Object.entries(value as object).flatMap(([k, v]) => leaves(v, `${path}.${k}`));
}

describe('string tables', () => {
  for (const [name, table] of [
    ['APP_STRINGS', APP_STRINGS],
    ['ORDER_STRINGS', ORDER_STRINGS],
  ] as const) {
    it(`${name} has every key in both languages, none empty`, () => {
      const es = new Map(leaves(table.es));
      const en = new Map(leaves(table.en));
      expect([...en.keys()]).toEqual([...es.keys()]);
      for (const [k, v] of [...es, ...en]) expect(typeof v === 'string' && v.trim().length > 0 && !/undefined|NaN/.test(v), `${name}${k}`).toBe(true);
    });
  }

  it('labels every passable and impassable province in the map language', () => {
    expect(mapLabel('swi', 'es')).toBe('Sui');
    expect(mapLabel('swi', 'en')).toBe('Swi');
    for (const id of Object.keys(STANDARD_MAP.provinces)) {
      for (const lang of ['es', 'en'] as const) expect(mapLabel(id, lang), `${id} ${lang}`).not.toBe(id);
    }
  });
});

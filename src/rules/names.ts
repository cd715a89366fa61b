// Province look-up by name, id or rulebook abbreviation, in Spanish and English.
// The matching itself lives in notation/lookup.ts, shared with the order parser.
import type { Coast, GameMap, ProvinceId } from './types';
import { matchProvince } from './notation/lookup';
import type { Lang, LookupError } from './notation/lookup';

export type { Lang, LookupError } from './notation/lookup';

export type ProvinceLookup = { readonly ok: true; readonly province: ProvinceId; readonly coast?: Coast } | { readonly ok: false; readonly error: LookupError };

/** Finds the province (and coast, if one is named) that `text` designates: case-, accent- and
 *  punctuation-insensitive; ids, names, aliases, abbreviations, unique prefixes of >= 3 letters
 *  and unambiguous misspellings of long names. With `lang`, that language wins a clash between
 *  the two languages' abbreviations; without it such a clash is reported as ambiguous. */
export function lookupProvince(map: GameMap, text: string, lang?: Lang): ProvinceLookup {
  const m = matchProvince(map, text, lang);
  if (!m.ok) return m;
  return m.coast === undefined ? { ok: true, province: m.province } : { ok: true, province: m.province, coast: m.coast };
}

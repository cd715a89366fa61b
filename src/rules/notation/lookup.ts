// Province look-up by any name a player might type. The tiers, tried in order, follow seed 000
// ("the first three or four letters of any name are an unambiguous abbreviation") and seed 002
// ("an order written incorrectly that has only one interpretation must be carried out"):
//   1. exact: id, full name (es/en), alias, rulebook abbreviation (es/en);
//   2. prefix: >= 3 letters starting exactly one province's name;
//   3. misspelling: small edit distance to exactly one province's long name.
// A tier that names several provinces is ambiguous unless the player's language settles it
// (Spanish 'Gal' = Gales/Wales, English 'Gal' = Galicia).
import type { Coast, GameMap, ProvinceId } from '../types';
import { splitCoast } from './coast';
import { compact, editDistance, words } from './text';

export type Lang = 'es' | 'en';
type Source = Lang | 'any';

interface Entry {
  readonly province: ProvinceId;
  readonly lang: Source;
}
interface NameEntry extends Entry {
  readonly key: string;
  /** Words in the name: a misspelling must have as many ('ber lvn' is not 'Berlin'). */
  readonly words: number;
}
interface ProvinceIndex {
  readonly exact: ReadonlyMap<string, readonly Entry[]>;
  /** Full names and aliases, the ones prefixes are measured against, sorted by key: the names a
   *  prefix starts are one run of this list, found by binary search. */
  readonly names: readonly NameEntry[];
  /** The same names that may be misspelt (long enough for an edit), by word count, then key length. */
  readonly fuzzy: ReadonlyMap<number, ReadonlyMap<number, readonly NameEntry[]>>;
}

export type MatchQuality = 'exact' | 'prefix' | 'fuzzy';

export type ProvinceMatch =
  | { readonly ok: true; readonly province: ProvinceId; readonly coast?: Coast; readonly quality: MatchQuality; readonly distance: number }
  | { readonly ok: false; readonly error: LookupError };

export type LookupError =
  | { readonly code: 'unknown-province'; readonly text: string; readonly candidates: readonly ProvinceId[] }
  | { readonly code: 'ambiguous-province'; readonly text: string; readonly candidates: readonly ProvinceId[] }
  /** The province exists but has no such coast ('Mun/nc', 'Spa/ec'). */
  | { readonly code: 'no-such-coast'; readonly text: string; readonly candidates: readonly ProvinceId[]; readonly coast: Coast };

const indexes = new WeakMap<GameMap, ProvinceIndex>();

function buildIndex(map: GameMap): ProvinceIndex {
  const exact = new Map<string, Entry[]>();
  const names: NameEntry[] = [];
  const addExact = (text: string, province: ProvinceId, lang: Source, key = compact(text)): void => {
    if (key.length === 0) return;
    const list = exact.get(key) ?? [];
    if (!list.some((e) => e.province === province && e.lang === lang)) list.push({ province, lang });
    exact.set(key, list);
  };
  for (const id of Object.keys(map.provinces).sort()) {
    const p = map.provinces[id];
    if (!p) continue;
    // Ids are the English short notation, so they count as English when languages clash.
    addExact(id, id, 'en');
    const named: Array<[string, Source]> = [[p.name.en, 'en'], [p.name.es, 'es'], ...(p.aliases ?? []).map((a): [string, Source] => [a, 'any'])];
    for (const [name, lang] of named) {
      const ws = words(name);
      const key = ws.join('');
      addExact(name, id, lang, key);
      names.push({ key, province: id, lang, words: ws.length });
    }
    for (const a of p.abbr.en) addExact(a, id, 'en');
    for (const a of p.abbr.es) addExact(a, id, 'es');
  }
  const fuzzy = new Map<number, Map<number, NameEntry[]>>();
  for (const n of names) {
    if (maxEdits(n.key.length) === 0) continue;
    let byLength = fuzzy.get(n.words);
    if (!byLength) fuzzy.set(n.words, (byLength = new Map()));
    const list = byLength.get(n.key.length) ?? [];
    list.push(n);
    byLength.set(n.key.length, list);
  }
  names.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { exact, names, fuzzy };
}

/** The names whose key starts with `prefix`: a run of the sorted list. */
function startingWith(names: readonly NameEntry[], prefix: string): NameEntry[] {
  let lo = 0;
  let hi = names.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (names[mid]!.key < prefix) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < names.length && names[end]!.key.startsWith(prefix)) end++;
  return names.slice(lo, end);
}

function indexOf(map: GameMap): ProvinceIndex {
  let index = indexes.get(map);
  if (!index) indexes.set(map, (index = buildIndex(map)));
  return index;
}

/** Distinct provinces of some entries, sorted. */
function provincesOf(entries: readonly Entry[]): ProvinceId[] {
  return [...new Set(entries.map((e) => e.province))].sort();
}

/** One province if the entries name one, or one once the player's language is preferred. */
function settle(entries: readonly Entry[], lang: Lang | undefined): ProvinceId[] {
  const all = provincesOf(entries);
  if (all.length <= 1 || !lang) return all;
  const own = provincesOf(entries.filter((e) => e.lang === lang || e.lang === 'any'));
  return own.length === 1 ? own : all;
}

/** Longest name allowed to differ by `d` edits: short names are too close to each other. */
/** The most edits maxEdits ever allows (names of 9 letters or more). */
const MAX_EDITS = 2;

function maxEdits(nameLength: number): number {
  if (nameLength >= 9) return MAX_EDITS;
  if (nameLength >= 6) return 1;
  return 0;
}

/** Whether one of the province's names is written with a dash ('Mid-Atlantic Ocean'). */
export function hyphenated(map: GameMap, province: ProvinceId): boolean {
  const p = map.provinces[province];
  return p !== undefined && [p.name.en, p.name.es, ...(p.aliases ?? [])].some((n) => /[-\u2010-\u2015]/.test(n));
}

const memos = new WeakMap<GameMap, Map<string, ProvinceMatch>>();
/** Results are pure functions of their inputs; the cap only bounds memory on endless input. */
const MEMO_LIMIT = 20000;

/** matchProvince, remembered: the parser asks about the same spans over and over. */
export function matchProvince(map: GameMap, text: string, lang?: Lang): ProvinceMatch {
  let memo = memos.get(map);
  if (!memo) memos.set(map, (memo = new Map()));
  const key = `${lang ?? ''}|${text}`;
  const known = memo.get(key);
  if (known) return known;
  if (memo.size >= MEMO_LIMIT) memo.clear();
  const result = computeMatch(map, text, lang);
  memo.set(key, result);
  return result;
}

function computeMatch(map: GameMap, text: string, lang?: Lang): ProvinceMatch {
  const marked = /[/(]/.test(text);
  const split = splitCoast(words(text), marked);
  const key = split.words.join('');
  const shown = text.trim();
  const unknown: ProvinceMatch = { ok: false, error: { code: 'unknown-province', text: shown, candidates: [] } };
  if (key.length === 0) return unknown;
  const index = indexOf(map);

  const found = (province: ProvinceId, quality: MatchQuality, distance: number): ProvinceMatch => {
    const coast = split.coast;
    if (coast === undefined) return { ok: true, province, quality, distance };
    if (!(map.provinces[province]?.coasts ?? []).includes(coast)) {
      return { ok: false, error: { code: 'no-such-coast', text: shown, candidates: [province], coast } };
    }
    return { ok: true, province, coast, quality, distance };
  };
  const decide = (entries: readonly Entry[], quality: MatchQuality, distance: number): ProvinceMatch | undefined => {
    if (entries.length === 0) return undefined;
    const settled = settle(entries, lang);
    if (settled.length === 1) return found(settled[0]!, quality, distance);
    return { ok: false, error: { code: 'ambiguous-province', text: shown, candidates: settled } };
  };

  const exact = decide(index.exact.get(key) ?? [], 'exact', 0);
  if (exact) return exact;
  if (key.length >= 3) {
    const prefix = decide(startingWith(index.names, key), 'prefix', 0);
    if (prefix) return prefix;
  }
  if (key.length >= 5) {
    let best = Number.POSITIVE_INFINITY;
    const close: NameEntry[] = [];
    // Only names within MAX_EDITS letters of the key's length can be within that many edits of it.
    const byLength = index.fuzzy.get(split.words.length);
    for (let length = key.length - MAX_EDITS; byLength && length <= key.length + MAX_EDITS; length++) {
      for (const n of byLength.get(length) ?? []) {
        const cap = maxEdits(n.key.length);
        const d = editDistance(key, n.key, cap);
        if (d <= cap) {
          close.push(n);
          best = Math.min(best, d);
        }
      }
    }
    const fuzzy = decide(close, 'fuzzy', best);
    if (fuzzy) return fuzzy;
  }
  return unknown;
}

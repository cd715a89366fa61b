// A small backtracking parser over tokens. Every way of reading the text is explored and
// scored (a lower cost means a more literal reading: exact names beat prefixes, prefixes beat
// misspellings, fewer filler words beat more), because order text is short and the notations
// overlap: 'A' is the English army and the Spanish 'apoya', 'Mar' is Marsella and the start of
// 'Mar del Norte', and 'Mid-Atlantic' contains a dash. The caller keeps the cheapest readings.
// Syntax only: what the words mean for the position is decided in resolve.ts.
import type { Coast, GameMap, ProvinceId, UnitType } from '../types';
import type { Lang, LookupError } from './lookup';
import { hyphenated, matchProvince } from './lookup';
import { editDistance } from './text';
import type { Token } from './tokens';
import type { Phrase } from './vocabulary';
import * as V from './vocabulary';

export interface RawLoc {
  readonly province: ProvinceId;
  readonly coast?: Coast;
  /** Set when the text names several provinces and this reading took one of them (only when a
   *  position may settle which: see OrderGrammar's `expand`). */
  readonly ambiguity?: LookupError;
}
export interface RawUnit extends RawLoc {
  readonly type?: UnitType;
}

export type RawOrder =
  | { readonly kind: 'waive' }
  /** A unit and nothing else: seed 002's sample game writes builds and removals so ('E Vie'). */
  | { readonly kind: 'bare'; readonly unit: RawUnit }
  | { readonly kind: 'build'; readonly unit: RawUnit }
  | { readonly kind: 'disband-first'; readonly unit: RawUnit }
  | { readonly kind: 'hold'; readonly unit: RawUnit }
  | { readonly kind: 'move'; readonly unit: RawUnit; readonly to: RawLoc; readonly viaConvoy: boolean }
  | { readonly kind: 'retreat'; readonly unit: RawUnit; readonly to: RawLoc }
  | { readonly kind: 'disband'; readonly unit: RawUnit }
  | { readonly kind: 'support'; readonly unit: RawUnit; readonly supported: RawUnit; readonly to?: RawLoc }
  | { readonly kind: 'convoy'; readonly unit: RawUnit; readonly army: RawUnit; readonly to: RawLoc };

export interface Reading<T> {
  readonly value: T;
  readonly next: number;
  readonly cost: number;
}

/** Why no reading got further; the furthest failure is the one reported. */
export type SyntaxFailure =
  | { readonly kind: 'lookup'; readonly at: number; readonly span: number; readonly error: LookupError }
  | { readonly kind: 'expected'; readonly at: number; readonly what: 'order' | 'verb' | 'province' | 'end' };

const COST_PREFIX = 2;
const COST_FUZZY = 3;
const COST_FILLER = 1;
/** One of the provinces an ambiguous name ('Gal' with no language) may mean. */
const COST_AMBIGUOUS = 4;
/** Shortest order word that may be misspelt. */
const MIN_FUZZY_WORD = 6;
/** Longest province span tried, in tokens ('Mediterráneo occidental costa ...', 'St. Petersburg (north coast)'). */
const MAX_SPAN = 8;

/** Cost of reading the token `norm` as the phrase word `w`: 0 if equal, COST_FUZZY if a long word
 *  is misspelt by one letter, undefined if it is not that word. */
function wordCost(norm: string, w: string): number | undefined {
  if (norm === w) return 0;
  if (w.length < MIN_FUZZY_WORD || editDistance(norm, w, 1) > 1) return undefined;
  return COST_FUZZY;
}

/** Per phrase list, per token: the phrases (by position in the list) whose first word that token
 *  may be, with its cost. Pure, so shared by every parse; bounded like the province look-up's memo. */
const firstWords = new WeakMap<readonly Phrase[], Map<string, ReadonlyArray<readonly [number, number]>>>();
const FIRST_WORDS_LIMIT = 20000;

function phrasesStartingWith(list: readonly Phrase[], norm: string): ReadonlyArray<readonly [number, number]> {
  let byNorm = firstWords.get(list);
  if (!byNorm) firstWords.set(list, (byNorm = new Map()));
  let found = byNorm.get(norm);
  if (found) return found;
  if (byNorm.size >= FIRST_WORDS_LIMIT) byNorm.clear();
  const out: Array<readonly [number, number]> = [];
  list.forEach((p, index) => {
    const cost = p[0] === undefined ? undefined : wordCost(norm, p[0]);
    if (cost !== undefined) out.push([index, cost]);
  });
  byNorm.set(norm, (found = out));
  return found;
}

export class OrderGrammar {
  readonly failures: SyntaxFailure[] = [];
  private readonly locMemo = new Map<number, Reading<RawLoc>[]>();
  private readonly unitMemo = new Map<number, Reading<RawUnit>[]>();
  private readonly phraseMemo = new Map<readonly Phrase[], Map<number, Reading<null>[]>>();

  constructor(
    private readonly text: string,
    private readonly tokens: readonly Token[],
    private readonly map: GameMap,
    private readonly lang: Lang | undefined,
    /** Read an ambiguous name as each province it may mean, for the position to settle. */
    private readonly expand = false,
  ) {}

  /** Every complete reading of the text. */
  orders(): Reading<RawOrder>[] {
    const out: Reading<RawOrder>[] = [];
    for (const r of this.order(0)) {
      if (r.next === this.tokens.length) out.push(r);
      else this.failures.push({ kind: 'expected', at: r.next, what: 'end' });
    }
    return out;
  }

  private order(i: number): Reading<RawOrder>[] {
    const out: Reading<RawOrder>[] = [];
    for (const w of this.phrase(i, V.WAIVE)) {
      out.push({ value: { kind: 'waive' }, next: w.next, cost: w.cost });
      for (const t of this.phrase(w.next, V.WAIVE_TAIL)) out.push({ value: { kind: 'waive' }, next: t.next, cost: w.cost + t.cost });
    }
    for (const b of this.phrase(i, V.BUILD)) {
      for (const a of this.optional(b.next, V.ARTICLE, COST_FILLER)) {
        for (const u of this.unit(a.next)) {
          out.push({ value: { kind: 'build', unit: u.value }, next: u.next, cost: b.cost + a.cost + u.cost });
        }
      }
    }
    for (const d of this.phrase(i, V.DISBAND_FIRST)) {
      for (const u of this.unit(d.next)) {
        out.push({ value: { kind: 'disband-first', unit: u.value }, next: u.next, cost: d.cost + u.cost });
      }
    }
    for (const u of this.unit(i)) {
      if (u.next === this.tokens.length) out.push({ value: { kind: 'bare', unit: u.value }, next: u.next, cost: u.cost + COST_FILLER });
      for (const t of this.tail(u.value, u.next)) out.push({ value: t.value, next: t.next, cost: u.cost + t.cost });
    }
    if (out.length === 0) this.failures.push({ kind: 'expected', at: i, what: 'order' });
    return out;
  }

  private tail(unit: RawUnit, i: number): Reading<RawOrder>[] {
    const out: Reading<RawOrder>[] = [];
    for (const h of this.phrase(i, V.HOLD)) out.push({ value: { kind: 'hold', unit }, next: h.next, cost: h.cost });
    for (const d of this.phrase(i, V.DISBAND)) out.push({ value: { kind: 'disband', unit }, next: d.next, cost: d.cost });
    for (const m of this.phrase(i, V.MOVE)) {
      for (const to of this.loc(m.next)) {
        out.push({ value: { kind: 'move', unit, to: to.value, viaConvoy: false }, next: to.next, cost: m.cost + to.cost });
        for (const v of this.phrase(to.next, V.VIA_CONVOY)) {
          out.push({ value: { kind: 'move', unit, to: to.value, viaConvoy: true }, next: v.next, cost: m.cost + to.cost + v.cost });
        }
      }
    }
    for (const r of this.phrase(i, V.RETREAT)) {
      for (const to of this.loc(r.next)) out.push({ value: { kind: 'retreat', unit, to: to.value }, next: to.next, cost: r.cost + to.cost });
    }
    for (const s of this.phrase(i, V.SUPPORT)) {
      for (const f of this.fillers(s.next, V.SUPPORT_FILLER)) {
        for (const su of this.unit(f.next)) {
          const base = s.cost + f.cost + su.cost;
          out.push({ value: { kind: 'support', unit, supported: su.value }, next: su.next, cost: base });
          for (const h of this.phrase(su.next, V.HOLD)) {
            out.push({ value: { kind: 'support', unit, supported: su.value }, next: h.next, cost: base + h.cost });
          }
          for (const a of this.phrase(su.next, V.ARROW)) {
            for (const to of this.loc(a.next)) {
              out.push({ value: { kind: 'support', unit, supported: su.value, to: to.value }, next: to.next, cost: base + a.cost + to.cost });
            }
          }
        }
      }
    }
    for (const c of this.phrase(i, V.CONVOY)) {
      for (const f of this.fillers(c.next, V.CONVOY_FILLER)) {
        for (const army of this.unit(f.next)) {
          for (const a of this.phrase(army.next, V.ARROW)) {
            for (const to of this.loc(a.next)) {
              out.push({
                value: { kind: 'convoy', unit, army: army.value, to: to.value },
                next: to.next,
                cost: c.cost + f.cost + army.cost + a.cost + to.cost,
              });
            }
          }
        }
      }
    }
    if (out.length === 0) this.failures.push({ kind: 'expected', at: i, what: 'verb' });
    return out;
  }

  /** [adjective] [type] [adjective] [en/in/at] place. The readings at `i` are the same whatever
   *  asks (an order's subject, a supported unit, a convoyed army), so they are worked out once. */
  private unit(i: number): Reading<RawUnit>[] {
    const memo = this.unitMemo.get(i);
    if (memo) return memo;
    const out: Reading<RawUnit>[] = [];
    this.unitMemo.set(i, out);
    for (const a1 of this.optional(i, V.ADJECTIVE, 0)) {
      const types: Array<Reading<UnitType | undefined>> = [{ value: undefined, next: a1.next, cost: 0 }];
      for (const t of this.phrase(a1.next, V.ARMY)) types.push({ value: 'A', next: t.next, cost: t.cost });
      for (const t of this.phrase(a1.next, V.FLEET)) types.push({ value: 'F', next: t.next, cost: t.cost });
      for (const t of types) {
        for (const a2 of this.optional(t.next, V.ADJECTIVE, 0)) {
          for (const p of this.optional(a2.next, V.UNIT_PREPOSITION, 0)) {
            for (const l of this.loc(p.next)) {
              const value: RawUnit = t.value === undefined ? l.value : { ...l.value, type: t.value };
              out.push({ value, next: l.next, cost: a1.cost + t.cost + a2.cost + p.cost + l.cost });
            }
          }
        }
      }
    }
    return out;
  }

  /** A province, with or without a coast, spanning one or more tokens. */
  private loc(i: number): Reading<RawLoc>[] {
    const memo = this.locMemo.get(i);
    if (memo) return memo;
    const out: Reading<RawLoc>[] = [];
    const first = this.tokens[i];
    if (first && first.kind === 'word') {
      let dashed = false;
      for (let j = i + 1; j <= Math.min(this.tokens.length, i + MAX_SPAN); j++) {
        const last = this.tokens[j - 1]!;
        if (last.kind === 'dash') dashed = true;
        if (last.kind === 'dash' || last.kind === 'open' || last.kind === 'slash') continue;
        const m = matchProvince(this.map, this.text.slice(first.start, last.end), this.lang);
        // A dash inside a name only where the name has one ('Mid-Atlantic'): 'Swe - Den' is a
        // move from Sweden to Denmark, never 'Sweden'.
        if (m.ok && dashed && !hyphenated(this.map, m.province)) continue;
        if (m.ok) {
          const cost = m.quality === 'exact' ? 0 : m.quality === 'prefix' ? COST_PREFIX : COST_FUZZY + 2 * m.distance;
          const value: RawLoc = m.coast === undefined ? { province: m.province } : { province: m.province, coast: m.coast };
          out.push({ value, next: j, cost });
        } else {
          this.failures.push({ kind: 'lookup', at: i, span: j - i, error: m.error });
          if (this.expand && m.error.code === 'ambiguous-province') {
            for (const province of m.error.candidates) out.push({ value: { province, ambiguity: m.error }, next: j, cost: COST_AMBIGUOUS });
          }
        }
      }
    }
    if (out.length === 0) this.failures.push({ kind: 'expected', at: i, what: 'province' });
    this.locMemo.set(i, out);
    return out;
  }

  /** The phrases of a list that the tokens at `i` spell out. Long words may be misspelt by one
   *  letter (seed 003 writes 'Ejerecito'), at a cost. */
  private phrase(i: number, list: readonly Phrase[]): Reading<null>[] {
    let byStart = this.phraseMemo.get(list);
    if (!byStart) this.phraseMemo.set(list, (byStart = new Map()));
    const known = byStart.get(i);
    if (known) return known;
    const out: Reading<null>[] = [];
    byStart.set(i, out);
    const first = this.tokens[i]?.norm;
    if (first === undefined) return out;
    for (const [index, firstCost] of phrasesStartingWith(list, first)) {
      const p = list[index]!;
      let cost = firstCost;
      let fits = true;
      for (let k = 1; k < p.length && fits; k++) {
        const norm = this.tokens[i + k]?.norm;
        const c = norm === undefined ? undefined : wordCost(norm, p[k]!);
        if (c === undefined) fits = false;
        else cost += c;
      }
      if (fits) out.push({ value: null, next: i + p.length, cost });
    }
    return out;
  }

  private optional(i: number, list: readonly Phrase[], cost: number): Reading<null>[] {
    const out: Reading<null>[] = [{ value: null, next: i, cost: 0 }];
    for (const r of this.phrase(i, list)) out.push({ value: null, next: r.next, cost: r.cost + cost });
    return out;
  }

  /** Up to two filler phrases in a row ('apoya movimiento de ejército ...'). */
  private fillers(i: number, list: readonly Phrase[]): Reading<null>[] {
    const out: Reading<null>[] = [];
    for (const a of this.optional(i, list, COST_FILLER)) {
      out.push(a);
      if (a.next > i) for (const b of this.phrase(a.next, list)) out.push({ value: null, next: b.next, cost: a.cost + b.cost + COST_FILLER });
    }
    return out;
  }
}

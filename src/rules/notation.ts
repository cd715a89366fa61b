// Order text in, Order out (and back): the Spanish rulebook notations (seeds 000, 002, 003)
// and the usual English ones, short or in full words. The parser writes down what the player
// wrote; whether the order is legal is the adjudicator's question.
import type { GameMap, Order, PhaseKind, Position, Power, ProvinceId } from './types';
import { POWERS } from './types';
import { STANDARD_MAP } from './map';
import { adjustmentOrders, legalOrdersForUnit } from './legal';
import { describeError } from './notation/errors';
import type { OrderParseError } from './notation/errors';
import { formatOrder } from './notation/format';
import { OrderGrammar } from './notation/grammar';
import type { RawLoc, RawOrder, Reading, SyntaxFailure } from './notation/grammar';
import type { Lang, LookupError } from './notation/lookup';
import { resolveOrder } from './notation/resolve';
import { compact } from './notation/text';
import { tokenize } from './notation/tokens';
import type { Token } from './notation/tokens';
import * as V from './notation/vocabulary';

export type { OrderParseError, OrderParseErrorCode } from './notation/errors';
export { formatLoc, formatOrder, formatUnit } from './notation/format';
export type { OrderStyle } from './notation/format';

export interface ParseContext {
  readonly power: Power;
  readonly phase: PhaseKind;
  /** The player's language: settles names the two languages use differently ('Gal'). */
  readonly lang?: Lang;
  /** With a position the unit type may be omitted, and the coast of a fleet is known. */
  readonly position?: Position;
  /** Defaults to the standard map. */
  readonly map?: GameMap;
}

export type ParseResult = { readonly ok: true; readonly order: Order } | { readonly ok: false; readonly error: OrderParseError };

/** No order needs more words than this; longer text is rejected before parsing. */
const MAX_TOKENS = 40;

// Words that end a province name in an error message ('A Xyz S A Ber' -> 'Xyz').
const STOP_WORDS = new Set([V.HOLD, V.MOVE, V.SUPPORT, V.CONVOY, V.RETREAT, V.DISBAND, V.VIA_CONVOY, V.ARROW, V.ARMY, V.FLEET].flat().map((p) => p[0] ?? ''));

function sameOrder(a: Order, b: Order): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The orders the position's legal-order list holds (all of them if it holds none). */
function offeredOnes(orders: readonly Order[], position: Position, map: GameMap): readonly Order[] {
  const offered = orders.filter((o) => {
    if (o.kind === 'waive') return false;
    if (position.phase.kind === 'adjustment') {
      const { builds, removals } = adjustmentOrders(position, o.power, map);
      return [...builds, ...removals].some((x) => sameOrder(x, o));
    }
    return legalOrdersForUnit(position, o.unit.loc, map).some((x) => sameOrder(x, o));
  });
  return offered.length > 0 ? offered : orders;
}

/** The ambiguous name a reading took one meaning of, if any. */
function ambiguityOf(raw: RawOrder): LookupError | undefined {
  const locs: (RawLoc | undefined)[] =
    raw.kind === 'waive'
      ? []
      : [raw.unit, 'to' in raw ? raw.to : undefined, 'supported' in raw ? raw.supported : undefined, 'army' in raw ? raw.army : undefined];
  return locs.find((l) => l?.ambiguity !== undefined)?.ambiguity;
}

/** The error of the reading that got furthest: that is where the text stops making sense. */
function syntaxError(text: string, tokens: readonly Token[], failures: readonly SyntaxFailure[]): OrderParseError {
  // A coast or ambiguity problem is only known once the whole span is read: it counts from its end.
  const reach = (f: SyntaxFailure): number => (f.kind === 'lookup' && f.error.code !== 'unknown-province' ? f.at + f.span : f.at);
  const furthest = Math.max(0, ...failures.map(reach));
  const here = failures.filter((f) => reach(f) === furthest);
  const at = Math.min(...here.map((f) => f.at));
  const lookups = here.flatMap((f) => (f.kind === 'lookup' ? [f] : []));
  const specific = lookups.filter((f) => f.error.code !== 'unknown-province').sort((a, b) => b.span - a.span)[0];
  if (specific) return specific.error;
  const expected = here.flatMap((f) => (f.kind === 'expected' ? [f.what] : []));
  if (lookups.length > 0 || expected.includes('province')) {
    const start = tokens[at];
    if (!start) return { code: 'incomplete', text: text.trim() };
    let end = at;
    while (end + 1 < tokens.length) {
      const t = tokens[end + 1]!;
      if (t.kind === 'dash' || (t.kind === 'word' && STOP_WORDS.has(t.norm))) break;
      end++;
    }
    // A lone dash or keyword where a province should be is not a misspelt province.
    if (start.kind === 'word' && !(lookups.length === 0 && STOP_WORDS.has(start.norm))) {
      return { code: 'unknown-province', text: text.slice(start.start, tokens[end]!.end), candidates: [] };
    }
  }
  const start = tokens[at];
  if (!start) return { code: 'incomplete', text: text.trim() };
  return { code: 'unexpected-text', text: text.slice(start.start).trim(), at: start.start };
}

/**
 * Reads one order. Accepts the Spanish and English notations, short or long, in any case, with
 * or without accents: `A par - bur`, `F nth C A lon - bel`, `A mun S A ber - kie`, `F stp/sc - bot`,
 * `A lon - bel via convoy`, `A par R bur`, `A par D`, `Build F stp/nc`, `Remove A mun`, `Waive`,
 * `E Par-Bor`, `F MNt T E Lon-Bel`, `E Bor A E Tir - Mun`, `F Con-CE Bul`,
 * `Flota en Londres mueve a Mar del Norte`, `Creo ejército en París`, ...
 * A move in a retreat phase is a retreat; a disband in an adjustment phase is a removal.
 * Abbreviations that mean different provinces in the two languages ('gal': Galicia in English,
 * Gales/Wales in Spanish) need `lang`; canonical lower-case ids are English, so pass lang 'en'.
 * Never throws.
 */
export function parseOrder(text: string, ctx: ParseContext): ParseResult {
  const map = ctx.map ?? STANDARD_MAP;
  const tokens = tokenize(text);
  if (tokens.length === 0) return { ok: false, error: { code: 'empty' } };
  if (tokens.length > MAX_TOKENS) return { ok: false, error: { code: 'too-long', text: text.slice(0, 80) } };

  const grammar = new OrderGrammar(text, tokens, map, ctx.lang, ctx.position !== undefined);
  // A unit alone is an order only in adjustments (a build or a removal).
  const readings: Reading<RawOrder>[] = grammar.orders().filter((r) => r.value.kind !== 'bare' || ctx.phase === 'adjustment');
  const resolveCtx = { power: ctx.power, phase: ctx.phase, map, ...(ctx.position ? { position: ctx.position } : {}) };
  const resolved = readings.map((r) => ({ cost: r.cost, raw: r.value, result: resolveOrder(r.value, resolveCtx) })).sort((a, b) => a.cost - b.cost);

  const good = resolved.flatMap((r) => (r.result.ok ? [{ cost: r.cost, order: r.result.order, raw: r.raw }] : []));
  if (good.length > 0) {
    const best = good[0]!.cost;
    const tied = good.filter((g) => g.cost === best);
    const distinct: Order[] = [];
    for (const g of tied) if (!distinct.some((o) => sameOrder(o, g.order))) distinct.push(g.order);
    // Where the text allows several orders equally, the position keeps the ones it allows.
    const settled = ctx.position && distinct.length > 1 ? offeredOnes(distinct, ctx.position, map) : distinct;
    if (settled.length === 1) return { ok: true, order: settled[0]! };
    const ambiguity = tied.map((g) => ambiguityOf(g.raw)).find((e) => e !== undefined);
    if (ambiguity) return { ok: false, error: ambiguity };
    return { ok: false, error: { code: 'ambiguous-order', text: text.trim(), readings: settled } };
  }
  const firstError = resolved.find((r) => !r.result.ok);
  if (firstError && !firstError.result.ok) return { ok: false, error: firstError.result.error };
  return { ok: false, error: syntaxError(text, tokens, grammar.failures) };
}

export interface ParsedOrderLine {
  /** 1-based line number in the text given to parseOrders. */
  readonly line: number;
  readonly text: string;
  readonly order: Order;
}

export interface OrderLineError {
  readonly line: number;
  readonly text: string;
  readonly error: OrderParseError;
}

export interface ParsedOrders {
  /** Every order read, in text order. */
  readonly orders: readonly Order[];
  readonly lines: readonly ParsedOrderLine[];
  readonly errors: readonly OrderLineError[];
}

const POWER_WORDS: ReadonlyMap<string, Power> = new Map(
  POWERS.flatMap((p): Array<[string, Power]> => {
    const es: Record<Power, string> = {
      austria: 'austria',
      england: 'inglaterra',
      france: 'francia',
      germany: 'alemania',
      italy: 'italia',
      russia: 'rusia',
      turkey: 'turquia',
    };
    return [
      [p, p],
      [es[p], p],
    ];
  }),
);

/**
 * Reads many orders: one per line, or several on a line separated by ';'. Blank lines and lines
 * starting with '#' are skipped, and so are list markers ('1.', '- ', '* '). A line 'England:' (or 'Inglaterra:', and 'England: A Lon H')
 * switches the power for the lines that follow, so a whole turn fits in one text; otherwise
 * orders are for ctx.power.
 */
export function parseOrders(text: string, ctx: ParseContext): ParsedOrders {
  const orders: Order[] = [];
  const lines: ParsedOrderLine[] = [];
  const errors: OrderLineError[] = [];
  let power = ctx.power;
  text.split(/\r\n|\r|\n/).forEach((rawLine, index) => {
    const line = index + 1;
    let rest = rawLine.trim();
    if (rest.length === 0 || rest.startsWith('#')) return;
    const header = /^([^:;]{1,30}):(.*)$/.exec(rest);
    if (header) {
      const named = POWER_WORDS.get(compact(header[1] ?? ''));
      if (named) {
        power = named;
        rest = (header[2] ?? '').trim();
      }
    }
    for (const part of rest.split(';')) {
      // List markers ('1.', '2)', '* ', '• ') are not part of the order.
      const piece = part.trim().replace(/^(?:\d{1,3}[.)]|[*•·]|-(?=\s))\s*/u, '');
      if (piece.length === 0) continue;
      const r = parseOrder(piece, { ...ctx, power });
      if (r.ok) {
        orders.push(r.order);
        lines.push({ line, text: piece, order: r.order });
      } else {
        errors.push({ line, text: piece, error: r.error });
      }
    }
  });
  return { orders, lines, errors };
}

/** A sentence for the player naming what is wrong, in Spanish or English. */
export function describeParseError(error: OrderParseError, lang: Lang, map: GameMap = STANDARD_MAP): string {
  const name = (id: ProvinceId): string => map.provinces[id]?.name[lang] ?? id;
  return describeError(error, lang, name, (o) => formatOrder(o, lang, 'short', map));
}

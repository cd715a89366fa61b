import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parseOrder,
  parseOrders,
  POWERS,
  provinceOf,
  STANDARD_MAP,
  STARTING_POSITION,
  type Loc,
  type Order,
  type ParseContext,
  type PhaseKind,
} from '../../../src/rules';

const map = STANDARD_MAP;
const ids = Object.keys(map.provinces).sort();

/** Every place an order names, as written in the Order. */
function placesOf(order: Order): Loc[] {
  switch (order.kind) {
    case 'waive':
      return [];
    case 'move':
    case 'retreat':
      return [order.unit.loc, order.to];
    case 'support':
      return [order.unit.loc, order.supported.loc, ...(order.to === undefined ? [] : [order.to])];
    case 'convoy':
      return [order.unit.loc, order.army, order.to];
    default:
      return [order.unit.loc];
  }
}

function isOnMap(loc: Loc): boolean {
  const p = map.provinces[provinceOf(loc)];
  if (!p) return false;
  const coast = loc.includes('/') ? loc.slice(loc.indexOf('/') + 1) : undefined;
  return coast === undefined || (p.coasts ?? []).some((c) => c === coast);
}

const ctx: fc.Arbitrary<ParseContext> = fc
  .record({
    power: fc.constantFrom(...POWERS),
    phase: fc.constantFrom<PhaseKind>('movement', 'retreat', 'adjustment'),
    lang: fc.constantFrom<'es' | 'en' | undefined>('es', 'en', undefined),
    position: fc.constantFrom(undefined, STARTING_POSITION),
  })
  .map((c) => {
    const { lang, position, ...rest } = c;
    return { ...rest, ...(lang ? { lang } : {}), ...(position ? { position } : {}) };
  });

/** Pieces of real orders, so random strings often come close to orders. */
const pieces: string[] = [
  'A',
  'F',
  'E',
  'S',
  'C',
  'H',
  'R',
  'D',
  'B',
  'M',
  'T',
  '-',
  '->',
  '→',
  '/',
  '(',
  ')',
  'nc',
  'sc',
  'ec',
  'CN',
  'CE',
  'via',
  'convoy',
  'vía',
  'transporte',
  'Build',
  'Remove',
  'Waive',
  'Creo',
  'Destruyo',
  'Renuncio',
  'Disuelvo',
  'en',
  'in',
  'a',
  'to',
  'mueve',
  'apoya',
  'transporta',
  'se',
  'mantiene',
  'retira',
  'supports',
  'convoys',
  'holds',
  'movimiento',
  'de',
  'ejército',
  'flota',
  'army',
  'fleet',
  'rus',
  'inglés',
  'costa',
  'norte',
  'sur',
  'coast',
  'north',
  'Mar',
  'del',
  'Norte',
  'San',
  'Petersburgo',
  'St.',
  'Gal',
  'Nor',
  'Med',
  'xyz',
  'Ñandú',
  '🙂',
  ...ids,
  ...ids.flatMap((id) => [map.provinces[id]!.name.en, map.provinces[id]!.name.es]),
];
const orderish = fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).chain((ws) => fc.constantFrom(' ', '', '  ').map((sep) => ws.join(sep)));

function check(text: string, c: ParseContext): void {
  const r = parseOrder(text, c);
  if (r.ok) {
    expect(r.order.power).toBe(c.power);
    for (const loc of placesOf(r.order)) expect(isOnMap(loc), `${JSON.stringify(text)} -> ${loc}`).toBe(true);
  } else {
    expect(typeof r.error.code).toBe('string');
  }
}

describe('parseOrder on arbitrary text (fast-check)', () => {
  it('never throws on random strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), ctx, (s, c) => check(s, c)),
      { numRuns: 500 },
    );
  });

  it('never throws on random Unicode', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), ctx, (s, c) => check(s, c)),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), ctx, (s, c) => check(s, c)),
      { numRuns: 300 },
    );
  });

  it('never throws, and never names a place off the map, on order-like text', () => {
    fc.assert(
      fc.property(orderish, ctx, (s, c) => check(s, c)),
      { numRuns: 1500 },
    );
  });

  it('accepts some order-like text (the generator is not vacuous)', () => {
    const samples = fc.sample(fc.tuple(orderish, ctx), { numRuns: 1500, seed: 42 });
    const accepted = samples.filter(([s, c]) => parseOrder(s, c).ok).length;
    expect(accepted).toBeGreaterThan(0);
  });

  it('parseOrders never throws on many lines', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(orderish, fc.string()), { maxLength: 8 }), ctx, (lines, c) => {
        const r = parseOrders(lines.join('\n'), c);
        expect(r.orders.length).toBe(r.lines.length);
      }),
      { numRuns: 200 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { describeParseError, parseOrder, type OrderParseError } from '../../../src/rules';
import { ctxOf, errorCode, type Ctx } from './helpers';

function errorOf(text: string, ctx: Ctx = {}): OrderParseError {
  const r = parseOrder(text, ctxOf(ctx));
  if (r.ok) expect.fail(`${JSON.stringify(text)} was accepted as ${JSON.stringify(r.order)}`);
  return r.error;
}

describe('parseOrder errors', () => {
  it('names an ambiguous province and both candidates', () => {
    const e = errorOf('A Gal - Bur');
    expect(e).toEqual({ code: 'ambiguous-province', text: 'Gal', candidates: ['gal', 'wal'] });
    expect(describeParseError(e, 'es')).toBe("'Gal' es ambiguo: Galicia o Gales");
    expect(describeParseError(e, 'en')).toBe("'Gal' is ambiguous: Galicia or Wales");
  });

  it('names an unknown province as the player wrote it', () => {
    const e = errorOf('A Xyz - Bur');
    expect(e).toEqual({ code: 'unknown-province', text: 'Xyz', candidates: [] });
    expect(describeParseError(e, 'en')).toBe("Unknown province 'Xyz'");
    expect(describeParseError(e, 'es')).toBe("Provincia desconocida: 'Xyz'");
    expect(errorOf('A Par - Xyzzy Land')).toMatchObject({ code: 'unknown-province', text: 'Xyzzy Land' });
    expect(errorOf('A Xyz S A Ber')).toMatchObject({ code: 'unknown-province', text: 'Xyz' });
  });

  it('tells an empty, incomplete or unreadable order apart', () => {
    expect(errorCode('')).toBe('empty');
    expect(errorCode('   ;; ')).toBe('empty');
    expect(errorCode('A Par')).toBe('incomplete');
    expect(errorCode('A Par -')).toBe('incomplete');
    expect(errorOf('A Par Bur')).toEqual({ code: 'unexpected-text', text: 'Bur', at: 6 });
    expect(errorOf('Build A Par H', { phase: 'adjustment' })).toMatchObject({ code: 'unexpected-text', text: 'H' });
    expect(errorCode('word '.repeat(60))).toBe('too-long');
  });

  it('rejects a coast the province does not have', () => {
    expect(errorOf('F Mun/nc - Ber')).toMatchObject({ code: 'no-such-coast', candidates: ['mun'], coast: 'nc' });
  });

  it('rejects a convoy of a fleet', () => {
    expect(errorOf('F nth C F lon - bel')).toEqual({ code: 'convoy-of-fleet', province: 'lon' });
  });

  it('describes every error in both languages', () => {
    const errors: OrderParseError[] = [
      errorOf(''),
      errorOf('A Par'),
      errorOf('A Par Bur'),
      errorOf('Par - Bur'),
      errorOf('Bur - Par', { position: { phase: { year: 1901, season: 'spring', kind: 'movement' }, units: [], centres: {}, dislodged: [] } }),
      errorOf('F mao - spa'),
      errorOf('F nth C F lon - bel'),
      errorOf('F Mun/nc - Ber'),
      errorOf('x '.repeat(50)),
      {
        code: 'ambiguous-order',
        text: 'x',
        readings: [
          { kind: 'waive', power: 'france' },
          { kind: 'hold', power: 'france', unit: { type: 'A', loc: 'par' } },
        ],
      },
      { code: 'unknown-power', text: 'Atlantis' },
    ];
    const codes = new Set(errors.map((e) => e.code));
    expect(codes.size).toBe(errors.length);
    for (const e of errors) {
      for (const lang of ['es', 'en'] as const) {
        const s = describeParseError(e, lang);
        expect(s.length).toBeGreaterThan(10);
        expect(s).not.toMatch(/undefined|\[object/);
      }
    }
    expect(describeParseError({ code: 'coast-required', province: 'spa' }, 'es')).toBe('Hay que indicar la costa de España');
    expect(describeParseError({ code: 'coast-required', province: 'spa' }, 'en')).toBe('The coast of Spain must be given');
  });
});

// Texts that could be read two ways: a dash between two provinces is a move, never part of one
// name unless the name has a dash (issue 14: 'F nth S F swe - den' was refused as Sweden vs
// 'swe - den'); and where a name truly means several provinces, the position settles it.
import { describe, expect, it } from 'vitest';
import { formatOrder, type Order, type Position, type Unit } from '../../../src/rules';
import { errorCode, parsed } from './helpers';

const supportToDen: Order = {
  kind: 'support',
  power: 'england',
  unit: { type: 'F', loc: 'nth' },
  supported: { type: 'F', loc: 'swe' },
  to: 'den',
};

const at = (units: Unit[]): Position => ({ phase: { year: 1901, season: 'spring', kind: 'movement' }, units, centres: {}, dislodged: [] });
const board = at([
  { type: 'F', power: 'england', loc: 'nth' },
  { type: 'F', power: 'russia', loc: 'swe' },
]);

describe('a dash between provinces is a move', () => {
  it('reads F nth S F swe - den, as the formatter writes it, in both languages and with or without the position', () => {
    const texts = [
      'F nth S F swe - den',
      'F nth S F swe-den',
      formatOrder(supportToDen, 'en'),
      formatOrder(supportToDen, 'es'),
      formatOrder(supportToDen, 'en', 'long'),
      formatOrder(supportToDen, 'es', 'long'),
    ];
    expect(texts.slice(2, 4)).toEqual(['F NTH S F Swe - Den', 'F MNt A F Sue-Din']);
    for (const text of texts) {
      for (const lang of ['es', 'en', undefined] as const) {
        expect(parsed(text, { power: 'england', ...(lang ? { lang } : {}) }), `${text} ${lang}`).toStrictEqual(supportToDen);
        expect(parsed(text, { power: 'england', position: board, ...(lang ? { lang } : {}) }), `${text} ${lang} with position`).toStrictEqual(supportToDen);
      }
    }
    // Sweden itself still reads as Sweden.
    const { to: _den, ...holdSupport } = supportToDen;
    expect(parsed('F nth S F sweden', { power: 'england' })).toStrictEqual(holdSupport);
  });

  it('keeps the dash of a name that has one (Mid-Atlantic Ocean)', () => {
    const mao = { type: 'F', loc: 'mao' } as const;
    expect(parsed('F Mid-Atlantic - Bre')).toStrictEqual({ kind: 'move', power: 'france', unit: mao, to: 'bre' });
    expect(parsed('F Mid - Atlantic H')).toStrictEqual({ kind: 'hold', power: 'france', unit: mao });
    expect(parsed('Fleet in Mid-Atlantic Ocean moves to Brest')).toStrictEqual({ kind: 'move', power: 'france', unit: mao, to: 'bre' });
    expect(parsed('F Bre S F Mid-Atlantic - Gas')).toStrictEqual({
      kind: 'support',
      power: 'france',
      unit: { type: 'F', loc: 'bre' },
      supported: mao,
      to: 'gas',
    });
  });
});

describe('the position settles a name that means several provinces', () => {
  // 'Gal' is Galicia in English and Gales (Wales) in Spanish; with no language it is both.
  it('without a position or a language, the player is asked which', () => {
    expect(errorCode('A Gal - Vie')).toBe('ambiguous-province');
    expect(errorCode('A Gal H', { position: at([]) })).toBe('ambiguous-province');
  });

  it('with a position, the reading whose order the position allows', () => {
    const inGalicia = at([{ type: 'A', power: 'austria', loc: 'gal' }]);
    expect(parsed('A Gal - Vie', { power: 'austria', position: inGalicia })).toStrictEqual({
      kind: 'move',
      power: 'austria',
      unit: { type: 'A', loc: 'gal' },
      to: 'vie',
    });
    const inWales = at([{ type: 'A', power: 'england', loc: 'wal' }]);
    expect(parsed('A Gal H', { power: 'england', position: inWales })).toStrictEqual({ kind: 'hold', power: 'england', unit: { type: 'A', loc: 'wal' } });
    expect(parsed('Gal - Lon', { power: 'england', position: inWales })).toStrictEqual({
      kind: 'move',
      power: 'england',
      unit: { type: 'A', loc: 'wal' },
      to: 'lon',
    });
  });

  it('a text the language settles is not second-guessed by the position', () => {
    const inWales = at([{ type: 'A', power: 'england', loc: 'wal' }]);
    expect(parsed('A Gal - Vie', { power: 'england', lang: 'en', position: inWales })).toStrictEqual({
      kind: 'move',
      power: 'england',
      unit: { type: 'A', loc: 'gal' },
      to: 'vie',
    });
  });
});

// Every interface string exists in both languages, and none is empty.
import { describe, expect, it } from 'vitest';
import { POWERS } from '../../src/rules';
import { LANGS, STRINGS, defaultLang, phaseName } from '../../src/ui/i18n';

/** Every key path of a nested string table, with its value. */
function leaves(table: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (typeof table === 'object' && table !== null) {
    for (const [k, v] of Object.entries(table)) for (const [p, x] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(p, x);
  } else out.set(prefix, table);
  return out;
}

describe('i18n', () => {
  it('has the same keys in Spanish and English', () => {
    const es = leaves(STRINGS.es);
    const en = leaves(STRINGS.en);
    expect([...en.keys()].sort()).toEqual([...es.keys()].sort());
    expect(es.size).toBeGreaterThan(50);
  });

  it('has no empty or non-string leaf in either language', () => {
    for (const lang of LANGS) {
      for (const [key, value] of leaves(STRINGS[lang])) {
        expect(typeof value, `${lang}.${key}`).toBe('string');
        expect((value as string).trim().length, `${lang}.${key}`).toBeGreaterThan(0);
      }
    }
  });

  it('names every power and gives distinct initials per language (colour is never the only cue)', () => {
    for (const lang of LANGS) {
      const initials = POWERS.map((p) => STRINGS[lang].powerInitials[p]);
      expect(new Set(initials).size).toBe(POWERS.length);
    }
  });

  it('defaults to the phone language, Spanish unless English comes first', () => {
    expect(defaultLang(['en-GB', 'es'])).toBe('en');
    expect(defaultLang(['es-ES', 'en'])).toBe('es');
    expect(defaultLang(['fr-FR'])).toBe('es');
    expect(defaultLang(['de', 'en-US'])).toBe('en');
  });

  it('names phases', () => {
    const phase = { year: 1902, season: 'fall', kind: 'retreat' } as const;
    expect(phaseName({ phase }, 'es')).toBe('Otoño 1902, retiradas');
    expect(phaseName({ phase }, 'en')).toBe('Fall 1902, retreats');
  });
});

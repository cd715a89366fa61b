import { describe, expect, it } from 'vitest';
import { lookupProvince, STANDARD_MAP, type Coast } from '../../../src/rules';

const map = STANDARD_MAP;
const ids = Object.keys(map.provinces).sort();

function found(text: string, lang?: 'es' | 'en'): { province: string; coast?: Coast } | string {
  const r = lookupProvince(map, text, lang);
  if (!r.ok) return r.error.code;
  return r.coast === undefined ? { province: r.province } : { province: r.province, coast: r.coast };
}

describe('lookupProvince: names, ids and abbreviations', () => {
  it('finds ids, English and Spanish names, aliases, case- accent- and punctuation-insensitively', () => {
    expect(found('par')).toEqual({ province: 'par' });
    expect(found('PAR')).toEqual({ province: 'par' });
    expect(found('Moscú')).toEqual({ province: 'mos' });
    expect(found('moscu')).toEqual({ province: 'mos' });
    expect(found('MOSCOW')).toEqual({ province: 'mos' });
    expect(found('St. Petersburg')).toEqual({ province: 'stp' });
    expect(found('st petersburg')).toEqual({ province: 'stp' });
    expect(found('San Petersburgo')).toEqual({ province: 'stp' });
    expect(found('Mar del Norte')).toEqual({ province: 'nth' });
    expect(found('North Sea')).toEqual({ province: 'nth' });
    expect(found('Mid-Atlantic Ocean')).toEqual({ province: 'mao' });
    expect(found('Edinburgo')).toEqual({ province: 'edi' });
    expect(found('Túnez')).toEqual({ province: 'tun' });
    expect(found('  Bélgica  ')).toEqual({ province: 'bel' });
  });

  it('finds rulebook abbreviations in both languages', () => {
    expect(found('MNt')).toEqual({ province: 'nth' });
    expect(found('Bor')).toEqual({ province: 'bur' });
    expect(found('Esp')).toEqual({ province: 'spa' });
    expect(found('Seb')).toEqual({ province: 'sev' });
    expect(found('AtC')).toEqual({ province: 'mao' });
    expect(found('NTH')).toEqual({ province: 'nth' });
    expect(found('Lvp')).toEqual({ province: 'lvp' });
  });

  it('lets the language decide where Spanish and English abbreviations clash', () => {
    expect(found('Gal', 'es')).toEqual({ province: 'wal' });
    expect(found('Gal', 'en')).toEqual({ province: 'gal' });
    const none = lookupProvince(map, 'Gal');
    expect(none.ok).toBe(false);
    if (!none.ok) {
      expect(none.error.code).toBe('ambiguous-province');
      expect(none.error.candidates).toEqual(['gal', 'wal']);
      expect(none.error.text).toBe('Gal');
    }
  });

  it('accepts unique prefixes of three or more letters and rejects shared ones', () => {
    expect(found('Burgu')).toEqual({ province: 'bur' });
    expect(found('Bohe')).toEqual({ province: 'boh' });
    expect(found('Livon')).toEqual({ province: 'lvn' });
    expect(found('Mediterr')).toBe('ambiguous-province');
    const north = lookupProvince(map, 'North');
    expect(north.ok).toBe(false);
    if (!north.ok) expect(north.error.candidates).toEqual(expect.arrayContaining(['naf', 'nao', 'nth']));
    expect(found('Bu')).toBe('unknown-province');
  });

  it('accepts misspellings close to exactly one long name, and nothing else', () => {
    expect(found('Berlni')).toEqual({ province: 'ber' });
    expect(found('Constantinopel')).toEqual({ province: 'con' });
    expect(found('Sebastopool')).toEqual({ province: 'sev' });
    expect(found('Portgual')).toEqual({ province: 'por' });
    expect(found('Xyz')).toBe('unknown-province');
    expect(found('Atlantis')).toBe('unknown-province');
    expect(found('')).toBe('unknown-province');
    expect(found('---')).toBe('unknown-province');
  });

  it('finds every province by its id, names, aliases and abbreviations', () => {
    for (const id of ids) {
      const p = map.provinces[id]!;
      expect(found(id, 'en')).toEqual({ province: id });
      expect(found(p.name.en, 'en')).toEqual({ province: id });
      expect(found(p.name.es, 'es')).toEqual({ province: id });
      for (const a of p.aliases ?? []) expect(found(a, 'es')).toEqual({ province: id });
      for (const a of p.abbr.en) expect(found(a, 'en')).toEqual({ province: id });
      for (const a of p.abbr.es) expect(found(a, 'es')).toEqual({ province: id });
    }
  });
});

describe('lookupProvince: coasts', () => {
  const stpNc = { province: 'stp', coast: 'nc' };
  it.each([
    'stp/nc',
    'StP/NC',
    'stp(nc)',
    'stp (nc)',
    'StP nc',
    'St. Petersburg (north coast)',
    'San Petersburgo costa norte',
    'CN SPT',
    'SPT CN',
    'north coast of St Petersburg',
    'stp/n',
  ])('reads %s as the north coast of St Petersburg', (text) => {
    expect(found(text)).toEqual(stpNc);
  });

  it('reads the other coasts', () => {
    expect(found('CE Bul')).toEqual({ province: 'bul', coast: 'ec' });
    expect(found('Bulgaria costa este')).toEqual({ province: 'bul', coast: 'ec' });
    expect(found('Bul/SC')).toEqual({ province: 'bul', coast: 'sc' });
    expect(found('Spa (sc)')).toEqual({ province: 'spa', coast: 'sc' });
    expect(found('España costa sur')).toEqual({ province: 'spa', coast: 'sc' });
    expect(found('Spain south coast')).toEqual({ province: 'spa', coast: 'sc' });
  });

  it('rejects a coast the province does not have', () => {
    const r = lookupProvince(map, 'Mun/nc');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: 'no-such-coast', candidates: ['mun'], coast: 'nc' });
    expect(found('Spa/ec')).toBe('no-such-coast');
  });

  it('does not read a bare direction letter as a coast without a slash or bracket', () => {
    expect(found('Spa s')).toBe('unknown-province');
  });
});

describe('lookupProvince: misspellings stay within one name', () => {
  it('does not glue two words into a misspelt name', () => {
    expect(found('ber lvn')).toBe('unknown-province');
    expect(found('lon lon')).toBe('unknown-province');
    expect(found('Mar del Nrote')).toEqual({ province: 'nth' });
    expect(found('St Petersbrug')).toEqual({ province: 'stp' });
  });
});

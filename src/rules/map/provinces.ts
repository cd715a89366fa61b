// The 75 provinces of the standard board plus Switzerland, as data.
// Spanish names and abbreviations are those of the rulebooks' tables: seed 000 (the Spanish
// JOC edition of the Avalon Hill rules) gives `name.es` and the first `abbr.es`; seed 002 (the
// current Avalon Hill rulebook in Spanish) and seed 003 (a Spanish play-by-web director's rules)
// add the other spellings kept in `aliases`/`abbr.es`. English names and abbreviations are the
// usual ones of the English rulebooks and judges. Facts, not code: no licence restriction.
import type { Power, Province, ProvinceId } from '../types';

type Row = [
  id: ProvinceId,
  kind: Province['kind'],
  supplyCentre: boolean,
  home: Power | null,
  en: string,
  es: string,
  abbrEn: readonly string[],
  abbrEs: readonly string[],
  aliases: readonly string[],
];

// One row per province, sorted by id. Split coasts are added below, in SPLIT_COASTS.
const ROWS: readonly Row[] = [
  ['adr', 'sea', false, null, 'Adriatic Sea', 'Mar Adriático', ['ADR'], ['MAd'], ['Adriatic']],
  ['aeg', 'sea', false, null, 'Aegean Sea', 'Mar Egeo', ['AEG'], ['MEg'], ['Aegean']],
  ['alb', 'coast', false, null, 'Albania', 'Albania', ['Alb'], ['Alb'], []],
  ['ank', 'coast', true, 'turkey', 'Ankara', 'Ankara', ['Ank'], ['Ank'], ['Ancar']],
  ['apu', 'coast', false, null, 'Apulia', 'Apulia', ['Apu'], ['Apu'], []],
  ['arm', 'coast', false, null, 'Armenia', 'Armenia', ['Arm'], ['Arm'], []],
  ['bal', 'sea', false, null, 'Baltic Sea', 'Mar Báltico', ['BAL'], ['Bal'], ['Baltic']],
  ['bar', 'sea', false, null, 'Barents Sea', 'Mar de Barents', ['BAR'], ['MBa'], ['Barents']],
  ['bel', 'coast', true, null, 'Belgium', 'Bélgica', ['Bel'], ['Bel'], []],
  ['ber', 'coast', true, 'germany', 'Berlin', 'Berlín', ['Ber'], ['Ber'], []],
  ['bla', 'sea', false, null, 'Black Sea', 'Mar Negro', ['BLA'], ['MNe'], []],
  ['boh', 'land', false, null, 'Bohemia', 'Bohemia', ['Boh'], ['Boh'], []],
  ['bot', 'sea', false, null, 'Gulf of Bothnia', 'Golfo de Botnia', ['BOT', 'GOB'], ['GBo'], ['Bothnia']],
  ['bre', 'coast', true, 'france', 'Brest', 'Brest', ['Bre'], ['Bre'], []],
  ['bud', 'land', true, 'austria', 'Budapest', 'Budapest', ['Bud'], ['Bud'], []],
  ['bul', 'coast', true, null, 'Bulgaria', 'Bulgaria', ['Bul'], ['Bul'], []],
  ['bur', 'land', false, null, 'Burgundy', 'Borgoña', ['Bur'], ['Bor'], []],
  ['cly', 'coast', false, null, 'Clyde', 'Clyde', ['Cly'], ['Cly'], []],
  ['con', 'coast', true, 'turkey', 'Constantinople', 'Constantinopla', ['Con'], ['Con'], []],
  ['den', 'coast', true, null, 'Denmark', 'Dinamarca', ['Den'], ['Din'], []],
  ['eas', 'sea', false, null, 'Eastern Mediterranean', 'Mediterráneo oriental', ['EAS'], ['MOr'], ['Eastern Mediterranean Sea', 'Eastern Med']],
  ['edi', 'coast', true, 'england', 'Edinburgh', 'Edimburgo', ['Edi'], ['Edi'], ['Edinburgo']],
  ['eng', 'sea', false, null, 'English Channel', 'Canal de la Mancha', ['ENG'], ['CMa'], ['Channel']],
  ['fin', 'coast', false, null, 'Finland', 'Finlandia', ['Fin'], ['Fin'], []],
  ['gal', 'land', false, null, 'Galicia', 'Galicia', ['Gal'], ['Gli'], []],
  ['gas', 'coast', false, null, 'Gascony', 'Gascuña', ['Gas'], ['Gas'], []],
  ['gre', 'coast', true, null, 'Greece', 'Grecia', ['Gre'], ['Gre'], []],
  ['hel', 'sea', false, null, 'Heligoland Bight', 'Helgoland', ['HEL'], ['Hel'], ['Heligoland']],
  ['hol', 'coast', true, null, 'Holland', 'Holanda', ['Hol'], ['Hol'], ['Netherlands']],
  ['ion', 'sea', false, null, 'Ionian Sea', 'Mar Jónico', ['ION'], ['MJo'], ['Ionian']],
  ['iri', 'sea', false, null, 'Irish Sea', 'Mar de Irlanda', ['IRI'], ['MIr'], []],
  ['kie', 'coast', true, 'germany', 'Kiel', 'Kiel', ['Kie'], ['Kie'], []],
  ['lon', 'coast', true, 'england', 'London', 'Londres', ['Lon'], ['Lon'], ['London']],
  ['lvn', 'coast', false, null, 'Livonia', 'Livonia', ['Lvn'], ['Lvn'], []],
  ['lvp', 'coast', true, 'england', 'Liverpool', 'Liverpool', ['Lvp'], ['Liv'], []],
  ['lyo', 'sea', false, null, 'Gulf of Lyon', 'Golfo de León', ['LYO', 'GOL'], ['GLe'], ['Gulf of Lyons', 'Gulf of Lions', 'Gulf of Lion']],
  [
    'mao',
    'sea',
    false,
    null,
    'Mid-Atlantic Ocean',
    'Atlántico Central',
    ['MAO', 'MID'],
    ['AtC'],
    ['Mid Atlantic', 'Mid-Atlantic', 'Mid Atlantic Ocean', 'Atlántico Meridional'],
  ],
  ['mar', 'coast', true, 'france', 'Marseilles', 'Marsella', ['Mar'], ['Mar'], ['Marseille']],
  ['mos', 'land', true, 'russia', 'Moscow', 'Moscú', ['Mos'], ['Mos'], []],
  ['mun', 'land', true, 'germany', 'Munich', 'Munich', ['Mun'], ['Mun'], []],
  ['naf', 'coast', false, null, 'North Africa', 'África del Norte', ['NAf', 'NAF'], ['Afr'], ['Norte de África']],
  ['nao', 'sea', false, null, 'North Atlantic Ocean', 'Atlántico Norte', ['NAO'], ['AtN'], ['North Atlantic']],
  ['nap', 'coast', true, 'italy', 'Naples', 'Nápoles', ['Nap'], ['Nap'], []],
  ['nth', 'sea', false, null, 'North Sea', 'Mar del Norte', ['NTH'], ['MNt'], []],
  ['nwg', 'sea', false, null, 'Norwegian Sea', 'Mar de Noruega', ['NWG', 'NRG'], ['MNo'], []],
  ['nwy', 'coast', true, null, 'Norway', 'Noruega', ['Nwy', 'Nor'], ['Nor'], []],
  ['par', 'land', true, 'france', 'Paris', 'París', ['Par'], ['Par'], []],
  ['pic', 'coast', false, null, 'Picardy', 'Picardía', ['Pic'], ['Pic'], []],
  ['pie', 'coast', false, null, 'Piedmont', 'Piamonte', ['Pie'], ['Pia'], []],
  ['por', 'coast', true, null, 'Portugal', 'Portugal', ['Por'], ['Por'], []],
  ['pru', 'coast', false, null, 'Prussia', 'Prusia', ['Pru'], ['Pru'], []],
  ['rom', 'coast', true, 'italy', 'Rome', 'Roma', ['Rom'], ['Rom'], []],
  ['ruh', 'land', false, null, 'Ruhr', 'Ruhr', ['Ruh'], ['Ruh'], []],
  ['rum', 'coast', true, null, 'Rumania', 'Rumania', ['Rum'], ['Rum'], ['Rumanía', 'Romania']],
  ['ser', 'land', true, null, 'Serbia', 'Serbia', ['Ser'], ['Ser'], []],
  ['sev', 'coast', true, 'russia', 'Sevastopol', 'Sebastopol', ['Sev'], ['Seb'], []],
  ['sil', 'land', false, null, 'Silesia', 'Silesia', ['Sil'], ['Sil'], []],
  ['ska', 'sea', false, null, 'Skagerrak', 'Skagerrak', ['SKA'], ['Ska'], ['Skaggerak', 'Skagerak']],
  ['smy', 'coast', true, 'turkey', 'Smyrna', 'Smirna', ['Smy'], ['Smi'], []],
  ['spa', 'coast', true, null, 'Spain', 'España', ['Spa'], ['Esp'], []],
  [
    'stp',
    'coast',
    true,
    'russia',
    'St Petersburg',
    'San Petersburgo',
    ['StP', 'STP'],
    ['SPT', 'SPt'],
    ['St. Petersburg', 'Saint Petersburg', 'S. Petersburgo', 'St. Petesburgo', 'St. Petersburgo'],
  ],
  ['swe', 'coast', true, null, 'Sweden', 'Suecia', ['Swe'], ['Sue'], []],
  ['swi', 'impassable', false, null, 'Switzerland', 'Suiza', ['Swi'], [], []],
  ['syr', 'coast', false, null, 'Syria', 'Siria', ['Syr'], ['Sir'], []],
  ['tri', 'coast', true, 'austria', 'Trieste', 'Trieste', ['Tri'], ['Tri'], []],
  ['tun', 'coast', true, null, 'Tunis', 'Tunez', ['Tun'], ['Tun'], ['Túnez']],
  ['tus', 'coast', false, null, 'Tuscany', 'Toscana', ['Tus'], ['Tos'], ['Toscany']],
  ['tyr', 'land', false, null, 'Tyrolia', 'Tirol', ['Tyr'], ['Tir'], ['Tyrol']],
  ['tys', 'sea', false, null, 'Tyrrhenian Sea', 'Mar Tirreno', ['TYS', 'TYN'], ['MTi'], ['Tyrrhenian']],
  ['ukr', 'land', false, null, 'Ukraine', 'Ucrania', ['Ukr'], ['Ucr'], []],
  ['ven', 'coast', true, 'italy', 'Venice', 'Venecia', ['Ven'], ['Ven'], []],
  ['vie', 'land', true, 'austria', 'Vienna', 'Viena', ['Vie'], ['Vie'], ['Vienna']],
  ['wal', 'coast', false, null, 'Wales', 'Gales', ['Wal'], ['Gal'], []],
  ['war', 'land', true, 'russia', 'Warsaw', 'Varsovia', ['War'], ['Var'], []],
  ['wes', 'sea', false, null, 'Western Mediterranean', 'Mediterráneo occidental', ['WES'], ['MOC', 'MOc'], ['Western Mediterranean Sea', 'Western Med']],
  ['yor', 'coast', false, null, 'Yorkshire', 'Yorkshire', ['Yor'], ['Yor'], []],
];

// Abbreviations that the worked examples use besides the tables' (typos and OCR slips
// included), so that the rulebooks' own orders can be read back. Left out because they would
// be ambiguous: seed 000 writes 'Tir' (the table's Tirol) for the Tyrrhenian Sea in
// "F Tir T E Esp-Nap", 'MNo' (the table's Norwegian Sea) and 'MNor' for the North Sea in the
// convoys Lon-Bel, and 'MA' for the Mid-Atlantic.
const EXAMPLE_ABBR_ES: Readonly<Record<ProvinceId, readonly string[]>> = {
  bal: ['Bol'], // seed 000 "F Bol-Prú"; the same example in seed 002 reads "F Bal–Pru"
  bla: ['MNg'], // seed 002 sample game, Spring 1901: "F Ank–MNg"
  eng: ['Ing', 'C.Ing', 'Can'], // seed 000 "F Bre-Ing", "F C.Ing T E Lon-Tun", "F Can T E Bel-Lon"
  iri: ['Mlr'], // seed 000 "F Mlr A Bre-Ing" (MIr with a lower-case L)
  kie: ['Kei'], // seed 000 notation note: "E Bel A E Kei-Hol"
  nth: ['MNI'], // seed 000 "F MNI-Din"; seed 002 has "F MNt–Din"
  sev: ['Sev'], // seed 000 "E Sev-Rum" (its table says Seb)
  wes: ['West'], // seed 000 "F West T E Inglés Lon-Tun"
};

const SPLIT_COASTS: Readonly<Record<ProvinceId, Province['coasts']>> = {
  bul: ['ec', 'sc'],
  spa: ['nc', 'sc'],
  stp: ['nc', 'sc'],
};

function toProvince([id, kind, supplyCentre, home, en, es, abbrEn, abbrEs, aliases]: Row): Province {
  const coasts = SPLIT_COASTS[id];
  return {
    id,
    kind,
    supplyCentre,
    ...(home ? { home } : {}),
    ...(coasts ? { coasts } : {}),
    name: { en, es },
    abbr: { en: abbrEn, es: [...abbrEs, ...(EXAMPLE_ABBR_ES[id] ?? [])] },
    ...(aliases.length > 0 ? { aliases } : {}),
  };
}

export const STANDARD_PROVINCES: Readonly<Record<ProvinceId, Province>> = Object.fromEntries(ROWS.map((row) => [row[0], toProvince(row)]));

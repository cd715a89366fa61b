// Order text in the notations the parser reads. Short style is the rulebooks' abbreviated
// notation (seed 000: `F MNt T E Lon-Bel`, `F Con-CE Bul`; English tables: `F NTH C A Lon - Bel`,
// `F StP/SC - Bot`); long style is the full sentences of seed 003 ('Flota en Londres mueve a
// Mar del Norte') and their English equivalent. Whatever is written here parses back to the
// same order (tests/rules/notation/roundtrip.test.ts).
import type { Coast, GameMap, Loc, Order, UnitRef } from '../types';
import { coastOf, provinceOf, STANDARD_MAP } from '../map';
import type { Lang } from './lookup';

export type OrderStyle = 'short' | 'long';

const COAST_SHORT_ES: Readonly<Record<Coast, string>> = { nc: 'CN', sc: 'CS', ec: 'CE' };
const COAST_LONG: Readonly<Record<Lang, Readonly<Record<Coast, string>>>> = {
  es: { nc: 'costa norte', sc: 'costa sur', ec: 'costa este' },
  en: { nc: '(north coast)', sc: '(south coast)', ec: '(east coast)' },
};

export function formatLoc(loc: Loc, lang: Lang, style: OrderStyle = 'short', map: GameMap = STANDARD_MAP): string {
  const id = provinceOf(loc);
  const coast = coastOf(loc);
  const p = map.provinces[id];
  if (style === 'long') {
    const name = p ? p.name[lang] : id;
    return coast ? `${name} ${COAST_LONG[lang][coast]}` : name;
  }
  const abbr = (lang === 'es' ? (p?.abbr.es[0] ?? p?.abbr.en[0]) : p?.abbr.en[0]) ?? id;
  if (!coast) return abbr;
  return lang === 'es' ? `${COAST_SHORT_ES[coast]} ${abbr}` : `${abbr}/${coast.toUpperCase()}`;
}

const TYPE_SHORT: Readonly<Record<Lang, Readonly<Record<UnitRef['type'], string>>>> = {
  es: { A: 'E', F: 'F' },
  en: { A: 'A', F: 'F' },
};
const TYPE_LONG: Readonly<Record<Lang, Readonly<Record<UnitRef['type'], string>>>> = {
  es: { A: 'ejército', F: 'flota' },
  en: { A: 'army', F: 'fleet' },
};

function capitalise(s: string): string {
  return s.length === 0 ? s : s[0]!.toUpperCase() + s.slice(1);
}

/** 'A Par', 'E Par', 'F StP/SC'; long: 'Army in Paris', 'Flota en San Petersburgo costa sur'. */
export function formatUnit(unit: UnitRef, lang: Lang, style: OrderStyle = 'short', map: GameMap = STANDARD_MAP): string {
  if (style === 'short') return `${TYPE_SHORT[lang][unit.type]} ${formatLoc(unit.loc, lang, 'short', map)}`;
  return capitalise(unitInSentence(unit, lang, map));
}

function unitInSentence(unit: UnitRef, lang: Lang, map: GameMap): string {
  return `${TYPE_LONG[lang][unit.type]} ${lang === 'es' ? 'en' : 'in'} ${formatLoc(unit.loc, lang, 'long', map)}`;
}

function formatShort(order: Order, lang: Lang, map: GameMap): string {
  const es = lang === 'es';
  const loc = (l: Loc): string => formatLoc(l, lang, 'short', map);
  const dash = es ? '-' : ' - ';
  if (order.kind === 'waive') return es ? 'Renuncio' : 'Waive';
  const unit = formatUnit(order.unit, lang, 'short', map);
  switch (order.kind) {
    case 'hold':
      return `${unit} ${es ? 'M' : 'H'}`;
    case 'move':
      return `${unit}${dash}${loc(order.to)}${order.viaConvoy ? (es ? ' vía transporte' : ' via convoy') : ''}`;
    case 'support': {
      const supported = formatUnit(order.supported, lang, 'short', map);
      const target = order.to === undefined ? '' : `${dash}${loc(order.to)}`;
      return `${unit} ${es ? 'A' : 'S'} ${supported}${target}`;
    }
    case 'convoy':
      return `${unit} ${es ? 'T E' : 'C A'} ${loc(order.army)}${dash}${loc(order.to)}`;
    case 'retreat':
      return es ? `${unit}${dash}${loc(order.to)}` : `${unit} R ${loc(order.to)}`;
    case 'disband':
      return es ? `Disuelvo ${unit}` : `${unit} D`;
    case 'build':
      return `${es ? 'Creo' : 'Build'} ${unit}`;
    case 'remove':
      return `${es ? 'Destruyo' : 'Remove'} ${unit}`;
  }
}

function formatLong(order: Order, lang: Lang, map: GameMap): string {
  const es = lang === 'es';
  const place = (l: Loc): string => formatLoc(l, lang, 'long', map);
  if (order.kind === 'waive') return es ? 'Renuncio a construir' : 'Waive';
  const unit = unitInSentence(order.unit, lang, map);
  const Unit = capitalise(unit);
  switch (order.kind) {
    case 'hold':
      return `${Unit} ${es ? 'se mantiene' : 'holds'}`;
    case 'move':
      return `${Unit} ${es ? 'mueve a' : 'moves to'} ${place(order.to)}${order.viaConvoy ? (es ? ' vía transporte' : ' via convoy') : ''}`;
    case 'support': {
      const supported = unitInSentence(order.supported, lang, map);
      if (order.to === undefined) return `${Unit} ${es ? 'apoya' : 'supports'} ${supported}`;
      return es ? `${Unit} apoya movimiento ${supported} a ${place(order.to)}` : `${Unit} supports ${supported} moving to ${place(order.to)}`;
    }
    case 'convoy': {
      const army = unitInSentence({ type: 'A', loc: order.army }, lang, map);
      return `${Unit} ${es ? 'transporta' : 'convoys'} ${army} ${es ? 'a' : 'to'} ${place(order.to)}`;
    }
    case 'retreat':
      return `${Unit} ${es ? 'se retira a' : 'retreats to'} ${place(order.to)}`;
    case 'disband':
      return `${Unit} ${es ? 'se disuelve' : 'disbands'}`;
    case 'build':
      return `${es ? 'Creo' : 'Build'} ${unit}`;
    case 'remove':
      return `${es ? 'Destruyo' : 'Remove'} ${unit}`;
  }
}

/** The order as text: 'short' is the rulebook notation, 'long' full words. The power is not
 *  written (order lists are grouped by power). */
export function formatOrder(order: Order, lang: Lang, style: OrderStyle = 'short', map: GameMap = STANDARD_MAP): string {
  return style === 'short' ? formatShort(order, lang, map) : formatLong(order, lang, map);
}

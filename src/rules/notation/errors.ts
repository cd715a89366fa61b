// Parse errors are data, so the UI can point at the problem; describeParseError words them.
import type { Order, Power, ProvinceId } from '../types';
import type { Lang, LookupError } from './lookup';

export type OrderParseError =
  | LookupError
  | { readonly code: 'empty' }
  /** More text than any order needs: almost certainly not an order. */
  | { readonly code: 'too-long'; readonly text: string }
  /** The text stops before the order is complete ('A Par', 'A Par -'). */
  | { readonly code: 'incomplete'; readonly text: string }
  /** Words that fit no order at this point ('A Par Bur', 'Build A Par H'). */
  | { readonly code: 'unexpected-text'; readonly text: string; readonly at: number }
  /** No unit type written and no position to take it from. */
  | { readonly code: 'unit-type-required'; readonly province: ProvinceId }
  /** No unit type written and no unit in that province. */
  | { readonly code: 'no-unit'; readonly province: ProvinceId }
  /** A fleet on (or going to) a split-coast province, and which coast cannot be worked out. */
  | { readonly code: 'coast-required'; readonly province: ProvinceId }
  /** Only armies are convoyed. */
  | { readonly code: 'convoy-of-fleet'; readonly province: ProvinceId }
  /** The text reads as two different orders. */
  | { readonly code: 'ambiguous-order'; readonly text: string; readonly readings: readonly Order[] }
  /** A 'Power:' header in parseOrders names no power. */
  | { readonly code: 'unknown-power'; readonly text: string };

export type OrderParseErrorCode = OrderParseError['code'];

const POWER_NAMES: Readonly<Record<Power, { readonly en: string; readonly es: string }>> = {
  austria: { en: 'Austria', es: 'Austria' },
  england: { en: 'England', es: 'Inglaterra' },
  france: { en: 'France', es: 'Francia' },
  germany: { en: 'Germany', es: 'Alemania' },
  italy: { en: 'Italy', es: 'Italia' },
  russia: { en: 'Russia', es: 'Rusia' },
  turkey: { en: 'Turkey', es: 'Turquía' },
};

export function powerName(power: Power, lang: Lang): string {
  return POWER_NAMES[power][lang];
}

/** A sentence naming the problem, for the player. `name` turns a province id into a name. */
export function describeError(error: OrderParseError, lang: Lang, name: (id: ProvinceId) => string, orderText: (order: Order) => string): string {
  const list = (ids: readonly ProvinceId[], or: string): string => {
    const names = ids.map(name);
    return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} ${or} ${names[names.length - 1]}`;
  };
  const es = lang === 'es';
  switch (error.code) {
    case 'unknown-province':
      return es ? `Provincia desconocida: '${error.text}'` : `Unknown province '${error.text}'`;
    case 'ambiguous-province':
      return es ? `'${error.text}' es ambiguo: ${list(error.candidates, 'o')}` : `'${error.text}' is ambiguous: ${list(error.candidates, 'or')}`;
    case 'no-such-coast':
      return es ? `${list(error.candidates, 'o')} no tiene esa costa ('${error.text}')` : `${list(error.candidates, 'or')} has no such coast ('${error.text}')`;
    case 'empty':
      return es ? 'No hay ninguna orden' : 'There is no order';
    case 'too-long':
      return es ? 'El texto es demasiado largo para ser una orden' : 'The text is too long to be an order';
    case 'incomplete':
      return es ? `La orden '${error.text}' está incompleta` : `The order '${error.text}' is incomplete`;
    case 'unexpected-text':
      return es ? `No se entiende '${error.text}'` : `Cannot understand '${error.text}'`;
    case 'unit-type-required':
      return es ? `Falta el tipo de unidad (E o F) en ${name(error.province)}` : `The unit type (A or F) in ${name(error.province)} is missing`;
    case 'no-unit':
      return es ? `No hay ninguna unidad en ${name(error.province)}` : `There is no unit in ${name(error.province)}`;
    case 'coast-required':
      return es ? `Hay que indicar la costa de ${name(error.province)}` : `The coast of ${name(error.province)} must be given`;
    case 'convoy-of-fleet':
      return es ? 'Solo se pueden transportar ejércitos' : 'Only armies can be convoyed';
    case 'ambiguous-order':
      return es
        ? `'${error.text}' admite varias interpretaciones: ${error.readings.map(orderText).join(' / ')}`
        : `'${error.text}' can be read in several ways: ${error.readings.map(orderText).join(' / ')}`;
    case 'unknown-power':
      return es ? `Potencia desconocida: '${error.text}'` : `Unknown power '${error.text}'`;
  }
}

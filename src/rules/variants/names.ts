// Each variant's name, es and en, by id: the one place they are written. The registry takes its
// names from here, and the home screen's games list reads them without loading the rules engine
// (this module is data only, imported alone). A unit test checks every variant has its entry.
import type { Text } from './types';

export const VARIANT_NAMES = {
  standard: { es: 'Clásico, 7 jugadores', en: 'Classic, 7 players' },
  'six-players': { es: 'Clásico, 6 jugadores', en: 'Classic, 6 players' },
  'five-players': { es: 'Clásico, 5 jugadores', en: 'Classic, 5 players' },
  'four-players': { es: 'Clásico, 4 jugadores', en: 'Classic, 4 players' },
  'three-players': { es: 'Clásico, 3 jugadores', en: 'Classic, 3 players' },
  'three-players-russia': { es: 'Clásico, 3 jugadores (Rusia sola)', en: 'Classic, 3 players (Russia alone)' },
  'two-players': { es: 'Clásico, 2 jugadores (1914)', en: 'Classic, 2 players (1914)' },
  '1914': { es: '1914, 7 jugadores', en: '1914, 7 players' },
  '1914-six-players': { es: '1914, 6 jugadores', en: '1914, 6 players' },
  '1914-five-players': { es: '1914, 5 jugadores', en: '1914, 5 players' },
  '1914-four-players': { es: '1914, 4 jugadores', en: '1914, 4 players' },
  '1914-three-players': { es: '1914, 3 jugadores', en: '1914, 3 players' },
  '1914-three-players-no-italy': { es: '1914, 3 jugadores sin Italia', en: '1914, 3 players without Italy' },
  '1914-two-players': { es: '1914, 2 jugadores', en: '1914, 2 players' },
} as const satisfies Readonly<Record<string, Text>>;

export type VariantId = keyof typeof VARIANT_NAMES;

/** The name of the variant `id`, or undefined for an id this build does not know. */
export function variantName(id: string): Text | undefined {
  return Object.prototype.hasOwnProperty.call(VARIANT_NAMES, id) ? VARIANT_NAMES[id as VariantId] : undefined;
}

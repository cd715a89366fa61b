// Interface strings in the two languages the app speaks. The rules engine owns game vocabulary
// (province names, order notation); this file owns the words around it.
export type Lang = 'es' | 'en';

export const STRINGS = {
  es: {
    title: 'Pacto',
    tagline: 'Diplomacia entre amigos, teléfono a teléfono, sin servidor.',
    startingBoard: 'Posición inicial',
    phase: 'Primavera de 1901, movimientos',
    centres: 'centros',
    units: 'unidades',
    army: 'Ejército',
    fleet: 'Flota',
    language: 'Idioma',
    attribution: 'Mapa basado en Diplomacy.svg de Martin Asal, CC BY-SA 3.0 DE.',
    powers: { austria: 'Austria', england: 'Inglaterra', france: 'Francia', germany: 'Alemania', italy: 'Italia', russia: 'Rusia', turkey: 'Turquía' },
  },
  en: {
    title: 'Pacto',
    tagline: 'Diplomacy among friends, phone to phone, no server.',
    startingBoard: 'Starting position',
    phase: 'Spring 1901, movement',
    centres: 'centres',
    units: 'units',
    army: 'Army',
    fleet: 'Fleet',
    language: 'Language',
    attribution: 'Map based on Diplomacy.svg by Martin Asal, CC BY-SA 3.0 DE.',
    powers: { austria: 'Austria', england: 'England', france: 'France', germany: 'Germany', italy: 'Italy', russia: 'Russia', turkey: 'Turkey' },
  },
} as const;

export function defaultLang(languages: readonly string[]): Lang {
  return languages.some((l) => l.toLowerCase().startsWith('en')) && !languages[0]?.toLowerCase().startsWith('es') ? 'en' : 'es';
}

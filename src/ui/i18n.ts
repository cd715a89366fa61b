// Interface strings in the two languages the app speaks. The rules engine owns game vocabulary
// (province names, order notation, result explanations); this file owns the words around it.
// `Strings` is taken from the Spanish table, so the English one must have every key to compile.
import type { Coast, PhaseKind, Position, Power, Season, UnitType } from '../rules';

export type Lang = 'es' | 'en';
export const LANGS: readonly Lang[] = ['es', 'en'];

type Widen<T> = T extends string ? string : { readonly [K in keyof T]: Widen<T[K]> };

const es = {
  title: 'Pacto',
  tagline: 'Diplomacia entre amigos, teléfono a teléfono, sin servidor.',
  language: 'Idioma',
  languageNames: { es: 'Español', en: 'English' },
  army: 'Ejército',
  fleet: 'Flota',
  powers: { austria: 'Austria', england: 'Inglaterra', france: 'Francia', germany: 'Alemania', italy: 'Italia', russia: 'Rusia', turkey: 'Turquía' },
  // Two letters: one would clash in Spanish (Austria/Alemania, Inglaterra/Italia).
  powerInitials: { austria: 'Au', england: 'In', france: 'Fr', germany: 'Al', italy: 'It', russia: 'Ru', turkey: 'Tu' },
  seasons: { spring: 'Primavera', fall: 'Otoño', winter: 'Invierno' },
  phaseKinds: { movement: 'movimientos', retreat: 'retiradas', adjustment: 'ajustes' },
  coasts: { nc: 'costa norte', sc: 'costa sur', ec: 'costa este' },
  centres: 'centros',
  units: 'unidades',
  // The board
  mapLabel: 'Mapa del tablero',
  zoomIn: 'Acercar',
  zoomOut: 'Alejar',
  zoomReset: 'Ver todo el mapa',
  mapTools: 'Zoom del mapa',
  mapKeysHint: 'Las flechas llevan a la provincia vecina; Intro la elige; Escape cancela.',
  supplyCentre: 'centro de abastecimiento',
  dislodged: 'desalojada',
  marks: { bounced: 'Rebote', cut: 'Apoyo cortado', dislodged: 'Desalojada', failed: 'Fracasa' },
  // Order entry
  actions: {
    hold: 'Mantener',
    support: 'Apoyar',
    convoy: 'Transportar',
    'via-convoy': 'Mover vía transporte',
    direct: 'Mover sin transporte',
    disband: 'Disolver',
    cancel: 'Cancelar',
  },
  prompts: {
    idle: 'Toca una unidad para darle una orden.',
    idleRetreat: 'Toca una unidad desalojada para retirarla.',
    idleAdjustment: 'Toca un centro de origen libre para construir, o una unidad para destruirla.',
    nothingToOrder: 'No hay nada que ordenar en esta fase.',
    move: 'Toca el destino, la propia unidad para mantener, o elige otra orden.',
    'support-unit': 'Toca la unidad que quieres apoyar.',
    'support-target': 'Toca adónde va la unidad apoyada, o la propia unidad apoyada para que se mantenga.',
    'convoy-army': 'Toca el ejército que quieres transportar.',
    'convoy-target': 'Toca el destino del ejército transportado.',
    retreat: 'Toca adónde se retira, o disuélvela.',
    choose: 'Elige una opción:',
  },
  selected: 'Seleccionada',
  ordersTitle: 'Órdenes',
  noOrders: 'Todavía no hay órdenes.',
  removeOrder: 'Quitar la orden',
  clearAll: 'Borrar todas',
  withoutOrders: 'Sin orden (se mantienen):',
  typeOrders: 'Escribir órdenes',
  typeHint: 'Una orden por línea, en la notación del reglamento (E Par-Bor, F Lon-MNt). Una línea «Inglaterra:» cambia de potencia.',
  orderText: 'Texto de las órdenes',
  textPower: 'Potencia',
  addOrders: 'Añadir órdenes',
  line: 'Línea',
  added: 'Órdenes añadidas',
  // Practice board
  practiceTitle: 'Tablero de práctica',
  practiceIntro: 'Prueba órdenes para todas las potencias y mira qué dice el árbitro. Nada sale de este teléfono.',
  adjudicate: 'Resolver',
  nextPhase: 'Siguiente fase',
  reset: 'Reiniciar',
  back: 'Volver a las órdenes',
  resultsTitle: 'Resultados',
  heldWithoutOrders: 'Unidades sin orden, que se mantuvieron',
  phasesPlayed: 'Fases resueltas',
  // About
  aboutTitle: 'Acerca de',
  attribution: 'Mapa basado en Diplomacy.svg de Martin Asal, CC BY-SA 3.0 DE.',
  mapLicence: 'El mapa y los archivos derivados de él se distribuyen con la misma licencia (CC BY-SA 3.0 DE).',
  codeLicence: 'El código de Pacto se distribuye con licencia MIT.',
  licenceLink: 'Texto de la licencia CC BY-SA 3.0 DE',
  offline: 'Funciona sin conexión después de la primera visita.',
};

export type Strings = Widen<typeof es>;

const en: Strings = {
  title: 'Pacto',
  tagline: 'Diplomacy among friends, phone to phone, no server.',
  language: 'Language',
  languageNames: { es: 'Español', en: 'English' },
  army: 'Army',
  fleet: 'Fleet',
  powers: { austria: 'Austria', england: 'England', france: 'France', germany: 'Germany', italy: 'Italy', russia: 'Russia', turkey: 'Turkey' },
  powerInitials: { austria: 'Au', england: 'En', france: 'Fr', germany: 'Ge', italy: 'It', russia: 'Ru', turkey: 'Tu' },
  seasons: { spring: 'Spring', fall: 'Fall', winter: 'Winter' },
  phaseKinds: { movement: 'movement', retreat: 'retreats', adjustment: 'adjustments' },
  coasts: { nc: 'north coast', sc: 'south coast', ec: 'east coast' },
  centres: 'centres',
  units: 'units',
  mapLabel: 'Board map',
  zoomIn: 'Zoom in',
  zoomOut: 'Zoom out',
  zoomReset: 'Show the whole map',
  mapTools: 'Map zoom',
  mapKeysHint: 'Arrow keys move to the neighbouring province; Enter picks it; Escape cancels.',
  supplyCentre: 'supply centre',
  dislodged: 'dislodged',
  marks: { bounced: 'Bounced', cut: 'Support cut', dislodged: 'Dislodged', failed: 'Failed' },
  actions: {
    hold: 'Hold',
    support: 'Support',
    convoy: 'Convoy',
    'via-convoy': 'Move via convoy',
    direct: 'Move without convoy',
    disband: 'Disband',
    cancel: 'Cancel',
  },
  prompts: {
    idle: 'Tap a unit to give it an order.',
    idleRetreat: 'Tap a dislodged unit to retreat it.',
    idleAdjustment: 'Tap a free home centre to build, or a unit to remove it.',
    nothingToOrder: 'Nothing to order in this phase.',
    move: 'Tap the destination, the unit itself to hold, or pick another order.',
    'support-unit': 'Tap the unit you want to support.',
    'support-target': 'Tap where the supported unit goes, or the supported unit itself to support it holding.',
    'convoy-army': 'Tap the army you want to convoy.',
    'convoy-target': "Tap the convoyed army's destination.",
    retreat: 'Tap where it retreats to, or disband it.',
    choose: 'Pick one:',
  },
  selected: 'Selected',
  ordersTitle: 'Orders',
  noOrders: 'No orders yet.',
  removeOrder: 'Remove the order',
  clearAll: 'Clear all',
  withoutOrders: 'Without orders (they hold):',
  typeOrders: 'Type orders',
  typeHint: "One order per line, in the rulebook notation (A Par - Bur, F Lon - NTH). A line 'England:' switches power.",
  orderText: 'Order text',
  textPower: 'Power',
  addOrders: 'Add orders',
  line: 'Line',
  added: 'Orders added',
  practiceTitle: 'Practice board',
  practiceIntro: 'Try orders for every power and see what the adjudicator says. Nothing leaves this phone.',
  adjudicate: 'Adjudicate',
  nextPhase: 'Next phase',
  reset: 'Reset',
  back: 'Back to the orders',
  resultsTitle: 'Results',
  heldWithoutOrders: 'Units without orders, which held',
  phasesPlayed: 'Phases resolved',
  aboutTitle: 'About',
  attribution: 'Map based on Diplomacy.svg by Martin Asal, CC BY-SA 3.0 DE.',
  mapLicence: 'The map and the files derived from it are distributed under the same licence (CC BY-SA 3.0 DE).',
  codeLicence: "Pacto's code is distributed under the MIT licence.",
  licenceLink: 'CC BY-SA 3.0 DE licence text',
  offline: 'Works offline after the first visit.',
};

export const STRINGS: Readonly<Record<Lang, Strings>> = { es, en };

export function defaultLang(languages: readonly string[]): Lang {
  return languages.some((l) => l.toLowerCase().startsWith('en')) && !languages[0]?.toLowerCase().startsWith('es') ? 'en' : 'es';
}

export function phaseName(position: Position | { readonly phase: Position['phase'] }, lang: Lang): string {
  const t = STRINGS[lang];
  const { year, season, kind } = position.phase;
  return `${t.seasons[season as Season]} ${year}, ${t.phaseKinds[kind as PhaseKind]}`;
}

export function unitTypeName(type: UnitType, lang: Lang): string {
  return type === 'A' ? STRINGS[lang].army : STRINGS[lang].fleet;
}

export function coastName(coast: Coast, lang: Lang): string {
  return STRINGS[lang].coasts[coast];
}

export function powerName(power: Power, lang: Lang): string {
  return STRINGS[lang].powers[power];
}

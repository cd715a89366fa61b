// The words of the order notations, Spanish and English together: the rulebooks' short forms
// (seed 000: E/F, A = apoya, T = transporta, M = mantener; seed 002: 'vía transporte'), the
// play-by-web director's long forms (seed 003: 'Flota en XX mueve a XX', 'Creo ejército en XX')
// and the usual English ones (A/F, S, C, H, R, D, Build, Remove, Waive).
// Every phrase is folded (no accents, lower case); '-' stands for any dash or arrow.
// One list serves both languages because no word means two different things at the same
// place in an order (the Spanish 'A' = apoya comes after a unit, the English 'A' = army before one).

export type Phrase = readonly string[];

function phrases(...list: string[]): readonly Phrase[] {
  return list.map((p) => p.split(' '));
}

export const ARMY = phrases('a', 'army', 'e', 'ejercito', 'ej', 'ejto');
export const FLEET = phrases('f', 'fleet', 'flota', 'fl');

/** Nationality of a unit: written before foreign units (seed 000: `E Sil A E rus Var - Pru`); not checked. */
export const ADJECTIVE = phrases(
  'aus',
  'austriaco',
  'austriaca',
  'austrohungaro',
  'austrohungara',
  'austrian',
  'austria',
  'ing',
  'ingles',
  'inglesa',
  'english',
  'britanico',
  'britanica',
  'british',
  'england',
  'inglaterra',
  'fra',
  'frances',
  'francesa',
  'french',
  'france',
  'francia',
  'ale',
  'aleman',
  'alemana',
  'german',
  'germany',
  'alemania',
  'ita',
  'italiano',
  'italiana',
  'italian',
  'italy',
  'italia',
  'rus',
  'ruso',
  'rusa',
  'russian',
  'russia',
  'rusia',
  'tur',
  'turco',
  'turca',
  'turkish',
  'turkey',
  'turquia',
);

/** Between the unit type and its place: 'Ejército en París', 'Fleet in London'. */
export const UNIT_PREPOSITION = phrases('en', 'in', 'at');

export const HOLD = phrases(
  'h',
  'hold',
  'holds',
  'stand',
  'stands',
  'm',
  'mantiene',
  'mantener',
  'mantenerse',
  'se mantiene',
  'se mantiene en posicion',
  'mantiene posicion',
  'mantenerse en posicion',
  'permanece',
  'se queda',
  'queda',
  // Seed 000, example 6 prints 'E Var P' (permanecer) for a hold.
  'p',
  'permanecer',
);

/** A move right after the ordered unit. The bare Spanish 'a' is not here: there it means 'apoya'. */
export const MOVE = phrases(
  '-',
  'mueve',
  'mueve a',
  'se mueve a',
  'mover a',
  'move',
  'moves',
  'move to',
  'moves to',
  'to',
  'va a',
  'avanza a',
  'avanza sobre',
  'ataca',
  'ataca a',
  'attacks',
  'hacia',
);

/** The destination inside a support or convoy clause ('... ejército en Budapest a Galicia'). */
export const ARROW = phrases('-', 'a', 'to', 'hacia', 'into', 'mueve a', 'moves to', 'move to', 'moving to', 'en su movimiento a');

export const VIA_CONVOY = phrases(
  'via convoy',
  'via transporte',
  'via mar',
  'via sea',
  'by convoy',
  'by sea',
  'por mar',
  'por transporte',
  'por convoy',
  'via flota',
);

export const SUPPORT = phrases('s', 'sup', 'support', 'supports', 'a', 'apoya', 'apoyar', 'apoyo');
/** Optional words after 'apoya'/'supports' before the supported unit. */
export const SUPPORT_FILLER = phrases('movimiento', 'movimiento de', 'move', 'move of', 'moving', 'de', 'del', 'al', 'a', 'the', 'el');

export const CONVOY = phrases('c', 'convoy', 'convoys', 't', 'transporta', 'transportar', 'transporte');
export const CONVOY_FILLER = phrases('a', 'al', 'the', 'de');

export const RETREAT = phrases(
  'r',
  'retreat',
  'retreats',
  'retreat to',
  'retreats to',
  'se retira a',
  'se retira',
  'retira a',
  'retira',
  'retirada a',
  'retirarse a',
  'se retira hacia',
  'retrocede a',
);

/** After the unit ('A Par D'): a disband in the retreat phase, a removal in adjustments. */
export const DISBAND = phrases(
  'd',
  'disband',
  'disbands',
  'disbanded',
  'se disuelve',
  'disuelve',
  'disolver',
  'disuelvo',
  'destruye',
  'destruir',
  'destruyo',
  'elimina',
  'eliminar',
  'elimino',
  'remove',
  'removed',
  'removes',
  'destroy',
  'destroyed',
);

/** Before the unit ('Disband A Mun', 'Destruyo ejército en Munich', 'Remove A Mun'). */
export const DISBAND_FIRST = phrases(
  'disband',
  'disbands',
  'remove',
  'removes',
  'destroy',
  'destroys',
  'd',
  'destruyo',
  'destruir',
  'destruye',
  'elimino',
  'eliminar',
  'elimina',
  'disuelvo',
  'disolver',
  'disuelve',
);

export const BUILD = phrases('build', 'builds', 'b', 'creo', 'crear', 'crea', 'construyo', 'construir', 'construye');
/** Articles after 'Build'/'Creo' ('Creo un ejército en París', 'Build a fleet in Brest'). */
export const ARTICLE = phrases('un', 'una', 'a', 'an', 'new', 'nuevo', 'nueva');

export const WAIVE = phrases('waive', 'waives', 'waived', 'renuncio', 'renuncia', 'renunciar', 'pass');
export const WAIVE_TAIL = phrases('a construir', 'a la construccion', 'a una construccion', 'a construccion', 'build', 'a build', 'the build');

// Locations and orders in words for the screens, in the player's language.
import { formatLoc } from '../../rules';
import type { Loc } from '../../rules';
import type { Lang } from '../i18n';

/** 'San Petersburgo costa sur', 'Paris': how result explanations name places. */
export function locName(lang: Lang): (loc: Loc) => string {
  return (loc) => formatLoc(loc, lang, 'long');
}

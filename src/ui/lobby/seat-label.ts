// A seat's label, its powers in the game's order ('England + France'). Its own module, with the
// powers from the rules' types and not the rules' index, so the home screen's first chunk does not
// carry the rules engine.
import { POWERS, type Power } from '../../rules/types';
import { powerName, type Lang } from '../i18n';

/** A seat's powers in the game's order, named: 'England + France'. */
export function seatLabel(powers: readonly Power[], lang: Lang): string {
  return POWERS.filter((p) => powers.includes(p))
    .map((p) => powerName(p, lang))
    .join(' + ');
}

// Results in words, in the player's language: what the app's result list and the command line say
// about each order. Pure data in, a sentence out.
import type { IllegalReason, Loc, OrderResult, Reason } from './types';

export type ExplainLang = 'es' | 'en';
type LocName = (loc: Loc) => string;

const ILLEGAL: Record<IllegalReason, { es: string; en: string }> = {
  'no-such-unit': { es: 'no hay una unidad propia ahí', en: 'no unit of that power there' },
  'wrong-unit-type': { es: 'el tipo de unidad no coincide', en: 'wrong unit type' },
  'not-adjacent': { es: 'la región no es adyacente', en: 'not adjacent' },
  'army-to-sea': { es: 'un ejército no puede entrar en el mar', en: 'an army cannot enter a sea' },
  'fleet-to-land': { es: 'una flota no puede entrar en el interior', en: 'a fleet cannot go inland' },
  'move-to-self': { es: 'no puede moverse a su propia región', en: 'cannot move to its own province' },
  'coast-required': { es: 'hay que indicar la costa', en: 'the coast must be given' },
  'support-self': { es: 'una unidad no puede apoyarse a sí misma', en: 'a unit cannot support itself' },
  'support-unreachable': { es: 'no puede llegar a la región que apoya', en: 'cannot reach the province it supports' },
  'convoy-by-non-fleet': { es: 'solo las flotas transportan', en: 'only fleets convoy' },
  'convoy-from-land': { es: 'una flota en la costa no puede transportar', en: 'a fleet on a coast cannot convoy' },
  'convoy-non-army': { es: 'solo se transportan ejércitos', en: 'only armies are convoyed' },
  'fleet-cannot-be-convoyed': { es: 'una flota no puede ser transportada', en: 'a fleet cannot be convoyed' },
  'wrong-phase': { es: 'no es una orden de esta fase', en: 'not an order for this phase' },
  'retreat-not-allowed': { es: 'no puede retirarse ahí', en: 'cannot retreat there' },
  'not-dislodged': { es: 'la unidad no fue desalojada', en: 'the unit was not dislodged' },
  'not-home-centre': { es: 'solo se construye en centros de origen', en: 'builds go in home centres only' },
  'centre-not-owned': { es: 'el centro no es tuyo', en: 'the centre is not yours' },
  'centre-occupied': { es: 'el centro está ocupado', en: 'the centre is occupied' },
  'no-build-allowed': { es: 'no quedan construcciones', en: 'no builds left' },
  'no-removal-needed': { es: 'no hace falta retirar unidades', en: 'no removal needed' },
  'inland-fleet': { es: 'no se construyen flotas en el interior', en: 'fleets cannot be built inland' },
  'duplicate-order': { es: 'la unidad ya tenía una orden', en: 'the unit already had an order' },
};

export function explainReason(reason: Reason, lang: ExplainLang, name: LocName = (l) => l): string {
  const es = lang === 'es';
  switch (reason.kind) {
    case 'illegal':
      return (es ? 'ilegal: ' : 'illegal: ') + ILLEGAL[reason.why][lang];
    case 'bounced':
      return (es ? 'rebota con ' : 'bounced with ') + reason.with.map(name).join(', ');
    case 'beaten':
      return (es ? 'vencido por ' : 'beaten by ') + name(reason.by);
    case 'cut':
      return (es ? 'apoyo cortado por ' : 'support cut by ') + name(reason.by);
    case 'dislodged':
      return (es ? 'desalojada desde ' : 'dislodged from ') + name(reason.by);
    case 'no-convoy-route':
      return es ? 'no hay ruta de transporte' : 'no convoy route';
    case 'convoy-disrupted':
      return (es ? 'transporte interrumpido en ' : 'convoy disrupted at ') + name(reason.by);
    case 'support-not-matched':
      return es ? 'la unidad apoyada no hizo esa orden' : 'the supported unit did not do that';
    case 'no-order':
      return es ? 'sin orden' : 'no order';
    case 'void':
      return es ? 'sin efecto' : 'void';
  }
}

export function explainResult(result: OrderResult, lang: ExplainLang, name?: LocName): string {
  const verdict = result.success ? (lang === 'es' ? 'con éxito' : 'succeeds') : lang === 'es' ? 'fracasa' : 'fails';
  return result.reason ? `${verdict}: ${explainReason(result.reason, lang, name)}` : verdict;
}

// Every way the rulebooks let people play, as data. Seed 000 XV.3 and seed 002 ("Modo de juego
// alternativo") give the classic player counts; seed 001 ("1914") gives its own rule set and
// its own splits. Each entry names where it comes from.
import { STARTING_POSITION } from '../map';
import { POWERS, STANDARD_RULES, type Position, type Power } from '../types';
import { ITALIAN_PROVINCES } from './italy';
import { VARIANT_NAMES } from './names';
import type { Seat, Text, Variant, VariantRules, Victory } from './types';

function seat(...powers: Power[]): Seat {
  const sorted = POWERS.filter((p) => powers.includes(p));
  return { id: sorted.join('-'), powers: sorted };
}

function startIn(year: number): Position {
  return { ...STARTING_POSITION, phase: { ...STARTING_POSITION.phase, year } };
}

const CLASSIC: VariantRules = { ...STANDARD_RULES, allOrdersRequired: false, allianceVictory: false };
const RULES_1914: VariantRules = {
  victoryCentres: 18,
  destroyDislodged: true,
  supportNeedsConsent: true,
  allOrdersRequired: true,
  allianceVictory: true,
};
const BY_POWER: Victory = { by: 'power', count: 'centres', needed: 18 };

const SEVEN = POWERS.map((p) => seat(p));
const ALL_BUT = (...out: Power[]): Seat[] => POWERS.filter((p) => !out.includes(p)).map((p) => seat(p));

const NOTE_1914: Text = {
  es:
    'Reglas "1914" (edición argentina): empieza en la primavera de 1904; un apoyo a una unidad de otra potencia solo vale si esa potencia también lo anota; ' +
    'una unidad desalojada es destruida (no hay retiradas); hay que dar orden a todas las unidades; una alianza de al menos dos años completos con 18 centros gana en conjunto. ' +
    'Se juega en el mapa estándar, aunque el reglamento menciona Eslovaquia y un mar de Dinamarca.',
  en:
    '"1914" rules (Argentine edition): starts in Spring 1904; a support for another power\'s unit counts only if that power writes it too; ' +
    'a dislodged unit is destroyed (no retreats); every unit must be given an order; an alliance of at least two full years holding 18 centres wins jointly. ' +
    'Played on the standard map, although that rulebook mentions a Slovakia province and a Denmark sea.',
};

function text(es: string, en: string): Text {
  return { es, en };
}

function with1914(description: Text): Text {
  return { es: `${description.es} ${NOTE_1914.es}`, en: `${description.en} ${NOTE_1914.en}` };
}

const CLASSIC_VARIANTS: Variant[] = [
  {
    id: 'standard',
    name: VARIANT_NAMES['standard'],
    description: text(
      'Las reglas de siempre: cada jugador una potencia; gana quien controle 18 centros.',
      'The usual rules: one power each; 18 supply centres win.',
    ),
    players: 7,
    seats: SEVEN,
    neutral: [],
    start: STARTING_POSITION,
    rules: CLASSIC,
    victory: BY_POWER,
    source: 'seed 000; seed 002',
  },
  {
    id: 'six-players',
    name: VARIANT_NAMES['six-players'],
    description: text(
      'Italia no juega: sus unidades se mantienen sin apoyarse entre ellas, cualquiera puede apoyarlas, y si son desalojadas se eliminan.',
      'Italy is out: its units hold without supporting each other, anyone may support them, and a dislodged one is destroyed.',
    ),
    players: 6,
    seats: ALL_BUT('italy'),
    neutral: ['italy'],
    start: STARTING_POSITION,
    rules: CLASSIC,
    victory: BY_POWER,
    source: 'seed 000 XV.3; seed 002 "Modo de juego alternativo"',
  },
  {
    id: 'five-players',
    name: VARIANT_NAMES['five-players'],
    description: text('Italia y Alemania no juegan (como Italia con 6 jugadores).', 'Italy and Germany are out (as Italy with 6 players).'),
    players: 5,
    seats: ALL_BUT('italy', 'germany'),
    neutral: ['germany', 'italy'],
    start: STARTING_POSITION,
    rules: CLASSIC,
    victory: BY_POWER,
    source: 'seed 000 XV.3; seed 002 "Modo de juego alternativo"',
  },
  {
    id: 'four-players',
    name: VARIANT_NAMES['four-players'],
    description: text(
      'Inglaterra sola; Austria y Francia; Alemania y Turquía; Rusia e Italia. Centros y ajustes se cuentan por potencia.',
      'England alone; Austria and France; Germany and Turkey; Russia and Italy. Centres and adjustments count per power.',
    ),
    players: 4,
    seats: [seat('austria', 'france'), seat('england'), seat('germany', 'turkey'), seat('italy', 'russia')],
    neutral: [],
    start: STARTING_POSITION,
    rules: CLASSIC,
    victory: BY_POWER,
    source: 'seed 000 XV.3; seed 002 "Modo de juego alternativo"',
  },
  {
    id: 'three-players',
    name: VARIANT_NAMES['three-players'],
    description: text(
      'Inglaterra, Alemania y Austria; Rusia e Italia; Francia y Turquía. Centros y ajustes se cuentan por potencia.',
      'England, Germany and Austria; Russia and Italy; France and Turkey. Centres and adjustments count per power.',
    ),
    players: 3,
    seats: [seat('austria', 'england', 'germany'), seat('france', 'turkey'), seat('italy', 'russia')],
    neutral: [],
    start: STARTING_POSITION,
    rules: CLASSIC,
    victory: BY_POWER,
    source: 'seed 002 "Modo de juego alternativo"; seed 000 XV.3 (second split)',
  },
  {
    id: 'three-players-russia',
    name: VARIANT_NAMES['three-players-russia'],
    description: text(
      'Rusia sola; Inglaterra, Francia y Alemania; Austria, Italia y Turquía. Centros y ajustes se cuentan por potencia.',
      'Russia alone; England, France and Germany; Austria, Italy and Turkey. Centres and adjustments count per power.',
    ),
    players: 3,
    seats: [seat('austria', 'italy', 'turkey'), seat('england', 'france', 'germany'), seat('russia')],
    neutral: [],
    start: STARTING_POSITION,
    rules: CLASSIC,
    victory: BY_POWER,
    source: 'seed 000 XV.3 (first split)',
  },
  {
    id: 'two-players',
    name: VARIANT_NAMES['two-players'],
    description: text(
      'Inglaterra, Francia y Rusia contra Austria, Alemania y Turquía desde la primavera de 1914. Italia es neutral y no se puede entrar en ella; ' +
        'antes de los ajustes de otoño de 1914 se lanza una moneda (ambos bandos sellan un valor al dar las órdenes de otoño de 1914) y el ganador controla Italia desde la primavera de 1915. ' +
        'Gana quien controle 24 centros entre sus potencias.',
      'England, France and Russia against Austria, Germany and Turkey from Spring 1914. Italy is neutral and cannot be entered; ' +
        'before the Fall 1914 adjustments a coin is tossed (both sides seal a value with their Fall 1914 orders) and the winner plays Italy from Spring 1915. ' +
        'A side holding 24 centres among its powers wins.',
    ),
    players: 2,
    seats: [seat('austria', 'germany', 'turkey'), seat('england', 'france', 'russia')],
    neutral: ['italy'],
    start: startIn(1914),
    rules: { ...CLASSIC, victoryCentres: 24 },
    victory: { by: 'seat', count: 'centres', needed: 24 },
    toss: { year: 1914, power: 'italy', impassable: ITALIAN_PROVINCES },
    source: 'seed 000 XV.3; seed 002 "Modo de juego alternativo"',
  },
];

const VARIANTS_1914: Variant[] = [
  {
    id: '1914',
    name: VARIANT_NAMES['1914'],
    description: NOTE_1914,
    players: 7,
    seats: SEVEN,
    neutral: [],
    start: startIn(1904),
    rules: RULES_1914,
    victory: BY_POWER,
    source: 'seed 001',
  },
  {
    id: '1914-six-players',
    name: VARIANT_NAMES['1914-six-players'],
    description: with1914(
      text(
        'Italia no juega: sus unidades quedan fijas, cualquiera puede apoyarlas o destruirlas.',
        'Italy is out: its units stay put; anyone may support or destroy them.',
      ),
    ),
    players: 6,
    seats: ALL_BUT('italy'),
    neutral: ['italy'],
    start: startIn(1904),
    rules: RULES_1914,
    victory: BY_POWER,
    source: 'seed 001 "Reglas para distinto número de jugadores"',
  },
  {
    id: '1914-five-players',
    name: VARIANT_NAMES['1914-five-players'],
    description: with1914(text('Italia y Turquía no juegan (como Italia con 6 jugadores).', 'Italy and Turkey are out (as Italy with 6 players).')),
    players: 5,
    seats: ALL_BUT('italy', 'turkey'),
    neutral: ['italy', 'turkey'],
    start: startIn(1904),
    rules: RULES_1914,
    victory: BY_POWER,
    source: 'seed 001 "Reglas para distinto número de jugadores"',
  },
  {
    id: '1914-four-players',
    name: VARIANT_NAMES['1914-four-players'],
    description: with1914(
      text(
        'Inglaterra sola; Austria-Hungría y Francia; Alemania y Turquía; Italia y Rusia.',
        'England alone; Austria-Hungary and France; Germany and Turkey; Italy and Russia.',
      ),
    ),
    players: 4,
    seats: [seat('austria', 'france'), seat('england'), seat('germany', 'turkey'), seat('italy', 'russia')],
    neutral: [],
    start: startIn(1904),
    rules: RULES_1914,
    victory: BY_POWER,
    source: 'seed 001 "Reglas para distinto número de jugadores"',
  },
  {
    id: '1914-three-players',
    name: VARIANT_NAMES['1914-three-players'],
    description: with1914(
      text(
        'Inglaterra y Alemania; Turquía y Francia; Rusia, Austria-Hungría e Italia.',
        'England and Germany; Turkey and France; Russia, Austria-Hungary and Italy.',
      ),
    ),
    players: 3,
    seats: [seat('austria', 'italy', 'russia'), seat('england', 'germany'), seat('france', 'turkey')],
    neutral: [],
    start: startIn(1904),
    rules: RULES_1914,
    victory: BY_POWER,
    source: 'seed 001 "Reglas para distinto número de jugadores"',
  },
  {
    id: '1914-three-players-no-italy',
    name: VARIANT_NAMES['1914-three-players-no-italy'],
    description: with1914(
      text(
        'Inglaterra y Alemania; Turquía y Francia; Rusia y Austria-Hungría; Italia no juega (sus unidades quedan fijas).',
        'England and Germany; Turkey and France; Russia and Austria-Hungary; Italy is out (its units stay put).',
      ),
    ),
    players: 3,
    seats: [seat('austria', 'russia'), seat('england', 'germany'), seat('france', 'turkey')],
    neutral: ['italy'],
    start: startIn(1904),
    rules: RULES_1914,
    victory: BY_POWER,
    source: 'seed 001 "Reglas para distinto número de jugadores" (the option to leave Italy out)',
  },
  {
    id: '1914-two-players',
    name: VARIANT_NAMES['1914-two-players'],
    description: with1914(
      text(
        'Inglaterra, Francia y Rusia contra Austria-Hungría, Alemania y Turquía. Italia es impasable como Suiza; en el otoño de 1904 se lanza una moneda ' +
          '(ambos bandos sellan un valor con sus órdenes de otoño de 1904) e Italia pertenece al ganador desde la primavera de 1905. ' +
          'Gana quien tenga 24 ejércitos y flotas entre sus potencias; no hay victoria por alianza.',
        'England, France and Russia against Austria-Hungary, Germany and Turkey. Italy is impassable like Switzerland; in Fall 1904 a coin is tossed ' +
          '(both sides seal a value with their Fall 1904 orders) and Italy belongs to the winner from Spring 1905. ' +
          'A side with 24 armies and fleets among its powers wins; there is no alliance victory.',
      ),
    ),
    players: 2,
    seats: [seat('austria', 'germany', 'turkey'), seat('england', 'france', 'russia')],
    neutral: ['italy'],
    start: startIn(1904),
    rules: { ...RULES_1914, victoryCentres: 24, allianceVictory: false },
    victory: { by: 'seat', count: 'units', needed: 24 },
    toss: { year: 1904, power: 'italy', impassable: ITALIAN_PROVINCES },
    source: 'seed 001 "Reglas para distinto número de jugadores"',
  },
];

/** Every variant, classic ones first; the new-game screen lists them in this order. */
export const VARIANTS: readonly Variant[] = [...CLASSIC_VARIANTS, ...VARIANTS_1914];

export function variantById(id: string): Variant | undefined {
  return VARIANTS.find((v) => v.id === id);
}

// Strings of order entry that need more than a word: why a typed order was not taken. Kept
// apart from i18n.ts so two people can add strings without colliding; the English table must
// have every key of the Spanish one to compile.
import type { Lang } from '../i18n';

interface TypedStrings {
  /** A unit of a power this player does not hold: the unit as written, the power's name. */
  readonly notYours: (unit: string, power: string) => string;
  /** A build in the home centre of a power this player does not hold. */
  readonly notYourHome: (province: string, power: string) => string;
  /** No unit there (in a retreat phase: no dislodged unit there). */
  readonly noUnit: (province: string) => string;
  readonly noRetreat: (province: string) => string;
}

const es: TypedStrings = {
  notYours: (unit, power) => `${unit} es de ${power}, y no juegas con ${power}`,
  notYourHome: (province, power) => `${province} es un centro de origen de ${power}, y no juegas con ${power}`,
  noUnit: (province) => `No hay ninguna unidad en ${province}`,
  noRetreat: (province) => `Ninguna unidad de ${province} tiene que retirarse`,
};

const en: TypedStrings = {
  notYours: (unit, power) => `${unit} belongs to ${power}, which you do not play`,
  notYourHome: (province, power) => `${province} is a home centre of ${power}, which you do not play`,
  noUnit: (province) => `There is no unit in ${province}`,
  noRetreat: (province) => `No unit in ${province} has to retreat`,
};

export const TYPED_STRINGS: Readonly<Record<Lang, TypedStrings>> = { es, en };

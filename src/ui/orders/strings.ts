// Strings of order entry and results that need more than a word: why a typed order was not
// taken (TYPED_STRINGS); winter counts, why a tap did nothing, whose orders a result list shows
// (ORDER_STRINGS). Kept apart from i18n.ts so two people can add strings without colliding; the
// English tables must have every key of the Spanish ones to compile.
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

type Widen<T> = T extends string ? string : T extends (...args: infer A) => string ? (...args: A) => string : { readonly [K in keyof T]: Widen<T[K]> };

const esOrders = {
  adjustmentsTitle: 'Ajustes de invierno',
  builds: (n: number, free: string) => `+${n} ${n === 1 ? 'construcción' : 'construcciones'} (${free} ${free.includes(',') ? 'libres' : 'libre'})`,
  removals: (n: number) => `−${n} ${n === 1 ? 'destrucción' : 'destrucciones'}`,
  ordered: (done: number, of: number) => `${done} de ${of} ordenadas`,
  noMoreBuilds: (power: string, n: number, at: string) =>
    `${power} solo tiene ${n} ${n === 1 ? 'construcción' : 'construcciones'} y ya ${n === 1 ? 'está ordenada' : 'están ordenadas'}: quita una (✕ en la lista) para construir en ${at}.`,
  notBuildSite: (power: string, free: string) => `${power} solo puede construir en sus centros de origen libres: ${free}.`,
  noMoreRemovals: (power: string, n: number) => `${power} solo destruye ${n} ${n === 1 ? 'unidad' : 'unidades'}: toca antes una ya elegida para deshacerla.`,
  notRemoval: (power: string) => `Toca una unidad de ${power} para destruirla.`,
  resultsOf: (power: string) => `Órdenes de ${power}`,
  resultsOfPlayer: (power: string, player: string) => `Órdenes de ${power} (${player})`,
  centresChanged: 'Centros que cambiaron de manos',
  unownedCentre: 'neutral',
};

export type OrderStrings = Widen<typeof esOrders>;

const enOrders: OrderStrings = {
  adjustmentsTitle: 'Winter adjustments',
  builds: (n: number, free: string) => `+${n} ${n === 1 ? 'build' : 'builds'} (${free} free)`,
  removals: (n: number) => `−${n} ${n === 1 ? 'removal' : 'removals'}`,
  ordered: (done: number, of: number) => `${done} of ${of} ordered`,
  noMoreBuilds: (power: string, n: number, at: string) =>
    `${power} has only ${n} ${n === 1 ? 'build' : 'builds'}, already ordered: remove one (✕ in the list) to build in ${at} instead.`,
  notBuildSite: (power: string, free: string) => `${power} can build only in its free home centres: ${free}.`,
  noMoreRemovals: (power: string, n: number) => `${power} removes only ${n} ${n === 1 ? 'unit' : 'units'}: tap one already chosen first to undo it.`,
  notRemoval: (power: string) => `Tap one of ${power}'s units to remove it.`,
  resultsOf: (power: string) => `${power}'s orders`,
  resultsOfPlayer: (power: string, player: string) => `${power}'s orders (${player})`,
  centresChanged: 'Centres that changed hands',
  unownedCentre: 'unowned',
};

export const ORDER_STRINGS: Readonly<Record<Lang, OrderStrings>> = { es: esOrders, en: enOrders };

// Paths of Glory's data and the lookups every part of the rules uses (one place for each fact).
import { CARDS } from './cards';
import { CONNECTIONS } from './connections';
import { SPACES } from './spaces';
import type { Card, Restriction, Space, Unit } from './types';
import { UNITS } from './units';

export * from './types';
export { CARDS } from './cards';
export { CONNECTIONS } from './connections';
export { SPACES, SEED_SPELLINGS } from './spaces';
export { UNITS } from './units';
export { SETUP, NEUTRAL_ENTRY, OPTIONAL_SETUP, type Entry, type EnteringNation } from './setup';
export { SCENARIOS, type Scenario, type VictoryLevels } from './scenarios';
export * from './charts';

function index<T extends { readonly id: string }>(rows: readonly T[], what: string): ReadonlyMap<string, T> {
  const map = new Map<string, T>();
  for (const row of rows) {
    if (map.has(row.id)) throw new Error(`two ${what} with the id ${row.id}`);
    map.set(row.id, row);
  }
  return map;
}

const spaces = index(SPACES, 'spaces');
const units = index(UNITS, 'units');
const cards = index(CARDS, 'cards');

function get<T>(map: ReadonlyMap<string, T>, id: string, what: string): T {
  const found = map.get(id);
  if (found === undefined) throw new Error(`no ${what} ${id}`);
  return found;
}

export const space = (id: string): Space => get(spaces, id, 'space');
export const unit = (id: string): Unit => get(units, id, 'unit');
export const card = (id: string): Card => get(cards, id, 'card');
export const isSpace = (id: string): boolean => spaces.has(id);

/** One space's neighbours, each with the restriction of the connection (undefined: anyone). */
export interface Neighbour {
  readonly id: string;
  readonly only: readonly Restriction[] | undefined;
}

const adjacency: ReadonlyMap<string, readonly Neighbour[]> = (() => {
  const map = new Map<string, Neighbour[]>(SPACES.map((s) => [s.id, []]));
  for (const [a, b, only] of CONNECTIONS) {
    get(map, a, 'space').push({ id: b, only });
    get(map, b, 'space').push({ id: a, only });
  }
  return map;
})();

/** Every space connected to `id`, with each connection's restriction. */
export const neighbours = (id: string): readonly Neighbour[] => get(adjacency, id, 'space');

// Reading a game's records from one object store through its byGame index, split into the
// records that pass their shape check and the bad ones (named by primary key, left in place).
import type { Check } from './check';
import type { BadRecord } from './errors';

export interface Split<T> {
  readonly good: T[];
  readonly bad: BadRecord[];
}

/** The part of an idb index this needs; any store's byGame index fits. */
export interface GameIndex<V, K> {
  getAll(query: string): Promise<V[]>;
  getAllKeys(query: string): Promise<K[]>;
}

export async function readGame<V, K>(store: BadRecord['store'], index: GameIndex<V, K>, gameId: string, check: Check): Promise<Split<V> & { keys: K[] }> {
  // Both lists come back in index order (then primary key), so they line up one to one.
  const [values, keys] = await Promise.all([index.getAll(gameId), index.getAllKeys(gameId)]);
  return splitChecked(store, values, keys, check);
}

export function splitChecked<V, K>(store: BadRecord['store'], values: readonly V[], keys: readonly K[], check: Check): Split<V> & { keys: K[] } {
  const good: V[] = [];
  const goodKeys: K[] = [];
  const bad: BadRecord[] = [];
  values.forEach((value, i) => {
    const problem = check(value);
    if (problem === null) {
      good.push(value);
      goodKeys.push(keys[i]!);
    } else bad.push({ store, key: keys[i], problem });
  });
  return { good, bad, keys: goodKeys };
}

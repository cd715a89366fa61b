// A game's Y.Doc updates: appended one record per update, read back in seq order, and now and
// then merged into a single record. Each write resolves only once its transaction has committed
// with strict durability, so "stored" means on disk.
import { checkUpdate } from './check';
import { StoreDataError } from './errors';
import { readGame } from './records';
import type { PactoDB, UpdateRecord } from './schema';
import { loadYjs, yjs } from './yjs';

export const DURABLE = { durability: 'strict' } as const;
export const RELAXED = { durability: 'relaxed' } as const;

/** Appends in one transaction; returns the seq of each update. Seqs are taken inside the
 * transaction, so two tabs appending to the same game cannot collide. The updates flagged in
 * `outbox` also enter the game's relay outbox in the same transaction (src/store/relay.ts): an
 * update of this phone is stored for the relays exactly when it is stored at all. */
export async function appendUpdates(db: PactoDB, gameId: string, updates: readonly Uint8Array[], outbox: readonly boolean[] = []): Promise<number[]> {
  if (updates.length === 0) return [];
  const own = updates.filter((_, i) => outbox[i] === true);
  if (own.length === 0) {
    // Peers' updates only: relaxed, as their entries are (entries.ts): the peers still hold them,
    // and a later strict write makes these durable too (writes land in order).
    const tx = db.transaction('updates', 'readwrite', RELAXED);
    const cursor = await tx.store.index('byGame').openKeyCursor(gameId, 'prev');
    const last = cursor === null ? 0 : cursor.primaryKey[1];
    const seqs = updates.map((_, i) => last + 1 + i);
    await Promise.all([...updates.map((update, i) => tx.store.add({ gameId, seq: seqs[i]!, update, merged: 1 })), tx.done]);
    return seqs;
  }
  const tx = db.transaction(['updates', 'outbox'], 'readwrite', DURABLE);
  const store = tx.objectStore('updates');
  const box = tx.objectStore('outbox');
  const [cursor, boxCursor] = await Promise.all([store.index('byGame').openKeyCursor(gameId, 'prev'), box.index('byGame').openKeyCursor(gameId, 'prev')]);
  const last = cursor === null ? 0 : cursor.primaryKey[1];
  const boxLast = boxCursor === null ? 0 : boxCursor.primaryKey[1];
  const seqs = updates.map((_, i) => last + 1 + i);
  await Promise.all([
    ...updates.map((update, i) => store.add({ gameId, seq: seqs[i]!, update, merged: 1 })),
    ...own.map((update, i) => box.add({ gameId, seq: boxLast + 1 + i, update, acked: [] })),
    tx.done,
  ]);
  return seqs;
}

export interface LoadedUpdates {
  readonly records: UpdateRecord[];
  /** Appended updates these records stand for (compacted records count what they merged). */
  readonly merged: number;
}

/** Every good record in seq order. Throws StoreDataError (with the good ones as `partial`) if any is bad. */
export async function loadUpdates(db: PactoDB, gameId: string): Promise<LoadedUpdates> {
  await loadYjs(); // checkUpdate decodes each record
  const tx = db.transaction('updates', 'readonly');
  const { good, bad } = await readGame('updates', tx.store.index('byGame'), gameId, checkUpdate);
  await tx.done;
  const loaded = { records: good, merged: good.reduce((n, r) => n + r.merged, 0) };
  if (bad.length > 0) throw new StoreDataError(bad, loaded);
  return loaded;
}

export async function countUpdates(db: PactoDB, gameId: string): Promise<number> {
  return db.countFromIndex('updates', 'byGame', gameId);
}

export interface Compaction {
  readonly before: number;
  readonly after: number;
  readonly bytesBefore: number;
  readonly bytesAfter: number;
}

/** Merges all of a game's records into one, in a single transaction: an append that comes in
 * meanwhile waits for it and lands after the merged record with a higher seq. A game with a bad
 * record is not compacted (merging would either fail or bury the evidence). */
export async function compactUpdates(db: PactoDB, gameId: string): Promise<Compaction> {
  await loadYjs(); // checkUpdate decodes each record, and the merge below
  const tx = db.transaction('updates', 'readwrite', DURABLE);
  const { good, bad, keys } = await readGame('updates', tx.store.index('byGame'), gameId, checkUpdate);
  const bytesBefore = good.reduce((n, r) => n + r.update.length, 0);
  if (bad.length > 0) {
    tx.abort();
    await tx.done.catch(() => undefined);
    throw new StoreDataError(bad, { records: good });
  }
  const lastRecord = good[good.length - 1];
  if (good.length < 2 || lastRecord === undefined) {
    await tx.done;
    return { before: good.length, after: good.length, bytesBefore, bytesAfter: bytesBefore };
  }
  // mergeUpdates is synchronous, so the transaction stays open around it.
  const update = yjs().mergeUpdates(good.map((r) => r.update));
  const merged = good.reduce((n, r) => n + r.merged, 0);
  const writes: Promise<unknown>[] = keys.slice(0, -1).map((key) => tx.store.delete(key));
  writes.push(tx.store.put({ gameId, seq: lastRecord.seq, update, merged }));
  await Promise.all([...writes, tx.done]);
  return { before: good.length, after: 1, bytesBefore, bytesAfter: update.length };
}

/** Removes named records of a game, e.g. bad ones the user chose to discard. */
export async function deleteUpdates(db: PactoDB, gameId: string, seqs: readonly number[]): Promise<void> {
  const tx = db.transaction('updates', 'readwrite', DURABLE);
  await Promise.all([...seqs.map((seq) => tx.store.delete([gameId, seq])), tx.done]);
}

/**
 * Replaces all of a game's records by one holding `update()`, which is called synchronously as the
 * transaction starts: an append queued after it lands after the new record. Used when the records
 * held updates the gate refused (a store from an older version, or a hostile peer's update stored
 * before the gate existed): the doc's state holds everything that passed.
 */
export async function replaceUpdates(db: PactoDB, gameId: string, update: () => Uint8Array): Promise<void> {
  const tx = db.transaction('updates', 'readwrite', DURABLE);
  const bytes = update();
  const index = tx.store.index('byGame');
  const [keys, values] = await Promise.all([index.getAllKeys(gameId), index.getAll(gameId)]);
  const last = keys.reduce((m, k) => Math.max(m, k[1]), 0);
  const merged = values.reduce((n, r) => n + (typeof r.merged === 'number' ? r.merged : 1), 0);
  await Promise.all([
    ...keys.map((k) => tx.store.delete(k)),
    tx.store.put({ gameId, seq: Math.max(1, last), update: bytes, merged: Math.max(1, merged) }),
    tx.done,
  ]);
}

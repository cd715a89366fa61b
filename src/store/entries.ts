// A game's admitted entries (the truth the reducer reads) and the hashes of entries whose
// signature failed. A write holding an entry this phone signed is strict (on disk before the entry
// is published: after a crash the phone must know what it signed); one holding only peers'
// entries is relaxed (lost only with the operating system, and the peers still hold them: a strict
// write is a disk flush, and a phone receives dozens of entries a phase). Writes land in order, so
// a strict one makes the relaxed ones before it durable too. Failed hashes are a cache (relaxed,
// bounded).
import { checkEntry, checkFailed } from './check';
import { StoreDataError } from './errors';
import { readGame } from './records';
import type { EntryRecord, PactoDB } from './schema';
import { DURABLE, RELAXED } from './updates';

/** Stores and deletes entries of a game in one transaction: strict unless `strict` is false. */
export async function putEntries(
  db: PactoDB,
  gameId: string,
  put: readonly { readonly id: string; readonly bytes: Uint8Array }[],
  remove: readonly string[],
  strict = true,
): Promise<void> {
  if (put.length === 0 && remove.length === 0) return;
  const records: EntryRecord[] = put.map((e) => ({ gameId, id: e.id, bytes: e.bytes }));
  for (const r of records) {
    const problem = checkEntry(r);
    if (problem !== null) throw new TypeError(`putEntries: ${problem}`);
  }
  const tx = db.transaction('entries', 'readwrite', strict ? DURABLE : RELAXED);
  await Promise.all([...remove.map((id) => tx.store.delete([gameId, id])), ...records.map((r) => tx.store.put(r)), tx.done]);
}

/** A game's entries. Throws StoreDataError (with the good ones as `partial`) if a record is bad. */
export async function listEntries(db: PactoDB, gameId: string): Promise<EntryRecord[]> {
  const tx = db.transaction('entries', 'readonly');
  const { good, bad } = await readGame('entries', tx.store.index('byGame'), gameId, checkEntry);
  await tx.done;
  if (bad.length > 0) throw new StoreDataError(bad, good);
  return good;
}

/** Remembers failed hashes; keeps at most `limit` per game (the rest are forgotten, by key order). */
export async function putFailed(db: PactoDB, gameId: string, hashes: readonly string[], limit: number): Promise<void> {
  if (hashes.length === 0) return;
  const tx = db.transaction('failed', 'readwrite', { durability: 'relaxed' });
  await Promise.all(hashes.map((hash) => tx.store.put({ gameId, hash })));
  const keys = await tx.store.index('byGame').getAllKeys(gameId);
  const over = keys.length - limit;
  await Promise.all([...keys.slice(0, Math.max(0, over)).map((k) => tx.store.delete(k)), tx.done]);
}

export async function listFailed(db: PactoDB, gameId: string): Promise<string[]> {
  const tx = db.transaction('failed', 'readonly');
  const { good } = await readGame('failed', tx.store.index('byGame'), gameId, checkFailed);
  await tx.done;
  // A bad record of a cache only costs a signature check.
  return good.map((r) => r.hash);
}

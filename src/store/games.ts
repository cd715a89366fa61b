// Game metadata: what the lobby lists offline, without opening any game's updates.
import { checkGame } from './check';
import { StoreDataError } from './errors';
import { splitChecked } from './records';
import type { GameRecord, PactoDB } from './schema';
import { DURABLE } from './updates';

export async function putGame(db: PactoDB, game: GameRecord): Promise<void> {
  const problem = checkGame(game);
  if (problem !== null) throw new TypeError(`putGame: ${problem}`);
  const tx = db.transaction('games', 'readwrite', DURABLE);
  await Promise.all([tx.store.put(game), tx.done]);
}

export async function getGame(db: PactoDB, id: string): Promise<GameRecord | undefined> {
  const game = await db.get('games', id);
  if (game === undefined) return undefined;
  const problem = checkGame(game);
  if (problem !== null) throw new StoreDataError([{ store: 'games', key: id, problem }], undefined);
  return game;
}

/** Read-modify-write in one transaction, so two tabs updating lastPhase do not undo each other. */
export async function updateGame(db: PactoDB, id: string, patch: Partial<Omit<GameRecord, 'id'>>): Promise<GameRecord> {
  const tx = db.transaction('games', 'readwrite', DURABLE);
  const old = await tx.store.get(id);
  if (old === undefined) {
    tx.abort();
    await tx.done.catch(() => undefined);
    throw new Error(`updateGame: no game ${id}`);
  }
  const next = { ...old, ...patch, id };
  const problem = checkGame(next);
  if (problem !== null) {
    tx.abort();
    await tx.done.catch(() => undefined);
    throw new StoreDataError([{ store: 'games', key: id, problem }], old);
  }
  await Promise.all([tx.store.put(next), tx.done]);
  return next;
}

/** Newest first, then by id. Bad records: StoreDataError with the good games as `partial`. */
export async function listGames(db: PactoDB): Promise<GameRecord[]> {
  const tx = db.transaction('games', 'readonly');
  const [values, keys] = await Promise.all([tx.store.getAll(), tx.store.getAllKeys(), tx.done]);
  const { good, bad } = splitChecked('games', values, keys, checkGame);
  good.sort((a, b) => b.created - a.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (bad.length > 0) throw new StoreDataError(bad, good);
  return good;
}

/** The game and everything stored for it (updates, entries, failed hashes, drafts, outbox, relay cursors), atomically. */
export async function deleteGame(db: PactoDB, id: string): Promise<void> {
  const tx = db.transaction(['games', 'updates', 'drafts', 'entries', 'failed', 'outbox', 'relayCursors'], 'readwrite', DURABLE);
  const deletes: Promise<unknown>[] = [tx.objectStore('games').delete(id)];
  for (const name of ['updates', 'drafts', 'entries', 'failed', 'outbox', 'relayCursors'] as const) {
    const store = tx.objectStore(name);
    for (const key of await store.index('byGame').getAllKeys(id)) deletes.push(store.delete(key));
  }
  await Promise.all([...deletes, tx.done]);
}

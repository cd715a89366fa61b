// Each test gets its own fake-indexeddb factory: a private "browser profile" whose data
// survives closing and reopening the database, like a reload.
// idb recognises requests and transactions by the global IDB* classes, so Node needs them defined;
// the data still lives in each test's own factory.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import * as Y from 'yjs';
import { openPactoStore, persistDoc, type PactoStore } from '../../src/store';

export interface Profile {
  readonly factory: IDBFactory;
  open(): Promise<PactoStore>;
}

export function newProfile(name = 'pacto-test'): Profile {
  const factory = new IDBFactory();
  return { factory, open: () => openPactoStore(name, factory) };
}

/** A log entry shaped like a signed protocol message: opaque bytes plus a little JSON. */
export function message(i: number, size = 64): { n: number; body: Uint8Array } {
  const body = new Uint8Array(size);
  for (let j = 0; j < size; j++) body[j] = (i * 31 + j * 7) & 0xff;
  return { n: i, body };
}

export function logOf(doc: Y.Doc): unknown[] {
  return doc.getArray('log').toArray();
}

/** Opens the game from IndexedDB alone into a fresh doc and returns its log. */
export async function reopenLog(profile: Profile, gameId: string): Promise<unknown[]> {
  const store = await profile.open();
  const doc = new Y.Doc();
  const handle = persistDoc(store, gameId, doc);
  await handle.ready;
  const log = logOf(doc);
  await handle.destroy();
  doc.destroy();
  store.close();
  return log;
}

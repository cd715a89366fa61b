// A game's entry set in the store, in the shape net's GameReplica asks for (EntryStorage): the
// store does not import net, the shapes match structurally.
import { StoreDataError } from './errors';
import { FAILED_KEPT, type PactoStore } from './open';
import type { EntryRecord } from './schema';

export interface StoredEntries {
  /** Each entry under the id it was admitted as (admission's restore trusts only an entry that reads as that id). */
  load(): Promise<{ entries: { id: string; bytes: Uint8Array }[]; failed: string[] }>;
  save(put: readonly { readonly id: string; readonly bytes: Uint8Array }[], remove: readonly string[], strict?: boolean): Promise<void>;
  saveFailed(hashes: readonly string[]): Promise<void>;
}

export function entryStorage(store: PactoStore, gameId: string, failedKept = FAILED_KEPT): StoredEntries {
  return {
    async load() {
      let records: EntryRecord[];
      try {
        records = await store.listEntries(gameId);
      } catch (e) {
        // Bad records are left in place and reported by the store; the good ones still count.
        if (!(e instanceof StoreDataError)) throw e;
        console.warn('pacto:', e.message);
        records = e.partial as EntryRecord[];
      }
      return { entries: records.map((r) => ({ id: r.id, bytes: r.bytes })), failed: await store.listFailed(gameId) };
    },
    save: (put, remove, strict) => store.putEntries(gameId, put, remove, strict),
    saveFailed: (hashes) => store.putFailed(gameId, hashes, failedKept),
  };
}

// The public face of the store: the device's IndexedDB (identity keys, games, Y.Doc updates,
// admitted entries and failed-signature hashes, drafts with sealing keys, settings) and the
// binding of a Y.Doc and of a game's entry set to it.
export { openPactoStore, FAILED_KEPT, type PactoStore } from './open';
export { entryStorage } from './entry-storage';
export { relayStorage, type StoredRelayState } from './relay-storage';
export { persistDoc, type PersistOptions, type PersistedDoc } from './persist';
export { StoreDataError, type BadRecord } from './errors';
export type { DraftKey } from './drafts';
export type { DeviceSettings, IceServerSetting } from './settings';
export type { Compaction, LoadedUpdates } from './updates';
export { DB_VERSION } from './schema';
export type { KeptEntry, ReservationPatch, ReservationRecord } from './reservations';
export type {
  DraftRecord,
  EntryRecord,
  FailedRecord,
  GameRecord,
  IdentityKeysRecord,
  OutboxRecord,
  RelayCursorRecord,
  SealRecord,
  UpdateRecord,
} from './schema';

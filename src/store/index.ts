// The public face of the store: the device's IndexedDB (identity keys, games, Y.Doc updates,
// drafts with sealing keys, settings, verified messages) and the binding of a Y.Doc to it.
export { openPactoStore, type PactoStore } from './open';
export { persistDoc, type PersistOptions, type PersistedDoc } from './persist';
export { StoreDataError, type BadRecord } from './errors';
export type { DraftKey } from './drafts';
export type { DeviceSettings, IceServerSetting } from './settings';
export type { Compaction, LoadedUpdates } from './updates';
export { DB_VERSION } from './schema';
export type { DraftRecord, GameRecord, IdentityKeysRecord, SealRecord, UpdateRecord, VerifiedRecord } from './schema';

// Opening the device's database and handing out one object with every store operation bound to it.
import { wrap } from 'idb';
import { addSeal, deleteDraft, getDraft, listDrafts, saveDraftOrders, type DraftKey } from './drafts';
import { deleteGame, getGame, listGames, putGame, updateGame } from './games';
import { ensureIdentityKeys, getIdentityKeys } from './identity';
import { listEntries, listFailed, putEntries, putFailed } from './entries';
import { beginRelays, getRelayCursor, listRelayCursors, outboxAck, outboxList, putRelayCursor } from './relay';
import {
  DB_VERSION,
  upgradeSchema,
  type DraftRecord,
  type EntryRecord,
  type GameRecord,
  type IdentityKeysRecord,
  type OutboxRecord,
  type PactoDB,
  type RelayCursorRecord,
  type SealRecord,
} from './schema';
import { deleteReservation, modifyReservation, openReserved, type ReservationPatch, type ReservationRecord, type ReservedDB } from './reservations';
import { getSettings, updateSettings, type DeviceSettings } from './settings';
import { appendUpdates, compactUpdates, countUpdates, deleteUpdates, loadUpdates, replaceUpdates, type Compaction, type LoadedUpdates } from './updates';

export interface PactoStore {
  readonly name: string;
  /** The raw idb handle, for tools and tests; the app uses the methods below. */
  readonly db: PactoDB;
  close(): void;

  putGame(game: GameRecord): Promise<void>;
  getGame(id: string): Promise<GameRecord | undefined>;
  updateGame(id: string, patch: Partial<Omit<GameRecord, 'id'>>): Promise<GameRecord>;
  listGames(): Promise<GameRecord[]>;
  deleteGame(id: string): Promise<void>;

  /**
   * The game's sequence numbers and once-only names reserved before signing, changed in one strict
   * read-modify-write (null from `change`: nothing written). In a database of its own (reservations.ts).
   */
  modifyReservation(gameId: string, change: (old: ReservationRecord) => ReservationPatch | null): Promise<ReservationRecord | null>;

  /** `outbox[i]`: update i is this phone's own and also enters the relay outbox, in the same transaction. */
  appendUpdates(gameId: string, updates: readonly Uint8Array[], outbox?: readonly boolean[]): Promise<number[]>;
  loadUpdates(gameId: string): Promise<LoadedUpdates>;
  countUpdates(gameId: string): Promise<number>;
  compact(gameId: string): Promise<Compaction>;
  deleteUpdates(gameId: string, seqs: readonly number[]): Promise<void>;
  /** Replaces every update record of the game by one: `update()`, called as the transaction starts. */
  replaceUpdates(gameId: string, update: () => Uint8Array): Promise<void>;

  getDraft(key: DraftKey): Promise<DraftRecord | undefined>;
  saveDraftOrders(key: DraftKey, orders: unknown, now: number): Promise<DraftRecord>;
  /** With `orders`: the draft's orders too, in the same strict write; `replaces`: a seal's hash it removes (see drafts.ts). */
  addSeal(key: DraftKey, seal: SealRecord, orders?: { readonly orders: unknown; readonly now: number }, replaces?: string): Promise<DraftRecord>;
  listDrafts(gameId: string): Promise<DraftRecord[]>;
  deleteDraft(key: DraftKey): Promise<void>;

  getSettings(): Promise<DeviceSettings>;
  updateSettings(patch: Partial<DeviceSettings>): Promise<void>;

  getIdentityKeys(): Promise<IdentityKeysRecord | undefined>;
  ensureIdentityKeys(randomBytes: (n: number) => Uint8Array, now: number): Promise<IdentityKeysRecord>;

  /** Strict (on disk when it resolves) unless `strict` is false (see entries.ts). */
  putEntries(gameId: string, put: readonly { readonly id: string; readonly bytes: Uint8Array }[], remove: readonly string[], strict?: boolean): Promise<void>;
  listEntries(gameId: string): Promise<EntryRecord[]>;
  putFailed(gameId: string, hashes: readonly string[], limit?: number): Promise<void>;
  listFailed(gameId: string): Promise<string[]>;

  outboxList(gameId: string): Promise<OutboxRecord[]>;
  outboxAck(gameId: string, seq: number, relay: string, relays: readonly string[]): Promise<void>;
  beginRelays(gameId: string, relays: readonly string[], state: () => Uint8Array, again?: readonly string[]): Promise<string[]>;
  getRelayCursor(gameId: string, relay: string): Promise<string | undefined>;
  putRelayCursor(gameId: string, relay: string, cursor: string): Promise<void>;
  listRelayCursors(gameId: string): Promise<RelayCursorRecord[]>;
}

/** Failed-signature hashes kept per game. */
export const FAILED_KEPT = 10_000;

/** `idbFactory`: the browser's indexedDB by default; tests pass a fake-indexeddb IDBFactory.
 * idb recognises IndexedDB objects by the global IDB* classes: in Node import 'fake-indexeddb/auto' first. */
export async function openPactoStore(name = 'pacto', idbFactory?: IDBFactory): Promise<PactoStore> {
  const factory = idbFactory ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (factory === undefined) throw new Error('openPactoStore: this environment has no IndexedDB');
  // idb's openDB always uses the global indexedDB, so open through the given factory and wrap.
  const request = factory.open(name, DB_VERSION);
  request.addEventListener('upgradeneeded', (event) => upgradeSchema(wrap(request.result) as unknown as PactoDB, event.oldVersion));
  const db = (await wrap(request)) as unknown as PactoDB;
  // A newer version of the app in another tab wants to upgrade: let it, rather than block it.
  db.addEventListener('versionchange', () => db.close());
  return bindStore(name, db, factory);
}

function bindStore(name: string, db: PactoDB, factory: IDBFactory): PactoStore {
  // Opened on first use: most screens reserve nothing.
  let reserved: Promise<ReservedDB> | null = null;
  const reservedDb = () => (reserved ??= openReserved(factory, name));
  return {
    name,
    db,
    close: () => {
      db.close();
      void reserved?.then((r) => r.close()).catch(() => undefined);
    },
    putGame: (game) => putGame(db, game),
    getGame: (id) => getGame(db, id),
    updateGame: (id, patch) => updateGame(db, id, patch),
    listGames: () => listGames(db),
    deleteGame: async (id) => {
      await deleteGame(db, id);
      await deleteReservation(await reservedDb(), id);
    },
    modifyReservation: async (gameId, change) => modifyReservation(await reservedDb(), gameId, change),
    appendUpdates: (gameId, updates, outbox) => appendUpdates(db, gameId, updates, outbox),
    loadUpdates: (gameId) => loadUpdates(db, gameId),
    countUpdates: (gameId) => countUpdates(db, gameId),
    compact: (gameId) => compactUpdates(db, gameId),
    deleteUpdates: (gameId, seqs) => deleteUpdates(db, gameId, seqs),
    replaceUpdates: (gameId, update) => replaceUpdates(db, gameId, update),
    getDraft: (key) => getDraft(db, key),
    saveDraftOrders: (key, orders, now) => saveDraftOrders(db, key, orders, now),
    addSeal: (key, seal, orders, replaces) => addSeal(db, key, seal, orders, replaces),
    listDrafts: (gameId) => listDrafts(db, gameId),
    deleteDraft: (key) => deleteDraft(db, key),
    getSettings: () => getSettings(db),
    updateSettings: (patch) => updateSettings(db, patch),
    getIdentityKeys: () => getIdentityKeys(db),
    ensureIdentityKeys: (randomBytes, now) => ensureIdentityKeys(db, randomBytes, now),
    putEntries: (gameId, put, remove, strict) => putEntries(db, gameId, put, remove, strict),
    listEntries: (gameId) => listEntries(db, gameId),
    putFailed: (gameId, hashes, limit = FAILED_KEPT) => putFailed(db, gameId, hashes, limit),
    listFailed: (gameId) => listFailed(db, gameId),
    outboxList: (gameId) => outboxList(db, gameId),
    outboxAck: (gameId, seq, relay, relays) => outboxAck(db, gameId, seq, relay, relays),
    beginRelays: (gameId, relays, state, again) => beginRelays(db, gameId, relays, state, again),
    getRelayCursor: (gameId, relay) => getRelayCursor(db, gameId, relay),
    putRelayCursor: (gameId, relay, cursor) => putRelayCursor(db, gameId, relay, cursor),
    listRelayCursors: (gameId) => listRelayCursors(db, gameId),
  };
}

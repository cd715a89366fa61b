// The IndexedDB layout of one device: what each object store holds and how it is keyed.
// Bump DB_VERSION and add a step to upgradeSchema when the layout changes; never edit a step.
import type { DBSchema, IDBPDatabase } from 'idb';

export const DB_VERSION = 4;

/** The device's own keys. Secret seeds only: public keys are derived, never stored or exported. */
export interface IdentityKeysRecord {
  /** 32-byte ed25519 seed (tweetnacl sign.keyPair.fromSeed). */
  readonly signSeed: Uint8Array;
  /** 32-byte curve25519 secret key (tweetnacl box.keyPair.fromSecretKey). */
  readonly boxSecret: Uint8Array;
  readonly created: number;
}

/** A small open record: the lobby lists games from these without opening any Y.Doc. */
export interface GameRecord {
  readonly id: string;
  readonly title: string;
  /** Milliseconds since 1970, from the caller's clock. */
  readonly created: number;
  readonly myPower?: string;
  /** The last phase this device showed, e.g. '1903-fall-movement'. */
  readonly lastPhase?: string;
  readonly [extra: string]: unknown;
}

export interface UpdateRecord {
  readonly gameId: string;
  /** Increases by one per append within a game; a compacted record keeps the highest seq it merged. */
  readonly seq: number;
  /** A Yjs v1 update, as given by doc.on('update'). */
  readonly update: Uint8Array;
  /** How many appended updates this record stands for (1 unless compacted). */
  readonly merged: number;
}

/** A sealing key kept until the phase is over: without it the player could not reveal. */
export interface SealRecord {
  readonly key: Uint8Array;
  readonly nonce?: Uint8Array;
  /** The commit's hash, so the reveal can find the key of the commit it must open. */
  readonly hash: string;
  readonly created: number;
  /**
   * The signed commit itself, kept with its secret: a phone that dies after the secret's write and
   * before the commit leaves sends it again before a FINAL names it (else the FINAL names a commit
   * no other phone can ever hold). Absent in seals stored before it was kept.
   */
  readonly entry?: Uint8Array;
}

export interface DraftRecord {
  readonly gameId: string;
  readonly phase: string;
  readonly power: string;
  /** Draft orders as the UI keeps them (structured-cloneable; never leaves the device in clear). */
  readonly orders: unknown;
  readonly seals: readonly SealRecord[];
  readonly updated: number;
}

/** A signed entry this device admitted for a game (src/protocol/admission.ts): the game's truth. */
export interface EntryRecord {
  readonly gameId: string;
  /** The entry's id (hash of its payload), unique within the game. */
  readonly id: string;
  /** Signature and canonical payload, as signed. */
  readonly bytes: Uint8Array;
}

/** An entry whose signature failed (by hash of its bytes), so it is never checked again. */
export interface FailedRecord {
  readonly gameId: string;
  readonly hash: string;
}

/** A Yjs update this phone made for a game, kept until every relay of the game has acknowledged it. */
export interface OutboxRecord {
  readonly gameId: string;
  /** Increases by one per update within a game. */
  readonly seq: number;
  readonly update: Uint8Array;
  /** The relays (ws[s]:// addresses) that have stored it durably. */
  readonly acked: readonly string[];
}

/** Where this phone is in one relay's feed of one game. A record exists from the first time the
 *  game used the relay; `cursor` is '' until something was fetched. */
export interface RelayCursorRecord {
  readonly gameId: string;
  readonly relay: string;
  readonly cursor: string;
}

export interface PactoSchema extends DBSchema {
  identity: { key: string; value: IdentityKeysRecord };
  games: { key: string; value: GameRecord };
  updates: { key: [string, number]; value: UpdateRecord; indexes: { byGame: string } };
  drafts: { key: [string, string, string]; value: DraftRecord; indexes: { byGame: string } };
  settings: { key: string; value: unknown };
  entries: { key: [string, string]; value: EntryRecord; indexes: { byGame: string } };
  failed: { key: [string, string]; value: FailedRecord; indexes: { byGame: string } };
  outbox: { key: [string, number]; value: OutboxRecord; indexes: { byGame: string } };
  relayCursors: { key: [string, string]; value: RelayCursorRecord; indexes: { byGame: string } };
}

/** 'reserved': the store of the reservations' own database (reservations.ts). */
export type StoreName = 'identity' | 'games' | 'updates' | 'drafts' | 'settings' | 'entries' | 'failed' | 'outbox' | 'relayCursors' | 'reserved';

export type PactoDB = IDBPDatabase<PactoSchema>;

export function upgradeSchema(db: PactoDB, oldVersion: number): void {
  if (oldVersion < 1) {
    db.createObjectStore('identity');
    db.createObjectStore('games', { keyPath: 'id' });
    db.createObjectStore('updates', { keyPath: ['gameId', 'seq'] }).createIndex('byGame', 'gameId');
    db.createObjectStore('drafts', { keyPath: ['gameId', 'phase', 'power'] }).createIndex('byGame', 'gameId');
    db.createObjectStore('settings');
    // Version 1's signature cache, dropped by version 2 (typed loosely: the schema no longer names it).
    (db as unknown as { createObjectStore(n: string, o: object): { createIndex(n: string, k: string): void } })
      .createObjectStore('verified', { keyPath: ['gameId', 'id'] })
      .createIndex('byGame', 'gameId');
  }
  if (oldVersion < 2) {
    // The admitted entries replace the signature cache: an admitted entry was checked once, on admission.
    // Existing games fill `entries` from their stored updates the first time they are opened.
    (db as unknown as { deleteObjectStore(name: string): void }).deleteObjectStore('verified');
    db.createObjectStore('entries', { keyPath: ['gameId', 'id'] }).createIndex('byGame', 'gameId');
    db.createObjectStore('failed', { keyPath: ['gameId', 'hash'] }).createIndex('byGame', 'gameId');
  }
  if (oldVersion < 3) {
    // The relay's phone side: new stores only, so nothing of version 2 is touched. Games of version
    // 2 put their whole state in the outbox the first time they use a relay (src/net/relay/phone.ts).
    db.createObjectStore('outbox', { keyPath: ['gameId', 'seq'] }).createIndex('byGame', 'gameId');
    db.createObjectStore('relayCursors', { keyPath: ['gameId', 'relay'] }).createIndex('byGame', 'gameId');
  }
  // Version 4 changes nothing here: sequence numbers and once-only names are reserved in a
  // database of their own from then on (reservations.ts). The bump makes tabs of older versions,
  // which reserve in the game's record, close this database (versionchange), so no tab reserves
  // where this version does not look.
}

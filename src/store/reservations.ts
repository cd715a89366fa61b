// What this device reserved before signing, per game: the next sequence number and the names of
// the messages the protocol allows once (src/protocol/README.md, "Sending before the entry is
// stored"). In a database of its own (`<name>-reserved`), not in the game's record: IndexedDB runs
// the transactions of one database one after another, so there this strict write, which every
// FINAL, LOCK and REVEAL waits for before it goes out, queued behind the bulk writes of entries
// and doc updates (a strict write from an idle worker took 162 ms in the game's database during
// the phase bench, 37 ms in a database of its own).
import { wrap, type DBSchema, type IDBPDatabase } from 'idb';
import { StoreDataError } from './errors';
import { DURABLE } from './updates';

export const RESERVED_DB_VERSION = 1;

/** Kept per game: numbers below `nextSeq` are taken, and the once-only names in `once` (the last 200). */
export interface ReservationRecord {
  readonly gameId: string;
  readonly nextSeq: number;
  readonly once: readonly string[];
  /**
   * Once-only entries written with their name, in the same transaction (every once-only message,
   * and the last seal's FINAL with the commit it names: src/ui/game/outbox.ts send): a phone that
   * dies before sending them sends these very bytes again, instead of nothing. Only names still in
   * `once`, the last KEPT_ENTRIES.
   */
  readonly kept?: readonly KeptEntry[];
}

/** The entries sent together under the once-only name `name` (in order: the commit, its FINAL). */
export interface KeptEntry {
  readonly name: string;
  readonly entries: readonly Uint8Array[];
  /** A secret the entry depends on, written with it (the lot commit's: base64url). */
  readonly secret?: string;
}

/** How many kept entries a game's reservation holds (the latest): a few phases' worth. */
export const KEPT_ENTRIES = 48;

/** What a change of the reservation writes; `kept` left out keeps what is stored. */
export interface ReservationPatch {
  readonly nextSeq: number;
  readonly once: readonly string[];
  readonly kept?: readonly KeptEntry[];
}

interface ReservedSchema extends DBSchema {
  games: { key: string; value: ReservationRecord };
}

export type ReservedDB = IDBPDatabase<ReservedSchema>;

export async function openReserved(factory: IDBFactory, name: string): Promise<ReservedDB> {
  const request = factory.open(`${name}-reserved`, RESERVED_DB_VERSION);
  request.addEventListener('upgradeneeded', (event) => {
    if (event.oldVersion < 1) request.result.createObjectStore('games', { keyPath: 'gameId' });
  });
  const db = (await wrap(request)) as unknown as ReservedDB;
  db.addEventListener('versionchange', () => db.close());
  return db;
}

function checkReservation(v: unknown): string | null {
  if (typeof v !== 'object' || v === null) return 'not an object';
  const r = v as Record<string, unknown>;
  if (typeof r.gameId !== 'string') return 'gameId is not a string';
  if (typeof r.nextSeq !== 'number' || !Number.isSafeInteger(r.nextSeq) || r.nextSeq < 0) return 'nextSeq is not a count';
  if (!Array.isArray(r.once) || !r.once.every((n) => typeof n === 'string')) return 'once is not a list of names';
  const kept: unknown = r.kept;
  if (kept !== undefined && (!Array.isArray(kept) || !kept.every(isKept))) return 'kept is not a list of named entries';
  return null;
}

function isKept(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const k = v as Record<string, unknown>;
  return (
    typeof k.name === 'string' &&
    Array.isArray(k.entries) &&
    k.entries.every((e) => e instanceof Uint8Array) &&
    (k.secret === undefined || typeof k.secret === 'string')
  );
}

/**
 * The game's reservation changed by `change` (given what is stored, or a fresh one) in one strict
 * read-modify-write: read-write transactions on one store run one at a time, across tabs too, so
 * nothing is reserved between the read and the write. `change` returns null to write nothing
 * (null comes back); it must be synchronous. A stored record of the wrong shape is never
 * overwritten (a number could be reused): StoreDataError.
 */
export async function modifyReservation(
  db: ReservedDB,
  gameId: string,
  change: (old: ReservationRecord) => ReservationPatch | null,
): Promise<ReservationRecord | null> {
  const tx = db.transaction('games', 'readwrite', DURABLE);
  const stored: unknown = await tx.store.get(gameId);
  const problem = stored === undefined ? null : checkReservation(stored);
  let next: ReservationRecord | null = null;
  let error: unknown = null;
  if (problem !== null) error = new StoreDataError([{ store: 'reserved', key: gameId, problem }], undefined);
  else
    try {
      const old = (stored as ReservationRecord | undefined) ?? { gameId, nextSeq: 0, once: [] };
      const patch = change(old);
      if (patch !== null) {
        // Kept entries only while their name is reserved (a name given back takes its entry along).
        const kept = (patch.kept ?? old.kept ?? []).filter((k) => patch.once.includes(k.name)).slice(-KEPT_ENTRIES);
        next = { gameId, nextSeq: patch.nextSeq, once: [...patch.once], ...(kept.length === 0 ? {} : { kept }) };
      }
    } catch (e) {
      error = e;
    }
  if (error !== null || next === null) {
    if (error !== null) tx.abort();
    await tx.done.catch(() => undefined);
    if (error !== null) throw error;
    return null;
  }
  await Promise.all([tx.store.put(next), tx.done]);
  return next;
}

export async function deleteReservation(db: ReservedDB, gameId: string): Promise<void> {
  const tx = db.transaction('games', 'readwrite', DURABLE);
  await Promise.all([tx.store.delete(gameId), tx.done]);
}

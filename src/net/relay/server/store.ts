// Where a relay keeps blobs: an interface with two implementations, the embedded on-disk store
// (lmdb-store.ts, the default) and Redis Streams (redis-store.ts, with PACTO_REDIS_URL). Both
// give the same cursors ("<ms>-<n>", ordered, as Redis stream ids are), the same checksum per
// record, and the same live feed: after a blob is durably written, its cursor and bytes are
// published on the room's bus channel, in cursor order. Node only.
import { createHash } from 'node:crypto';

export interface StoreLimits {
  readonly maxRoomBytes: number;
  readonly maxRoomBlobs: number;
  readonly roomIdleMs: number;
  /** Blob bytes the whole store holds at most (the embedded store; Redis: its maxmemory). */
  readonly maxStoreBytes?: number;
  /** A room with no append for this long may be evicted, oldest first, to make room when the store is full. */
  readonly evictIdleMs?: number;
}

export type AppendResult =
  | { readonly ok: true; readonly cursor: string; readonly dup: boolean }
  | { readonly ok: false; readonly code: 'room-full' | 'relay-full'; readonly message: string };

export interface StoredBlob {
  readonly cursor: string;
  readonly blob: Uint8Array;
}

export interface FetchResult {
  readonly items: readonly StoredBlob[];
  /** Cursors of records whose checksum failed; skipped, and named in the server log. */
  readonly damaged: readonly string[];
  /** The cursor to fetch after next time (the last record looked at, damaged or not). */
  readonly next: string;
  readonly more: boolean;
}

/** A stored Web Push subscription (the frame's fields, the endpoint already checked). */
export interface StoredPush {
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
}

export type AddPushResult =
  { readonly ok: true; readonly replaced: boolean } | { readonly ok: false; readonly code: 'too-many-push-subscriptions'; readonly message: string };

export interface RelayStore {
  /** Resolves once the blob is durably stored (and published live), or the room is full. An
   *  `id` already stored in the room answers with its first cursor and `dup`. */
  append(room: string, id: string, blob: Uint8Array): Promise<AppendResult>;
  /** Blobs after `after` in cursor order: at most `limit`, and at most `maxBytes` of blobs (but
   *  always at least one when there is one). */
  fetch(room: string, after: string, limit: number, maxBytes: number): Promise<FetchResult>;
  /** Deletes rooms idle longer than `roomIdleMs`, with their push subscriptions; returns how
   *  many. (Redis expires them itself.) */
  sweep(now?: number): Promise<number>;
  /** Stores a push subscription for the room (the same endpoint again replaces its keys); refuses
   *  past `max` per room. It expires with the room. */
  addPush(room: string, sub: StoredPush, max: number): Promise<AddPushResult>;
  /** Whether there was such a subscription. */
  removePush(room: string, endpoint: string): Promise<boolean>;
  listPush(room: string): Promise<StoredPush[]>;
  /** Counts one notify of the room in the current fixed window of `windowMs`: the count so far
   *  (this one included) and the ms left in the window. Shared by every process of the store. */
  countNotify(room: string, windowMs: number): Promise<{ readonly count: number; readonly resetMs: number }>;
  /** Takes up to `wanted` pushes from the room's `max` per fixed window of `windowMs`: how many
   *  may be sent (0 once the window's are spent) and the ms left in the window. Shared by every
   *  process of the store. */
  reservePushes(room: string, windowMs: number, wanted: number, max: number): Promise<{ readonly granted: number; readonly resetMs: number }>;
  /** A value every process of this store shares (the VAPID keys), made once by `create`: when
   *  two processes race, the first one stored wins and both return it. */
  sharedValue(name: string, create: () => string): Promise<string>;
  close(): Promise<void>;
}

const CHECKSUM = 8;
const RECORD_DOMAIN = Buffer.from('pacto-relay-record\n');

function checksum(room: string, blob: Uint8Array): Buffer {
  return createHash('sha256').update(RECORD_DOMAIN).update(room).update(blob).digest().subarray(0, CHECKSUM);
}

/** A stored record: checksum (8 bytes of SHA-256 over the room and the blob) || blob. */
export function encodeRecord(room: string, blob: Uint8Array): Buffer {
  return Buffer.concat([checksum(room, blob), blob]);
}

/** The blob, or null when the record is damaged. */
export function decodeRecord(room: string, record: Uint8Array): Uint8Array | null {
  if (record.length <= CHECKSUM) return null;
  const blob = record.subarray(CHECKSUM);
  return Buffer.from(record.buffer, record.byteOffset, CHECKSUM).equals(checksum(room, blob)) ? blob : null;
}

/** What the live feed carries on a room's channel: cursor "\n" blob. */
export function encodeLive(cursor: string, blob: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`${cursor}\n`), blob]);
}

export function decodeLive(message: Buffer): StoredBlob | null {
  const nl = message.indexOf(10);
  if (nl <= 0) return null;
  return { cursor: message.subarray(0, nl).toString('latin1'), blob: message.subarray(nl + 1) };
}

/** "<ms>-<n>" as two numbers; "" is the start. */
export function splitCursor(cursor: string): [number, number] | null {
  if (cursor === '') return [0, 0];
  const m = /^([0-9]{1,15})(?:-([0-9]{1,15}))?$/.exec(cursor);
  return m ? [Number(m[1]), Number(m[2] ?? 0)] : null;
}

/** The name of an endpoint in a store's keys: 32 bytes of SHA-256, so keys have one length. */
export function endpointKey(endpoint: string): Buffer {
  return createHash('sha256').update('pacto-relay-push\n').update(endpoint).digest();
}

/** A subscription read back from a store, or null if it is not one (a damaged record). */
export function parseStoredPush(text: string): StoredPush | null {
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    return typeof v.endpoint === 'string' && typeof v.p256dh === 'string' && typeof v.auth === 'string'
      ? { endpoint: v.endpoint, p256dh: v.p256dh, auth: v.auth }
      : null;
  } catch {
    return null;
  }
}

// The relay's wire format, shared by the server and the client library: JSON text frames over a
// WebSocket on "/relay", and the same frames as bodies of `POST /relay/v1` (for service workers).
// Every frame from a client is checked here, field by field, before anything else looks at it.
// The protocol, its limits and its error codes are written down in README.md beside this file.
import { fromBase64 } from '../../protocol';

export const RELAY_PATH = '/relay';
export const RELAY_HTTP_PATH = '/relay/v1';

export const ROOM_ID = /^[0-9a-f]{64}$/;
export const TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const APPEND_ID = /^[A-Za-z0-9_-]{22}$/;
/** "" (the start), a sequence number ("17", the embedded store) or a Redis stream id ("1700000000000-3"). */
export const CURSOR = /^(|[0-9]{1,20}(-[0-9]{1,20})?)$/;
const REQUEST_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

/** Limits a relay enforces. Every one can be set (see README.md); these are the defaults. */
export interface RelayLimits {
  /** Largest frame answered with an error frame; a frame over twice this closes the connection (1009). */
  readonly maxFrameBytes: number;
  /** Largest sealed blob. */
  readonly maxBlobBytes: number;
  readonly maxRoomBytes: number;
  readonly maxRoomBlobs: number;
  /** Distinct rooms one connection (or one HTTP client address) may use. */
  readonly maxRoomsPerConnection: number;
  /** Live subscribers of one room on one server process. */
  readonly maxSubscribersPerRoom: number;
  /** Requests per second per connection, on average, and at once. */
  readonly maxRequestsPerSecond: number;
  readonly burstRequests: number;
  /** Requests a connection may have waiting on the store at once. */
  readonly maxInFlight: number;
  /** One fetch answers with at most this many blobs, and this many blob bytes. */
  readonly maxFetchItems: number;
  readonly maxFetchBytes: number;
  /** A client whose unsent data passes this is closed: it does not read. */
  readonly maxBufferedBytes: number;
  /** A room with no append for this long is deleted. */
  readonly roomIdleMs: number;
  /** Web Push subscriptions one room holds (every device of every player of a game). */
  readonly maxPushSubscriptionsPerRoom: number;
  /** Pushes one notify sends at most, whatever the room holds (a room stored under a larger
   *  maxPushSubscriptionsPerRoom): past it, a random few of the room's subscriptions each time. */
  readonly maxPushesPerNotify: number;
  /** Largest `notify` payload (the phone's sealed hint), before web-push encrypts it. */
  readonly maxPushPayloadBytes: number;
  /** How long a push service keeps a push for a device that is offline (its TTL header). */
  readonly pushTtlSeconds: number;
  /** The window of the notify and push limits below. */
  readonly pushWindowMs: number;
  /** Notifies per room per window, counted in the store (so across processes with Redis). */
  readonly maxNotifiesPerRoom: number;
  /** Notifies per client address (IPv6: per /64) per window, on one process. */
  readonly maxNotifiesPerAddress: number;
  /** Pushes (POSTs to a push service) per room per window, counted in the store (so across
   *  processes with Redis); once they are spent a notify is refused with `too-many-pushes`. */
  readonly maxPushesPerRoom: number;
  /** Blob bytes one client address (IPv6: per /64) may store per hour, over all its connections
   *  and rooms, on one process (a new connection gets no new allowance). */
  readonly maxBytesPerAddressPerHour: number;
  /** Distinct rooms one client address may append to per hour, on one process. */
  readonly maxRoomsPerAddressPerHour: number;
  /** Blob bytes the embedded store holds in all; past it the rooms idle for evictIdleMs go first,
   *  oldest first, and when none is, appends are refused (`relay-full`). */
  readonly maxStoreBytes: number;
  readonly evictIdleMs: number;
}

export const DEFAULT_RELAY_LIMITS: RelayLimits = {
  maxFrameBytes: 256 * 1024,
  maxBlobBytes: 160 * 1024,
  maxRoomBytes: 64 * 1024 * 1024,
  maxRoomBlobs: 100_000,
  maxRoomsPerConnection: 16,
  maxSubscribersPerRoom: 32,
  maxRequestsPerSecond: 50,
  burstRequests: 200,
  maxInFlight: 64,
  maxFetchItems: 256,
  maxFetchBytes: 512 * 1024,
  maxBufferedBytes: 4 * 1024 * 1024,
  roomIdleMs: 90 * 24 * 3600 * 1000,
  maxPushSubscriptionsPerRoom: 16,
  maxPushesPerNotify: 16,
  maxPushPayloadBytes: 1024,
  pushTtlSeconds: 24 * 3600,
  pushWindowMs: 3600 * 1000,
  maxNotifiesPerRoom: 120,
  maxNotifiesPerAddress: 60,
  maxPushesPerRoom: 1200,
  maxBytesPerAddressPerHour: 64 * 1024 * 1024,
  maxRoomsPerAddressPerHour: 64,
  maxStoreBytes: 2 * 1024 * 1024 * 1024,
  evictIdleMs: 7 * 24 * 3600 * 1000,
};

/** Longest push endpoint URL a relay takes (the browser's push service chooses it). */
export const MAX_PUSH_ENDPOINT = 1024;

/** A browser's PushSubscription, as a relay stores it: where to push, and the keys to encrypt for. */
export interface PushSubscriptionKeys {
  /** https URL of the device's push service (PushSubscription.endpoint). */
  readonly endpoint: string;
  /** base64url of the device's P-256 public key, uncompressed (65 bytes). */
  readonly p256dh: string;
  /** base64url of the device's 16-byte auth secret. */
  readonly auth: string;
}

/** The largest update the client puts in one blob; larger ones are split (Yjs updates split into
 *  smaller valid updates). Sealed and padded it stays under the default maxBlobBytes. */
export const MAX_UPDATE_BYTES = 128 * 1024;

export type ClientFrame =
  | { readonly t: 'append'; readonly rid: string; readonly room: string; readonly token: string; readonly id: string; readonly blob: string }
  | { readonly t: 'fetch'; readonly rid: string; readonly room: string; readonly token: string; readonly after: string; readonly limit?: number }
  | { readonly t: 'subscribe'; readonly rid: string; readonly room: string; readonly token: string }
  | { readonly t: 'unsubscribe'; readonly rid: string; readonly room: string }
  | { readonly t: 'ping'; readonly rid: string }
  | { readonly t: 'push-key'; readonly rid: string }
  | ({ readonly t: 'push-register'; readonly rid: string; readonly room: string; readonly token: string } & PushSubscriptionKeys)
  | { readonly t: 'push-unregister'; readonly rid: string; readonly room: string; readonly token: string; readonly endpoint: string }
  | {
      readonly t: 'notify';
      readonly rid: string;
      readonly room: string;
      readonly token: string;
      /** base64url of the phone's hint, sealed under the room's key; "" or absent: an empty push. */
      readonly payload: string;
      /** The sender's own endpoint: not pushed to. */
      readonly except?: string;
    };

export interface WireBlob {
  readonly cursor: string;
  /** base64url of the sealed blob. */
  readonly blob: string;
}

export type ErrorCode =
  /** Not JSON, unknown type, a missing or malformed field. */
  | 'bad-frame'
  /** Frame or blob over its limit. */
  | 'too-large'
  /** The token does not match the room. */
  | 'forbidden'
  /** The room holds maxRoomBytes or maxRoomBlobs already. */
  | 'room-full'
  /** The relay's store holds maxStoreBytes and no room has been idle long enough to evict: retry later. */
  | 'relay-full'
  | 'too-many-rooms'
  | 'too-many-subscribers'
  /** Over the request rate, the byte budget or the in-flight limit: retry after `retryAfterMs`. */
  | 'rate-limited'
  /** The store cannot be reached (Redis down); retry later. */
  | 'unavailable'
  /** A push endpoint the relay will not send to (not https, an internal host): see README.md. */
  | 'endpoint-refused'
  /** The room holds maxPushSubscriptionsPerRoom subscriptions already. */
  | 'too-many-push-subscriptions'
  /** The room's pushes in this window (maxPushesPerRoom) are spent: retry after `retryAfterMs`. */
  | 'too-many-pushes'
  /** This relay does not send pushes. */
  | 'no-push'
  /** The server's live feed had a gap: subscribe again and fetch since your cursor. */
  | 'resubscribe';

export type ServerFrame =
  | { readonly t: 'ack'; readonly rid: string; readonly room: string; readonly cursor: string; readonly dup: boolean }
  | {
      readonly t: 'page';
      readonly rid: string;
      readonly room: string;
      readonly items: readonly WireBlob[];
      /** Fetch after this next time. */
      readonly next: string;
      readonly more: boolean;
      /** Records the relay found damaged (their checksum fails) and skipped. */
      readonly damaged: readonly string[];
    }
  | { readonly t: 'subscribed'; readonly rid: string; readonly room: string }
  | { readonly t: 'unsubscribed'; readonly rid: string; readonly room: string }
  | { readonly t: 'blob'; readonly room: string; readonly cursor: string; readonly blob: string }
  | { readonly t: 'pong'; readonly rid: string }
  /** The relay's VAPID public key (base64url, uncompressed P-256): PushManager.subscribe's applicationServerKey. */
  | { readonly t: 'push-key'; readonly rid: string; readonly key: string }
  | { readonly t: 'push-registered'; readonly rid: string; readonly room: string }
  | { readonly t: 'push-unregistered'; readonly rid: string; readonly room: string; readonly removed: boolean }
  /** How many devices the relay is pushing to (the room's subscriptions but the sender's, at most maxPushesPerNotify). */
  | { readonly t: 'notified'; readonly rid: string; readonly room: string; readonly devices: number }
  | { readonly t: 'error'; readonly rid?: string; readonly room?: string; readonly code: ErrorCode; readonly message: string; readonly retryAfterMs?: number };

export type Parsed<T> = { readonly ok: true; readonly frame: T } | { readonly ok: false; readonly rid?: string; readonly message: string };

const str = (o: Record<string, unknown>, k: string): string | undefined => (typeof o[k] === 'string' ? (o[k] as string) : undefined);

/** Checks a client frame completely; the message of a refusal names the first bad field. */
export function parseClientFrame(text: string): Parsed<ClientFrame> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, message: 'not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, message: 'not a JSON object' };
  const o = value as Record<string, unknown>;
  const rid = str(o, 'rid');
  if (rid === undefined || !REQUEST_ID.test(rid)) return { ok: false, message: 'rid must be 1 to 64 letters, digits or "_.:-"' };
  const bad = (message: string): Parsed<ClientFrame> => ({ ok: false, rid, message });
  const t = o.t;
  if (t === 'ping' || t === 'push-key') return { ok: true, frame: { t, rid } };
  const room = str(o, 'room');
  if (room === undefined || !ROOM_ID.test(room)) return bad('room must be 64 lower-case hex characters');
  if (t === 'unsubscribe') return { ok: true, frame: { t, rid, room } };
  const token = str(o, 'token');
  if (token === undefined || !TOKEN.test(token)) return bad('token must be 43 base64url characters');
  switch (t) {
    case 'append': {
      const id = str(o, 'id');
      if (id === undefined || !APPEND_ID.test(id)) return bad('id must be 22 base64url characters');
      const blob = str(o, 'blob');
      if (blob === undefined || blob === '' || fromBase64(blob) === null) return bad('blob must be non-empty base64url');
      return { ok: true, frame: { t, rid, room, token, id, blob } };
    }
    case 'fetch': {
      const after = o.after === undefined ? '' : str(o, 'after');
      if (after === undefined || !CURSOR.test(after)) return bad('after must be a cursor from this relay, or ""');
      if (o.limit !== undefined && !(Number.isInteger(o.limit) && (o.limit as number) >= 1)) return bad('limit must be a positive integer');
      return { ok: true, frame: o.limit === undefined ? { t, rid, room, token, after } : { t, rid, room, token, after, limit: o.limit as number } };
    }
    case 'subscribe':
      return { ok: true, frame: { t, rid, room, token } };
    case 'push-register': {
      const endpoint = str(o, 'endpoint');
      if (!isEndpointText(endpoint)) return bad(`endpoint must be a URL of at most ${MAX_PUSH_ENDPOINT} characters`);
      const p256dh = str(o, 'p256dh');
      const key = p256dh === undefined ? null : fromBase64(p256dh);
      if (key === null || key.length !== 65 || key[0] !== 4) return bad('p256dh must be base64url of an uncompressed P-256 point (65 bytes)');
      const auth = str(o, 'auth');
      if (auth === undefined || fromBase64(auth)?.length !== 16) return bad('auth must be base64url of 16 bytes');
      return { ok: true, frame: { t, rid, room, token, endpoint, p256dh: p256dh!, auth } };
    }
    case 'push-unregister': {
      const endpoint = str(o, 'endpoint');
      if (!isEndpointText(endpoint)) return bad(`endpoint must be a URL of at most ${MAX_PUSH_ENDPOINT} characters`);
      return { ok: true, frame: { t, rid, room, token, endpoint } };
    }
    case 'notify': {
      const payload = o.payload === undefined ? '' : str(o, 'payload');
      if (payload === undefined || (payload !== '' && fromBase64(payload) === null)) return bad('payload must be base64url, or ""');
      if (o.except === undefined) return { ok: true, frame: { t, rid, room, token, payload } };
      const except = str(o, 'except');
      if (!isEndpointText(except)) return bad(`except must be a URL of at most ${MAX_PUSH_ENDPOINT} characters`);
      return { ok: true, frame: { t, rid, room, token, payload, except } };
    }
    default:
      return bad('t must be append, fetch, subscribe, unsubscribe, ping, push-key, push-register, push-unregister or notify');
  }
}

/** Printable ASCII, no space, no backslash: the relay's own rule (server/push.ts) decides the rest. */
const isEndpointText = (v: string | undefined): v is string =>
  v !== undefined && v.length > 0 && v.length <= MAX_PUSH_ENDPOINT && /^[\x21-\x7e]+$/.test(v) && !v.includes('\\');

/** Client side: what the server sent, or null for anything malformed (a hostile relay). */
export function parseServerFrame(text: string): ServerFrame | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const rid = str(o, 'rid');
  const room = str(o, 'room');
  const cursor = (k: string): string | undefined => {
    const c = str(o, k);
    return c !== undefined && CURSOR.test(c) ? c : undefined;
  };
  switch (o.t) {
    case 'ack': {
      const c = cursor('cursor');
      return rid !== undefined && room !== undefined && c !== undefined && c !== '' ? { t: 'ack', rid, room, cursor: c, dup: o.dup === true } : null;
    }
    case 'page': {
      const next = cursor('next');
      if (rid === undefined || room === undefined || next === undefined || !Array.isArray(o.items)) return null;
      const items: WireBlob[] = [];
      for (const it of o.items as unknown[]) {
        if (typeof it !== 'object' || it === null) return null;
        const { cursor: c, blob } = it as Record<string, unknown>;
        if (typeof c !== 'string' || !CURSOR.test(c) || c === '' || typeof blob !== 'string') return null;
        items.push({ cursor: c, blob });
      }
      const damaged = Array.isArray(o.damaged) ? (o.damaged as unknown[]).filter((d): d is string => typeof d === 'string' && CURSOR.test(d)) : [];
      return { t: 'page', rid, room, items, next, more: o.more === true, damaged };
    }
    case 'subscribed':
    case 'unsubscribed':
      return rid !== undefined && room !== undefined ? { t: o.t, rid, room } : null;
    case 'blob': {
      const c = cursor('cursor');
      const blob = str(o, 'blob');
      return room !== undefined && c !== undefined && c !== '' && blob !== undefined ? { t: 'blob', room, cursor: c, blob } : null;
    }
    case 'pong':
      return rid !== undefined ? { t: 'pong', rid } : null;
    case 'push-key': {
      const key = str(o, 'key');
      return rid !== undefined && key !== undefined && fromBase64(key)?.length === 65 ? { t: 'push-key', rid, key } : null;
    }
    case 'push-registered':
      return rid !== undefined && room !== undefined ? { t: 'push-registered', rid, room } : null;
    case 'push-unregistered':
      return rid !== undefined && room !== undefined ? { t: 'push-unregistered', rid, room, removed: o.removed === true } : null;
    case 'notified':
      return rid !== undefined && room !== undefined && Number.isSafeInteger(o.devices) && (o.devices as number) >= 0
        ? { t: 'notified', rid, room, devices: o.devices as number }
        : null;
    case 'error': {
      const code = str(o, 'code') as ErrorCode | undefined;
      if (code === undefined) return null;
      const retry = typeof o.retryAfterMs === 'number' && o.retryAfterMs >= 0 ? o.retryAfterMs : undefined;
      return {
        t: 'error',
        code,
        message: str(o, 'message') ?? '',
        ...(rid !== undefined ? { rid } : {}),
        ...(room !== undefined ? { room } : {}),
        ...(retry !== undefined ? { retryAfterMs: retry } : {}),
      };
    }
    default:
      return null;
  }
}

/** Cursors of one relay are ordered: by each "-"-separated number in turn ("" first). */
export function compareCursors(a: string, b: string): number {
  if (a === b) return 0;
  const pa = a === '' ? [] : a.split('-');
  const pb = b === '' ? [] : b.split('-');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = (pa[i] ?? '').replace(/^0+/, '');
    const y = (pb[i] ?? '').replace(/^0+/, '');
    if (x.length !== y.length) return x.length < y.length ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** HTTP status for an error code (the HTTP API answers with the same error frame as its body). */
export function httpStatusFor(code: ErrorCode): number {
  switch (code) {
    case 'bad-frame':
    case 'endpoint-refused':
      return 400;
    case 'forbidden':
      return 403;
    case 'too-large':
      return 413;
    case 'rate-limited':
    case 'too-many-rooms':
    case 'too-many-subscribers':
    case 'too-many-pushes':
      return 429;
    case 'room-full':
    case 'relay-full':
    case 'too-many-push-subscriptions':
      return 507;
    case 'no-push':
      return 501;
    case 'unavailable':
    case 'resubscribe':
      return 503;
  }
}

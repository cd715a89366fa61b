// The embedded default store: LMDB through the `lmdb` package, one directory on disk, no set-up.
// Why LMDB: its npm package ships prebuilt binaries in per-platform optional packages
// (@lmdb/lmdb-linux-x64 ...), so `npm install` needs nothing but the registry; a commit is
// crash-proof by design (copy-on-write pages, no log to replay), so a kill -9 loses nothing
// acknowledged; and writes are batched per event turn and synced off the main thread.
//
//   blobs: room (32 bytes) || ms (8, BE) || n (8, BE)  ->  checksum (8) || blob
//   ids:   room (32) || append id (16)                 ->  ms (8) || n (8)
//   rooms: room (32)                                   ->  { ms, n, bytes, blobs, active }
//   push:  room (32) || SHA-256 of the endpoint (32)   ->  { endpoint, p256dh, auth }
//   shared: name                                       ->  value (the VAPID keys)
import { open, type Database, type RootDatabase } from 'lmdb';
import { fromBase64 } from '../../../protocol';
import type { Bus } from '../../signal/bus';
import { relayChannel } from '../../signal/bus';
import {
  decodeRecord,
  encodeLive,
  encodeRecord,
  endpointKey,
  splitCursor,
  type AddPushResult,
  type AppendResult,
  type FetchResult,
  type RelayStore,
  type StoreLimits,
  type StoredBlob,
  type StoredPush,
} from './store';

interface RoomMeta {
  ms: number;
  n: number;
  bytes: number;
  blobs: number;
  active: number;
}

const u64 = (buf: Buffer, at: number, v: number): void => void buf.writeBigUInt64BE(BigInt(v), at);

function blobKey(room: Buffer, ms: number, n: number): Buffer {
  const k = Buffer.alloc(48);
  room.copy(k, 0);
  u64(k, 32, ms);
  u64(k, 40, n);
  return k;
}

const cursorOf = (key: Buffer): string => `${Number(key.readBigUInt64BE(32))}-${Number(key.readBigUInt64BE(40))}`;

export interface LmdbStoreOptions extends StoreLimits {
  readonly dir: string;
  readonly bus: Bus;
  readonly log?: (line: string) => void;
  readonly now?: () => number;
}

/** The room's current fixed window in `windows` (a new one if its last has ended); ended windows
 *  are dropped first when there are over 100,000. */
function windowOf(windows: Map<string, { end: number; count: number }>, room: string, windowMs: number, now: number): { end: number; count: number } {
  let w = windows.get(room);
  if (!w || w.end <= now) {
    if (windows.size > 100_000) for (const [k, v] of windows) if (v.end <= now) windows.delete(k);
    w = { end: now + windowMs, count: 0 };
    windows.set(room, w);
  }
  return w;
}

export class LmdbStore implements RelayStore {
  private readonly root: RootDatabase;
  private readonly blobs: Database<Buffer, Buffer>;
  private readonly ids: Database<Buffer, Buffer>;
  private readonly rooms: Database<RoomMeta, Buffer>;
  private readonly push: Database<StoredPush, Buffer>;
  private readonly shared: Database<string, string>;
  /** Notify and push windows per room: in memory, as one process owns an LMDB directory. An
   *  ended window is forgotten at the next sweep, or at once when there are very many. */
  private readonly notifies = new Map<string, { end: number; count: number }>();
  private readonly pushes = new Map<string, { end: number; count: number }>();
  private readonly log: (line: string) => void;
  private readonly now: () => number;
  /** Blob bytes of every room (their counters' sum), read once at the first append. */
  private total: number | null = null;

  constructor(private readonly opts: LmdbStoreOptions) {
    // overlappingSync off: a write's promise resolves only once its commit is synced to disk.
    this.root = open({ path: opts.dir, maxDbs: 8, overlappingSync: false });
    this.blobs = this.root.openDB<Buffer, Buffer>('blobs', { encoding: 'binary', keyEncoding: 'binary' });
    this.ids = this.root.openDB<Buffer, Buffer>('ids', { encoding: 'binary', keyEncoding: 'binary' });
    this.rooms = this.root.openDB<RoomMeta, Buffer>('rooms', { encoding: 'json', keyEncoding: 'binary' });
    this.push = this.root.openDB<StoredPush, Buffer>('push', { encoding: 'json', keyEncoding: 'binary' });
    this.shared = this.root.openDB<string, string>('shared', { encoding: 'string', keyEncoding: 'ordered-binary' });
    this.log = opts.log ?? ((line) => console.warn(line));
    this.now = opts.now ?? Date.now;
  }

  async append(room: string, id: string, blob: Uint8Array): Promise<AppendResult> {
    const rk = Buffer.from(room, 'hex');
    const ik = Buffer.concat([rk, Buffer.from(fromBase64(id) ?? new Uint8Array(16))]);
    const record = encodeRecord(room, blob);
    const now = this.now();
    const full = await this.makeSpace(blob.length, rk, now);
    if (full !== null) return full;
    const result = await this.root.transaction((): AppendResult => {
      const prior = this.ids.get(ik);
      if (prior) return { ok: true, cursor: `${Number(prior.readBigUInt64BE(0))}-${Number(prior.readBigUInt64BE(8))}`, dup: true };
      const meta = this.meta(room, rk);
      if (meta.blobs + 1 > this.opts.maxRoomBlobs || meta.bytes + blob.length > this.opts.maxRoomBytes) {
        return {
          ok: false,
          code: 'room-full',
          message: `the room holds ${meta.blobs} blobs, ${meta.bytes} bytes: its limit is ${this.opts.maxRoomBlobs} blobs, ${this.opts.maxRoomBytes} bytes`,
        };
      }
      // Cursors never go back, even if the clock does (as Redis stream ids).
      const ms = Math.max(now, meta.ms);
      const n = ms === meta.ms ? meta.n + 1 : 0;
      const at = Buffer.alloc(16);
      u64(at, 0, ms);
      u64(at, 8, n);
      this.blobs.put(blobKey(rk, ms, n), record);
      this.ids.put(ik, at);
      this.rooms.put(rk, { ms, n, bytes: meta.bytes + blob.length, blobs: meta.blobs + 1, active: now });
      return { ok: true, cursor: `${ms}-${n}`, dup: false };
    });
    if (result.ok && !result.dup && this.total !== null) this.total += blob.length;
    if (result.ok && !result.dup) this.opts.bus.publish(relayChannel(room), encodeLive(result.cursor, blob));
    return result;
  }

  async fetch(room: string, after: string, limit: number, maxBytes: number): Promise<FetchResult> {
    const rk = Buffer.from(room, 'hex');
    const [ms, n] = splitCursor(after) ?? [0, 0];
    const start = after === '' ? blobKey(rk, 0, 0) : blobKey(rk, ms, n + 1);
    const end = blobKey(rk, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    const items: StoredBlob[] = [];
    const damaged: string[] = [];
    let next = after;
    let bytes = 0;
    let more = false;
    for (const { key, value } of this.blobs.getRange({ start, end })) {
      if (items.length + damaged.length >= limit || (items.length > 0 && bytes + value.length > maxBytes)) {
        more = true;
        break;
      }
      const cursor = cursorOf(key);
      const blob = decodeRecord(room, value);
      next = cursor;
      if (blob === null) {
        this.log(`relay: damaged record in room ${room} at cursor ${cursor} (checksum mismatch); skipped`);
        damaged.push(cursor);
        continue;
      }
      bytes += blob.length;
      items.push({ cursor, blob: Buffer.from(blob) });
    }
    return { items, damaged, next, more };
  }

  async sweep(now = this.now()): Promise<number> {
    for (const windows of [this.notifies, this.pushes]) for (const [k, v] of windows) if (v.end <= now) windows.delete(k);
    const idle: Buffer[] = [];
    for (const { key, value } of this.rooms.getRange({})) if (value.active + this.opts.roomIdleMs < now) idle.push(Buffer.from(key));
    for (const rk of idle) await this.removeRoom(rk);
    return idle.length;
  }

  /** Deletes a room, its blobs, ids and push subscriptions, in one transaction. */
  private async removeRoom(rk: Buffer): Promise<void> {
    let bytes = 0;
    await this.root.transaction(() => {
      bytes = this.rooms.get(rk)?.bytes ?? 0;
      for (const key of this.blobs.getKeys({ start: blobKey(rk, 0, 0), end: blobKey(rk, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) }))
        this.blobs.remove(key);
      const end = Buffer.concat([rk, Buffer.alloc(16, 0xff)]);
      for (const key of this.ids.getKeys({ start: rk, end })) this.ids.remove(key);
      for (const key of this.push.getKeys(this.pushRange(rk))) this.push.remove(key);
      this.rooms.remove(rk);
    });
    if (this.total !== null) this.total = Math.max(0, this.total - bytes);
  }

  /**
   * Null when `need` more bytes fit under maxStoreBytes, after evicting, oldest first, rooms with no
   * append for evictIdleMs (never `keep`, the room being appended to); else the refusal. A game's
   * phones each keep the whole game, so an evicted room loses nothing a phone holds: a phone that
   * was away that long catches up from its peers, not from the relay.
   */
  private async makeSpace(need: number, keep: Buffer, now: number): Promise<AppendResult | null> {
    const max = this.opts.maxStoreBytes;
    if (max === undefined) return null;
    if (this.total === null) {
      let t = 0;
      for (const { value } of this.rooms.getRange({})) t += Number.isSafeInteger(value?.bytes) ? value.bytes : 0;
      this.total = t;
    }
    if (this.total + need <= max) return null;
    const idleFor = this.opts.evictIdleMs ?? this.opts.roomIdleMs;
    const candidates: { rk: Buffer; active: number }[] = [];
    for (const { key, value } of this.rooms.getRange({}))
      if (value.active + idleFor < now && !keep.equals(key)) candidates.push({ rk: Buffer.from(key), active: value.active });
    candidates.sort((a, b) => a.active - b.active);
    let evicted = 0;
    for (const c of candidates) {
      if (this.total + need <= max) break;
      await this.removeRoom(c.rk);
      evicted++;
    }
    if (evicted > 0) this.log(`relay: the store was full; evicted ${evicted} idle room(s)`);
    if (this.total + need <= max) return null;
    return { ok: false, code: 'relay-full', message: `the relay holds ${this.total} bytes, its limit is ${max}, and no room is idle enough to evict` };
  }

  private pushRange(rk: Buffer): { start: Buffer; end: Buffer } {
    return { start: Buffer.concat([rk, Buffer.alloc(32, 0)]), end: Buffer.concat([rk, Buffer.alloc(33, 0xff)]) };
  }

  async addPush(room: string, sub: StoredPush, max: number): Promise<AddPushResult> {
    const rk = Buffer.from(room, 'hex');
    const key = Buffer.concat([rk, endpointKey(sub.endpoint)]);
    const now = this.now();
    return this.root.transaction((): AddPushResult => {
      const replaced = this.push.get(key) !== undefined;
      if (!replaced) {
        const held = this.push.getKeysCount(this.pushRange(rk));
        if (held >= max) return { ok: false, code: 'too-many-push-subscriptions', message: `a room holds at most ${max} push subscriptions` };
      }
      // A room that has no blob yet starts its idle time now, so its subscriptions expire with it.
      if (this.rooms.get(rk) === undefined) this.rooms.put(rk, { ms: 0, n: 0, bytes: 0, blobs: 0, active: now });
      this.push.put(key, { endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth });
      return { ok: true, replaced };
    });
  }

  async removePush(room: string, endpoint: string): Promise<boolean> {
    const key = Buffer.concat([Buffer.from(room, 'hex'), endpointKey(endpoint)]);
    return this.root.transaction(() => (this.push.get(key) === undefined ? false : (this.push.remove(key), true)));
  }

  async listPush(room: string): Promise<StoredPush[]> {
    const out: StoredPush[] = [];
    for (const { value } of this.push.getRange(this.pushRange(Buffer.from(room, 'hex')))) {
      if (value && typeof value.endpoint === 'string' && typeof value.p256dh === 'string' && typeof value.auth === 'string') out.push(value);
      else this.log(`relay: damaged push subscription in room ${room}; skipped`);
    }
    return out;
  }

  async countNotify(room: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const now = this.now();
    const w = windowOf(this.notifies, room, windowMs, now);
    w.count++;
    return { count: w.count, resetMs: w.end - now };
  }

  async reservePushes(room: string, windowMs: number, wanted: number, max: number): Promise<{ granted: number; resetMs: number }> {
    const now = this.now();
    const w = windowOf(this.pushes, room, windowMs, now);
    const granted = Math.max(0, Math.min(wanted, max - w.count));
    w.count += granted;
    return { granted, resetMs: w.end - now };
  }

  async sharedValue(name: string, create: () => string): Promise<string> {
    const prior = this.shared.get(name);
    if (prior !== undefined) return prior;
    const value = create();
    await this.shared.ifNoExists(name, () => this.shared.put(name, value));
    return this.shared.get(name)!;
  }

  async close(): Promise<void> {
    await this.root.close();
  }

  /** The room's counters; rebuilt from its records if they cannot be read. */
  private meta(room: string, rk: Buffer): RoomMeta {
    try {
      const m = this.rooms.get(rk);
      if (m === undefined) return { ms: 0, n: 0, bytes: 0, blobs: 0, active: 0 };
      if ([m.ms, m.n, m.bytes, m.blobs, m.active].every((v) => Number.isSafeInteger(v) && v >= 0)) return m;
    } catch {
      // fall through
    }
    this.log(`relay: damaged counters of room ${room}; rebuilt from its records`);
    const m: RoomMeta = { ms: 0, n: 0, bytes: 0, blobs: 0, active: this.now() };
    for (const { key, value } of this.blobs.getRange({ start: blobKey(rk, 0, 0), end: blobKey(rk, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) })) {
      m.ms = Number(key.readBigUInt64BE(32));
      m.n = Number(key.readBigUInt64BE(40));
      m.blobs++;
      m.bytes += Math.max(0, value.length - 8);
    }
    return m;
  }
}

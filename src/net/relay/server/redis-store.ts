// Blobs in Redis Streams (PACTO_REDIS_URL): every server process is stateless and any number of
// them serve the same rooms. One Lua script appends atomically: it checks the append id (a retry
// answers with the first cursor), the room's limits, adds the record to the room's stream, renews
// the room's expiry, and publishes the blob on the room's channel — inside the script, so the live
// feed is in cursor order on every process. Durability is Redis's: with `appendonly yes` and
// `appendfsync always` a reply means the record is on disk (see README.md). Node only.
import { RESP_TYPES } from '@redis/client';
import { fromBase64 } from '../../../protocol';
import { relayChannel } from '../../signal/bus';
import type { RedisBus } from '../../signal/redis-bus';
import {
  decodeRecord,
  encodeRecord,
  endpointKey,
  parseStoredPush,
  type AddPushResult,
  type AppendResult,
  type FetchResult,
  type RelayStore,
  type StoreLimits,
  type StoredBlob,
  type StoredPush,
} from './store';

const APPEND = `
local prior = redis.call('HGET', KEYS[3], ARGV[1])
if prior then return {prior, 1} end
local blobs = tonumber(redis.call('HGET', KEYS[2], 'blobs') or '0')
local bytes = tonumber(redis.call('HGET', KEYS[2], 'bytes') or '0')
local len = tonumber(ARGV[7])
if blobs + 1 > tonumber(ARGV[3]) or bytes + len > tonumber(ARGV[4]) then return {'', 2, blobs, bytes} end
local id = redis.call('XADD', KEYS[1], '*', 'r', ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], id)
redis.call('HSET', KEYS[2], 'blobs', blobs + 1, 'bytes', bytes + len)
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
redis.call('PUBLISH', ARGV[6], id .. '\\n' .. string.sub(ARGV[2], 9))
return {id, 0}
`;

// A push subscription: added unless the room holds the maximum (the same endpoint replaces its
// keys), expiring with the room's blobs (the counters' expiry), or after the idle time if the room
// has none yet. Every append renews it with the room's other keys.
const ADD_PUSH = `
local had = redis.call('HEXISTS', KEYS[1], ARGV[1])
if had == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return -1 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[2])
if ttl < 0 then ttl = tonumber(ARGV[4]) end
redis.call('PEXPIRE', KEYS[1], ttl)
return had
`;

// One notify in the room's fixed window: the count, and the ms left in the window.
const COUNT_NOTIFY = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}
`;

// Up to ARGV[2] pushes from the room's ARGV[3] in its fixed window of ARGV[1] ms: how many, and
// the ms left in the window.
const RESERVE_PUSHES = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local granted = math.max(0, math.min(tonumber(ARGV[2]), tonumber(ARGV[3]) - used))
if granted > 0 and redis.call('INCRBY', KEYS[1], granted) == granted then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
if ttl < 0 then ttl = tonumber(ARGV[1]) end
return {granted, ttl}
`;

/** Keys of a room; the braces keep them in one hash slot (Redis Cluster). */
export const redisKeys = (room: string): [string, string, string] => [`pacto:relay:{${room}}:s`, `pacto:relay:{${room}}:m`, `pacto:relay:{${room}}:i`];
/** The room's push subscriptions: a hash, SHA-256 of the endpoint -> JSON. */
export const redisPushKey = (room: string): string => `pacto:relay:{${room}}:p`;
/** The room's notify count in the current window (expiring with the window). */
export const redisNotifyKey = (room: string): string => `pacto:relay:{${room}}:n`;
/** The room's pushes in the current window (expiring with the window). */
export const redisPushCountKey = (room: string): string => `pacto:relay:{${room}}:q`;
/** Values every process shares (the VAPID keys). */
export const redisSharedKey = (name: string): string => `pacto:relay:shared:${name}`;

export interface RedisStoreOptions extends StoreLimits {
  readonly bus: RedisBus;
  readonly log?: (line: string) => void;
}

export class RedisStore implements RelayStore {
  private readonly shas = new Map<string, string>();
  private readonly log: (line: string) => void;

  constructor(private readonly opts: RedisStoreOptions) {
    this.log = opts.log ?? ((line) => console.warn(line));
  }

  private get client() {
    return this.opts.bus.client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  }

  async append(room: string, id: string, blob: Uint8Array): Promise<AppendResult> {
    const idBytes = Buffer.from(fromBase64(id) ?? new Uint8Array(16));
    const args = [
      '4',
      ...redisKeys(room),
      redisPushKey(room),
      idBytes,
      encodeRecord(room, blob),
      String(this.opts.maxRoomBlobs),
      String(this.opts.maxRoomBytes),
      String(Math.max(1, Math.floor(this.opts.roomIdleMs))),
      relayChannel(room),
      String(blob.length),
    ];
    const reply = (await this.script(APPEND, args)) as [Buffer, number, number?, number?];
    const [cursor, status, blobs, bytes] = reply;
    if (status === 2) {
      return {
        ok: false,
        code: 'room-full',
        message: `the room holds ${blobs} blobs, ${bytes} bytes: its limit is ${this.opts.maxRoomBlobs} blobs, ${this.opts.maxRoomBytes} bytes`,
      };
    }
    return { ok: true, cursor: cursor.toString('latin1'), dup: status === 1 };
  }

  async fetch(room: string, after: string, limit: number, maxBytes: number): Promise<FetchResult> {
    const [stream] = redisKeys(room);
    const start = after === '' || !after.includes('-') ? '-' : `(${after}`;
    const rows = (await this.client.sendCommand(['XRANGE', stream, start, '+', 'COUNT', String(limit + 1)])) as [Buffer, Buffer[]][];
    const items: StoredBlob[] = [];
    const damaged: string[] = [];
    let next = after;
    let bytes = 0;
    let more = false;
    for (const [idBuf, fields] of rows) {
      if (items.length + damaged.length >= limit) {
        more = true;
        break;
      }
      const record = fields[1];
      if (items.length > 0 && record !== undefined && bytes + record.length > maxBytes) {
        more = true;
        break;
      }
      const cursor = idBuf.toString('latin1');
      next = cursor;
      const blob = record === undefined || fields[0]?.toString() !== 'r' ? null : decodeRecord(room, record);
      if (blob === null) {
        this.log(`relay: damaged record in room ${room} at cursor ${cursor} (checksum mismatch); skipped`);
        damaged.push(cursor);
        continue;
      }
      bytes += blob.length;
      items.push({ cursor, blob });
    }
    return { items, damaged, next, more };
  }

  /** Runs a Lua script by its SHA, loading it the first time (or after Redis lost it). */
  private async script(lua: string, args: (string | Buffer)[]): Promise<unknown> {
    let sha = this.shas.get(lua);
    if (sha === undefined) {
      sha = String(await this.opts.bus.client.sendCommand(['SCRIPT', 'LOAD', lua]));
      this.shas.set(lua, sha);
    }
    try {
      return await this.client.sendCommand(['EVALSHA', sha, ...args]);
    } catch (e) {
      if (!/NOSCRIPT/.test((e as Error).message)) throw e;
      return this.client.sendCommand(['EVAL', lua, ...args]);
    }
  }

  async addPush(room: string, sub: StoredPush, max: number): Promise<AddPushResult> {
    const value = JSON.stringify({ endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth });
    const had = Number(
      await this.script(ADD_PUSH, [
        '2',
        redisPushKey(room),
        redisKeys(room)[1],
        endpointKey(sub.endpoint),
        value,
        String(max),
        String(Math.max(1, Math.floor(this.opts.roomIdleMs))),
      ]),
    );
    if (had < 0) return { ok: false, code: 'too-many-push-subscriptions', message: `a room holds at most ${max} push subscriptions` };
    return { ok: true, replaced: had === 1 };
  }

  async removePush(room: string, endpoint: string): Promise<boolean> {
    return Number(await this.client.sendCommand(['HDEL', redisPushKey(room), endpointKey(endpoint)])) === 1;
  }

  async listPush(room: string): Promise<StoredPush[]> {
    // HVALS, not HGETALL: a map reply's shape depends on the protocol version and type mapping
    // (a plain object here, not an array), a list of values does not.
    const values = (await this.client.sendCommand(['HVALS', redisPushKey(room)])) as Buffer[];
    const out: StoredPush[] = [];
    for (const v of values) {
      const sub = parseStoredPush(v.toString());
      if (sub) out.push(sub);
      else this.log(`relay: damaged push subscription in room ${room}; skipped`);
    }
    return out;
  }

  async countNotify(room: string, windowMs: number): Promise<{ count: number; resetMs: number }> {
    const [count, ttl] = (await this.script(COUNT_NOTIFY, ['1', redisNotifyKey(room), String(Math.max(1, Math.floor(windowMs)))])) as [number, number];
    return { count: Number(count), resetMs: Math.max(0, Number(ttl)) };
  }

  async reservePushes(room: string, windowMs: number, wanted: number, max: number): Promise<{ granted: number; resetMs: number }> {
    const [granted, ttl] = (await this.script(RESERVE_PUSHES, [
      '1',
      redisPushCountKey(room),
      String(Math.max(1, Math.floor(windowMs))),
      String(Math.max(0, Math.floor(wanted))),
      String(Math.max(0, Math.floor(max))),
    ])) as [number, number];
    return { granted: Number(granted), resetMs: Math.max(0, Number(ttl)) };
  }

  async sharedValue(name: string, create: () => string): Promise<string> {
    const key = redisSharedKey(name);
    const prior = await this.opts.bus.client.sendCommand(['GET', key]);
    if (prior !== null && prior !== undefined) return String(prior);
    await this.opts.bus.client.sendCommand(['SET', key, create(), 'NX']);
    return String(await this.opts.bus.client.sendCommand(['GET', key]));
  }

  async sweep(): Promise<number> {
    return 0; // every key of a room carries its idle expiry (PEXPIRE on each append)
  }

  async close(): Promise<void> {
    // the bus owns the connection
  }
}

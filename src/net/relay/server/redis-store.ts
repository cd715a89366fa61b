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
import { decodeRecord, encodeRecord, type AppendResult, type FetchResult, type RelayStore, type StoreLimits, type StoredBlob } from './store';

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
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[5]) end
redis.call('PUBLISH', ARGV[6], id .. '\\n' .. string.sub(ARGV[2], 9))
return {id, 0}
`;

/** Keys of a room; the braces keep them in one hash slot (Redis Cluster). */
export const redisKeys = (room: string): [string, string, string] => [`pacto:relay:{${room}}:s`, `pacto:relay:{${room}}:m`, `pacto:relay:{${room}}:i`];

export interface RedisStoreOptions extends StoreLimits {
  readonly bus: RedisBus;
  readonly log?: (line: string) => void;
}

export class RedisStore implements RelayStore {
  private sha: string | null = null;
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
      '3',
      ...redisKeys(room),
      idBytes,
      encodeRecord(room, blob),
      String(this.opts.maxRoomBlobs),
      String(this.opts.maxRoomBytes),
      String(Math.max(1, Math.floor(this.opts.roomIdleMs))),
      relayChannel(room),
      String(blob.length),
    ];
    let reply: [Buffer, number, number?, number?];
    if (this.sha === null) this.sha = String(await this.opts.bus.client.sendCommand(['SCRIPT', 'LOAD', APPEND]));
    try {
      reply = (await this.client.sendCommand(['EVALSHA', this.sha, ...args])) as typeof reply;
    } catch (e) {
      if (!/NOSCRIPT/.test((e as Error).message)) throw e;
      reply = (await this.client.sendCommand(['EVAL', APPEND, ...args])) as typeof reply;
    }
    const [cursor, status, blobs, bytes] = reply;
    if (status === 2) {
      return { ok: false, code: 'room-full', message: `the room holds ${blobs} blobs, ${bytes} bytes: its limit is ${this.opts.maxRoomBlobs} blobs, ${this.opts.maxRoomBytes} bytes` };
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

  async sweep(): Promise<number> {
    return 0; // every key of a room carries its idle expiry (PEXPIRE on each append)
  }

  async close(): Promise<void> {
    // the bus owns the connection
  }
}

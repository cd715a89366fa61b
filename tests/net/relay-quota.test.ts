// A stranger fills the relay's disk: anyone can make a room by choosing a token, and the byte
// budget used to be per connection, so each new connection brought a full burst (264 MiB into
// 375 rooms in 20 s from one address). Now what an address stores is counted over all its
// connections, per hour, in bytes and in rooms; another address is not affected. In-process relay
// on 127.0.0.1 with small limits; clients on two loopback addresses.
import nacl from 'tweetnacl';
import { afterEach, describe, expect, it } from 'vitest';
import { toBase64 } from '../../src/protocol';
import { appendIdFor, relayKeysFor, type RelayKeys } from '../../src/net/relay/keys';
import { LmdbStore } from '../../src/net/relay/server/lmdb-store';
import { LocalBus } from '../../src/net/signal/bus';
import { rawClient, startRelay, tempDir, type LocalRelay, type RawClient } from './helpers/relay';

const relays: LocalRelay[] = [];
const clients: RawClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.ws.terminate();
  for (const r of relays.splice(0)) await r.stop();
});

let rid = 0;
async function append(c: RawClient, keys: RelayKeys, size: number) {
  const blob = nacl.randomBytes(size);
  const id = `a${++rid}`;
  c.send({ t: 'append', rid: id, room: keys.room, token: keys.token, id: appendIdFor(keys.key, blob), blob: toBase64(blob) });
  return c.answer(id);
}

async function client(r: LocalRelay, address: string): Promise<RawClient> {
  const c = await rawClient(r.url, address);
  clients.push(c);
  return c;
}

const room = (i: number) => relayKeysFor(`quota-game-${String(i).padStart(8, '0')}`, `quota-password-${String(i).padStart(6, '0')}`);

describe('what one address may store', () => {
  it('bytes: new connections bring no new allowance; another address still writes', async () => {
    const r = await startRelay({ relay: { limits: { maxBytesPerAddressPerHour: 256 * 1024, maxRoomsPerAddressPerHour: 100 } } });
    relays.push(r);
    let stored = 0;
    let refused = 0;
    // Eight connections one after another from one address, 16 blobs of 8 KiB each, in 8 rooms.
    for (let conn = 0; conn < 8; conn++) {
      const c = await client(r, '127.0.0.1');
      for (let i = 0; i < 16; i++) {
        const a = await append(c, room(conn), 8 * 1024);
        if (a.t === 'ack') stored += 8 * 1024;
        else {
          expect(a).toMatchObject({ t: 'error', code: 'rate-limited' });
          expect((a as { retryAfterMs?: number }).retryAfterMs).toBeGreaterThan(0);
          refused++;
        }
      }
    }
    // 1 MiB asked for; at most the hour's allowance (and the trickle it refills meanwhile) stored.
    expect(stored).toBeLessThanOrEqual(256 * 1024 + 16 * 1024);
    expect(refused).toBeGreaterThan(64);
    const other = await client(r, '127.0.0.2');
    expect(await append(other, room(99), 8 * 1024)).toMatchObject({ t: 'ack' });
  });

  it('rooms: an address appends to at most so many rooms an hour, over all its connections', async () => {
    const r = await startRelay({ relay: { limits: { maxRoomsPerAddressPerHour: 5 } } });
    relays.push(r);
    const answers: string[] = [];
    for (let i = 0; i < 8; i++) {
      const c = await client(r, '127.0.0.3');
      const a = await append(c, room(100 + i), 100);
      answers.push(a.t === 'ack' ? 'ack' : (a as { code: string }).code);
    }
    expect(answers).toEqual(['ack', 'ack', 'ack', 'ack', 'ack', 'too-many-rooms', 'too-many-rooms', 'too-many-rooms']);
    // A room it already used this hour still takes its appends.
    const c = await client(r, '127.0.0.3');
    expect(await append(c, room(100), 100)).toMatchObject({ t: 'ack' });
    expect(await append(await client(r, '127.0.0.4'), room(200), 100)).toMatchObject({ t: 'ack' });
  });
});

describe('idle sockets', () => {
  it('a relay connection that uses no room is closed after roomlessMs; one that fetched stays', async () => {
    const r = await startRelay({ limits: { roomlessMs: 1_500 } });
    relays.push(r);
    const idle = await client(r, '127.0.0.5');
    const used = await client(r, '127.0.0.6');
    expect(await append(used, room(400), 100)).toMatchObject({ t: 'ack' });
    const outcome = await Promise.race([idle.closed, new Promise((res) => setTimeout(() => res('open'), 6_000))]);
    expect(outcome).toMatchObject({ code: 1008 });
    expect(await append(used, room(400), 100)).toMatchObject({ t: 'ack' });
  });
});

describe('the whole store', () => {
  it('full: the rooms idle longest are evicted first; with none idle enough, appends are refused (relay-full), never a crash', async () => {
    const dir = tempDir('pacto-quota-store-');
    let clock = 1_000_000;
    const store = new LmdbStore({
      dir: dir.dir,
      bus: new LocalBus(),
      log: () => undefined,
      now: () => clock,
      maxRoomBytes: 1 << 20,
      maxRoomBlobs: 1000,
      roomIdleMs: 90 * 24 * 3600 * 1000,
      maxStoreBytes: 10_000,
      evictIdleMs: 60_000,
    });
    try {
      const blob = (n: number) => new Uint8Array(n).fill(7);
      const roomA = room(300).room;
      const roomB = room(301).room;
      const roomC = room(302).room;
      expect(await store.append(roomA, toBase64(nacl.randomBytes(16)), blob(4_000))).toMatchObject({ ok: true });
      clock += 10_000;
      expect(await store.append(roomB, toBase64(nacl.randomBytes(16)), blob(4_000))).toMatchObject({ ok: true });
      clock += 10_000;
      // 8,000 of 10,000 bytes used and no room idle for a minute: refused, nothing lost.
      expect(await store.append(roomC, toBase64(nacl.randomBytes(16)), blob(4_000))).toMatchObject({ ok: false, code: 'relay-full' });
      expect((await store.fetch(roomA, '', 10, 1 << 20)).items).toHaveLength(1);
      // A minute on, A (idle longest) goes, B stays.
      clock += 45_000;
      expect(await store.append(roomC, toBase64(nacl.randomBytes(16)), blob(4_000))).toMatchObject({ ok: true });
      expect((await store.fetch(roomA, '', 10, 1 << 20)).items).toHaveLength(0);
      expect((await store.fetch(roomB, '', 10, 1 << 20)).items).toHaveLength(1);
      expect((await store.fetch(roomC, '', 10, 1 << 20)).items).toHaveLength(1);
    } finally {
      await store.close();
      dir.remove();
    }
  });
});

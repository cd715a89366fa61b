// Relay figures on loopback, with the embedded store (LMDB) and, when Debian's redis-server is
// installed, with Redis: append -> the other phone has it (median, p95), a phone away for a whole
// game year catching up (time, bytes on the wire), and what the relay stores per blob and per
// game-year. The game is the store bench's realistic log (7 powers, 4 messages of 1-2 KB per power
// and phase, one Yjs update each).
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { createAppServer } from '../src/server/app';
import { GameReplica } from '../src/net/replica';
import { GameRelay } from '../src/net/relay/phone';
import { entryStorage, openPactoStore, persistDoc, relayStorage } from '../src/store';
import { nodeVerifier } from '../tests/native-ed25519';
import { scriptedGame } from './protocol';
import { sealedLength } from '../src/net/relay/blob';
import { memoryCursors, RelayClient, type WebSocketConstructor } from '../src/net/relay/client';
import { relayKeysFor } from '../src/net/relay/keys';
import { generateUpdates } from '../tests/e2e/pages/store/log';
import { startRedis } from '../tests/net/helpers/relay';
import { makeCert, startPushService } from '../tests/net/helpers/push-service';
import { httpNotify, httpPushKey, httpPushRegister } from '../src/net/relay/client';
import { report, summarise } from './report';

const LATENCY_SAMPLES = 200;

let wireBytes = 0;
class CountingWebSocket extends WebSocket {
  constructor(url: string) {
    super(url);
    this.on('message', (d: Buffer) => (wireBytes += d.length));
  }
}
const WS = CountingWebSocket as unknown as WebSocketConstructor;

const dirBytes = (dir: string): number => readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);

async function benchOne(kind: 'embedded (LMDB)' | 'Redis', redisUrl?: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'pacto-bench-relay-'));
  const server = createAppServer(undefined, { relay: { dir }, ...(redisUrl ? { redisUrl } : {}), log: () => undefined });
  await server.ready;
  await server.listen(0, '127.0.0.1');
  const url = `ws://127.0.0.1:${(server.http.address() as AddressInfo).port}/relay`;
  const clients: RelayClient[] = [];
  try {
    // 1. append -> the other phone has it, one at a time.
    const keys = relayKeysFor('bench-relay-latency-1', `bench-password-${kind.length}-0001`);
    let resolveGot: (() => void) | null = null;
    const reader = new RelayClient({ keys, relays: [url], WebSocket: WS, onUpdates: () => resolveGot?.() });
    const writer = new RelayClient({ keys, relays: [url], WebSocket: WS, onUpdates: () => undefined });
    clients.push(reader, writer);
    while (!reader.status()[0]!.connected || !writer.status()[0]!.connected) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 200));
    const { updates } = generateUpdates({ years: 3, messagesPerPowerPhase: 4 });
    const toOther: number[] = [];
    const toAck: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const got = new Promise<void>((r) => (resolveGot = r));
      const t0 = performance.now();
      const acked = writer.append(updates[i % updates.length]!).then(() => toAck.push(performance.now() - t0));
      await got;
      toOther.push(performance.now() - t0);
      await acked;
    }

    // 2. A game year stored, and a phone that missed all of it catching up.
    const year = generateUpdates({ years: 1, messagesPerPowerPhase: 4 });
    const yearKeys = relayKeysFor('bench-relay-year-0001', `bench-password-${kind.length}-0002`);
    const before = redisUrl ? 0 : dirBytes(dir);
    const poster = new RelayClient({ keys: yearKeys, relays: [url], WebSocket: WS, live: false, onUpdates: () => undefined });
    clients.push(poster);
    await Promise.all(year.updates.map((u) => poster.append(u)));
    const sealed = year.updates.reduce((n, u) => n + sealedLength(u.length), 0);
    poster.close(); // only the away phone's traffic is counted from here
    await new Promise((r) => setTimeout(r, 100));
    let caught = 0;
    wireBytes = 0;
    const t0 = performance.now();
    let done: () => void = () => undefined;
    const finished = new Promise<void>((r) => (done = r));
    const away = new RelayClient({
      keys: yearKeys,
      relays: [url],
      WebSocket: WS,
      live: false,
      cursors: memoryCursors(),
      onUpdates: (us) => {
        caught += us.length;
        if (caught === year.updates.length) done();
      },
    });
    clients.push(away);
    await finished;
    const catchUpMs = performance.now() - t0;
    const catchUpBytes = wireBytes;
    away.close();
    let stored = '';
    if (redisUrl) {
      const c = server.relay ? await import('@redis/client').then(({ createClient }) => createClient({ url: redisUrl })) : null;
      if (c) {
        await c.connect();
        const usage = await c.sendCommand<number>(['MEMORY', 'USAGE', `pacto:relay:{${yearKeys.room}}:s`, 'SAMPLES', '0']);
        await c.close();
        stored = `${(usage / 1024).toFixed(0)} KB in the room's stream (MEMORY USAGE)`;
      }
    } else {
      await server.close();
      stored = `${((dirBytes(dir) - before) / 1024).toFixed(0)} KB of LMDB file growth`;
    }

    const o = summarise(toOther);
    const a = summarise(toAck);
    report(`Relay, ${kind}, loopback`, [
      [
        `append -> other phone has it (${LATENCY_SAMPLES} updates of ${Math.min(...updates.map((u) => u.length))}-${Math.max(...updates.map((u) => u.length))} B)`,
        `median ${o.median.toFixed(1)} ms, p95 ${o.p95.toFixed(1)} ms`,
      ],
      ['append -> acknowledged (durably stored)', `median ${a.median.toFixed(1)} ms, p95 ${a.p95.toFixed(1)} ms`],
      [
        `a game year (${year.updates.length} updates, ${(year.bytes / 1024).toFixed(0)} KB of Yjs updates)`,
        `sealed ${(sealed / 1024).toFixed(0)} KB (+${(((sealed - year.bytes) / year.bytes) * 100).toFixed(1)}%: nonce, MAC, padding)`,
      ],
      ['  stored on the relay', stored],
      [
        '  per blob besides the update',
        `${((sealed - year.bytes) / year.updates.length).toFixed(0)} B sealing and padding, +8 B checksum, +16 B append id${redisUrl ? '' : ', +48 B key'}`,
      ],
      ['phone away a whole game year catches up', `${catchUpMs.toFixed(0)} ms, ${(catchUpBytes / 1024).toFixed(0)} KB received`],
    ]);
  } finally {
    for (const c of clients) c.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The phone side on a real log: a scripted seven-player game (the protocol bench's, every power
 * committing, revealing and acknowledging every phase) published entry by entry on one phone, each
 * entry through the outbox (fake-indexeddb) to the relay, as the app does; then a phone that was
 * away the whole time opens and takes it all in through its gate.
 */
export async function benchPhoneSide(): Promise<void> {
  const YEARS = 2;
  const game = scriptedGame(YEARS, 7);
  const password = 'bench-phone-side-password-1';
  const dir = mkdtempSync(join(tmpdir(), 'pacto-bench-relay-phone-'));
  const server = createAppServer(undefined, { relay: { dir }, log: () => undefined });
  await server.listen(0, '127.0.0.1');
  const url = `ws://127.0.0.1:${(server.http.address() as AddressInfo).port}/relay`;
  const phone = async () => {
    const store = await openPactoStore('pacto', new IDBFactory());
    const doc = new Y.Doc();
    const replica = await GameReplica.open({ gameId: game.gameId, doc, storage: entryStorage(store, game.gameId), verifier: nodeVerifier() });
    const persisted = persistDoc(store, game.gameId, doc, { load: (u, o) => replica.loadStored(u, o), own: (o) => replica.isOwnOrigin(o) });
    await persisted.ready;
    const relay = new GameRelay({
      gameId: game.gameId,
      password,
      relays: [url],
      gate: replica,
      storage: relayStorage(store, game.gameId),
      persisted,
      WebSocket: WS,
    });
    await relay.ready;
    return {
      store,
      replica,
      relay,
      close: async () => {
        relay.destroy();
        await persisted.destroy();
        replica.destroy();
        store.close();
      },
    };
  };
  try {
    const writer = await phone();
    const t0 = performance.now();
    for (const entry of game.log) await writer.replica.publish([entry]);
    while (writer.relay.status().waiting > 0 || (await writer.store.outboxList(game.gameId)).length > 0) await new Promise((r) => setTimeout(r, 20));
    const uploadMs = performance.now() - t0;
    await writer.close();
    // What the relay holds, counted by a reader that fetches everything.
    let blobs = 0;
    let blobBytes = 0;
    let updateBytes = 0;
    await new Promise<void>((resolve) => {
      const counter = new RelayClient({
        gameId: game.gameId,
        password,
        relays: [url],
        WebSocket: WS,
        live: false,
        cursors: memoryCursors(),
        onUpdates: (us) => {
          for (const u of us) {
            blobs++;
            updateBytes += u.length;
            blobBytes += sealedLength(u.length);
          }
          if (blobs >= game.log.length) {
            counter.close();
            resolve();
          }
        },
      });
    });
    wireBytes = 0;
    const t1 = performance.now();
    const away = await phone();
    while (away.replica.admission.size < game.log.length) await new Promise((r) => setTimeout(r, 10));
    const catchUpMs = performance.now() - t1;
    const catchUpBytes = wireBytes;
    await away.close();
    const entryBytes = game.log.reduce((n, e) => n + e.length, 0);
    report('Relay, the phone side on a real log (7 powers, every phase committed, revealed and acknowledged)', [
      [
        `${YEARS} game-years: ${game.log.length} signed entries, ${(entryBytes / 1024).toFixed(0)} KB`,
        `${blobs} blobs (one Yjs update per entry, as the app publishes them)`,
      ],
      [
        'bytes per game-year on the relay',
        `${(blobBytes / YEARS / 1024).toFixed(0)} KB sealed (Yjs updates ${(updateBytes / YEARS / 1024).toFixed(0)} KB; entries ${(entryBytes / YEARS / 1024).toFixed(0)} KB)`,
      ],
      ['upload through the outbox (IndexedDB, fake-indexeddb here), one entry at a time', `${(uploadMs / game.log.length).toFixed(1)} ms per entry`],
      [`a phone away for ${YEARS} years opens: fetch, open, gate, admit, store`, `${catchUpMs.toFixed(0)} ms, ${(catchUpBytes / 1024).toFixed(0)} KB received`],
    ]);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** notify -> the push service has the push (VAPID signed, payload encrypted by the relay, then
 *  verified and decrypted by the fake push service on 127.0.0.1, over HTTPS), one device. */
export async function benchPush(): Promise<void> {
  const SAMPLES = 100;
  const cert = makeCert();
  const service = await startPushService(cert);
  const dir = mkdtempSync(join(tmpdir(), 'pacto-bench-push-'));
  const limits = { maxNotifiesPerRoom: 10_000, maxNotifiesPerAddress: 10_000 };
  const server = createAppServer(undefined, { relay: { dir, limits, push: { allowHosts: ['127.0.0.1'], ca: [cert.certPem] } }, log: () => undefined });
  await server.ready;
  await server.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(server.http.address() as AddressInfo).port}`;
  try {
    const keys = relayKeysFor('bench-push-game-0001', 'bench-push-password-01');
    service.expectKey(await httpPushKey(base));
    const device = service.device();
    await httpPushRegister(base, keys, device);
    const hint = new TextEncoder().encode('{"k":"reveal-due","phase":"F1905M"}');
    const samples: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t0 = performance.now();
      await httpNotify(base, keys, hint);
      await service.waitFor(i + 1);
      samples.push(service.received[i]!.at - t0);
    }
    if (service.rejected.length > 0) throw new Error(`the push service refused: ${service.rejected[0]}`);
    const s = summarise(samples);
    report('Relay, Web Push, loopback (embedded store)', [
      [
        `notify -> the push service has it, verified and decrypted (${SAMPLES} notifies, HTTP API)`,
        `median ${s.median.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms`,
      ],
    ]);
  } finally {
    await server.stop();
    await service.stop();
    cert.remove();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchRelay(): Promise<void> {
  await benchOne('embedded (LMDB)');
  await benchPush();
  await benchPhoneSide();
  if (!existsSync('/usr/bin/redis-server')) {
    console.log('\nRelay, Redis: skipped (redis-server not installed)');
    return;
  }
  const redis = await startRedis();
  try {
    await benchOne('Redis', redis.url);
  } finally {
    await redis.stop();
  }
}

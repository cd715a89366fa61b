// kill -9 of the relay process (the real `npm run signal`) in the middle of uploads: after a
// restart on the same directory, every append it had acknowledged is there, under the cursor it
// was acknowledged with; and a phone's client library, reconnecting, gets every one of its updates
// stored exactly once.
import nacl from 'tweetnacl';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { toBase64 } from '../../src/protocol';
import { sealBlob } from '../../src/net/relay/blob';
import { memoryCursors, RelayClient, type WebSocketConstructor } from '../../src/net/relay/client';
import { appendIdFor, relayKeysFor } from '../../src/net/relay/keys';
import type { ServerFrame } from '../../src/net/relay/protocol';
import { rawClient, startServe, tempDir, type RawClient, type ServeProcess } from './helpers/relay';

const KEYS = relayKeysFor('crash-game-00000001', 'crash-password-000001');
const CONNECTIONS = 4;
const IN_FLIGHT = 8;
const KILL_AFTER_ACKS = 300;
const PHONE_UPDATES = 150;

const procs: ServeProcess[] = [];
const sockets: WebSocket[] = [];
let client: RelayClient | undefined;
const tmp = tempDir('pacto-crash-');

afterEach(async () => {
  client?.close();
  for (const s of sockets) s.terminate();
  for (const p of procs) await p.stop();
  tmp.remove();
});

describe('relay crash', () => {
  it('loses nothing acknowledged when killed with -9 during uploads', async () => {
    const env = {
      PACTO_RELAY_DIR: tmp.dir,
      PACTO_LIMITS: JSON.stringify({ maxRequestsPerSecond: 10_000, burstRequests: 10_000, maxBytesPerSecond: 1e9, burstBytes: 1e9 }),
    };
    const first = await startServe(env);
    procs.push(first);
    const url = `ws://127.0.0.1:${first.port}/relay`;

    // A phone, through the client library, appending all the while.
    const phone = new RelayClient({
      keys: KEYS,
      relays: [url],
      WebSocket: WebSocket as unknown as WebSocketConstructor,
      cursors: memoryCursors(),
      live: false,
      reconnect: { minMs: 50, maxMs: 300 },
      requestTimeoutMs: 5000,
      onUpdates: () => undefined,
    });
    client = phone;
    const phoneUpdates = Array.from({ length: PHONE_UPDATES }, (_, i) => new TextEncoder().encode(`phone update ${i}`));
    const phoneDone = Promise.all(phoneUpdates.map((u) => phone.append(u)));

    // Raw uploaders keep IN_FLIGHT appends going each and record every acknowledgement.
    const acked = new Map<string, { cursor: string; blob: string }>();
    let killed = false;
    const uploaders: RawClient[] = [];
    for (let c = 0; c < CONNECTIONS; c++) {
      const raw = await rawClient(url);
      sockets.push(raw.ws);
      uploaders.push(raw);
      const sent = new Map<string, { id: string; blob: string }>();
      let n = 0;
      const next = (): void => {
        if (killed || raw.ws.readyState !== WebSocket.OPEN) return;
        const blob = toBase64(sealBlob(KEYS.key, nacl.randomBytes(200 + ((n * 37) % 3000))));
        const id = appendIdFor(KEYS.key, new TextEncoder().encode(`${c}:${n}`));
        const rid = `${c}-${n++}`;
        sent.set(rid, { id, blob });
        raw.send({ t: 'append', rid, room: KEYS.room, token: KEYS.token, id, blob });
      };
      raw.ws.on('message', (d) => {
        const f = JSON.parse(d.toString()) as ServerFrame;
        if (f.t !== 'ack') return;
        const s = sent.get(f.rid)!;
        acked.set(s.id, { cursor: f.cursor, blob: s.blob });
        next();
      });
      for (let i = 0; i < IN_FLIGHT; i++) next();
    }
    await expect.poll(() => acked.size, { timeout: 30_000, interval: 5 }).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    await first.kill9();
    killed = true;
    const ackedAtKill = new Map(acked);
    const inFlight = uploaders.length * IN_FLIGHT;

    // Restart on the same directory and port.
    const second = await startServe({ ...env, PORT: String(first.port) });
    procs.push(second);
    const reader = await rawClient(url);
    sockets.push(reader.ws);
    const all = new Map<string, string>();
    for (let after = '', more = true; more;) {
      reader.send({ t: 'fetch', rid: `f${after}`, room: KEYS.room, token: KEYS.token, after });
      const page = await reader.answer(`f${after}`);
      if (page.t !== 'page') throw new Error(JSON.stringify(page));
      for (const it of page.items) all.set(it.cursor, it.blob);
      expect(page.damaged).toEqual([]);
      after = page.next;
      more = page.more;
    }
    let missing = 0;
    for (const { cursor, blob } of ackedAtKill.values()) if (all.get(cursor) !== blob) missing++;
    console.log(
      `relay crash: ${ackedAtKill.size} appends acknowledged before kill -9 (${inFlight} in flight), ${all.size} stored after restart, ${missing} missing`,
    );
    expect(missing).toBe(0);

    // The phone reconnected by itself and every update of it is stored, each once.
    await phoneDone;
    expect(phone.status()[0]!.unacknowledged).toBe(0);
    const check = new RelayClient({
      keys: KEYS,
      relays: [url],
      WebSocket: WebSocket as unknown as WebSocketConstructor,
      live: false,
      onUpdates: (us) => void got.push(...us.map((u) => new TextDecoder().decode(u))),
    });
    const got: string[] = [];
    try {
      await expect.poll(() => got.filter((g) => g.startsWith('phone update')).length, { timeout: 15_000 }).toBe(PHONE_UPDATES);
    } finally {
      check.close();
    }
    expect(new Set(got).size).toBe(got.length);
  }, 90_000);
});

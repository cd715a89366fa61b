// The client library against a scripted relay on 127.0.0.1 (a real WebSocket server that answers
// with timings and bytes a real relay would rarely produce, or a hostile one would): a live blob
// that overtakes the catch-up does not make the client skip older blobs; malformed frames are
// ignored without throwing; a failing onUpdates leaves the cursor where it was; a relay that never
// moves the cursor, or sends a huge frame, is marked misbehaving and backed off from.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { toBase64 } from '../../src/protocol';
import { sealBlob } from '../../src/net/relay/blob';
import { MAX_RELAY_FRAME_CHARS, memoryCursors, RelayClient, type WebSocketConstructor } from '../../src/net/relay/client';
import { relayKeysFor } from '../../src/net/relay/keys';

const KEYS = relayKeysFor('client-game-0000001', 'client-password-00001');
const blob = (text: string): string => toBase64(sealBlob(KEYS.key, new TextEncoder().encode(text)));

let http: Server | undefined;
let client: RelayClient | undefined;

afterEach(async () => {
  client?.close();
  if (http) {
    http.closeAllConnections();
    await new Promise<void>((r) => http!.close(() => r()));
  }
  http = undefined;
});

/** A relay whose answers are written by the test. */
async function scripted(onFrame: (ws: WebSocket, frame: Record<string, unknown>) => void): Promise<string> {
  http = createServer();
  const wss = new WebSocketServer({ server: http });
  wss.on('connection', (ws) => ws.on('message', (d) => onFrame(ws, JSON.parse(d.toString()))));
  await new Promise<void>((r) => http!.listen(0, '127.0.0.1', r));
  return `ws://127.0.0.1:${(http.address() as AddressInfo).port}/relay`;
}

function start(url: string, onUpdates: (us: readonly Uint8Array[]) => void | Promise<void>, cursors = memoryCursors()) {
  client = new RelayClient({
    keys: KEYS,
    relays: [url],
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    cursors,
    reconnect: { minMs: 50, maxMs: 200 },
    onUpdates,
  });
  return cursors;
}

describe('relay client', () => {
  it('a live blob that arrives before the catch-up answers does not make it skip older blobs', async () => {
    const url = await scripted((ws, f) => {
      if (f.t === 'subscribe') {
        ws.send(JSON.stringify({ t: 'subscribed', rid: f.rid, room: KEYS.room }));
        ws.send(JSON.stringify({ t: 'blob', room: KEYS.room, cursor: '100-4', blob: blob('newest') }));
      } else if (f.t === 'fetch') {
        // The page comes late, and ends before the live blob.
        const items = [1, 2, 3].map((n) => ({ cursor: `100-${n}`, blob: blob(`old ${n}`) }));
        setTimeout(
          () =>
            ws.send(
              JSON.stringify({
                t: 'page',
                rid: f.rid,
                room: KEYS.room,
                items: f.after === '' ? items : [],
                next: f.after === '' ? '100-3' : f.after,
                more: false,
                damaged: [],
              }),
            ),
          100,
        );
      }
    });
    const got: string[] = [];
    const cursors = start(url, (us) => void got.push(...us.map((u) => new TextDecoder().decode(u))));
    await expect.poll(() => got, { timeout: 5000 }).toEqual(['old 1', 'old 2', 'old 3', 'newest']);
    expect(cursors.saved.get(url)).toBe('100-4');
  });

  it('ignores malformed and hostile frames without throwing, and still takes good ones', async () => {
    const url = await scripted((ws, f) => {
      if (f.t === 'subscribe') {
        for (const junk of [
          'nope',
          '[]',
          '{"t":"blob"}',
          '{"t":"blob","room":"x","cursor":"zz","blob":"AA"}',
          '{"t":"page","rid":"1"}',
          JSON.stringify({ t: 'error' }),
        ])
          ws.send(junk);
        ws.send(Buffer.from([0, 1, 2]));
        ws.send(JSON.stringify({ t: 'subscribed', rid: f.rid, room: KEYS.room }));
      } else if (f.t === 'fetch') {
        ws.send(
          JSON.stringify({
            t: 'page',
            rid: f.rid,
            room: KEYS.room,
            items: [
              { cursor: '7-0', blob: blob('good') },
              { cursor: '7-1', blob: '!!!' },
            ],
            next: '7-1',
            more: false,
            damaged: [],
          }),
        );
      }
    });
    const got: string[] = [];
    const bad: string[] = [];
    client = new RelayClient({
      keys: KEYS,
      relays: [url],
      WebSocket: WebSocket as unknown as WebSocketConstructor,
      onUpdates: (us) => void got.push(...us.map((u) => new TextDecoder().decode(u))),
      onBadBlob: (b) => void bad.push(`${b.cursor}:${b.problem}`),
    });
    await expect.poll(() => got, { timeout: 5000 }).toEqual(['good']);
    expect(bad).toEqual(['7-1:not-base64']);
  });

  it('a failing onUpdates leaves the cursor, and the page is fetched again', async () => {
    let fetches = 0;
    const url = await scripted((ws, f) => {
      if (f.t === 'subscribe') ws.send(JSON.stringify({ t: 'subscribed', rid: f.rid, room: KEYS.room }));
      else if (f.t === 'fetch') {
        fetches++;
        const items = f.after === '' ? [{ cursor: '9-0', blob: blob('keep me') }] : [];
        ws.send(JSON.stringify({ t: 'page', rid: f.rid, room: KEYS.room, items, next: items.length ? '9-0' : String(f.after), more: false, damaged: [] }));
      }
    });
    let failures = 1;
    const got: string[] = [];
    const cursors = start(url, (us) => {
      if (failures-- > 0) throw new Error('disk full');
      got.push(...us.map((u) => new TextDecoder().decode(u)));
    });
    await expect.poll(() => got, { timeout: 8000 }).toEqual(['keep me']);
    expect(fetches).toBeGreaterThanOrEqual(2);
    expect(cursors.saved.get(url)).toBe('9-0');
  });
  it('a subscription the relay refuses for now is asked again, so live blobs still come', async () => {
    let subscribes = 0;
    const url = await scripted((ws, f) => {
      if (f.t === 'subscribe') {
        // The first answer is a refusal a Redis hiccup gives; a live blob exists only for a subscriber.
        if (++subscribes === 1)
          ws.send(JSON.stringify({ t: 'error', rid: f.rid, room: KEYS.room, code: 'unavailable', message: 'store down', retryAfterMs: 100 }));
        else {
          ws.send(JSON.stringify({ t: 'subscribed', rid: f.rid, room: KEYS.room }));
          setTimeout(() => ws.send(JSON.stringify({ t: 'blob', room: KEYS.room, cursor: '100-1', blob: blob('live') })), 300);
        }
      } else if (f.t === 'fetch') {
        ws.send(JSON.stringify({ t: 'page', rid: f.rid, room: KEYS.room, items: [], next: f.after, more: false, damaged: [] }));
      }
    });
    const got: string[] = [];
    start(url, (us) => void got.push(...us.map((u) => new TextDecoder().decode(u))));
    await expect.poll(() => client!.status()[0]!.connected, { timeout: 5000 }).toBe(true);
    expect(client!.status()[0]!.live).toBe(false); // refused: not live, whatever the socket says
    await expect.poll(() => client!.status()[0]!.live, { timeout: 5000 }).toBe(true);
    await expect.poll(() => got, { timeout: 5000 }).toEqual(['live']);
    expect(subscribes).toBe(2);
  });

  it('a relay that says "more" without moving the cursor is asked a bounded number of times, marked misbehaving and backed off from', async () => {
    let fetches = 0;
    const url = await scripted((ws, f) => {
      if (f.t === 'subscribe') ws.send(JSON.stringify({ t: 'subscribed', rid: f.rid, room: KEYS.room }));
      else if (f.t === 'fetch') {
        fetches++;
        ws.send(JSON.stringify({ t: 'page', rid: f.rid, room: KEYS.room, items: [], damaged: [], next: f.after, more: true }));
      } else if (f.t === 'ping') ws.send(JSON.stringify({ t: 'pong', rid: f.rid }));
    });
    const got: Uint8Array[] = [];
    start(url, (us) => void got.push(...us));
    await expect.poll(() => client!.status()[0]!.misbehaving, { timeout: 5_000 }).toBe(true);
    await new Promise((r) => setTimeout(r, 3_000));
    // Was 52,411 fetches in 3 s. Now one per connection, and the next connection waits 30 s.
    expect(fetches).toBeLessThanOrEqual(2);
    expect(client!.status()[0]!.lastError?.code).toBe('misbehaving');
    expect(client!.status()[0]!.caughtUp).toBe(false);
    expect(got).toHaveLength(0);
  });

  it('a frame far larger than any honest page is dropped unread, with the connection; the relay is marked misbehaving', async () => {
    let fetches = 0;
    const url = await scripted((ws, f) => {
      if (f.t === 'subscribe') ws.send(JSON.stringify({ t: 'subscribed', rid: f.rid, room: KEYS.room }));
      else if (f.t === 'fetch') {
        fetches++;
        const items = [{ cursor: '100-1', blob: 'A'.repeat(MAX_RELAY_FRAME_CHARS + 1) }];
        ws.send(JSON.stringify({ t: 'page', rid: f.rid, room: KEYS.room, items, damaged: [], next: '100-1', more: false }));
      }
    });
    const got: Uint8Array[] = [];
    start(url, (us) => void got.push(...us));
    await expect.poll(() => client!.status()[0]!.misbehaving, { timeout: 10_000 }).toBe(true);
    expect(client!.status()[0]!.connected).toBe(false);
    expect(client!.status()[0]!.cursor).toBe('');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(fetches).toBe(1);
    expect(got).toHaveLength(0);
  });
});

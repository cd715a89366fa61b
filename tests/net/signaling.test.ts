import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { attachSignaling, type SignalingServer } from '../../src/net/signal/server';

let http: Server;
let signaling: SignalingServer;
let url: string;
const sockets: WebSocket[] = [];

beforeEach(async () => {
  http = createServer();
  signaling = attachSignaling(http, { maxMessageBytes: 4096, maxTopicsPerConnection: 2 });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await signaling.close();
  await new Promise<void>((r) => http.close(() => r()));
});

async function client(): Promise<{ ws: WebSocket; inbox: unknown[]; closed: Promise<number> }> {
  const ws = new WebSocket(url);
  sockets.push(ws);
  const inbox: unknown[] = [];
  ws.on('message', (d) => inbox.push(JSON.parse(d.toString())));
  const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
  await new Promise<void>((r, j) => {
    ws.once('open', () => r());
    ws.once('error', j);
  });
  return { ws, inbox, closed };
}

/** A round trip through the server: once the pong is back, everything sent before it was handled. */
async function flush(c: { ws: WebSocket; inbox: unknown[] }): Promise<void> {
  const before = c.inbox.length;
  c.ws.send(JSON.stringify({ type: 'ping' }));
  for (let i = 0; i < 200 && !c.inbox.slice(before).some((m) => (m as { type: string }).type === 'pong'); i++) {
    await new Promise((r) => setTimeout(r, 5));
  }
  c.inbox.splice(
    c.inbox.findIndex((m, i) => i >= before && (m as { type: string }).type === 'pong'),
    1,
  );
}

describe('signaling server', () => {
  it('relays a publish to every subscriber of the room and to no other room', async () => {
    const a = await client();
    const b = await client();
    const c = await client();
    a.ws.send(JSON.stringify({ type: 'subscribe', topics: ['room-1'] }));
    b.ws.send(JSON.stringify({ type: 'subscribe', topics: ['room-1'] }));
    c.ws.send(JSON.stringify({ type: 'subscribe', topics: ['room-2'] }));
    await Promise.all([flush(a), flush(b), flush(c)]);
    a.ws.send(JSON.stringify({ type: 'publish', topic: 'room-1', data: 'hello' }));
    await Promise.all([flush(a), flush(b), flush(c)]);
    expect(b.inbox).toEqual([{ type: 'publish', topic: 'room-1', data: 'hello', clients: 2 }]);
    expect(a.inbox).toHaveLength(1);
    expect(c.inbox).toEqual([]);
  });

  it('answers ping with pong', async () => {
    const a = await client();
    a.ws.send(JSON.stringify({ type: 'ping' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(a.inbox).toContainEqual({ type: 'pong' });
  });

  it('refuses to publish into a room the sender has not joined', async () => {
    const a = await client();
    const b = await client();
    b.ws.send(JSON.stringify({ type: 'subscribe', topics: ['secret'] }));
    await flush(b);
    a.ws.send(JSON.stringify({ type: 'publish', topic: 'secret', data: 'injected' }));
    await Promise.all([flush(a), flush(b)]);
    expect(b.inbox).toEqual([]);
    expect(signaling.stats.rejected).toBeGreaterThan(0);
  });

  it('limits rooms per connection', async () => {
    const a = await client();
    a.ws.send(JSON.stringify({ type: 'subscribe', topics: ['r1', 'r2', 'r3'] }));
    await flush(a);
    expect(signaling.stats.topics).toBe(2);
  });

  it('closes a connection that sends an oversized frame, and ignores garbage', async () => {
    const a = await client();
    a.ws.send('not json');
    await flush(a);
    expect(a.ws.readyState).toBe(WebSocket.OPEN);
    a.ws.send('x'.repeat(10_000));
    expect(await a.closed).toBe(1009);
  });
});

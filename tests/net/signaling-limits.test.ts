// The signaling server's limits against one hostile client: it cannot take every connection slot
// (a phone from another address still gets in), cannot crowd a room past its subscriber limit, and
// cannot push more bytes than its budget. Loopback has many addresses (127.0.0.0/8), so "another
// address" is a real second source address here, bound with `localAddress`.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { attachSignaling, type SignalingLimits, type SignalingServer } from '../../src/net/signal/server';

let http: Server | undefined;
let signaling: SignalingServer | undefined;
let url = '';
const sockets: WebSocket[] = [];

async function start(limits: Partial<SignalingLimits>): Promise<SignalingServer> {
  http = createServer();
  signaling = attachSignaling(http, limits);
  await new Promise<void>((r) => http!.listen(0, '127.0.0.1', r));
  url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return signaling;
}

afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await signaling?.close();
  if (http) await new Promise<void>((r) => http!.close(() => r()));
  http = undefined;
  signaling = undefined;
});

interface Client {
  ws: WebSocket;
  inbox: { type: string; topic?: string; data?: unknown }[];
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens a client from `from`; resolves null when the server refuses it. */
async function connect(from: string): Promise<Client | null> {
  const ws = new WebSocket(url, { localAddress: from });
  sockets.push(ws);
  const inbox: Client['inbox'] = [];
  ws.on('message', (d) => inbox.push(JSON.parse(d.toString())));
  const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
  const ok = await new Promise<boolean>((r) => {
    ws.once('open', () => r(true));
    ws.once('error', () => r(false));
  });
  return ok ? { ws, inbox, closed } : null;
}

async function roundTrip(c: Client): Promise<void> {
  const before = c.inbox.filter((m) => m.type === 'pong').length;
  c.ws.send(JSON.stringify({ type: 'ping' }));
  await expect.poll(() => c.inbox.filter((m) => m.type === 'pong').length, { timeout: 5000, interval: 5 }).toBe(before + 1);
}

describe('signaling limits', () => {
  it('one address cannot take every connection slot: a phone from another address still connects', async () => {
    const server = await start({ maxConnections: 60, maxConnectionsPerAddress: 8 });
    // The attacker opens as many connections as the whole server allows, all from 127.0.0.2.
    const attempts = await Promise.all(Array.from({ length: 60 }, () => connect('127.0.0.2')));
    const admitted = attempts.filter((c) => c !== null).length;
    expect(admitted).toBe(8);
    expect(server.stats.rejected).toBeGreaterThanOrEqual(52);
    // A player's phone, from another address, is served.
    const phone = await connect('127.0.0.3');
    expect(phone).not.toBeNull();
    await roundTrip(phone!);
    // Slots are given back when connections close: the attacker's address may connect again.
    for (const c of attempts) c?.ws.close();
    await expect.poll(() => server.stats.connections, { timeout: 5000 }).toBe(1);
    expect(await connect('127.0.0.2')).not.toBeNull();
  });

  it('one address opening connections faster than its rate is refused past its burst; another address is served', async () => {
    await start({ maxConnections: 500, maxConnectionsPerAddress: 500, maxNewConnectionsPerSecond: 2, burstNewConnections: 10 });
    const opened: (Client | null)[] = [];
    for (let i = 0; i < 30; i++) {
      const c = await connect('127.0.0.4');
      opened.push(c);
      c?.ws.close(); // a churn of short connections: the per-address count never fills
    }
    const admitted = opened.filter((c) => c !== null).length;
    expect(admitted).toBeGreaterThanOrEqual(10);
    expect(admitted).toBeLessThan(20);
    expect(await connect('127.0.0.5')).not.toBeNull();
  });

  it('a connection in no topic is closed after roomlessMs; one in a topic stays', async () => {
    await start({ roomlessMs: 1_500 });
    const idle = (await connect('127.0.0.6'))!;
    const member = (await connect('127.0.0.7'))!;
    member.ws.send(JSON.stringify({ type: 'subscribe', topics: ['a-game'] }));
    await roundTrip(member);
    expect(await Promise.race([idle.closed, new Promise((r) => setTimeout(() => r('open'), 6_000))])).toMatchObject({ code: 1008 });
    await roundTrip(member);
    expect(member.ws.readyState).toBe(WebSocket.OPEN);
  });

  it('a room takes at most maxSubscribersPerTopic subscribers; others get nothing from it', async () => {
    await start({ maxSubscribersPerTopic: 3 });
    const clients = (await Promise.all(Array.from({ length: 5 }, (_, i) => connect(`127.0.0.${10 + i}`)))) as Client[];
    for (const c of clients) {
      c.ws.send(JSON.stringify({ type: 'subscribe', topics: ['crowded'] }));
      await roundTrip(c);
    }
    clients[0]!.ws.send(JSON.stringify({ type: 'publish', topic: 'crowded', data: 'hello' }));
    await Promise.all(clients.map(roundTrip));
    const got = clients.map((c) => c.inbox.filter((m) => m.type === 'publish').length);
    expect(got).toEqual([1, 1, 1, 0, 0]);
    // Nor may a refused subscriber publish into the room.
    clients[4]!.ws.send(JSON.stringify({ type: 'publish', topic: 'crowded', data: 'injected' }));
    await Promise.all(clients.map(roundTrip));
    expect(clients.map((c) => c.inbox.filter((m) => m.type === 'publish').length)).toEqual([1, 1, 1, 0, 0]);
    // When a member leaves, a place frees up.
    clients[1]!.ws.send(JSON.stringify({ type: 'unsubscribe', topics: ['crowded'] }));
    clients[3]!.ws.send(JSON.stringify({ type: 'subscribe', topics: ['crowded'] }));
    await Promise.all(clients.map(roundTrip));
    clients[0]!.ws.send(JSON.stringify({ type: 'publish', topic: 'crowded', data: 'again' }));
    await Promise.all(clients.map(roundTrip));
    expect(clients.map((c) => c.inbox.filter((m) => m.type === 'publish').length)).toEqual([2, 1, 2, 1, 0]);
  });

  it('closes a connection that sends more bytes than its budget, under the message-rate limit', async () => {
    const server = await start({ maxBytesPerSecond: 64 * 1024, burstBytes: 128 * 1024, maxMessagesPerSecond: 200 });
    const flooder = (await connect('127.0.0.20'))!;
    const bystander = (await connect('127.0.0.21'))!;
    for (const c of [flooder, bystander]) {
      c.ws.send(JSON.stringify({ type: 'subscribe', topics: ['budget'] }));
      await roundTrip(c);
    }
    // 20 messages of 30 KB a second: 600 KB/s, well under 200 messages/s and under the frame limit.
    const pad = 'x'.repeat(30_000);
    const timer = setInterval(() => {
      if (flooder.ws.readyState === WebSocket.OPEN) flooder.ws.send(JSON.stringify({ type: 'publish', topic: 'budget', data: pad }));
    }, 50);
    try {
      const closed = await Promise.race([flooder.closed, new Promise<null>((r) => setTimeout(() => r(null), 5000))]);
      expect(closed).toEqual({ code: 1008, reason: 'byte budget' });
    } finally {
      clearInterval(timer);
    }
    // The bystander got at most what the budget lets through, and is still served.
    const delivered = bystander.inbox.filter((m) => m.type === 'publish').length * 30_000;
    expect(delivered).toBeLessThanOrEqual(128 * 1024 + 64 * 1024 * 5);
    await roundTrip(bystander);
    expect(server.stats.connections).toBe(1);
  });

  it('an honest client within its budget is never closed', async () => {
    await start({ maxBytesPerSecond: 64 * 1024, burstBytes: 128 * 1024 });
    const a = (await connect('127.0.0.30'))!;
    a.ws.send(JSON.stringify({ type: 'subscribe', topics: ['calm'] }));
    // 100 KB at once (under the burst), then 20 KB/s for 2 s.
    for (let i = 0; i < 5; i++) a.ws.send(JSON.stringify({ type: 'publish', topic: 'calm', data: 'y'.repeat(20_000) }));
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 200));
      a.ws.send(JSON.stringify({ type: 'publish', topic: 'calm', data: 'z'.repeat(4_000) }));
    }
    await roundTrip(a);
    expect(a.ws.readyState).toBe(WebSocket.OPEN);
    expect(a.inbox.filter((m) => m.type === 'publish')).toHaveLength(15);
  });
});

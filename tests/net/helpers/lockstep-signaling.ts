// A WebSocket proxy in front of a real signaling server that makes the first signaling messages
// of `clients` peers cross each other, every time: it holds each publish until every client has
// sent as many publishes as the round needs, then releases them all at once, for the first
// `rounds` rounds, and passes everything through after that. With two y-webrtc peers and two
// rounds, both announces are delivered together (so y-webrtc alone has both peers start a
// connection as initiator) and then both offers (so each offer meets the other's offer already
// made): the glare two phones opening a game at the same moment can run into, on demand rather
// than by luck.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer, type RawData } from 'ws';

export interface LockstepSignaling {
  /** ws://127.0.0.1:port of the proxy. */
  readonly url: string;
  /** Publishes held and released so far. */
  readonly released: () => number;
  close(): Promise<void>;
}

interface Client {
  readonly up: WebSocket;
  /** Open upstream: frames from the client wait for it. */
  readonly upOpen: Promise<void>;
  publishes: number;
  /** Pongs to our own pings, not handed to the client. */
  swallow: number;
  pong?: () => void;
}

export async function startLockstep(upstream: string, clients = 2, rounds = 2): Promise<LockstepSignaling> {
  const http = createServer();
  const wss = new WebSocketServer({ server: http });
  const all: Client[] = [];
  let held: { client: Client; data: string }[] = [];
  let round = 0;
  let released = 0;
  let queue: Promise<void> = Promise.resolve();

  /** Upstream has handled everything this client sent before (its subscribe above all). */
  const flushed = (c: Client): Promise<void> =>
    new Promise((resolve) => {
      c.swallow++;
      c.pong = resolve;
      c.up.send(JSON.stringify({ type: 'ping' }));
    });

  const maybeRelease = async (): Promise<void> => {
    if (all.length < clients || all.some((c) => c.publishes < round + 1)) return;
    round++;
    const batch = held;
    held = [];
    await Promise.all(all.map(flushed));
    for (const { client, data } of batch) client.up.send(data);
    released += batch.length;
  };

  wss.on('connection', (ws) => {
    const up = new WebSocket(upstream);
    const upOpen = new Promise<void>((r) => up.once('open', () => r()));
    const c: Client = { up, upOpen, publishes: 0, swallow: 0 };
    all.push(c);
    up.on('message', (d: RawData) => {
      const text = d.toString();
      if (c.swallow > 0 && (JSON.parse(text) as { type?: string }).type === 'pong') {
        c.swallow--;
        c.pong?.();
        return;
      }
      if (ws.readyState === WebSocket.OPEN) ws.send(text);
    });
    up.on('close', () => ws.close());
    up.on('error', () => ws.close());
    ws.on('close', () => up.close());
    // One queue for all clients' frames, so nothing passes a release still under way.
    ws.on('message', (d: RawData) => {
      const text = d.toString();
      queue = queue.then(async () => {
        await upOpen;
        if (round < rounds && (JSON.parse(text) as { type?: string }).type === 'publish') {
          c.publishes++;
          held.push({ client: c, data: text });
          await maybeRelease();
          return;
        }
        up.send(text);
      });
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  return {
    url: `ws://127.0.0.1:${(http.address() as AddressInfo).port}`,
    released: () => released,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      for (const c of all) c.up.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}

// Slow consumers cannot grow the signaling server's memory: subscribers that never read, in a room
// where publishers stay under every per-connection limit, are closed once their send buffer passes
// its limit, and the server's resident memory stays under a fixed bound. The server runs in its own
// process so that its RSS is measured alone.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

const SLOW = 10;
const PUBLISHERS = 12;
const MESSAGE_BYTES = 40_000;
const PUBLISH_EVERY_MS = 200; // 200 KB/s and 5 messages/s per publisher: under the default limits
const RUN_MS = 8_000;
const MIB = 1024 * 1024;
/** What the server may grow by while the attack runs (today's main grew by over 300 MiB). */
const GROWTH_BOUND = 64 * MIB;

interface Stats {
  stats: { connections: number; slowClosed?: number; rejected: number };
  memory: NodeJS.MemoryUsage;
}

let server: ChildProcess | undefined;
const sockets: WebSocket[] = [];

afterAll(async () => {
  for (const s of sockets) s.terminate();
  if (server && server.exitCode === null) {
    const exited = new Promise<void>((r) => server!.once('exit', () => r()));
    server.kill('SIGKILL');
    await exited;
  }
});

function stats(child: ChildProcess): Promise<Stats> {
  return new Promise((resolve) => {
    const on = (m: { type: string }) => {
      if (m.type !== 'stats') return;
      child.off('message', on);
      resolve(m as unknown as Stats);
    };
    child.on('message', on);
    child.send({ type: 'stats' });
  });
}

async function open(port: number, from: string): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, { localAddress: from });
  sockets.push(ws);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return ws;
}

/** Subscribes and waits for the server to have handled it (the pong comes after). */
async function join(ws: WebSocket, topic: string): Promise<void> {
  await new Promise<void>((r) => {
    const on = (raw: WebSocket.RawData) => {
      if (JSON.parse(raw.toString()).type !== 'pong') return;
      ws.off('message', on);
      r();
    };
    ws.on('message', on);
    ws.send(JSON.stringify({ type: 'subscribe', topics: [topic] }));
    ws.send(JSON.stringify({ type: 'ping' }));
  });
}

describe('signaling server memory', () => {
  it(`${SLOW} subscribers that never read are closed and the server stays under a fixed memory bound`, async () => {
    server = fork(fileURLToPath(new URL('./helpers/signal-process.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const { port } = await new Promise<{ port: number }>((r) => server!.once('message', (m) => r(m as { port: number })));

    const slow = await Promise.all(Array.from({ length: SLOW }, (_, i) => open(port, `127.0.2.${i + 1}`)));
    for (const ws of slow) await join(ws, 'slow-room');
    for (const ws of slow) ws.pause(); // never read again: the server's sends pile up
    const publishers = await Promise.all(Array.from({ length: PUBLISHERS }, (_, i) => open(port, `127.0.3.${i + 1}`)));
    for (const ws of publishers) await join(ws, 'slow-room');
    const before = await stats(server);
    expect(before.stats.connections).toBe(SLOW + PUBLISHERS);

    const pad = 'p'.repeat(MESSAGE_BYTES);
    let peak = before.memory.rss;
    const timers = publishers.map((ws) =>
      setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'publish', topic: 'slow-room', data: pad }));
      }, PUBLISH_EVERY_MS),
    );
    const sampler = setInterval(() => void stats(server!).then((s) => (peak = Math.max(peak, s.memory.rss))), 250);
    await new Promise((r) => setTimeout(r, RUN_MS));
    for (const t of timers) clearInterval(t);
    clearInterval(sampler);
    const after = await stats(server);
    peak = Math.max(peak, after.memory.rss);

    console.log(
      `signaling slow consumers: rss ${(before.memory.rss / MIB).toFixed(0)} MiB -> peak ${(peak / MIB).toFixed(0)} MiB; ` +
        `slow closed ${after.stats.slowClosed}, connections ${after.stats.connections}`,
    );
    expect(peak - before.memory.rss).toBeLessThan(GROWTH_BOUND);
    expect(after.stats.slowClosed).toBe(SLOW);
    expect(after.stats.connections).toBe(PUBLISHERS);
    expect(publishers.every((ws) => ws.readyState === WebSocket.OPEN)).toBe(true);
  }, 40_000);
});

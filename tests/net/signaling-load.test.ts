// Load on the signaling server over loopback: 350 WebSocket clients in 50 rooms publishing for
// 30 s. Prints throughput and the server's memory, and checks that no message crossed rooms and
// that every publish reached every member of its room.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

const CLIENTS = 350;
const ROOMS = 50;
const DURATION_MS = 30_000;
const PUBLISH_EVERY_MS = 500;

interface ServerStats {
  stats: { connections: number; topics: number; messagesIn: number; messagesOut: number; rejected: number };
  memory: NodeJS.MemoryUsage;
}

let server: ChildProcess | undefined;
const sockets: WebSocket[] = [];

afterAll(async () => {
  for (const s of sockets) s.terminate();
  if (server && server.exitCode === null) {
    const exited = new Promise<void>((r) => server!.once('exit', () => r()));
    server.send({ type: 'exit' });
    const kill = setTimeout(() => server!.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(kill);
  }
});

function ask<T>(child: ChildProcess, cmd: { type: string }, reply: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (m: { type: string }) => {
      if (m.type !== reply) return;
      child.off('message', on);
      resolve(m as T);
    };
    child.on('message', on);
    child.send(cmd);
  });
}

const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MiB`;

describe('signaling server under load', () => {
  it(`${CLIENTS} clients in ${ROOMS} rooms for ${DURATION_MS / 1000} s: no message crosses rooms`, async () => {
    server = fork(fileURLToPath(new URL('./helpers/signal-process.ts', import.meta.url)), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const { port } = await new Promise<{ port: number }>((r) => server!.once('message', (m) => r(m as { port: number })));
    const before = (await ask<ServerStats>(server, { type: 'stats' }, 'stats')).memory;

    let crossed = 0;
    let received = 0;
    let published = 0;
    const roomOf = (i: number): string => `load-room-${i % ROOMS}`;
    const members = new Map<string, number>();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, i) => {
        // Spread over loopback addresses, as phones come from many: one address may hold only so many connections.
        const ws = new WebSocket(`ws://127.0.0.1:${port}`, { localAddress: `127.0.1.${(i % 16) + 1}` });
        sockets.push(ws);
        await new Promise<void>((resolve, reject) => {
          ws.once('open', () => resolve());
          ws.once('error', reject);
        });
        const room = roomOf(i);
        members.set(room, (members.get(room) ?? 0) + 1);
        ws.on('message', (raw) => {
          const msg = JSON.parse(raw.toString()) as { type: string; topic?: string; data?: { room?: string } };
          if (msg.type !== 'publish') return;
          received++;
          if (msg.topic !== room || msg.data?.room !== room) crossed++;
        });
        ws.send(JSON.stringify({ type: 'subscribe', topics: [room] }));
      }),
    );
    // Every client subscribed before anyone publishes: a round trip per client proves it.
    await Promise.all(
      sockets.map(
        (ws) =>
          new Promise<void>((r) => {
            const on = (raw: WebSocket.RawData) => {
              if (JSON.parse(raw.toString()).type !== 'pong') return;
              ws.off('message', on);
              r();
            };
            ws.on('message', on);
            ws.send(JSON.stringify({ type: 'ping' }));
          }),
      ),
    );
    expect((await ask<ServerStats>(server, { type: 'stats' }, 'stats')).stats).toMatchObject({ connections: CLIENTS, topics: ROOMS });

    const start = performance.now();
    let peakRss = 0;
    const timers = sockets.map((ws, i) =>
      setInterval(() => {
        published++;
        ws.send(JSON.stringify({ type: 'publish', topic: roomOf(i), data: { room: roomOf(i), from: i, n: published, pad: 'x'.repeat(200) } }));
      }, PUBLISH_EVERY_MS),
    );
    const sampler = setInterval(() => {
      void ask<ServerStats>(server!, { type: 'stats' }, 'stats').then((s) => (peakRss = Math.max(peakRss, s.memory.rss)));
    }, 2000);
    await new Promise((r) => setTimeout(r, DURATION_MS));
    for (const t of timers) clearInterval(t);
    clearInterval(sampler);
    const sent = published;
    const expected = sent * (CLIENTS / ROOMS); // every member of the room, the sender included
    await expect.poll(() => received, { timeout: 20_000, interval: 200 }).toBe(expected);
    const seconds = (performance.now() - start) / 1000;
    const after = await ask<ServerStats>(server, { type: 'stats' }, 'stats');

    console.log(
      [
        `signaling load: ${CLIENTS} clients, ${ROOMS} rooms, ${seconds.toFixed(1)} s`,
        `  published ${sent} (${(sent / seconds).toFixed(0)}/s), delivered ${received} (${(received / seconds).toFixed(0)}/s)`,
        `  server in ${after.stats.messagesIn}, out ${after.stats.messagesOut}, rejected ${after.stats.rejected}`,
        `  server memory: rss ${mib(before.rss)} -> peak ${mib(Math.max(peakRss, after.memory.rss))}, heap ${mib(before.heapUsed)} -> ${mib(after.memory.heapUsed)}`,
      ].join('\n'),
    );
    expect(crossed).toBe(0);
    expect(sent).toBeGreaterThan(CLIENTS * (DURATION_MS / PUBLISH_EVERY_MS) * 0.8);
    expect(after.stats.rejected).toBe(0);
    expect(after.stats.connections).toBe(CLIENTS);
  }, 85_000);
});

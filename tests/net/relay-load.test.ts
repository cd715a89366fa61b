// Load on the relay over loopback, bounded in time: two server processes (the real `npm run
// signal`) sharing one redis-server, 1,000 WebSocket clients in 200 rooms, paced over 60 s, half on each
// process, each appending sealed blobs, subscribed live, and fetching since its cursor now and
// then. Prints appends/s, fetch and live latency and memory; checks that every blob a client got
// opens under its own room's key (0 crossed rooms) and that every append reached every member.
import { readFileSync } from 'node:fs';
import nacl from 'tweetnacl';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { fromBase64, toBase64 } from '../../src/protocol';
import { openBlob, sealBlob } from '../../src/net/relay/blob';
import { appendIdFor, relayKeysFor, type RelayKeys } from '../../src/net/relay/keys';
import type { ServerFrame } from '../../src/net/relay/protocol';
import { startRedis, startServe, type RedisServer, type ServeProcess } from './helpers/relay';

const CLIENTS = 1000;
const ROOMS = 200;
const DURATION_MS = 60_000;
const APPEND_EVERY_MS = 4000; // 250 appends/s in all
const FETCH_EVERY_MS = 15_000;
const APPENDS = DURATION_MS / APPEND_EVERY_MS; // per client
const FETCHES = DURATION_MS / FETCH_EVERY_MS; // per client

let redis: RedisServer | undefined;
const procs: ServeProcess[] = [];
const sockets: WebSocket[] = [];
const timers = new Set<ReturnType<typeof setTimeout>>();

afterAll(async () => {
  for (const t of timers) clearTimeout(t);
  for (const s of sockets) s.terminate();
  for (const p of procs) await p.stop();
  await redis?.stop();
});

const rssOf = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
const mib = (n: number): string => `${(n / 1024 / 1024).toFixed(0)} MiB`;
const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

describe('relay under load', () => {
  it(
    `${CLIENTS} clients in ${ROOMS} rooms on 2 processes + Redis paced over ${DURATION_MS / 1000} s: no blob crosses rooms`,
    async () => {
      redis = await startRedis();
      const env = { PACTO_REDIS_URL: redis.url };
      const servers = await Promise.all([startServe(env), startServe(env)]);
      procs.push(...servers);
      const rooms: RelayKeys[] = Array.from({ length: ROOMS }, (_, i) =>
        relayKeysFor(`load-game-${String(i).padStart(6, '0')}`, `load-password-${String(i).padStart(8, '0')}`),
      );
      const rssBefore = servers.map((s) => rssOf(s.child.pid!));

      let crossed = 0;
      let acked = 0;
      let delivered = 0;
      let fetched = 0;
      let refused = 0;
      const fetchLatency: number[] = [];
      const liveLatency: number[] = [];
      const clients = await Promise.all(
        Array.from({ length: CLIENTS }, async (_, i) => {
          const room = rooms[i % ROOMS]!;
          const server = servers[i % 2]!;
          const ws = new WebSocket(`ws://127.0.0.1:${server.port}/relay`, { localAddress: `127.0.4.${(i % 40) + 1}` });
          sockets.push(ws);
          await new Promise<void>((resolve, reject) => {
            ws.once('open', () => resolve());
            ws.once('error', reject);
          });
          const state = { ws, room, i, n: 0, cursor: '', sentAt: new Map<string, number>(), subscribed: false };
          ws.on('message', (raw) => {
            const f = JSON.parse(raw.toString()) as ServerFrame;
            const check = (blob: string, from: string): number | null => {
              const bytes = fromBase64(blob);
              const opened = bytes ? openBlob(room.key, bytes) : null;
              const text = opened?.ok ? new TextDecoder().decode(opened.update) : '';
              const [tag, , at] = text.split('|');
              if (tag !== room.room || from !== room.room) {
                crossed++;
                return null;
              }
              return Number(at);
            };
            if (f.t === 'blob') {
              const at = check(f.blob, f.room);
              delivered++;
              if (at !== null) liveLatency.push(Date.now() - at);
            } else if (f.t === 'ack') acked++;
            else if (f.t === 'subscribed') state.subscribed = true;
            else if (f.t === 'page') {
              for (const it of f.items) check(it.blob, f.room);
              fetched += f.items.length;
              state.cursor = f.next;
              const t0 = state.sentAt.get(f.rid);
              if (t0 !== undefined) fetchLatency.push(performance.now() - t0);
            } else if (f.t === 'error') refused++;
          });
          ws.send(JSON.stringify({ t: 'subscribe', rid: 's', room: room.room, token: room.token }));
          return state;
        }),
      );
      await expect.poll(() => clients.every((c) => c.subscribed), { timeout: 30_000 }).toBe(true);

      // The load is counted, not timed: every client sends APPENDS appends and FETCHES fetches, paced
      // over DURATION_MS. On a loaded machine the timers run late and the run takes longer; what is
      // checked never depends on how many fit into a wall-clock window.
      const start = performance.now();
      let sent = 0;
      let fetchesSent = 0;
      const repeat = (first: number, every: number, times: number, f: () => void): void => {
        let left = times;
        const run = (): void => {
          f();
          if (--left > 0) later(every);
        };
        const later = (ms: number): void => {
          const t = setTimeout(() => {
            timers.delete(t);
            run();
          }, ms);
          timers.add(t);
        };
        later(first);
      };
      for (const c of clients) {
        // Spread the clients' timers over the period so the load is even.
        repeat((c.i * 7919) % APPEND_EVERY_MS, APPEND_EVERY_MS, APPENDS, () => {
          const update = new TextEncoder().encode(`${c.room.room}|${c.i}:${c.n++}|${Date.now()}|${'p'.repeat(200 + (c.n % 5) * 150)}`);
          sent++;
          c.ws.send(
            JSON.stringify({
              t: 'append',
              rid: `a${c.n}`,
              room: c.room.room,
              token: c.room.token,
              id: appendIdFor(c.room.key, update),
              blob: toBase64(sealBlob(c.room.key, update)),
            }),
          );
        });
        repeat((c.i * 104_729) % FETCH_EVERY_MS, FETCH_EVERY_MS, FETCHES, () => {
          const rid = `f${nacl.randomBytes(4).join('')}`;
          fetchesSent++;
          c.sentAt.set(rid, performance.now());
          c.ws.send(JSON.stringify({ t: 'fetch', rid, room: c.room.room, token: c.room.token, after: c.cursor }));
        });
      }
      const peak = [...rssBefore];
      const sampler = setInterval(() => servers.forEach((s, k) => (peak[k] = Math.max(peak[k]!, rssOf(s.child.pid!)))), 1000);
      await expect.poll(() => timers.size, { timeout: DURATION_MS * 4, interval: 500 }).toBe(0);
      clearInterval(sampler);
      const seconds = (performance.now() - start) / 1000;
      const membersPerRoom = CLIENTS / ROOMS;
      await expect.poll(() => acked, { timeout: 30_000 }).toBe(sent);
      await expect.poll(() => delivered, { timeout: 30_000 }).toBe(sent * membersPerRoom);
      const redisMemory = /used_memory:(\d+)/.exec((await redis.cli('INFO', 'memory')).toString())?.[1];

      console.log(
        [
          `relay load: ${CLIENTS} clients, ${ROOMS} rooms, 2 processes + Redis, ${seconds.toFixed(1)} s`,
          `  appends ${sent} (${(sent / seconds).toFixed(0)}/s), all acknowledged; live deliveries ${delivered} (${(delivered / seconds).toFixed(0)}/s); blobs fetched ${fetched}`,
          `  append -> live delivery: median ${pct(liveLatency, 50)} ms, p95 ${pct(liveLatency, 95)} ms`,
          `  fetch round trip: median ${pct(fetchLatency, 50).toFixed(1)} ms, p95 ${pct(fetchLatency, 95).toFixed(1)} ms (${fetchLatency.length} fetches)`,
          `  server RSS: ${servers.map((_, k) => `${mib(rssBefore[k]!)} -> peak ${mib(peak[k]!)}`).join(', ')}; Redis used_memory ${mib(Number(redisMemory))}`,
          `  refused ${refused}, crossed rooms ${crossed}`,
        ].join('\n'),
      );
      expect(crossed).toBe(0);
      expect(refused).toBe(0);
      expect(sent).toBe(CLIENTS * APPENDS);
      expect(fetchesSent).toBe(CLIENTS * FETCHES);
      await expect.poll(() => fetchLatency.length, { timeout: 30_000 }).toBe(CLIENTS * FETCHES);
    },
    DURATION_MS * 4 + 120_000,
  );
});

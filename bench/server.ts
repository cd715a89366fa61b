// The server under a bounded loopback load (issue 30): the real serve.ts process (app, signaling,
// relay, embedded store), 50 keep-alive clients from 50 loopback addresses asking for the app's page, /healthz
// and the relay's HTTP fetch for 8 s, then a slowloris of 500 half-sent requests from one
// address while the load goes on. Prints requests per second, latency (median, p99), the
// process's RSS, and the limits it enforces beside them.
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { DEFAULT_HTTP_LIMITS } from '../src/server/app';
import { relayKeysFor } from '../src/net/relay/keys';
import { startServe, tempDir } from '../tests/net/helpers/relay';
import { report, summarise } from './report';

const CLIENTS = 50;
const DURATION_MS = 8_000;
const SLOWLORIS = 500;
const rssOf = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

function ask(port: number, agent: Agent, path: string, body?: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        agent,
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

async function load(port: number, ms: number): Promise<{ latencies: number[]; failed: number }> {
  const keys = relayKeysFor('bench-server-game-01', 'bench-server-password');
  const fetchBody = JSON.stringify({ t: 'fetch', rid: 'b', room: keys.room, token: keys.token, after: '' });
  const latencies: number[] = [];
  let failed = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      // Each client from its own loopback address, as phones are (limits count per address).
      const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.0.5.${i + 1}` } as ConstructorParameters<typeof Agent>[0]);
      for (let n = 0; performance.now() < end; n++) {
        const t0 = performance.now();
        const which = (i + n) % 3;
        const status = await ask(port, agent, which === 0 ? '/' : which === 1 ? '/healthz' : '/relay/v1', which === 2 ? fetchBody : undefined);
        latencies.push(performance.now() - t0);
        if (status !== 200) failed++;
      }
      agent.destroy();
    }),
  );
  return { latencies, failed };
}

export async function benchServer(): Promise<void> {
  const dist = tempDir('pacto-bench-server-dist-');
  const relay = tempDir('pacto-bench-server-relay-');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(`${dist.dir}/index.html`, '<!doctype html><title>Pacto</title>'.padEnd(2048, ' '));
  // The per-address request limit is raised: each bench client asks far faster than a phone, and
  // the figure wanted is what the server carries, not how fast it says 429.
  const server = await startServe({
    SIGNAL_ONLY: '0',
    DIST: dist.dir,
    PACTO_RELAY_DIR: relay.dir,
    PACTO_PUSH: '0',
    PACTO_ACCESS_LOG: '0',
    PACTO_LIMITS: JSON.stringify({ maxRequestsPerMinute: 1e9 }),
  });
  const slow: Socket[] = [];
  try {
    const rss0 = rssOf(server.child.pid!);
    const quiet = await load(server.port, DURATION_MS);
    const rss1 = rssOf(server.child.pid!);
    // The slowloris from one address, beside the same load from others.
    for (let i = 0; i < SLOWLORIS; i++) {
      const s = connect({ port: server.port, host: '127.0.0.1', localAddress: '127.0.0.66' });
      s.on('error', () => undefined);
      s.write('GET / HTTP/1.1\r\nHost: x\r\n');
      slow.push(s);
    }
    const attacked = await load(server.port, DURATION_MS / 2);
    const rss2 = rssOf(server.child.pid!);
    const q = summarise(quiet.latencies);
    const a = summarise(attacked.latencies);
    const p99 = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(0.99 * xs.length)] ?? NaN;
    report(`server under load (${CLIENTS} keep-alive clients from ${CLIENTS} loopback addresses: the app's page, /healthz, a relay fetch)`, [
      ['requests per second', `${(quiet.latencies.length / (DURATION_MS / 1000)).toFixed(0)} (${quiet.failed} not 200)`],
      ['latency median / p99', `${q.median.toFixed(1)} ms / ${p99(quiet.latencies).toFixed(1)} ms`],
      ['RSS before / after', `${(rss0 / 2 ** 20).toFixed(0)} MiB / ${(rss1 / 2 ** 20).toFixed(0)} MiB`],
      [
        `with ${SLOWLORIS} half-sent requests from one address`,
        `${(attacked.latencies.length / (DURATION_MS / 2000)).toFixed(0)} req/s, median ${a.median.toFixed(1)} ms, p99 ${p99(attacked.latencies).toFixed(1)} ms, ${attacked.failed} not 200, RSS ${(rss2 / 2 ** 20).toFixed(0)} MiB`,
      ],
      [
        'limits enforced',
        `${DEFAULT_HTTP_LIMITS.maxHttpConnectionsPerAddress} sockets per address, ${DEFAULT_HTTP_LIMITS.maxHttpConnections} in all; headers within ${DEFAULT_HTTP_LIMITS.headersTimeoutMs / 1000} s; ${DEFAULT_HTTP_LIMITS.maxRequestsPerMinute} requests a minute per address (raised for this load)`,
      ],
    ]);
  } finally {
    for (const s of slow) s.destroy();
    await server.stop();
    dist.remove();
    relay.remove();
  }
}

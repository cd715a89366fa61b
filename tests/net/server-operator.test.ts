// What an operator sees of a running server (`npm start`'s serve.ts as a real process): /healthz
// says whether the process is ready and its store answers (503 once Redis is gone), /metrics
// speaks Prometheus's text format with connections, relay and refusal counts, and every HTTP
// request leaves one JSON access-log line that holds no query string (where a token could be).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { httpPushKey } from '../../src/net/relay/client';
import { startRedis, startServe, tempDir, type RedisServer, type ServeProcess } from './helpers/relay';

const relayDir = tempDir('pacto-operator-relay-');
const servers: ServeProcess[] = [];
let redis: RedisServer | undefined;

afterAll(async () => {
  for (const s of servers) await s.stop();
  await redis?.stop();
  relayDir.remove();
});

const base = (s: ServeProcess) => `http://127.0.0.1:${s.port}`;

describe('operator signals', () => {
  it('/healthz, /metrics and the access log on the embedded store', async () => {
    const s = await startServe({ PACTO_RELAY_DIR: relayDir.dir, PACTO_PUSH: '0' });
    servers.push(s);
    const health = await fetch(`${base(s)}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });

    // A request no browser sends is refused and counted; a query string never reaches the log.
    const bad = await fetch(`${base(s)}/%`);
    expect(bad.status).toBe(400);
    await fetch(`${base(s)}/?token=SECRET-TOKEN-123`);

    const metrics = await fetch(`${base(s)}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    const text = await metrics.text();
    for (const name of ['pacto_connections', 'pacto_relay_appends', 'pacto_relay_fetches', 'pacto_upgrades_refused', 'pacto_process_resident_memory_bytes'])
      expect(text, name).toMatch(new RegExp(`^${name} \\d+`, 'm'));
    expect(text).toMatch(/^pacto_http_refusals\{reason="bad-target"\} 1$/m);

    // One line per request, JSON, with the path and status and no query string.
    await expect
      .poll(
        () =>
          s
            .output()
            .split('\n')
            .filter((l) => l.startsWith('{"t"')).length,
      )
      .toBeGreaterThanOrEqual(4);
    const lines = s
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{"t"'))
      .map((l) => JSON.parse(l) as { path: string; status: number; method: string });
    expect(lines).toContainEqual(expect.objectContaining({ method: 'GET', path: '/healthz', status: 200 }));
    expect(lines).toContainEqual(expect.objectContaining({ method: 'GET', path: '(unreadable)', status: 400 }));
    expect(s.output()).not.toContain('SECRET-TOKEN-123');

    // Only GET and HEAD.
    expect((await fetch(`${base(s)}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('/healthz answers 503 once the store (Redis) is gone, and the process lives on', async () => {
    redis = await startRedis();
    const s = await startServe({ PACTO_REDIS_URL: redis.url, PACTO_PUSH: '0' });
    servers.push(s);
    expect((await fetch(`${base(s)}/healthz`)).status).toBe(200);
    await redis.stop();
    await expect.poll(async () => (await fetch(`${base(s)}/healthz`)).status, { timeout: 20_000 }).toBe(503);
    expect(s.child.exitCode).toBeNull();
    expect((await fetch(`${base(s)}/metrics`)).status).toBe(200);
  });

  it('the VAPID keys kept apart (PACTO_VAPID_FILE): made once, mode 0600, served, and not in the relay store', async () => {
    const keysDir = tempDir('pacto-operator-vapid-');
    const storeDir = tempDir('pacto-operator-vapid-store-');
    try {
      const file = join(keysDir.dir, 'vapid.json');
      const s = await startServe({ PACTO_RELAY_DIR: storeDir.dir, PACTO_VAPID_FILE: file });
      servers.push(s);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const keys = JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
      expect(await httpPushKey(base(s))).toBe(keys.publicKey);
      await s.stop();
      const disk = Buffer.concat(readdirSync(storeDir.dir).map((f) => readFileSync(join(storeDir.dir, f))));
      expect(disk.includes(Buffer.from(keys.privateKey))).toBe(false);
      // Restarted: the same keys (every push subscription depends on them).
      const again = await startServe({ PACTO_RELAY_DIR: storeDir.dir, PACTO_VAPID_FILE: file });
      servers.push(again);
      expect(await httpPushKey(base(again))).toBe(keys.publicKey);
    } finally {
      keysDir.remove();
      storeDir.remove();
    }
  });
});

// Web Push with Redis: two real server processes (`npm run signal`) on one real redis-server.
// They publish the same VAPID key (made once, by whichever process came first), a subscription
// registered on one process is pushed to by a notify on the other, the room's notify and push
// limits count across both, a gone subscription removed by one is gone for both, and the subscriptions expire
// with the room's blobs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpAppend, httpNotify, httpPushKey, httpPushRegister, openPushHint } from '../../src/net/relay/client';
import { relayKeysFor } from '../../src/net/relay/keys';
import { redisKeys, redisNotifyKey, redisPushCountKey, redisPushKey, redisSharedKey, RedisStore } from '../../src/net/relay/server/redis-store';
import { RedisBus } from '../../src/net/signal/redis-bus';
import { makeCert, startPushService, type FakePushService, type TestCert } from './helpers/push-service';
import { startRedis, startServe, type RedisServer, type ServeProcess } from './helpers/relay';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

let redis: RedisServer;
let cert: TestCert;
let service: FakePushService;
let p1: ServeProcess;
let p2: ServeProcess;

beforeAll(async () => {
  cert = makeCert();
  service = await startPushService(cert);
  redis = await startRedis();
  const env = {
    PACTO_REDIS_URL: redis.url,
    PACTO_ROOM_IDLE_DAYS: '2',
    PACTO_PUSH_ALLOW_HOSTS: '127.0.0.1',
    PACTO_PUSH_CA_FILE: cert.certFile,
    // Pushes per room: 10 an hour (the first test's room sends 8).
    PACTO_LIMITS: JSON.stringify({ maxNotifiesPerRoom: 4, maxPushesPerRoom: 10 }),
  };
  // Started at once: both race to make the keys, and must end up with one.
  [p1, p2] = await Promise.all([startServe(env), startServe(env)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([p1?.stop(), p2?.stop()]);
  await redis?.stop();
  await service?.stop();
  cert?.remove();
});

const base = (p: ServeProcess): string => `http://127.0.0.1:${p.port}`;

describe('Web Push with two processes sharing one Redis', () => {
  it('both processes publish the same VAPID key, kept in Redis', async () => {
    const [k1, k2] = await Promise.all([httpPushKey(base(p1)), httpPushKey(base(p2))]);
    expect(k1).toBe(k2);
    const stored = JSON.parse((await redis.cli('GET', redisSharedKey('vapid'))).toString()) as { publicKey: string };
    expect(stored.publicKey).toBe(k1);
    service.expectKey(k1);
  });

  it('two stores that ask for a shared value at the same instant get the one stored first', async () => {
    // The processes above start one after the other (tsx's start-up), so the second mostly finds
    // the key made; here both read "nothing" before either writes, which only SET NX settles.
    const buses = [new RedisBus(redis.url, () => undefined), new RedisBus(redis.url, () => undefined)];
    try {
      await Promise.all(buses.map((b) => b.ready));
      const stores = buses.map((bus) => new RedisStore({ bus, maxRoomBlobs: 10, maxRoomBytes: 1 << 20, roomIdleMs: 60_000 }));
      let made = 0;
      const values = await Promise.all(stores.map((s) => s.sharedValue('race-test', () => `value ${++made}`)));
      expect(made).toBe(2); // both found nothing and made one
      expect(values[0]).toBe(values[1]);
      expect((await redis.cli('GET', redisSharedKey('race-test'))).toString().trim()).toBe(values[0]);
    } finally {
      await Promise.all(buses.map((b) => b.close()));
    }
  });

  it('a subscription registered on one process is pushed by a notify on the other; the room limit counts across both', async () => {
    const keys = relayKeysFor('push-redis-game-01', 'push-redis-password-1');
    const [a, b] = [service.device(), service.device()];
    await httpPushRegister(base(p1), keys, a);
    await httpPushRegister(base(p2), keys, b);
    expect(await httpNotify(base(p2), keys, enc('from p2'), b.endpoint)).toBe(1);
    expect(await httpNotify(base(p1), keys, enc('from p1'), a.endpoint)).toBe(1);
    await expect.poll(() => service.received.length, { timeout: 10_000 }).toBe(2);
    const got = (id: string) => service.received.filter((p) => p.device === id).map((p) => dec(openPushHint(keys, p.payload!)!));
    expect(got(a.id)).toEqual(['from p2']);
    expect(got(b.id)).toEqual(['from p1']);
    expect(service.rejected).toEqual([]);
    // The limit is 4 per room in the window: two more pass (on either process), then none.
    await httpNotify(base(p1), keys, null);
    await httpNotify(base(p2), keys, null);
    await expect(httpNotify(base(p1), keys, null)).rejects.toMatchObject({ code: 'rate-limited' });
    await expect(httpNotify(base(p2), keys, null)).rejects.toMatchObject({ code: 'rate-limited' });
    await expect.poll(() => service.received.length, { timeout: 10_000 }).toBe(6);
    // The count is one fixed window (1 h here): it ends, and the room may notify again.
    const windowTtl = Number((await redis.cli('PTTL', redisNotifyKey(keys.room))).toString().trim());
    expect(windowTtl).toBeGreaterThan(0);
    expect(windowTtl).toBeLessThanOrEqual(3600 * 1000);
    await redis.cli('PEXPIRE', redisNotifyKey(keys.room), '100');
    await expect.poll(async () => Number((await redis.cli('EXISTS', redisNotifyKey(keys.room))).toString().trim()), { timeout: 5000 }).toBe(0);
    expect(await httpNotify(base(p2), keys, null)).toBe(2);
    await expect.poll(() => service.received.length, { timeout: 10_000 }).toBe(8);
  });

  it("a room's pushes per window count across both processes: the last few go to some devices, then too-many-pushes", async () => {
    const keys = relayKeysFor('push-redis-game-03', 'push-redis-password-3');
    const devices = [service.device(), service.device(), service.device(), service.device()];
    for (const d of devices) await httpPushRegister(base(p1), keys, d);
    const before = service.received.length;
    expect(await httpNotify(base(p1), keys, null)).toBe(4);
    expect(await httpNotify(base(p2), keys, null)).toBe(4);
    expect(await httpNotify(base(p1), keys, null)).toBe(2); // 10 in the window: 2 were left
    // The fourth notify (of 4 allowed) finds the pushes spent.
    await expect(httpNotify(base(p2), keys, null)).rejects.toMatchObject({ code: 'too-many-pushes' });
    await expect.poll(() => service.received.length, { timeout: 10_000 }).toBe(before + 10);
    const ttl = Number((await redis.cli('PTTL', redisPushCountKey(keys.room))).toString().trim());
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(3600 * 1000);
    // Two stores reserving at once (two processes' connections) never grant more than the budget.
    const buses = [new RedisBus(redis.url, () => undefined), new RedisBus(redis.url, () => undefined)];
    try {
      await Promise.all(buses.map((b) => b.ready));
      const stores = buses.map((bus) => new RedisStore({ bus, maxRoomBlobs: 10, maxRoomBytes: 1 << 20, roomIdleMs: 60_000 }));
      const room = relayKeysFor('push-redis-game-04', 'push-redis-password-4').room;
      const grants = await Promise.all(Array.from({ length: 20 }, (_, i) => stores[i % 2]!.reservePushes(room, 60_000, 3, 25)));
      expect(grants.reduce((n, g) => n + g.granted, 0)).toBe(25);
      expect(Math.max(...grants.map((g) => g.resetMs))).toBeLessThanOrEqual(60_000);
    } finally {
      await Promise.all(buses.map((b) => b.close()));
    }
  });

  it('a gone subscription removed by one process is gone for the other; subscriptions expire with the room', async () => {
    const keys = relayKeysFor('push-redis-game-02', 'push-redis-password-2');
    const [stays, gone] = [service.device(), service.device()];
    gone.status = 410;
    await httpPushRegister(base(p1), keys, stays);
    await httpPushRegister(base(p1), keys, gone);
    // Registered before any blob: the room's idle time (2 days) from now.
    const ttl = Number((await redis.cli('PTTL', redisPushKey(keys.room))).toString().trim());
    expect(ttl).toBeGreaterThan(2 * 24 * 3600 * 1000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(2 * 24 * 3600 * 1000);
    expect(await httpNotify(base(p1), keys, null)).toBe(2);
    await expect.poll(async () => Number((await redis.cli('HLEN', redisPushKey(keys.room))).toString().trim()), { timeout: 10_000 }).toBe(1);
    expect(await httpNotify(base(p2), keys, null)).toBe(1);
    // The subscriptions share the room's expiry: every append renews them with the blobs, and
    // Redis drops them when the room goes idle. (Time passes: the expiry is nearly up.)
    const pttl = async (k: string) => Number((await redis.cli('PTTL', k)).toString().trim());
    await redis.cli('PEXPIRE', redisPushKey(keys.room), '60000');
    await httpAppend(`ws://127.0.0.1:${p2.port}/relay`, keys, enc('a move'));
    expect(await pttl(redisPushKey(keys.room))).toBeGreaterThan(2 * 24 * 3600 * 1000 - 60_000);
    const roomTtl = await pttl(redisKeys(keys.room)[0]);
    expect(Math.abs((await pttl(redisPushKey(keys.room))) - roomTtl)).toBeLessThan(5000);
    for (const k of [...redisKeys(keys.room), redisPushKey(keys.room)]) await redis.cli('PEXPIRE', k, '200');
    await expect.poll(async () => Number((await redis.cli('EXISTS', redisPushKey(keys.room))).toString().trim()), { timeout: 5000 }).toBe(0);
    expect(await httpNotify(base(p2), keys, null)).toBe(0);
  });
});

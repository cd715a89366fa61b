// The relay as a reflector (issue 30): anyone can make a room (any password makes one), register
// as many push endpoints as the room takes (subscriptions of browsers they own, on a push service
// the relay sends to) and send notifies in a loop, each making the relay send one signed POST per
// endpoint. Here the push service is a real https server on 127.0.0.1 (allowed as the other push
// tests allow it) that counts every request reaching it. The relay is behind a proxy
// (PACTO_TRUST_PROXY=1), so the stranger's requests come from many addresses (a botnet, or many
// IPv6 /64s) and the per-address notify budget does not stop him first. What must hold, with the
// limits as shipped: a room holds a few endpoints; one notify makes at most maxPushesPerNotify
// POSTs whatever the room holds; a room makes at most maxPushesPerRoom POSTs per window, and past
// it a notify is refused with `too-many-pushes` and sends nothing; an honest game on the same relay
// gets every push.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpNotify, httpPushRegister, RelayRefused } from '../../src/net/relay/client';
import { relayKeysFor, type RelayKeys } from '../../src/net/relay/keys';
import { DEFAULT_RELAY_LIMITS, type RelayLimits } from '../../src/net/relay/protocol';
import { LmdbStore } from '../../src/net/relay/server/lmdb-store';
import { LocalBus } from '../../src/net/signal/bus';
import { makeCert, startPushService, type FakeDevice, type FakePushService, type TestCert } from './helpers/push-service';
import { startRelay, tempDir, type LocalRelay } from './helpers/relay';

let cert: TestCert;
let service: FakePushService;
const relays: LocalRelay[] = [];

beforeAll(async () => {
  cert = makeCert();
  service = await startPushService(cert);
});

afterAll(async () => {
  await service?.stop();
  cert?.remove();
});

afterEach(async () => {
  for (const r of relays.splice(0)) await r.stop();
});

async function relay(limits: Partial<RelayLimits> = {}, dir?: string): Promise<LocalRelay> {
  const r = await startRelay({
    limits: { trustProxy: 1 },
    relay: { limits, push: { allowHosts: ['127.0.0.1'], ca: [cert.certPem] }, ...(dir ? { dir } : {}) },
  });
  relays.push(r);
  service.expectKey((await r.server.relay!.pushKey())!);
  return r;
}

/** fetch as seen through the operator's proxy: the client's address in X-Forwarded-For. */
const from =
  (address: string): typeof fetch =>
  (input, init) =>
    fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-forwarded-for': address } });

const lim = DEFAULT_RELAY_LIMITS;
const settled = (r: LocalRelay) => r.server.relay!.pushesSettled();

/** Registers devices until the room refuses one; returns those it took. */
async function fill(r: LocalRelay, keys: RelayKeys, tries: number, address: string): Promise<{ taken: FakeDevice[]; refusals: string[] }> {
  const taken: FakeDevice[] = [];
  const refusals: string[] = [];
  for (let i = 0; i < tries; i++) {
    const d = service.device();
    try {
      await httpPushRegister(r.base, keys, d, from(address));
      taken.push(d);
    } catch (e) {
      refusals.push((e as RelayRefused).code);
    }
  }
  return { taken, refusals };
}

describe('the relay is no reflector', () => {
  it("a stranger's room: a few endpoints, at most maxPushesPerNotify POSTs per notify, at most maxPushesPerRoom in all, then too-many-pushes", async () => {
    const r = await relay();
    const mallory = relayKeysFor('reflector-room-0001', 'any-password-makes-a-room');
    // "A few": a 7-player game where every player has two devices, and a little margin.
    expect.soft(lim.maxPushSubscriptionsPerRoom).toBeLessThanOrEqual(16);
    const { taken, refusals } = await fill(r, mallory, 32, '198.51.100.1');
    expect.soft(taken.length).toBe(lim.maxPushSubscriptionsPerRoom);
    expect.soft(new Set(refusals)).toEqual(new Set(['too-many-push-subscriptions']));

    // Notifies in a loop, each from its own address (the per-address budget never binds), until
    // the relay refuses one; bounded by the room's notify limit, which an old relay stops at.
    const perNotify: number[] = [];
    const answers: (number | string)[] = [];
    let refusal: RelayRefused | null = null;
    for (let i = 0; i < lim.maxNotifiesPerRoom + 4; i++) {
      const before = service.requests;
      try {
        answers.push(await httpNotify(r.base, mallory, null, undefined, from(`203.0.113.${1 + (i % 200)}`)));
      } catch (e) {
        refusal = e as RelayRefused;
        answers.push(refusal.code);
      }
      await settled(r);
      perNotify.push(service.requests - before);
      if (refusal) break;
    }
    const total = perNotify.reduce((a, b) => a + b, 0);
    console.info(`reflector: ${answers.length} notifies, ${total} POSTs, at most ${Math.max(...perNotify)} per notify, stopped by ${refusal?.code}`);
    expect.soft(Math.max(...perNotify)).toBeLessThanOrEqual(lim.maxPushesPerNotify);
    expect.soft(total).toBeLessThanOrEqual(lim.maxPushesPerRoom);
    // Stopped by the push budget, not by the room's notify limit or an address's.
    expect.soft(refusal).toBeInstanceOf(RelayRefused);
    expect.soft(refusal?.code).toBe('too-many-pushes');
    expect.soft(answers.length).toBeLessThan(lim.maxNotifiesPerRoom);
    // The refused notify sent nothing; the budget was spent to its last push.
    expect.soft(perNotify.at(-1)).toBe(0);
    expect.soft(total).toBe(lim.maxPushesPerRoom);
    // Going on, from new addresses, sends nothing either; the refusal says when to come back.
    const sent = service.requests;
    for (let i = 0; i < 5; i++) {
      await expect.soft(httpNotify(r.base, mallory, null, undefined, from(`192.0.2.${10 + i}`))).rejects.toMatchObject({ code: 'too-many-pushes' });
    }
    await settled(r);
    expect.soft(service.requests).toBe(sent);
    expect(r.server.relay!.stats.pushesSent).toBe(total);
    expect(r.server.relay!.stats.errors['too-many-pushes']).toBe(6);
    // The refused answers carry retryAfterMs: the end of the room's window.
    const res = await from('192.0.2.99')(`${r.base}/relay/v1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ t: 'notify', rid: 'x', room: mallory.room, token: mallory.token, payload: '' }),
    });
    expect(res.status).toBe(429);
    const body = (await res.json()) as { code: string; retryAfterMs: number };
    expect(body.code).toBe('too-many-pushes');
    expect(body.retryAfterMs).toBeGreaterThan(lim.pushWindowMs - 60_000);
    expect(body.retryAfterMs).toBeLessThanOrEqual(lim.pushWindowMs);

    // An honest game on the same relay, meanwhile: seven players with two devices each, each
    // player from their own address, one phase's worth of notifies (commit, FINAL, LOCK and
    // REVEAL of each player, each sparing the sender's own device): every other device gets each.
    const game = relayKeysFor('honest-game-0007', 'honest-password-0007');
    const players = Array.from({ length: 7 }, (_, p) => ({ address: `198.51.100.${100 + p}`, devices: [service.device(), service.device()] }));
    for (const p of players) for (const d of p.devices) await httpPushRegister(r.base, game, d, from(p.address));
    const got = new Map<string, number>();
    const received = service.received.length;
    for (let step = 0; step < 4; step++) {
      for (const p of players) expect(await httpNotify(r.base, game, null, p.devices[0]!.endpoint, from(p.address))).toBe(13);
    }
    await settled(r);
    for (const push of service.received.slice(received)) got.set(push.device, (got.get(push.device) ?? 0) + 1);
    for (const p of players) {
      expect(got.get(p.devices[0]!.id)).toBe(4 * 6);
      expect(got.get(p.devices[1]!.id)).toBe(4 * 7);
    }
    expect(service.rejected).toEqual([]);
  });

  it('a room holding more endpoints than maxPushesPerNotify (stored under a larger limit) gets at most that many per notify, spread over all of them', async () => {
    const { dir, remove } = tempDir('pacto-push-reflector-');
    try {
      // Filled under a relay that took 24 a room (the old default), then the relay restarts with
      // the limits as shipped: the room still holds 24.
      const old = await relay({ maxPushSubscriptionsPerRoom: 24 }, dir);
      const room = relayKeysFor('reflector-room-0002', 'any-password-makes-a-room');
      const { taken } = await fill(old, room, 24, '198.51.100.2');
      expect(taken).toHaveLength(24);
      await old.stop();
      relays.splice(relays.indexOf(old), 1);
      const r = await relay({}, dir);
      const seen = new Set<string>();
      const received = service.received.length;
      for (let i = 0; i < 20; i++) {
        const before = service.requests;
        const devices = await httpNotify(r.base, room, null, undefined, from(`203.0.113.${50 + i}`));
        await settled(r);
        expect(devices).toBeLessThanOrEqual(lim.maxPushesPerNotify);
        expect(service.requests - before).toBe(devices);
      }
      for (const p of service.received.slice(received)) seen.add(p.device);
      // Each notify takes its own random few, so no device of an honest room starves: one is left
      // out of all 20 notifies with chance ((24 - maxPushesPerNotify) / 24)^20 (16 of 24: 3e-10).
      expect(lim.maxPushesPerNotify).toBeLessThan(24);
      expect(seen.size).toBe(24);
    } finally {
      remove();
    }
  });

  it("a room's push budget is one fixed window, spent to its last push, and starts again when the window ends (the embedded store)", async () => {
    const { dir, remove } = tempDir('pacto-push-window-');
    let now = 1_000_000;
    const store = new LmdbStore({ ...DEFAULT_RELAY_LIMITS, dir, bus: new LocalBus(), log: () => undefined, now: () => now });
    try {
      const [a, b] = [relayKeysFor('window-a-0001', 'window-password-a1').room, relayKeysFor('window-b-0002', 'window-password-b2').room];
      const take = (room: string) => store.reservePushes(room, 60_000, 10, 25);
      expect((await Promise.all([take(a), take(a), take(a), take(a)])).map((g) => g.granted)).toEqual([10, 10, 5, 0]);
      expect(await take(b)).toEqual({ granted: 10, resetMs: 60_000 }); // another room's own
      now += 59_999;
      expect(await take(a)).toEqual({ granted: 0, resetMs: 1 });
      now += 1;
      await store.sweep(now); // ended windows are forgotten here
      expect(await take(a)).toEqual({ granted: 10, resetMs: 60_000 });
    } finally {
      await store.close();
      remove();
    }
  });
});

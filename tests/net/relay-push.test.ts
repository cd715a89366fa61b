// Web Push from the relay, with its embedded store, to a fake push service on 127.0.0.1 that checks
// every push as a real one does (VAPID signature over the key the relay published, audience,
// expiry) and decrypts its payload with the device's own keys. Phones speak through the client
// library (HTTP) or raw frames (what no honest phone sends). What must hold: only a holder of the
// room token registers or notifies; nobody learns another device's subscription; the payload the
// push service carries is the phone's sealed hint and nothing else; a member cannot flood pushes;
// a gone subscription is removed; the relay reaches no endpoint but a public https push service;
// subscriptions and keys survive a restart and expire with the room.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toBase64 } from '../../src/protocol';
import {
  httpNotify,
  httpPushKey,
  httpPushRegister,
  httpPushUnregister,
  openPushHint,
  pushSubscriptionKeys,
  RelayRefused,
  sealPushHint,
} from '../../src/net/relay/client';
import { relayKeysFor, type RelayKeys } from '../../src/net/relay/keys';
import { DEFAULT_RELAY_LIMITS, type RelayLimits, type ServerFrame } from '../../src/net/relay/protocol';
import { LmdbStore } from '../../src/net/relay/server/lmdb-store';
import { checkEndpoint, isPublicAddress, newVapidKeys, parseVapidKeys, pushSender, pushTopic, publicLookup } from '../../src/net/relay/server/push';
import { LocalBus } from '../../src/net/signal/bus';
import { makeCert, startPushService, type FakeDevice, type FakePushService, type TestCert } from './helpers/push-service';
import { rawClient, startRelay, tempDir, type LocalRelay, type RawClient } from './helpers/relay';

const G1 = relayKeysFor('push-game-one-0001', 'push-password-one-01');
const G2 = relayKeysFor('push-game-two-0002', 'push-password-two-02');
const STRANGER = relayKeysFor('push-game-one-0001', 'a-guessed-password-9');
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

let cert: TestCert;
let service: FakePushService;
const relays: LocalRelay[] = [];
const raws: RawClient[] = [];

beforeAll(async () => {
  cert = makeCert();
  service = await startPushService(cert);
});

afterAll(async () => {
  await service?.stop();
  cert?.remove();
});

afterEach(async () => {
  for (const r of raws.splice(0)) r.ws.terminate();
  for (const r of relays.splice(0)) await r.stop();
});

async function relay(limits: Partial<RelayLimits> = {}, dir?: string): Promise<LocalRelay> {
  const r = await startRelay({ relay: { limits, push: { allowHosts: ['127.0.0.1'], ca: [cert.certPem] }, ...(dir ? { dir } : {}) } });
  relays.push(r);
  service.expectKey((await r.server.relay!.pushKey())!);
  return r;
}

async function raw(r: LocalRelay): Promise<RawClient> {
  const c = await rawClient(r.url);
  raws.push(c);
  return c;
}

let rid = 0;
async function ask(c: RawClient, frame: Record<string, unknown>): Promise<ServerFrame> {
  const id = `p${++rid}`;
  c.send({ ...frame, rid: id });
  return c.answer(id);
}

const register = (keys: RelayKeys, d: FakeDevice) => ({
  t: 'push-register',
  room: keys.room,
  token: keys.token,
  endpoint: d.endpoint,
  p256dh: d.p256dh,
  auth: d.auth,
});
const pushesTo = (d: FakeDevice) => service.received.filter((p) => p.device === d.id);
const settled = (r: LocalRelay) => r.server.relay!.pushesSettled();

describe('Web Push from the relay', () => {
  it('publishes one VAPID key; a notify reaches every other device, signed with it, carrying only the sealed hint', async () => {
    const r = await relay();
    const key = await httpPushKey(r.base);
    expect(Buffer.from(key, 'base64url')).toHaveLength(65);
    const c = await raw(r);
    expect(await ask(c, { t: 'push-key' })).toEqual({ t: 'push-key', rid: `p${rid}`, key });

    const [alice, bob, carol] = [service.device(), service.device(), service.device()];
    for (const d of [alice, bob, carol])
      await httpPushRegister(r.base, G1, pushSubscriptionKeys({ endpoint: d.endpoint, keys: { p256dh: d.p256dh, auth: d.auth } }));
    const other = service.device();
    await httpPushRegister(r.base, G2, other);

    // Alice's phone seals a hint under the game's key and asks the relay to tell the others.
    const hint = enc('{"k":"reveal-due","phase":"S1901M"}');
    expect(await httpNotify(r.base, G1, hint, alice.endpoint)).toBe(2);
    await settled(r);
    expect(pushesTo(alice)).toHaveLength(0);
    expect(pushesTo(other)).toHaveLength(0);
    for (const d of [bob, carol]) {
      const [p] = pushesTo(d);
      expect(p).toBeDefined();
      expect(p!.vapidKey).toBe(key);
      expect(p!.claims.aud).toBe(service.origin);
      // What the push service delivered opens with the game's keys to the hint, and is not the hint.
      expect(dec(openPushHint(G1, p!.payload!)!)).toBe(dec(hint));
      expect(p!.payload!.includes(Buffer.from(hint))).toBe(false);
      expect(openPushHint(G2, p!.payload!)).toBeNull();
      // Collapse per game on each device, and a TTL.
      expect(p!.topic).toBe(pushTopic(G1.room));
      expect(p!.ttl).toBe(String(DEFAULT_RELAY_LIMITS.pushTtlSeconds));
      expect(p!.urgency).toBe('high');
    }
    expect(service.rejected).toEqual([]);

    // An empty notify is an empty push; the topic stays the game's, another game's differs.
    expect(await httpNotify(r.base, G1, null)).toBe(3);
    expect(await httpNotify(r.base, G2, null)).toBe(1);
    await settled(r);
    expect(pushesTo(alice).map((p) => p.payload)).toEqual([null]);
    expect(pushesTo(bob).map((p) => p.topic)).toEqual([pushTopic(G1.room), pushTopic(G1.room)]);
    expect(pushesTo(other)[0]!.topic).toBe(pushTopic(G2.room));
    expect(pushTopic(G2.room)).not.toBe(pushTopic(G1.room));
    expect(pushTopic(G1.room)).toMatch(/^[A-Za-z0-9_-]{32}$/);

    // Unregistered: no more pushes to that device.
    expect(await httpPushUnregister(r.base, G1, carol.endpoint)).toBe(true);
    expect(await httpPushUnregister(r.base, G1, carol.endpoint)).toBe(false);
    expect(await httpNotify(r.base, G1, null, alice.endpoint)).toBe(1);
    await settled(r);
    expect(pushesTo(carol)).toHaveLength(2); // the two before she left
    expect(pushesTo(bob)).toHaveLength(3);
    expect(r.server.relay!.stats.pushesSent).toBe(2 + 4 + 1);
  });

  it('a stranger with the room id but not the token can neither register, unregister, notify nor learn a subscription', async () => {
    const r = await relay();
    const [alice, mallory] = [service.device(), service.device()];
    await httpPushRegister(r.base, G1, alice);
    const c = await raw(r);
    const asStranger = { room: G1.room, token: STRANGER.token };
    expect(await ask(c, { ...register(G1, mallory), ...asStranger })).toMatchObject({ t: 'error', code: 'forbidden' });
    expect(await ask(c, { t: 'push-unregister', ...asStranger, endpoint: alice.endpoint })).toMatchObject({ t: 'error', code: 'forbidden' });
    expect(await ask(c, { t: 'notify', ...asStranger, payload: toBase64(enc('spam')) })).toMatchObject({ t: 'error', code: 'forbidden' });
    // Over HTTP too, through the client library.
    await expect(httpPushRegister(r.base, { ...G1, token: STRANGER.token }, mallory)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(httpNotify(r.base, { ...G1, token: STRANGER.token }, null)).rejects.toMatchObject({ code: 'forbidden' });
    await settled(r);
    expect(pushesTo(alice)).toHaveLength(0);
    // A member's notify reaches Alice only: the stranger's device was never stored, hers never removed.
    expect(await httpNotify(r.base, G1, null)).toBe(1);
    await settled(r);
    expect(pushesTo(alice)).toHaveLength(1);
    expect(pushesTo(mallory)).toHaveLength(0);
    // No answer to anyone, member or not, ever names a subscription.
    const member = await raw(r);
    await ask(member, register(G1, service.device()));
    await ask(member, { t: 'notify', room: G1.room, token: G1.token, payload: '' });
    await ask(member, { t: 'push-unregister', room: G1.room, token: G1.token, endpoint: `${service.origin}/push/none` });
    const said = JSON.stringify([...c.inbox, ...member.inbox]);
    expect(said).not.toContain(alice.endpoint.split('/').pop());
    expect(said).not.toContain(alice.p256dh);
    expect(said).not.toContain(alice.auth);
  });

  it('refuses malformed subscriptions and payloads over the limit, and a room holds a bounded number of devices', async () => {
    const r = await relay({ maxPushSubscriptionsPerRoom: 3 });
    const c = await raw(r);
    const d = service.device();
    const bad = [
      { ...register(G1, d), p256dh: toBase64(new Uint8Array(65)) }, // not a point's encoding
      { ...register(G1, d), p256dh: toBase64(new Uint8Array(65).fill(1, 1).fill(4, 0, 1)) }, // not on the curve
      { ...register(G1, d), p256dh: d.p256dh.slice(0, 40) },
      { ...register(G1, d), auth: toBase64(new Uint8Array(8)) },
      { ...register(G1, d), endpoint: 'x'.repeat(1025) },
      { ...register(G1, d), endpoint: 'https://push.example/a b' },
    ];
    for (const f of bad) expect(await ask(c, f)).toMatchObject({ t: 'error', code: 'bad-frame' });
    expect(await ask(c, { t: 'notify', room: G1.room, token: G1.token, payload: toBase64(new Uint8Array(1025)) })).toMatchObject({
      t: 'error',
      code: 'too-large',
    });
    expect(await ask(c, { t: 'notify', room: G1.room, token: G1.token, payload: toBase64(new Uint8Array(1024)) })).toMatchObject({ t: 'notified', devices: 0 });
    expect(() => sealPushHint(G1, new Uint8Array(513))).toThrow(RelayRefused);
    const devices = [service.device(), service.device(), service.device()];
    for (const x of devices) expect(await ask(c, register(G1, x))).toMatchObject({ t: 'push-registered' });
    expect(await ask(c, register(G1, service.device()))).toMatchObject({ t: 'error', code: 'too-many-push-subscriptions' });
    // The same device again replaces its keys (a renewed subscription), within the limit.
    expect(await ask(c, register(G1, devices[0]!))).toMatchObject({ t: 'push-registered' });
    expect(await ask(c, { t: 'notify', room: G1.room, token: G1.token, payload: '' })).toMatchObject({ t: 'notified', devices: 3 });
    await settled(r);
  });

  it('a flood of notifies is cut at the room limit and at the address limit; pushes stay bounded', async () => {
    const r = await relay({ maxNotifiesPerRoom: 5, maxNotifiesPerAddress: 8, pushWindowMs: 3_600_000 });
    const d = service.device();
    await httpPushRegister(r.base, G1, d);
    await httpPushRegister(r.base, G2, service.device());
    const c = await raw(r);
    const notify = (k: RelayKeys, on = c) => ask(on, { t: 'notify', room: k.room, token: k.token, payload: '' });
    // The room's budget: 5 in the window.
    const answers: ServerFrame[] = [];
    for (let i = 0; i < 6; i++) answers.push(await notify(G1));
    expect(answers.map((a) => a.t)).toEqual(['notified', 'notified', 'notified', 'notified', 'notified', 'error']);
    expect(answers[5]).toMatchObject({ code: 'rate-limited' });
    expect((answers[5] as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(3_000_000); // the window's end
    // The address's budget (8), shared by its rooms and its connections: 2 left for another room.
    const other: ServerFrame[] = [];
    for (let i = 0; i < 4; i++) other.push(await notify(G2));
    expect(other.map((a) => a.t)).toEqual(['notified', 'notified', 'error', 'error']);
    expect(await notify(G2, await raw(r))).toMatchObject({ t: 'error', code: 'rate-limited' });
    // Going on changes nothing.
    for (let i = 0; i < 20; i++) expect(await notify(G1)).toMatchObject({ t: 'error', code: 'rate-limited' });
    await settled(r);
    expect(pushesTo(d)).toHaveLength(5);
  });

  it('a subscription the push service says is gone (410, 404) is removed; a failing one is kept', async () => {
    const r = await relay();
    const [stays, gone410, gone404, flaky] = [service.device(), service.device(), service.device(), service.device()];
    gone410.status = 410;
    gone404.status = 404;
    flaky.status = 503;
    for (const d of [stays, gone410, gone404, flaky]) await httpPushRegister(r.base, G1, d);
    expect(await httpNotify(r.base, G1, enc('one'))).toBe(4);
    await settled(r);
    expect(r.server.relay!.stats.pushesGone).toBe(2);
    expect(r.server.relay!.stats.pushesFailed).toBe(1);
    expect(r.logs.some((l) => l.includes('answered 503'))).toBe(true);
    expect(await httpNotify(r.base, G1, enc('two'))).toBe(2);
    await settled(r);
    expect(pushesTo(stays).map((p) => dec(openPushHint(G1, p.payload!)!))).toEqual(['one', 'two']);
  });

  it('sends only to public https push services: http, IP literals, internal names, other ports and odd URLs are refused', async () => {
    const r = await relay();
    const c = await raw(r);
    const d = service.device();
    const port = new URL(service.origin).port;
    const refused = [
      `http://127.0.0.1:${port}/push/${d.id}`, // http, even for an allowed host
      'http://push.example/x',
      'https://10.0.0.7/push/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/push/x',
      'https://[fd00::1]/push/x',
      'https://localhost/push/x',
      'https://printer.local/x',
      'https://metadata.google.internal/x',
      'https://redis/x',
      'https://push.example:6379/x',
      'https://push.example@127.0.0.1/x',
      'ftp://push.example/x',
    ];
    for (const endpoint of refused) expect(await ask(c, { ...register(G1, d), endpoint }), endpoint).toMatchObject({ t: 'error', code: 'endpoint-refused' });
    for (const ok of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAA',
      'https://web.push.apple.com:443/QGq',
      'https://wns2-db5p.notify.windows.com/w/?token=x',
    ]) {
      expect(checkEndpoint(ok)).toMatchObject({ ok: true });
    }
    // The reflector: any other public https host is refused, so a notify cannot make the relay
    // POST to a host the caller chose; an operator may add a push service by name or domain.
    for (const other of [
      'https://victim.example.com/x',
      'https://push.services.mozilla.com.evil.example/x',
      'https://evilpush.apple.com.example/x',
      'https://xpush.apple.com/x',
    ]) {
      expect(checkEndpoint(other), other).toMatchObject({ ok: false });
      expect(await ask(c, { ...register(G1, d), endpoint: other }), other).toMatchObject({ t: 'error', code: 'endpoint-refused' });
    }
    expect(checkEndpoint('https://push.example.org/x', [], ['push.example.org'])).toMatchObject({ ok: true });
    expect(checkEndpoint('https://a.push.example.org/x', [], ['.push.example.org'])).toMatchObject({ ok: true });
    expect(checkEndpoint('https://push.example.org/x', [], ['.push.example.org'])).toMatchObject({ ok: false });
    // The allow-list (tests) lets 127.0.0.1 in over https, and nothing else: no other loopback name.
    expect(checkEndpoint(d.endpoint, ['127.0.0.1'])).toMatchObject({ ok: true });
    expect(checkEndpoint(d.endpoint)).toMatchObject({ ok: false });
    expect(checkEndpoint('https://2130706433/push/x')).toMatchObject({ ok: false }); // 127.0.0.1 spelled otherwise
    expect(checkEndpoint('https://0x7f.1/push/x')).toMatchObject({ ok: false });

    // A DNS name that resolves inside is refused when sending: the relay's lookup checks what the
    // name resolves to, and the connection goes to that checked address. "localhost" resolves to
    // 127.0.0.1 here (/etc/hosts); the sender is given it directly (registration refuses it first).
    const sender = pushSender(parseVapidKeys(newVapidKeys())!, { ca: [cert.certPem] });
    const before = service.requests;
    const out = await sender.send({ endpoint: `https://localhost:${port}/push/${d.id}`, p256dh: d.p256dh, auth: d.auth }, null, G1.room, 60);
    sender.close();
    expect(out.outcome).toBe('gone');
    expect(out.detail).toContain('non-public address (127.0.0.1)');
    expect(service.requests).toBe(before);
    const lookup = publicLookup();
    const err = await new Promise<NodeJS.ErrnoException | null>((res) => lookup('localhost', { all: true }, (e) => res(e)));
    expect(err?.code).toBe('EPUSHNOTPUBLIC');
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.1.1',
      '::1',
      'fe80::1',
      'fd12::1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::1',
      '0.0.0.0',
      '224.0.0.1',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    for (const a of ['142.250.185.10', '2a00:1450:4001:80e::200a', '17.253.144.10']) expect(isPublicAddress(a), a).toBe(true);
  });

  it('keys and subscriptions survive a restart of the relay', async () => {
    const { dir, remove } = tempDir('pacto-push-restart-');
    try {
      let r = await relay({}, dir);
      const key = await httpPushKey(r.base);
      const d = service.device();
      await httpPushRegister(r.base, G1, d);
      await r.stop();
      relays.splice(relays.indexOf(r), 1);
      r = await relay({}, dir);
      expect(await httpPushKey(r.base)).toBe(key);
      expect(await httpNotify(r.base, G1, enc('after restart'))).toBe(1);
      await settled(r);
      const [p] = pushesTo(d);
      expect(p!.vapidKey).toBe(key);
      expect(dec(openPushHint(G1, p!.payload!)!)).toBe('after restart');
    } finally {
      remove();
    }
  });

  it('a reader of the disk alone cannot link two rooms to one device: no endpoint or device key in clear, unlike records per room', async () => {
    const { dir, remove } = tempDir('pacto-push-disk-');
    try {
      const r = await relay({}, dir);
      const d = service.device();
      // The same phone in two games.
      await httpPushRegister(r.base, G1, d);
      await httpPushRegister(r.base, G2, d);
      await r.stop();
      relays.splice(relays.indexOf(r), 1);
      const disk = Buffer.concat(readdirSync(dir).map((f) => readFileSync(join(dir, f))));
      const path = new URL(d.endpoint).pathname;
      for (const secret of [d.endpoint, path, d.p256dh, d.auth]) expect(disk.includes(Buffer.from(secret)), secret).toBe(false);
      // Registered again after a restart: still one subscription per room, and pushes reach it.
      const again = await relay({}, dir);
      await httpPushRegister(again.base, G1, d);
      expect(await httpNotify(again.base, G1, enc('one device'))).toBe(1);
      await settled(again);
      expect(pushesTo(d).map((p) => dec(openPushHint(G1, p.payload!)!))).toContain('one device');
      // Unregistering by its endpoint removes the sealed record.
      expect(await httpPushUnregister(again.base, G2, d.endpoint)).toBe(true);
      expect(await httpNotify(again.base, G2, enc('gone'))).toBe(0);
    } finally {
      remove();
    }
  });

  it('subscriptions expire with their room (the embedded store)', async () => {
    const { dir, remove } = tempDir('pacto-push-expiry-');
    // Rooms idle for a minute expire; the sweeps below are told the time, half a minute and two
    // minutes on, so how long the writes take on a loaded machine does not matter (with a 1 s idle
    // time, one run's writes took over 0.5 s and the first sweep already found an idle room).
    const store = new LmdbStore({ ...DEFAULT_RELAY_LIMITS, roomIdleMs: 60_000, dir, bus: new LocalBus(), log: () => undefined });
    try {
      const d = service.device();
      const sub = { endpoint: d.endpoint, p256dh: d.p256dh, auth: d.auth };
      // A room with no blob yet, and one with blobs.
      expect(await store.addPush(G1.room, sub, 4)).toEqual({ ok: true, replaced: false });
      expect(await store.addPush(G2.room, sub, 4)).toEqual({ ok: true, replaced: false });
      await store.append(G2.room, 'AAAAAAAAAAAAAAAAAAAAAA', new Uint8Array(300));
      expect(await store.sweep(Date.now() + 30_000)).toBe(0);
      expect(await store.listPush(G1.room)).toEqual([sub]);
      expect(await store.sweep(Date.now() + 120_000)).toBe(2);
      expect(await store.listPush(G1.room)).toEqual([]);
      expect(await store.listPush(G2.room)).toEqual([]);
    } finally {
      await store.close();
      remove();
    }
  });
});

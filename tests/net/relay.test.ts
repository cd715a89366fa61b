// The relay with its embedded store, on 127.0.0.1: what honest phones get through it, and what it
// refuses from a stranger, a player with bytes no honest phone sends, or a flood. Every refusal is
// an error frame and stores nothing.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nacl from 'tweetnacl';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { toBase64 } from '../../src/protocol';
import { sealBlob } from '../../src/net/relay/blob';
import {
  httpAppend,
  httpFetch,
  memoryCursors,
  relayHttpUrl,
  RelayClient,
  type BadBlob,
  type RelayClientOptions,
  type WebSocketConstructor,
} from '../../src/net/relay/client';
import { appendIdFor, relayKeysFor, type RelayKeys } from '../../src/net/relay/keys';
import type { RelayLimits, ServerFrame } from '../../src/net/relay/protocol';
import { rawClient, startRelay, type LocalRelay, type RawClient } from './helpers/relay';

const WS = WebSocket as unknown as WebSocketConstructor;
const G1 = relayKeysFor('relay-game-one-0001', 'password-one-0000001');
const G2 = relayKeysFor('relay-game-two-0002', 'password-two-0000002');
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

const relays: LocalRelay[] = [];
const clients: RelayClient[] = [];
const raws: RawClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const r of raws.splice(0)) r.ws.terminate();
  for (const r of relays.splice(0)) await r.stop();
});

async function relay(
  limits: Partial<RelayLimits> = {},
  extra: { dir?: string; sweepIntervalMs?: number; allowOrigins?: readonly string[] } = {},
): Promise<LocalRelay> {
  const r = await startRelay({ relay: { limits, ...extra } });
  relays.push(r);
  return r;
}

interface TestClient {
  readonly c: RelayClient;
  readonly got: string[];
  readonly bad: BadBlob[];
  readonly cursors: ReturnType<typeof memoryCursors>;
}

function client(r: LocalRelay, keys: RelayKeys, options: Partial<RelayClientOptions> = {}, initial: Record<string, string> = {}): TestClient {
  const got: string[] = [];
  const bad: BadBlob[] = [];
  const cursors = memoryCursors(initial);
  const c = new RelayClient({
    keys,
    relays: [r.url],
    WebSocket: WS,
    cursors,
    reconnect: { minMs: 50, maxMs: 500 },
    onUpdates: (updates) => void got.push(...updates.map(dec)),
    onBadBlob: (b) => void bad.push(b),
    ...options,
  });
  clients.push(c);
  return { c, got, bad, cursors };
}

async function raw(r: LocalRelay, from?: string): Promise<RawClient> {
  const c = await rawClient(r.url, from);
  raws.push(c);
  return c;
}

let rid = 0;
const appendFrame = (keys: RelayKeys, blob: Uint8Array, id = appendIdFor(keys.key, blob)) => ({
  t: 'append',
  rid: `a${++rid}`,
  room: keys.room,
  token: keys.token,
  id,
  blob: toBase64(blob),
});
const fetchFrame = (keys: RelayKeys, after = '') => ({ t: 'fetch', rid: `f${++rid}`, room: keys.room, token: keys.token, after });

async function ask(c: RawClient, frame: { rid: string; [k: string]: unknown }): Promise<ServerFrame> {
  c.send(frame);
  return c.answer(frame.rid);
}

async function stored(r: LocalRelay, keys: RelayKeys): Promise<number> {
  const c = await raw(r);
  const page = await ask(c, fetchFrame(keys));
  if (page.t !== 'page') throw new Error(`fetch refused: ${JSON.stringify(page)}`);
  return page.items.length;
}

describe('relay', () => {
  it('an append reaches a live subscriber and a later fetch; cursors move past what was handed on', async () => {
    const r = await relay();
    const a = client(r, G1);
    const b = client(r, G1);
    await expect.poll(() => a.c.status()[0]!.connected && b.c.status()[0]!.connected).toBe(true);
    await a.c.append(enc('update one'));
    await expect.poll(() => b.got, { timeout: 5000 }).toEqual(['update one']);
    expect(a.got).toEqual([]); // its own update is not handed back
    // A phone that was away catches up by fetching, and keeps its cursor.
    const c = client(r, G1, { live: false });
    await expect.poll(() => c.got, { timeout: 5000 }).toEqual(['update one']);
    await expect.poll(() => c.cursors.saved.get(r.url)).toMatch(/^\d+-\d+$/);
    // With that cursor, a phone gets only what came after.
    const d = client(r, G1, {}, { [r.url]: c.cursors.saved.get(r.url)! });
    await expect.poll(() => d.c.status()[0]!.connected).toBe(true);
    await a.c.append(enc('update two'));
    await expect.poll(() => d.got, { timeout: 5000 }).toEqual(['update two']);
    await expect.poll(() => b.got, { timeout: 5000 }).toEqual(['update one', 'update two']);
    // Signaling still answers on "/" of the same port.
    const sig = new WebSocket(r.url.replace(/\/relay$/, '/'));
    raws.push({ ws: sig } as RawClient);
    await new Promise((res) => sig.once('open', res));
    sig.send(JSON.stringify({ type: 'ping' }));
    expect(JSON.parse((await new Promise<WebSocket.RawData>((res) => sig.once('message', res))).toString())).toEqual({ type: 'pong' });
  });

  it('refuses a wrong token, and stores nothing', async () => {
    const r = await relay();
    const c = await raw(r);
    // The other game's token for this game's room, and a made-up token.
    for (const token of [G2.token, toBase64(nacl.randomBytes(32))]) {
      const f = await ask(c, { ...appendFrame(G1, sealBlob(G1.key, enc('x'))), token });
      expect(f).toMatchObject({ t: 'error', code: 'forbidden' });
      const s = await ask(c, { t: 'subscribe', rid: `s${++rid}`, room: G1.room, token });
      expect(s).toMatchObject({ t: 'error', code: 'forbidden' });
      const p = await ask(c, { ...fetchFrame(G1), token });
      expect(p).toMatchObject({ t: 'error', code: 'forbidden' });
    }
    expect(await stored(r, G1)).toBe(0);
    // ...and a stranger's subscription got nothing of the room.
    const honest = client(r, G1);
    await honest.c.append(enc('secret'));
    await new Promise((res) => setTimeout(res, 200));
    expect(c.inbox.filter((f) => f.t === 'blob')).toEqual([]);
  });

  it('a garbage blob with the right token is stored, but phones report it and hand on nothing', async () => {
    const r = await relay();
    const b = client(r, G1);
    await expect.poll(() => b.c.status()[0]!.connected).toBe(true);
    const c = await raw(r);
    const noise = nacl.randomBytes(300);
    noise[0] = 1; // looks like a version-1 blob, but does not open
    const junk = [noise, new Uint8Array([1, 2, 3]), sealBlob(G2.key, enc('from another game'))];
    for (const blob of junk) expect(await ask(c, appendFrame(G1, blob))).toMatchObject({ t: 'ack', dup: false });
    const a = client(r, G1);
    await a.c.append(enc('honest'));
    await expect.poll(() => b.got, { timeout: 5000 }).toEqual(['honest']);
    expect(b.bad.map((x) => x.problem)).toEqual(['does-not-open', 'too-short', 'does-not-open']);
    // A phone catching up by fetch does the same.
    const late = client(r, G1, { live: false });
    await expect.poll(() => late.got, { timeout: 5000 }).toEqual(['honest']);
    expect(late.bad).toHaveLength(3);
    expect(await stored(r, G1)).toBe(4);
  });

  it('refuses oversize blobs and frames with error frames; a frame over twice the limit closes the connection', async () => {
    const r = await relay({ maxFrameBytes: 8 * 1024, maxBlobBytes: 4 * 1024 });
    const c = await raw(r);
    expect(await ask(c, appendFrame(G1, nacl.randomBytes(5 * 1024)))).toMatchObject({ t: 'error', code: 'too-large' });
    const frame = { ...appendFrame(G1, nacl.randomBytes(1000)), pad: 'x'.repeat(10 * 1024) };
    expect(await ask(c, frame)).toMatchObject({ t: 'error', code: 'too-large', rid: frame.rid });
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    expect(await ask(c, appendFrame(G1, nacl.randomBytes(1000)))).toMatchObject({ t: 'ack' });
    c.send({ ...appendFrame(G1, nacl.randomBytes(1000)), pad: 'x'.repeat(20 * 1024) });
    expect((await c.closed).code).toBe(1009);
    expect(await stored(r, G1)).toBe(1);
    // The client library refuses an update it cannot split under the limit before sending it.
    const a = client(r, G1);
    await expect(a.c.append(nacl.randomBytes(200 * 1024))).rejects.toMatchObject({ code: 'too-large' });
  });

  it('a flood gets rate-limited error frames and then is cut off; others go on', async () => {
    const r = await relay({ maxRequestsPerSecond: 20, burstRequests: 20 });
    const flooder = await raw(r, '127.0.0.5');
    for (let i = 0; i < 30; i++) flooder.send(appendFrame(G1, sealBlob(G1.key, enc(`flood ${i}`))));
    await flooder.until((f) => f.t === 'error' && f.code === 'rate-limited');
    await expect.poll(() => flooder.inbox.filter((f) => f.t === 'ack').length + flooder.inbox.filter((f) => f.t === 'error').length).toBe(30);
    const acked = flooder.inbox.filter((f) => f.t === 'ack').length;
    expect(acked).toBeGreaterThanOrEqual(20);
    expect(acked).toBeLessThan(30);
    expect(flooder.inbox.find((f) => f.t === 'error')).toMatchObject({ code: 'rate-limited', retryAfterMs: 1000 });
    for (let i = 0; i < 200; i++) flooder.send({ t: 'ping', rid: `p${i}` });
    expect(await flooder.closed).toEqual({ code: 1008, reason: 'rate limit' });
    expect(await stored(r, G1)).toBe(acked);
    const other = client(r, G1);
    await other.c.append(enc('still served'));
    expect(await stored(r, G1)).toBe(acked + 1);
  });

  it('limits bytes and blobs per room and rooms per connection', async () => {
    const r = await relay({ maxRoomBlobs: 3, maxRoomBytes: 100_000, maxRoomsPerConnection: 2 });
    const c = await raw(r);
    for (let i = 0; i < 3; i++) expect(await ask(c, appendFrame(G1, nacl.randomBytes(100)))).toMatchObject({ t: 'ack' });
    expect(await ask(c, appendFrame(G1, nacl.randomBytes(100)))).toMatchObject({ t: 'error', code: 'room-full' });
    expect(await ask(c, appendFrame(G2, nacl.randomBytes(60_000)))).toMatchObject({ t: 'ack' });
    expect(await ask(c, appendFrame(G2, nacl.randomBytes(60_000)))).toMatchObject({ t: 'error', code: 'room-full' });
    const G3 = relayKeysFor('relay-game-three-03', 'password-three-00003');
    expect(await ask(c, appendFrame(G3, nacl.randomBytes(100)))).toMatchObject({ t: 'error', code: 'too-many-rooms' });
    expect([await stored(r, G1), await stored(r, G2), await stored(r, G3)]).toEqual([3, 1, 0]);
  });

  it("one room's data never reaches another room", async () => {
    const r = await relay();
    const one = client(r, G1);
    const two = client(r, G2);
    await expect.poll(() => one.c.status()[0]!.connected && two.c.status()[0]!.connected).toBe(true);
    const spy = await raw(r);
    expect(await ask(spy, { t: 'subscribe', rid: 'spy', room: G1.room, token: G1.token })).toMatchObject({ t: 'subscribed' });
    for (let i = 0; i < 5; i++) {
      await one.c.append(enc(`g1 ${i}`));
      await two.c.append(enc(`g2 ${i}`));
    }
    const writer1 = client(r, G1);
    const writer2 = client(r, G2);
    await writer1.c.append(enc('g1 w'));
    await writer2.c.append(enc('g2 w'));
    await expect.poll(() => one.got.length + two.got.length, { timeout: 5000 }).toBe(2);
    expect(one.got).toEqual(['g1 w']);
    expect(two.got).toEqual(['g2 w']);
    expect(one.bad).toEqual([]);
    expect(two.bad).toEqual([]);
    await expect.poll(() => spy.inbox.filter((f) => f.t === 'blob').length).toBe(6);
    expect(spy.inbox.every((f) => f.t !== 'blob' || f.room === G1.room)).toBe(true);
    const page = await ask(spy, fetchFrame(G2));
    expect(page.t === 'page' && page.items.length).toBe(6);
  });

  it('a resent append is stored once and answered with its first cursor', async () => {
    const r = await relay();
    const c = await raw(r);
    const blob = sealBlob(G1.key, enc('once'));
    const first = await ask(c, appendFrame(G1, blob, 'B'.repeat(22)));
    const again = await ask(c, appendFrame(G1, blob, 'B'.repeat(22)));
    expect(first).toMatchObject({ t: 'ack', dup: false });
    expect(again).toMatchObject({ t: 'ack', dup: true, cursor: (first as { cursor: string }).cursor });
    expect(await stored(r, G1)).toBe(1);
  });

  it('rooms idle for the configured time expire', async () => {
    const r = await relay({ roomIdleMs: 300 }, { sweepIntervalMs: 100 });
    const c = await raw(r);
    const first = await ask(c, appendFrame(G1, nacl.randomBytes(100)));
    expect(await stored(r, G1)).toBe(1);
    await expect.poll(() => stored(r, G1), { timeout: 5000, interval: 100 }).toBe(0);
    // A new append starts the room again, with cursors after the old ones.
    const second = await ask(c, appendFrame(G1, nacl.randomBytes(100)));
    expect(second.t === 'ack' && first.t === 'ack' && second.cursor > first.cursor).toBe(true);
  });

  it('serves append and fetch over HTTP with CORS, with the same refusals', async () => {
    const r = await relay({ maxFrameBytes: 16 * 1024 }, { allowOrigins: ['https://app.example'] });
    const http = relayHttpUrl(r.url);
    expect(http).toBe(`${r.base}/relay/v1`);
    const ack = await httpAppend(r.url, G1, enc('over http'));
    expect(ack.cursor).toMatch(/^\d+-\d+$/);
    expect(await httpAppend(r.url, G1, enc('over http'))).toEqual({ cursor: ack.cursor, dup: true });
    const page = await httpFetch(r.url, G1, '');
    expect(page.updates.map(dec)).toEqual(['over http']);
    expect(page.next).toBe(ack.cursor);
    expect((await httpFetch(r.url, G1, page.next)).updates).toEqual([]);

    const pre = await fetch(http, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
    const foreign = await fetch(http, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

    const post = (body: string) => fetch(http, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const wrong = await post(JSON.stringify({ ...appendFrame(G1, sealBlob(G1.key, enc('x'))), token: G2.token }));
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ t: 'error', code: 'forbidden' });
    const big = await post(JSON.stringify({ ...appendFrame(G1, nacl.randomBytes(100)), pad: 'x'.repeat(20 * 1024) }));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 'too-large' });
    const garbage = await post('not json');
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toMatchObject({ code: 'bad-frame' });
    expect((await fetch(http)).status).toBe(405);
    expect((await httpFetch(r.url, G1, '')).updates.map(dec)).toEqual(['over http']);
  });

  it('a damaged record on disk is named in the log and the rest is served', async () => {
    const first = await relay();
    const c = await raw(first);
    const blobs = [0, 1, 2].map((i) => sealBlob(G1.key, enc(`record ${i} `.repeat(50))));
    const cursors: string[] = [];
    for (const b of blobs) cursors.push(((await ask(c, appendFrame(G1, b))) as { cursor: string }).cursor);
    await first.stop();
    relays.splice(relays.indexOf(first), 1);
    // Flip one byte inside the middle blob wherever LMDB keeps a copy of it.
    const file = join(first.dir, 'data.mdb');
    const data = readFileSync(file);
    const needle = Buffer.from(blobs[1]!.subarray(40, 120));
    let hits = 0;
    for (let at = data.indexOf(needle); at >= 0; at = data.indexOf(needle, at + 1)) {
      data[at + 10] = data[at + 10]! ^ 0xff;
      hits++;
    }
    expect(hits).toBeGreaterThan(0);
    writeFileSync(file, data);

    const again = await relay({}, { dir: first.dir });
    const phone = client(again, G1, { live: false });
    await expect.poll(() => phone.got.length, { timeout: 5000 }).toBe(2);
    expect(phone.got).toEqual([`record 0 `.repeat(50), `record 2 `.repeat(50)]);
    expect(phone.bad).toEqual([{ relay: again.url, cursor: cursors[1], problem: 'damaged-on-relay' }]);
    expect(again.logs.some((l) => l.includes('damaged record') && l.includes(G1.room) && l.includes(cursors[1]!))).toBe(true);
    expect(phone.cursors.saved.get(again.url)).toBe(cursors[2]);
  });

  it('keeps no plaintext on disk: no update bytes, game id, password or token', async () => {
    const r = await relay();
    const game = { id: 'plaintext-game-0007', password: 'plaintext-password-07' };
    const keys = relayKeysFor(game.id, game.password);
    const phone = client(r, keys);
    const marker = 'PACTO-MARKER-orders-A-par-bur-chat-hello-Germany';
    for (let i = 0; i < 20; i++) await phone.c.append(enc(`${marker} ${i} ${game.id}`));
    const rawOne = await raw(r);
    const known = sealBlob(keys.key, enc(marker));
    await ask(rawOne, appendFrame(keys, known));
    await r.stop();
    relays.splice(relays.indexOf(r), 1);
    const files = readdirSync(r.dir).map((f) => readFileSync(join(r.dir, f)));
    const all = Buffer.concat(files);
    expect(all.includes(Buffer.from(known.subarray(30, 90)))).toBe(true); // the blobs are there...
    for (const secret of [marker, game.id, game.password, keys.token, toBase64(keys.key)]) expect(all.includes(Buffer.from(secret))).toBe(false);
    expect(all.includes(Buffer.from(keys.key))).toBe(false); // ...and nothing that opens them
  });
});

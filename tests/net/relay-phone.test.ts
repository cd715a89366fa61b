// The relay's phone side in Node: a real relay on 127.0.0.1 (the `npm start` server), the store in
// fake-indexeddb (each phone its own profile that survives a restart; tests/e2e/relay-phones.test.ts
// does this in Chromium), the game's replica as the gate. Phones never meet: everything goes through
// the relay. An update made while the relay is down survives a restart of the phone and is uploaded
// on the next connection; a token holder's hostile uploads are reported and change nothing; a
// phone that comes back fetches only what follows its cursor.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { copyFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as Y from 'yjs';
import WebSocket from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServer, type AppServer } from '../../src/server/app';
import { GameReplica } from '../../src/net/replica';
import { RelayClient, type WebSocketConstructor } from '../../src/net/relay/client';
import { appendIdFor, relayKeysFor } from '../../src/net/relay/keys';
import { GameRelay, type GameRelayOptions } from '../../src/net/relay/phone';
import { reduceLog, toBase64 } from '../../src/protocol';
import { entryStorage, openPactoStore, persistDoc, relayStorage, type PactoStore } from '../../src/store';
import { startedGame, playPhase, randomPhaseOrders, rng, T0, view } from '../protocol/helpers';
import { rawClient, tempDir } from './helpers/relay';

const PASSWORD = 'relay-phone-password-01';
const servers: { app: AppServer }[] = [];
const phones: Phone[] = [];

afterEach(async () => {
  for (const p of phones.splice(0)) await p.close();
  for (const s of servers.splice(0)) {
    s.app.http.closeAllConnections();
    await s.app.close();
    await new Promise<void>((r) => s.app.http.close(() => r()));
  }
});

/** A relay (embedded store in `dir`) on `port` (0: any). */
async function relayOn(dir: string, port = 0): Promise<{ url: string; port: number; app: AppServer }> {
  const app = createAppServer(undefined, { relay: { dir }, log: () => undefined });
  await app.listen(port, '127.0.0.1');
  const p = (app.http.address() as AddressInfo).port;
  const s = { app };
  servers.push(s);
  return { url: `ws://127.0.0.1:${p}/relay`, port: p, app };
}

async function stopRelay(app: AppServer): Promise<void> {
  const i = servers.findIndex((s) => s.app === app);
  if (i >= 0) servers.splice(i, 1);
  app.http.closeAllConnections();
  await app.close();
  await new Promise<void>((r) => app.http.close(() => r()));
}

interface Phone {
  readonly replica: GameReplica;
  readonly relay: GameRelay;
  readonly store: PactoStore;
  close(): Promise<void>;
}

/** One phone: its own IndexedDB profile, the game's replica and store binding, and its relays. */
async function openPhone(
  factory: IDBFactory,
  gameId: string,
  relays: readonly string[],
  extra: Partial<Pick<GameRelayOptions, 'live' | 'events' | 'syncIntervalMs'>> = {},
): Promise<Phone> {
  const store = await openPactoStore('pacto', factory);
  const doc = new Y.Doc();
  const replica = await GameReplica.open({ gameId, doc, storage: entryStorage(store, gameId), carryDelayMs: 200 });
  const persisted = persistDoc(store, gameId, doc, { load: (u, o) => replica.loadStored(u, o), own: (o) => replica.isOwnOrigin(o) });
  await persisted.ready;
  const relay = new GameRelay({
    gameId,
    password: PASSWORD,
    relays,
    gate: replica,
    storage: relayStorage(store, gameId),
    persisted,
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    reconnect: { minMs: 50, maxMs: 300 },
    syncIntervalMs: 3_600_000,
    ...extra,
  });
  await relay.ready;
  let closed = false;
  const phone: Phone = {
    replica,
    relay,
    store,
    close: async () => {
      if (closed) return;
      closed = true;
      relay.destroy();
      await replica.flush().catch(() => undefined);
      await persisted.destroy().catch(() => undefined);
      replica.destroy();
      doc.destroy();
      store.close();
    },
  };
  phones.push(phone);
  return phone;
}

const idsOf = (p: Phone): string[] => [...p.replica.admission.ids()].sort();

/** How many blobs the relay holds for the game (raw fetches from the start). */
async function blobsOn(url: string, gameId: string): Promise<number> {
  const keys = relayKeysFor(gameId, PASSWORD);
  const raw = await rawClient(url);
  let n = 0;
  try {
    for (let after = '', i = 0; ; i++) {
      raw.send({ t: 'fetch', rid: `f${i}`, room: keys.room, token: keys.token, after });
      const page = await raw.answer(`f${i}`);
      if (page.t !== 'page') throw new Error(`no page: ${JSON.stringify(page)}`);
      n += page.items.length;
      after = page.next;
      if (!page.more) return n;
    }
  } finally {
    raw.ws.close();
  }
}

/** Every update of the phone is on every relay: nothing waits in the outbox (IndexedDB). */
async function settled(p: Phone): Promise<void> {
  await expect.poll(async () => (await p.store.outboxList(p.replica.gameId)).length + p.relay.status().waiting, { timeout: 10_000 }).toBe(0);
}

describe('the relay between phones that are never online together', () => {
  it('carries a game from one phone to another and back, and a phone back later fetches only what follows its cursor', async () => {
    const game = startedGame(71);
    const { url } = await relayOn(tempDir('pacto-relay-phone-').dir);
    const fa = new IDBFactory();
    const fb = new IDBFactory();
    // Ana's phone has the started game and publishes it; she closes the app once the relay has it.
    let ana = await openPhone(fa, game.gameId, [url]);
    await ana.replica.publish(game.log);
    await settled(ana);
    await ana.close();
    // Bea opens later, alone: the relay gives her the game, through her gate.
    const bea = await openPhone(fb, game.gameId, [url]);
    await expect.poll(() => bea.replica.admission.size, { timeout: 10_000 }).toBe(game.log.length);
    expect(reduceLog(game.gameId, [...bea.replica.entries()]).status).toBe('playing');
    // One phase played on Bea's phone while Ana is away.
    const before = game.log.length;
    playPhase(game, randomPhaseOrders(view(game), rng(3).int), T0 + 10_000);
    await bea.replica.publish(game.log.slice(before));
    await settled(bea);
    await bea.close();
    // Ana comes back: she fetches the phase from her cursor on, not the game again.
    const cursor = await (async () => {
      const s = await openPactoStore('pacto', fa);
      const c = await s.getRelayCursor(game.gameId, url);
      s.close();
      return c;
    })();
    expect(cursor).toMatch(/^\d+-\d+$/);
    ana = await openPhone(fa, game.gameId, [url]);
    await expect.poll(() => ana.replica.admission.size, { timeout: 10_000 }).toBe(game.log.length);
    expect(idsOf(ana)).toEqual(idsOf(bea));
    expect(reduceLog(game.gameId, [...ana.replica.entries()]).current?.key).toBe('1901-fall-movement');
  });

  it('an update made while the relay is down survives a restart of the phone and is uploaded on the next connection', async () => {
    const game = startedGame(72);
    const dir = tempDir('pacto-relay-phone-').dir;
    const first = await relayOn(dir);
    const fa = new IDBFactory();
    const fb = new IDBFactory();
    let ana = await openPhone(fa, game.gameId, [first.url]);
    await ana.replica.publish(game.log.slice(0, 3));
    await settled(ana);
    // The relay goes away; Ana goes on, then closes the app with her updates unacknowledged.
    await stopRelay(first.app);
    await ana.replica.publish(game.log.slice(3));
    await expect.poll(() => ana.relay.status().waiting, { timeout: 10_000 }).toBeGreaterThan(0);
    await ana.close();
    // The relay is back (same address, same disk); Bea sees only what was acknowledged.
    const again = await relayOn(dir, first.port);
    const bea = await openPhone(fb, game.gameId, [again.url]);
    await expect.poll(() => bea.replica.admission.size, { timeout: 10_000 }).toBe(3);
    // Ana reopens the app: her outbox goes up, and Bea, still open, gets it live.
    ana = await openPhone(fa, game.gameId, [again.url]);
    await expect.poll(() => bea.replica.admission.size, { timeout: 15_000 }).toBe(game.log.length);
    await settled(ana);
    expect((await ana.store.outboxList(game.gameId)).length).toBe(0);
  });

  it('a relay restored from an older copy of its store gets the game again from the phone ahead of it', async () => {
    const game = startedGame(75);
    const dir = tempDir('pacto-relay-phone-').dir;
    const copy = tempDir('pacto-relay-phone-copy-').dir;
    const first = await relayOn(dir);
    const fa = new IDBFactory();
    let ana = await openPhone(fa, game.gameId, [first.url]);
    await ana.replica.publish(game.log);
    await settled(ana);
    const atCopy = await blobsOn(first.url, game.gameId);
    // The copy (scripts/backup.ts takes it while the server runs: tests/net/relay-backup.test.ts).
    await stopRelay(first.app);
    copyFileSync(join(dir, 'data.mdb'), join(copy, 'data.mdb'));
    const again = await relayOn(dir, first.port);
    // Ana, open all along, reconnects to the same store: it still has her cursor, nothing is sent again.
    await expect.poll(() => ana.relay.status().relays[0]?.caughtUp, { timeout: 10_000 }).toBe(true);
    expect(await blobsOn(again.url, game.gameId)).toBe(atCopy);
    // A phase past the copy, acknowledged: it leaves her outbox.
    const n = game.log.length;
    playPhase(game, randomPhaseOrders(view(game), rng(7).int), T0 + 10_000);
    await ana.replica.publish(game.log.slice(n));
    await settled(ana);
    expect(await blobsOn(again.url, game.gameId)).toBeGreaterThan(atCopy);
    await ana.close();
    // The copy is restored (same address): the phase is gone from the relay, and Bea, new, gets the game without it.
    await stopRelay(again.app);
    const restored = await relayOn(copy, first.port);
    expect(await blobsOn(restored.url, game.gameId)).toBe(atCopy);
    const bea = await openPhone(new IDBFactory(), game.gameId, [restored.url]);
    await expect.poll(() => bea.replica.admission.size, { timeout: 10_000 }).toBe(n);
    // Ana opens the app: the relay lacks the blob at her cursor, so her phone gives it the whole
    // game again; Bea, still open, gets the phase live.
    ana = await openPhone(fa, game.gameId, [restored.url]);
    await expect.poll(() => bea.replica.admission.size, { timeout: 15_000 }).toBe(game.log.length);
    expect(idsOf(bea)).toEqual(idsOf(ana));
    await settled(ana);
    expect(reduceLog(game.gameId, [...bea.replica.entries()]).current?.key).toBe('1901-fall-movement');
  });

  it("with no live feed, the 'online' event and the timer fetch what the phone lacks", async () => {
    const game = startedGame(74);
    const { url } = await relayOn(tempDir('pacto-relay-phone-').dir);
    const ana = await openPhone(new IDBFactory(), game.gameId, [url]);
    await ana.replica.publish(game.log);
    await settled(ana);
    // Bea's phone never subscribes: only opening, 'online' and the timer can fetch.
    const fb = new IDBFactory();
    const win = new EventTarget();
    let bea = await openPhone(fb, game.gameId, [url], { live: false, events: win });
    // On open.
    await expect.poll(() => bea.replica.admission.size, { timeout: 10_000 }).toBe(game.log.length);
    expect(bea.relay.status().relays[0]!.live).toBe(false);
    let n = game.log.length;
    playPhase(game, randomPhaseOrders(view(game), rng(6).int), T0 + 10_000);
    await ana.replica.publish(game.log.slice(n));
    await settled(ana);
    // Nothing comes by itself (the timer is an hour away)...
    await new Promise((r) => setTimeout(r, 1_500));
    expect(bea.replica.admission.size).toBe(n);
    // ...until the browser says it is online again.
    win.dispatchEvent(new Event('online'));
    await expect.poll(() => bea.replica.admission.size, { timeout: 10_000 }).toBe(game.log.length);
    await bea.close();

    // The timer: a phone that fetches every 500 ms gets a new phase with no event at all.
    bea = await openPhone(fb, game.gameId, [url], { live: false, events: new EventTarget(), syncIntervalMs: 500 });
    await expect.poll(() => bea.relay.status().relays[0]?.caughtUp, { timeout: 10_000 }).toBe(true);
    n = game.log.length;
    playPhase(game, randomPhaseOrders(view(game), rng(7).int), T0 + 20_000);
    await ana.replica.publish(game.log.slice(n));
    await settled(ana);
    await expect.poll(() => bea.replica.admission.size, { timeout: 10_000 }).toBe(game.log.length);
    expect(reduceLog(game.gameId, [...bea.replica.entries()]).status).toBe('playing');
  });

  it("a token holder's hostile uploads are reported and change nothing; the game goes on after them", async () => {
    const game = startedGame(73);
    const { url } = await relayOn(tempDir('pacto-relay-phone-').dir);
    const ana = await openPhone(new IDBFactory(), game.gameId, [url]);
    await ana.replica.publish(game.log);
    await settled(ana);
    const bea = await openPhone(new IDBFactory(), game.gameId, [url]);
    await expect.poll(() => bea.replica.admission.size, { timeout: 10_000 }).toBe(game.log.length);
    const before = idsOf(bea);

    // Mallory holds the invite (so the token and the key) but plays no honest phone.
    const keys = relayKeysFor(game.gameId, PASSWORD);
    const raw = await rawClient(url);
    const garbage = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 0xff);
    raw.send({ t: 'append', rid: 'g', room: keys.room, token: keys.token, id: appendIdFor(keys.key, garbage), blob: toBase64(garbage) });
    expect((await raw.answer('g')).t).toBe('ack');
    const mallory = new RelayClient({ keys, relays: [url], WebSocket: WebSocket as unknown as WebSocketConstructor, live: false, onUpdates: () => undefined });
    // Sealed, but not a Yjs update.
    await mallory.append(new TextEncoder().encode('not a yjs update at all'));
    // Sealed Yjs updates: an entry with a broken signature, and a deletion of the game's items.
    const forged = game.log[game.log.length - 1]!.slice();
    forged[10]! ^= 0xff;
    const evil = new Y.Doc();
    evil.getArray<Uint8Array>('log').push([forged]);
    await mallory.append(Y.encodeStateAsUpdate(evil));
    const copy = new Y.Doc();
    Y.applyUpdate(copy, Y.encodeStateAsUpdate(bea.replica.doc));
    const del = new Y.Doc();
    Y.applyUpdate(del, Y.encodeStateAsUpdate(copy));
    const sv = Y.encodeStateVector(del);
    del.getArray('log').delete(0, 3);
    await mallory.append(Y.encodeStateAsUpdate(del, sv));
    mallory.close();
    raw.ws.close();

    const reports = () => bea.replica.reports().map((r) => `${r.kind}:${r.reason ?? ''}`);
    await expect.poll(() => reports().some((r) => r.startsWith('relay-blob-refused:')), { timeout: 10_000 }).toBe(true);
    await expect
      .poll(() => reports().filter((r) => r.startsWith('update-refused') || r.startsWith('entry-refused')).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(3);
    expect(idsOf(bea)).toEqual(before);
    expect(bea.replica.doc.getArray('log').length).toBe(copy.getArray('log').length);

    // After the hostile blobs, an honest phase still arrives.
    const n = game.log.length;
    playPhase(game, randomPhaseOrders(view(game), rng(5).int), T0 + 10_000);
    await ana.replica.publish(game.log.slice(n));
    await expect.poll(() => bea.replica.admission.size, { timeout: 10_000 }).toBe(game.log.length);
    expect(reduceLog(game.gameId, [...bea.replica.entries()]).current?.key).toBe('1901-fall-movement');
  });
});

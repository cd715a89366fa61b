// The relay's phone side in the store (fake-indexeddb; the browser tests do it in Chromium): the
// outbox is filled in the transaction that stores the update, an item leaves it once every relay
// of the game has it, a relay the game never used gets the game's whole state once, and a
// version-2 database opened by version 3 keeps every record.
import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { DB_VERSION, persistDoc, relayStorage } from '../../src/store';
import { newProfile } from './helpers';

const R1 = 'ws://127.0.0.1:1/relay';
const R2 = 'ws://127.0.0.1:2/relay';

describe('outbox and relay cursors', () => {
  it("own updates enter the outbox with the store's own record, others' do not; an item leaves once every relay has it", async () => {
    const profile = newProfile('pacto-outbox');
    const store = await profile.open();
    const doc = new Y.Doc();
    const OWN = Symbol('own');
    const persisted = persistDoc(store, 'g1', doc, { own: (o) => o === OWN });
    await persisted.ready;
    const told: number[] = [];
    persisted.onOutbox((n) => told.push(n));
    doc.transact(() => doc.getArray('log').push([Uint8Array.of(1)]), OWN);
    const peer = new Y.Doc();
    peer.getArray('log').push([Uint8Array.of(2)]);
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(peer), 'peer');
    doc.transact(() => doc.getArray('log').push([Uint8Array.of(3)]), OWN);
    expect(persisted.ownQueued()).toBeGreaterThan(0);
    await persisted.flush();
    expect(persisted.ownQueued()).toBe(0);
    expect(told.reduce((a, b) => a + b, 0)).toBe(2);
    expect(await store.countUpdates('g1')).toBe(3);
    const box = await store.outboxList('g1');
    expect(box.map((r) => [...Y.decodeUpdate(r.update).structs].length)).toEqual([1, 1]);

    const storage = relayStorage(store, 'g1');
    expect((await storage.pending([R1, R2])).length).toBe(2);
    await storage.acknowledged(box[0]!.seq, R1, [R1, R2]);
    expect((await storage.pending([R1])).map((i) => i.seq)).toEqual([box[1]!.seq]);
    expect((await storage.pending([R1, R2])).length).toBe(2);
    await storage.acknowledged(box[0]!.seq, R2, [R1, R2]);
    expect((await store.outboxList('g1')).map((r) => r.seq)).toEqual([box[1]!.seq]);
    await persisted.destroy();
    store.close();
  });

  it("a relay the game never used gets the game's state once; a known relay does not; an empty game puts nothing", async () => {
    const store = await newProfile('pacto-begin').open();
    const storage = relayStorage(store, 'g2');
    let calls = 0;
    const empty = () => {
      calls++;
      return Y.encodeStateAsUpdate(new Y.Doc());
    };
    expect(await storage.begin([R1], empty)).toEqual([R1]);
    expect(await store.outboxList('g2')).toEqual([]);
    expect(await storage.loadCursor(R1)).toBe('');
    const doc = new Y.Doc();
    doc.getArray('log').push([Uint8Array.of(7)]);
    const state = () => {
      calls++;
      return Y.encodeStateAsUpdate(doc);
    };
    expect(await storage.begin([R1], state)).toEqual([]);
    expect(calls).toBe(1);
    expect(await storage.begin([R1, R2], state)).toEqual([R2]);
    const box = await store.outboxList('g2');
    expect(box).toHaveLength(1);
    expect(box[0]!.acked).toEqual([R1]);
    expect((await storage.pending([R1, R2])).length).toBe(1);
    expect((await storage.pending([R1])).length).toBe(0);
    await storage.saveCursor(R2, '1700000000000-3');
    expect(await storage.loadCursor(R2)).toBe('1700000000000-3');
    await store.deleteGame('g2');
    expect(await store.outboxList('g2')).toEqual([]);
    expect(await store.listRelayCursors('g2')).toEqual([]);
    store.close();
  });

  it('an item only a removed relay lacked leaves the outbox when the game starts on its new list', async () => {
    const store = await newProfile('pacto-removed').open();
    const storage = relayStorage(store, 'g3');
    const doc = new Y.Doc();
    doc.getArray('log').push([Uint8Array.of(9)]);
    expect(await storage.begin([R1, R2], () => Y.encodeStateAsUpdate(doc))).toEqual([R1, R2]);
    const [item] = await store.outboxList('g3');
    // R1 has it; R2 never will: the player removes R2 from the game.
    await storage.acknowledged(item!.seq, R1, [R1, R2]);
    expect(await store.outboxList('g3')).toHaveLength(1);
    expect(await storage.begin([R1], () => Y.encodeStateAsUpdate(doc))).toEqual([]);
    expect(await store.outboxList('g3')).toEqual([]);
    // What R1 lacks stays.
    doc.getArray('log').push([Uint8Array.of(10)]);
    const R3 = 'ws://127.0.0.1:3/relay';
    expect(await storage.begin([R1, R3], () => Y.encodeStateAsUpdate(doc))).toEqual([R3]);
    expect(await storage.begin([R1, R3], () => Y.encodeStateAsUpdate(doc))).toEqual([]);
    expect(await store.outboxList('g3')).toHaveLength(1);
    store.close();
  });

  it('a version-2 database opened by version 3 keeps every record and gains the outbox and the cursors', async () => {
    const profile = newProfile('pacto-v2');
    const update = (() => {
      const d = new Y.Doc();
      d.getArray('log').push([Uint8Array.of(9, 9)]);
      return Y.encodeStateAsUpdate(d);
    })();
    await new Promise<void>((resolve, reject) => {
      const req = profile.factory.open('pacto-v2', 2);
      req.onupgradeneeded = () => {
        const db = req.result;
        db.createObjectStore('identity');
        db.createObjectStore('games', { keyPath: 'id' });
        db.createObjectStore('updates', { keyPath: ['gameId', 'seq'] }).createIndex('byGame', 'gameId');
        db.createObjectStore('drafts', { keyPath: ['gameId', 'phase', 'power'] }).createIndex('byGame', 'gameId');
        db.createObjectStore('settings');
        db.createObjectStore('entries', { keyPath: ['gameId', 'id'] }).createIndex('byGame', 'gameId');
        db.createObjectStore('failed', { keyPath: ['gameId', 'hash'] }).createIndex('byGame', 'gameId');
      };
      req.onsuccess = () => {
        const db = req.result;
        const tx = db.transaction(['identity', 'games', 'updates', 'drafts', 'settings', 'entries', 'failed'], 'readwrite');
        tx.objectStore('identity').put({ signSeed: new Uint8Array(32).fill(1), boxSecret: new Uint8Array(32).fill(2), created: 5 }, 'device');
        tx.objectStore('games').put({ id: 'game-v2', title: 'Old game', created: 1, password: 'p'.repeat(22), signaling: [] });
        tx.objectStore('updates').put({ gameId: 'game-v2', seq: 1, update, merged: 1 });
        tx.objectStore('drafts').put({ gameId: 'game-v2', phase: '1901-spring-movement', power: 'france', orders: [], seals: [], updated: 3 });
        tx.objectStore('settings').put('es', 'language');
        tx.objectStore('entries').put({ gameId: 'game-v2', id: 'a'.repeat(32), bytes: Uint8Array.of(1, 2, 3) });
        tx.objectStore('failed').put({ gameId: 'game-v2', hash: 'b'.repeat(32) });
        tx.oncomplete = () => {
          db.close();
          resolve();
        };
        tx.onerror = () => reject(tx.error);
      };
      req.onerror = () => reject(req.error);
    });
    const store = await profile.open();
    expect(DB_VERSION).toBe(4);
    expect([...store.db.objectStoreNames].sort()).toEqual([
      'drafts',
      'entries',
      'failed',
      'games',
      'identity',
      'outbox',
      'relayCursors',
      'settings',
      'updates',
    ]);
    expect((await store.getIdentityKeys())?.created).toBe(5);
    expect((await store.getGame('game-v2'))?.title).toBe('Old game');
    expect((await store.loadUpdates('game-v2')).records.map((r) => r.update)).toEqual([update]);
    expect((await store.listDrafts('game-v2')).map((d) => d.power)).toEqual(['france']);
    expect(await store.getSettings()).toEqual({ language: 'es' });
    expect((await store.listEntries('game-v2')).map((e) => e.id)).toEqual(['a'.repeat(32)]);
    expect(await store.listFailed('game-v2')).toEqual(['b'.repeat(32)]);
    expect(await store.outboxList('game-v2')).toEqual([]);
    store.close();
  });
});

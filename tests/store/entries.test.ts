// A game's entry set in IndexedDB (fake-indexeddb here; tests/e2e/store-chromium.test.ts does the
// same in Chromium): admitted entries come back without a signature check, a failed signature is
// never checked again after a restart, and a game stored by version 1 loses nothing.
import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { GameReplica } from '../../src/net';
import { reduceLog, sendChat, type Verifier } from '../../src/protocol';
import { DB_VERSION, entryStorage, persistDoc, type PactoStore } from '../../src/store';
import { countingVerifier, nativeSignMessage } from '../native-ed25519';
import { identity, startedGame, typeOf } from '../protocol/helpers';
import { newProfile } from './helpers';

async function replicaOn(store: PactoStore, gameId: string, verifier: Verifier): Promise<{ replica: GameReplica; doc: Y.Doc; done(): Promise<void> }> {
  const doc = new Y.Doc();
  const replica = await GameReplica.open({ gameId, doc, verifier, storage: entryStorage(store, gameId) });
  const persisted = persistDoc(store, gameId, doc, { load: (u, origin) => replica.loadStored(u, origin) });
  await persisted.ready;
  return {
    replica,
    doc,
    done: async () => {
      await replica.flush();
      await persisted.destroy();
      replica.destroy();
    },
  };
}

describe('entries and failed signatures in the store', () => {
  it('200 bad signatures are checked once: not after a restart, and stored entries are not checked at open', async () => {
    const game = startedGame(41);
    const author = identity(0);
    const bad = Array.from({ length: 200 }, (_, i) => {
      const b = nativeSignMessage(author, { type: 'chat', game: game.gameId, keys: {}, nonce: 'A'.repeat(32), sealed: 'C'.repeat(8), seq: 500 + i, time: 0 });
      b[7]! ^= 0x20;
      return b;
    });
    expect(sendChat(author, game.gameId, { keys: {}, nonce: 'A'.repeat(32), sealed: 'C'.repeat(8) }, 500).bytes.subarray(64)).toEqual(bad[0]!.subarray(64));
    const profile = newProfile('pacto-failed');
    let store = await profile.open();
    let verifier = countingVerifier();
    let phone = await replicaOn(store, game.gameId, verifier);
    phone.replica.receiveEntries(game.log, { name: 'peer', origin: 'peer' });
    expect(verifier.calls).toBe(game.log.length);
    phone.replica.receiveEntries(bad, { name: 'peer', origin: 'peer' });
    expect(verifier.calls).toBe(game.log.length + 200);
    await phone.done();
    store.close();

    // A restart: a new store handle on the same IndexedDB, a new replica, a new verifier.
    store = await profile.open();
    verifier = countingVerifier();
    phone = await replicaOn(store, game.gameId, verifier);
    expect(phone.replica.admission.size).toBe(game.log.length);
    const v = reduceLog(game.gameId, [...phone.replica.entries()], { verifier: phone.replica.verifier });
    expect(v.status).toBe('playing');
    phone.replica.receiveEntries(bad, { name: 'peer', origin: 'peer' });
    phone.replica.receiveEntries(game.log, { name: 'peer', origin: 'peer' });
    expect(verifier.calls).toBe(0);
    expect(phone.replica.reports().filter((r) => r.reason === 'bad-signature')).toHaveLength(200);
    await phone.done();
    store.close();
  });

  it('a game stored by version 1 keeps every entry: its updates are admitted once, and what the gate refuses leaves the store', async () => {
    const game = startedGame(42);
    const profile = newProfile('pacto-v1');
    // Version 1's layout, written with raw IndexedDB: one update per entry, then a peer's deletion
    // of the START and a record of garbage, as version 1 stored them.
    const source = new Y.Doc();
    const updates: Uint8Array[] = [];
    source.on('update', (u: Uint8Array) => updates.push(u));
    for (const e of game.log) source.getArray<Uint8Array>('log').push([e]);
    const startIndex = game.log.findIndex((e) => typeOf(e) === 'start');
    source.getArray('log').delete(startIndex, 1);
    await new Promise<void>((resolve, reject) => {
      const req = profile.factory.open('pacto-v1', 1);
      req.onupgradeneeded = () => {
        const db = req.result;
        db.createObjectStore('identity');
        db.createObjectStore('games', { keyPath: 'id' });
        db.createObjectStore('updates', { keyPath: ['gameId', 'seq'] }).createIndex('byGame', 'gameId');
        db.createObjectStore('drafts', { keyPath: ['gameId', 'phase', 'power'] }).createIndex('byGame', 'gameId');
        db.createObjectStore('settings');
        db.createObjectStore('verified', { keyPath: ['gameId', 'id'] }).createIndex('byGame', 'gameId');
      };
      req.onsuccess = () => {
        const db = req.result;
        const tx = db.transaction('updates', 'readwrite');
        [...updates, Uint8Array.of(1, 1, 9, 0, 4, 1, 3, 108, 111, 103, 1, 65, 0)].forEach((update, i) =>
          tx.objectStore('updates').put({ gameId: game.gameId, seq: i + 1, update, merged: 1 }),
        );
        tx.oncomplete = () => {
          db.close();
          resolve();
        };
        tx.onerror = () => reject(tx.error);
      };
      req.onerror = () => reject(req.error);
    });
    let store = await profile.open();
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
    let phone = await replicaOn(store, game.gameId, countingVerifier());
    // Every entry is in the set, the deleted START too: its item's bytes were still stored.
    expect(phone.replica.admission.size).toBe(game.log.length);
    expect(reduceLog(game.gameId, [...phone.replica.entries()]).status).toBe('playing');
    expect(await store.countUpdates(game.gameId)).toBe(1);
    await phone.done();
    store.close();

    store = await profile.open();
    const verifier = countingVerifier();
    phone = await replicaOn(store, game.gameId, verifier);
    expect(phone.replica.admission.size).toBe(game.log.length);
    expect(phone.replica.reports()).toEqual([]);
    expect(verifier.calls).toBe(0);
    await phone.done();
    store.close();
  });
});

describe('durability of entry and update writes', () => {
  it("peers' entries and updates are written relaxed; an own entry, and an own update with its outbox, strictly", async () => {
    const game = startedGame(43);
    const profile = newProfile('pacto-durability');
    const store = await profile.open();
    // The real transactions run; this only records the durability each one asked for.
    const asked: string[] = [];
    const proto = Object.getPrototypeOf(
      await new Promise<IDBDatabase>((resolve) => {
        const r = profile.factory.open('probe');
        r.onsuccess = () => resolve(r.result);
      }),
    ) as IDBDatabase;
    const transaction = proto.transaction;
    proto.transaction = function (this: IDBDatabase, names: string | string[], mode?: IDBTransactionMode, options?: IDBTransactionOptions) {
      if (mode === 'readwrite') asked.push(`${[names].flat().join('+')}:${options?.durability ?? 'default'}`);
      return transaction.call(this, names, mode, options);
    } as IDBDatabase['transaction'];
    try {
      const doc = new Y.Doc();
      const replica = await GameReplica.open({
        gameId: game.gameId,
        doc,
        verifier: countingVerifier(),
        storage: entryStorage(store, game.gameId),
        self: game.byPower.austria.me.id,
      });
      const persisted = persistDoc(store, game.gameId, doc, {
        load: (u, origin) => replica.loadStored(u, origin),
        own: (origin) => replica.isOwnOrigin(origin),
      });
      await persisted.ready;
      const peers = game.log.slice(0, -1);
      const other = new Y.Doc();
      other.getArray<Uint8Array>('log').push(peers);
      replica.receive(Y.encodeStateAsUpdate(other), { name: 'peer', origin: 'peer' });
      await replica.flush();
      await persisted.flush();
      expect(asked.filter((a) => a.startsWith('entries') || a.startsWith('updates')).sort()).toEqual(['entries:relaxed', 'updates:relaxed']);
      asked.length = 0;
      await replica.publish([game.log.at(-1)!]);
      await persisted.flush();
      expect(asked.filter((a) => a.startsWith('entries') || a.startsWith('updates')).sort()).toEqual(['entries:strict', 'updates+outbox:strict']);
      expect((await store.listEntries(game.gameId)).length).toBe(game.log.length);
      await persisted.destroy();
      replica.destroy();
    } finally {
      proto.transaction = transaction;
      store.close();
    }
  });
});

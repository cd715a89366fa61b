// Adversarial review of the own-entry reservations (src/ui/game/outbox.ts reserve/send,
// src/store/reservations.ts): two tabs of one browser on one game, and a database written by a
// version before the reservations had a database of their own. A once-only message (START, a
// FINAL, a LOCK, a REVEAL, the lot commit) signed twice and sent is equivocation; so a tab must
// never write a once-only name another tab holds (nor the secret kept with it: the lot commit's,
// whose loss leaves the sent commit unopenable), and a right reserved before the upgrade must stay
// used.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { GameReplica } from '../../src/net';
import { openPactoStore, type PactoStore } from '../../src/store';
import { upgradeSchema, type PactoDB } from '../../src/store/schema';
import { Outbox } from '../../src/ui/game/outbox';
import { asAppRecord, GameRecordRef } from '../../src/ui/game/records';

const GAME = 'a'.repeat(32);
const factory = new IDBFactory();

/** One tab of the game: its own record copy and outbox over the shared store. */
async function tab(store: PactoStore): Promise<{ outbox: Outbox; record: GameRecordRef }> {
  const record = new GameRecordRef(store, GAME, asAppRecord(await store.getGame(GAME))!);
  const log = await GameReplica.open({ gameId: GAME });
  const outbox = new Outbox({
    store,
    record,
    log,
    now: () => 1,
    lang: () => 'en',
    seqFloor: () => 0,
    published: () => undefined,
    closed: () => false,
  });
  return { outbox, record };
}

describe('two tabs, one once-only right', () => {
  it('the second tab never writes over the right or the lot secret the first holds, even with numbers in hand', async () => {
    const store = await openPactoStore(`pacto-attack-${Math.random()}`, factory);
    await store.putGame({ id: GAME, title: 't', created: 1, password: 'p', signaling: [] });
    const [a, b] = [await tab(store), await tab(store)];
    // Both tabs have signed something before (a chat, an ACK): each holds reserved numbers.
    expect(await a.outbox.stamp()).not.toBeNull();
    expect(await b.outbox.stamp()).not.toBeNull();
    // Tab A's lot commit: its name, bytes and secret written in one transaction (duty-loop.ts).
    expect(await a.outbox.keepOnce('lot-commit', [Uint8Array.of(1)], 'secret-of-A')).toBe(true);
    // Tab B saw the lot open with no commit of this key yet (A's has not reached its view): it
    // signed its own in memory; the write finds the name taken and writes nothing.
    expect(await b.outbox.keepOnce('lot-commit', [Uint8Array.of(2)], 'secret-of-B')).toBe(false);
    for (const t of [a, b, await tab(store)]) expect(await t.outbox.keptSecret('lot-commit')).toBe('secret-of-A');
    // And B's duty, asked again, signs nothing.
    let ran = 0;
    expect(await b.outbox.send(() => (ran++, null), { once: 'lot-commit' })).toBeNull();
    expect(ran).toBe(0);
    store.close();
  });
});

describe('two tabs, a sign step that throws', () => {
  it('a tab whose sign step throws never frees a right another tab holds: the name stays used for every tab', async () => {
    const store = await openPactoStore(`pacto-attack-${Math.random()}`, factory);
    await store.putGame({ id: GAME, title: 't', created: 1, password: 'p', signaling: [] });
    const [a, b] = [await tab(store), await tab(store)];
    expect(await a.outbox.stamp()).not.toBeNull();
    expect(await b.outbox.stamp()).not.toBeNull();
    // Tab A holds the right to its LOCK (written with what it signed, which went out).
    expect(await a.outbox.keepOnce('lock|S1901M', [Uint8Array.of(1)])).toBe(true);
    // Tab B's duty loop, its view lagging, tries the same LOCK; its sign step throws (a stale view).
    await b.outbox
      .send(
        () => {
          throw new Error('stale view');
        },
        { once: 'lock|S1901M' },
      )
      .catch(() => null);
    // A third tab (or B after a reload) must not get the right: a second LOCK is equivocation.
    const c = await tab(store);
    expect(await c.outbox.keepOnce('lock|S1901M', [Uint8Array.of(3)]), 'a right another tab holds was freed').toBe(false);
    store.close();
  });
});

describe('a database of the version before (3) upgraded', () => {
  it('rights and numbers reserved before the upgrade stay used, in every tab and after a reload', async () => {
    const name = `pacto-attack-old-${Math.random()}`;
    // The database as version 3 left it: the game's record holds its reservations.
    const request = factory.open(name, 3);
    request.onupgradeneeded = (e) => upgradeSchema(request.result as unknown as PactoDB, e.oldVersion);
    const old = await new Promise<IDBDatabase>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error as Error);
    });
    const names = ['start', 'final|S1901M|france', 'lock|S1901M', 'reveal|S1901M', 'lot-commit'];
    await new Promise<void>((resolve, reject) => {
      const tx = old.transaction('games', 'readwrite');
      tx.objectStore('games').put({ id: GAME, title: 't', created: 1, password: 'p', signaling: [], nextSeq: 40, once: names });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error as Error);
    });
    old.close();

    const store = await openPactoStore(name, factory);
    const [a, b] = [await tab(store), await tab(store)];
    const seqs: number[] = [];
    for (const t of [a, b, a, b]) {
      for (const n of names) {
        expect(await t.outbox.keepOnce(n, [Uint8Array.of(1)]), `${n} reserved before the upgrade`).toBe(false);
        expect(t.outbox.reserved(n)).toBe(true);
      }
      seqs.push((await t.outbox.stamp()).seq);
      expect(await t.outbox.keepOnce(`final|F1901M|${seqs.length}`, [Uint8Array.of(2)])).toBe(true);
    }
    expect(Math.min(...seqs)).toBeGreaterThanOrEqual(40);
    expect(new Set(seqs).size).toBe(seqs.length);
    // A sign step of an old right never runs.
    let ran = 0;
    for (const n of names) expect(await b.outbox.send(() => (ran++, null), { once: n })).toBeNull();
    expect(ran).toBe(0);
    store.close();
    // Reloaded: still used, numbers above all.
    const again = await openPactoStore(name, factory);
    const c = await tab(again);
    for (const n of names) expect(await c.outbox.keepOnce(n, [Uint8Array.of(1)])).toBe(false);
    expect((await c.outbox.stamp())!.seq).toBeGreaterThan(Math.max(...seqs));
    again.close();
  });
});

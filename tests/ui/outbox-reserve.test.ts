// The outbox reserves sequence numbers in blocks ahead and once-only names one by one, in the
// reservation's own database (store.modifyReservation): two tabs of one phone sharing the store
// never get one number or one name twice, a reopened page starts above every number reserved
// before, and a message that is not once-only waits for no write once its block is on disk.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { GameReplica } from '../../src/net';
import { openPactoStore, type PactoStore } from '../../src/store';
import { Outbox, SEQ_BLOCK } from '../../src/ui/game/outbox';
import { asAppRecord, GameRecordRef } from '../../src/ui/game/records';

const GAME = 'g'.repeat(32);

/** The store, counting the reservation writes it is asked for. */
async function counted(name: string): Promise<{ store: PactoStore; writes: () => number }> {
  const store = await openPactoStore(name, factory);
  let writes = 0;
  const wrapped: PactoStore = {
    ...store,
    modifyReservation: (id, change) => {
      writes++;
      return store.modifyReservation(id, change);
    },
  };
  return { store: wrapped, writes: () => writes };
}

const factory = new IDBFactory();

/** One page (tab) of the game: its own record copy and outbox over the shared store. */
async function page(store: PactoStore, floor = () => 0): Promise<Outbox> {
  const record = new GameRecordRef(store, GAME, asAppRecord(await store.getGame(GAME))!);
  const log = await GameReplica.open({ gameId: GAME });
  return new Outbox({
    store,
    record,
    log,
    now: () => 1,
    lang: () => 'en',
    seqFloor: floor,
    published: () => undefined,
    closed: () => false,
  });
}

describe('the outbox reservations', () => {
  it('two tabs interleaving numbers and once-only names never share one; a reopened tab starts above them all', async () => {
    const { store } = await counted(`pacto-reserve-${Math.random()}`);
    // The record as versions before the reservations' database left it: number 5 and one name taken.
    await store.putGame({ id: GAME, title: 't', created: 1, password: 'p', signaling: [], nextSeq: 5, once: ['start'] });
    const [a, b] = [await page(store), await page(store)];
    expect(await a.keepOnce('start', [Uint8Array.of(1)])).toBe(false);
    const seqs: number[] = [];
    const perTab = new Map<Outbox, number[]>([
      [a, []],
      [b, []],
    ]);
    for (let i = 0; i < 3 * SEQ_BLOCK; i++) {
      const tab = i % 3 === 0 ? b : a;
      const once = i % 7 === 0 ? `final|${i}` : undefined;
      const stamp = await tab.stamp();
      seqs.push(stamp.seq);
      perTab.get(tab)!.push(stamp.seq);
      if (once === undefined) continue;
      expect(await tab.keepOnce(once, [Uint8Array.of(i)])).toBe(true);
      // The other tab finds the name reserved.
      expect(await (tab === a ? b : a).keepOnce(once, [Uint8Array.of(i)])).toBe(false);
    }
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(Math.min(...seqs)).toBeGreaterThanOrEqual(5);
    for (const mine of perTab.values()) expect(mine).toEqual([...mine].sort((x, y) => x - y));
    // Reopened (the blocks in memory are gone): above every number either tab was given.
    const c = await page(store);
    expect((await c.stamp()).seq).toBeGreaterThan(Math.max(...seqs));
    expect(await c.keepOnce('final|0', [Uint8Array.of(0)])).toBe(false);
  });

  it('a message that is not once-only waits for no write once its block is on disk', async () => {
    const { store, writes } = await counted(`pacto-reserve-${Math.random()}`);
    await store.putGame({ id: GAME, title: 't', created: 1, password: 'p', signaling: [] });
    const tab = await page(store);
    for (let i = 0; i < SEQ_BLOCK; i++) await tab.stamp();
    // The first block, then one more as it ran low.
    expect(writes()).toBe(2);
  });

  it('numbers stay above what the log shows of this key (a copy of the identity elsewhere)', async () => {
    const { store } = await counted(`pacto-reserve-${Math.random()}`);
    await store.putGame({ id: GAME, title: 't', created: 1, password: 'p', signaling: [] });
    let floor = 0;
    const tab = await page(store, () => floor);
    expect((await tab.stamp()).seq).toBe(0);
    floor = 10;
    expect((await tab.stamp()).seq).toBe(10);
    floor = 500;
    expect((await tab.stamp()).seq).toBe(500);
  });
});

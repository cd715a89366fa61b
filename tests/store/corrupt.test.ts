// Bad data in IndexedDB: a clear error naming each bad record; good data still loads and
// nothing is deleted.
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { StoreDataError, persistDoc } from '../../src/store';
import { logOf, message, newProfile } from './helpers';

async function gameWithLog(profile: ReturnType<typeof newProfile>, n: number): Promise<void> {
  const store = await profile.open();
  const doc = new Y.Doc();
  const h = persistDoc(store, 'g', doc, { compactAfter: 1_000_000 });
  await h.ready;
  for (let i = 0; i < n; i++) {
    doc.getArray('log').push([message(i)]);
    await h.flush();
  }
  await h.destroy();
  store.close();
}

describe('bad data', () => {
  it('corrupt update bytes: the error names the record, the good updates load, nothing is lost', async () => {
    const profile = newProfile();
    await gameWithLog(profile, 5);
    const store = await profile.open();
    // Damage record seq 5 (the last push) by truncating its bytes, and add a record of the wrong shape.
    const rec = await store.db.get('updates', ['g', 5]);
    await store.db.put('updates', { ...rec!, update: rec!.update.subarray(0, rec!.update.length - 3) });
    await store.db.put('updates', { gameId: 'g', seq: 9, update: 'not bytes', merged: 1 } as never);

    const doc = new Y.Doc();
    const errors: unknown[] = [];
    const handle = persistDoc(store, 'g', doc, { onError: (e) => errors.push(e) });
    const failure = await handle.ready.then(
      () => null,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(StoreDataError);
    const bad = (failure as StoreDataError).records;
    expect(bad.map((r) => r.key)).toEqual([
      ['g', 5],
      ['g', 9],
    ]);
    expect(bad[0]?.problem).toMatch(/do not decode/);
    expect(bad[1]?.problem).toMatch(/update is not a Uint8Array/);
    expect((failure as Error).message).toContain('["g",5]');
    expect(logOf(doc)).toEqual([0, 1, 2, 3].map((i) => message(i)));
    expect(errors).toHaveLength(1);

    // Compaction refuses rather than bury or drop the bad records.
    await expect(store.compact('g')).rejects.toBeInstanceOf(StoreDataError);
    expect(await store.countUpdates('g')).toBe(6);
    // New updates are still stored.
    doc.getArray('log').push([message(99)]);
    await handle.destroy();
    expect(await store.countUpdates('g')).toBe(7);

    // Once the user discards the bad records, the game loads cleanly again.
    await store.deleteUpdates('g', [5, 9]);
    const clean = await store.loadUpdates('g');
    expect(clean.records).toHaveLength(5);
    store.close();
  });

  it('a game record of the wrong shape: listGames names it and still returns the good ones', async () => {
    const profile = newProfile();
    const store = await profile.open();
    await store.putGame({ id: 'ok', title: 'Fine', created: 5 });
    await store.db.put('games', { id: 'broken', title: null, created: 'yesterday' } as never);
    const failure = await store.listGames().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(StoreDataError);
    expect((failure as StoreDataError).records).toEqual([{ store: 'games', key: 'broken', problem: 'title is not a string' }]);
    expect(((failure as StoreDataError).partial as { id: string }[]).map((g) => g.id)).toEqual(['ok']);
    expect(await store.db.count('games')).toBe(2);
    store.close();
  });

  it('damaged drafts, settings and identity are reported, not overwritten', async () => {
    const store = await newProfile().open();
    const key = { gameId: 'g', phase: 'p', power: 'austria' };
    await store.db.put('drafts', { ...key, orders: [], seals: [{ key: new Uint8Array(3), hash: 'h', created: 1 }], updated: 1 });
    await expect(store.getDraft(key)).rejects.toThrow(/seals\[0\]: key has 3 bytes/);
    await expect(store.addSeal(key, { key: new Uint8Array(32), hash: 'h2', created: 2 })).rejects.toBeInstanceOf(StoreDataError);
    expect((await store.db.get('drafts', ['g', 'p', 'austria']))?.seals).toHaveLength(1);

    await store.db.put('settings', 42, 'signaling');
    await store.updateSettings({ name: 'Bea' });
    const failure = await store.getSettings().catch((e: unknown) => e);
    expect((failure as StoreDataError).records[0]).toMatchObject({ store: 'settings', key: 'signaling' });
    expect((failure as StoreDataError).partial).toEqual({ name: 'Bea' });

    await store.db.put('identity', { signSeed: new Uint8Array(32), boxSecret: 'lost', created: 1 } as never, 'device');
    await expect(store.ensureIdentityKeys(() => new Uint8Array(32).fill(1), 2)).rejects.toThrow(/boxSecret is not a Uint8Array/);
    expect((await store.db.get('identity', 'device'))?.boxSecret).toBe('lost');
    store.close();
  });
});

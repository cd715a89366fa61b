// persistDoc's peerWrites (src/net/README.md "Writing peers' entries later"): peers' doc updates
// wait in memory until they stop coming (bounded), an own update is written at once and takes what
// waits with it, and flush(), writeNow() and destroy() leave nothing behind. Timers that must not
// fire in a test are set to a minute, so only the rule under test can write.
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { persistDoc } from '../../src/store';
import { message, newProfile, reopenLog } from './helpers';

const MINUTE = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const OWN = 'own-origin';

async function bound(peerWrites: { quietMs: number; maxMs: number }) {
  const profile = newProfile();
  const store = await profile.open();
  const appends: { updates: number; own: boolean[] }[] = [];
  const spied = {
    ...store,
    appendUpdates: (gameId: string, updates: readonly Uint8Array[], own?: readonly boolean[]) => {
      appends.push({ updates: updates.length, own: [...(own ?? [])] });
      return store.appendUpdates(gameId, updates, own);
    },
  } as typeof store;
  const doc = new Y.Doc();
  const handle = persistDoc(spied, 'g', doc, { own: (o) => o === OWN, peerWrites });
  await handle.ready;
  const peer = (i: number) => doc.transact(() => doc.getArray('log').push([message(i).body]), 'peer');
  return { profile, store, doc, handle, appends, peer };
}

describe("peers' updates written later (persistDoc peerWrites)", () => {
  it('waits while they come, then writes them in one batch once they stop', async () => {
    const { profile, store, handle, appends, peer } = await bound({ quietMs: 40, maxMs: MINUTE });
    for (let i = 0; i < 5; i++) peer(i);
    expect(appends).toEqual([]);
    await expect.poll(() => appends.length, { timeout: 10_000, interval: 5 }).toBe(1);
    expect(appends[0]).toEqual({ updates: 5, own: [false, false, false, false, false] });
    await handle.destroy();
    store.close();
    expect(await reopenLog(profile, 'g')).toHaveLength(5);
  });

  it('writes an own update at once with the waiting ones, and it reaches the outbox', async () => {
    const { store, doc, handle, appends, peer } = await bound({ quietMs: MINUTE, maxMs: MINUTE });
    peer(1);
    peer(2);
    await sleep(30);
    expect(appends).toEqual([]);
    doc.transact(() => doc.getArray('log').push([message(3).body]), OWN);
    await expect.poll(() => appends.length, { timeout: 10_000, interval: 5 }).toBe(1);
    expect(appends[0]).toEqual({ updates: 3, own: [false, false, true] });
    await handle.flush();
    expect(handle.ownQueued()).toBe(0);
    await handle.destroy();
    store.close();
  });

  it('flush(), writeNow() and destroy() write what waits', async () => {
    const { profile, store, handle, appends, peer } = await bound({ quietMs: MINUTE, maxMs: MINUTE });
    peer(1);
    await handle.flush();
    expect(appends).toHaveLength(1);
    peer(2);
    handle.writeNow();
    await expect.poll(() => appends.length, { timeout: 10_000, interval: 5 }).toBe(2);
    peer(3);
    await sleep(30);
    expect(appends).toHaveLength(2);
    await handle.destroy();
    expect(appends).toHaveLength(3);
    store.close();
    expect(await reopenLog(profile, 'g')).toHaveLength(3);
  });

  it('a peer sending without pause cannot hold the writes back past maxMs', async () => {
    const { store, handle, appends, peer } = await bound({ quietMs: MINUTE, maxMs: 80 });
    const until = Date.now() + 5_000;
    for (let i = 0; appends.length === 0 && Date.now() < until; i++) {
      peer(i);
      await sleep(5);
    }
    expect(appends.length).toBeGreaterThan(0);
    await handle.destroy();
    store.close();
  });
});

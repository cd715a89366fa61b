// Y.Doc updates: appended as they happen, loaded back after a reload, compacted without loss.
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { persistDoc } from '../../src/store';
import { logOf, message, newProfile, reopenLog } from './helpers';

describe('persistDoc', () => {
  it('stores every update and restores the whole log after a reload', async () => {
    const profile = newProfile();
    const store = await profile.open();
    const doc = new Y.Doc();
    const handle = persistDoc(store, 'g1', doc);
    await handle.ready;
    for (let i = 0; i < 30; i++) doc.getArray('log').push([message(i)]);
    doc.getArray('log').push([message(30).body]); // bare bytes, as src/net logs messages
    await handle.flush();
    expect(await store.countUpdates('g1')).toBeGreaterThan(0);
    const written = logOf(doc);
    await handle.destroy();
    store.close();

    const restored = await reopenLog(profile, 'g1');
    expect(restored).toHaveLength(31);
    expect(restored).toEqual(written);
    expect(restored[30]).toBeInstanceOf(Uint8Array);
  });

  it('does not store again what it loaded, and keeps games apart', async () => {
    const profile = newProfile();
    const store = await profile.open();
    const a = new Y.Doc();
    const b = new Y.Doc();
    const ha = persistDoc(store, 'a', a);
    const hb = persistDoc(store, 'b', b);
    await Promise.all([ha.ready, hb.ready]);
    a.getArray('log').push([message(1)]);
    a.getArray('log').push([message(2)]);
    b.getArray('log').push([message(3)]);
    await Promise.all([ha.destroy(), hb.destroy()]);
    const before = await store.countUpdates('a');
    expect(before).toBe(2);
    expect(await store.countUpdates('b')).toBe(1);

    const again = new Y.Doc();
    const h = persistDoc(store, 'a', again);
    const loaded = await h.ready;
    expect(loaded.records).toHaveLength(2);
    await h.flush();
    expect(await store.countUpdates('a')).toBe(before);
    expect(logOf(again)).toEqual([message(1), message(2)]);
    await h.destroy();
    store.close();
  });

  it('stores what the doc held before it was bound, and updates that arrive while loading', async () => {
    const profile = newProfile();
    const store = await profile.open();
    const first = new Y.Doc();
    const h1 = persistDoc(store, 'g', first);
    await h1.ready;
    first.getArray('log').push([message(1)]);
    await h1.destroy();

    const doc = new Y.Doc();
    doc.getArray('log').push([message(2)]); // made before binding, e.g. received from a peer
    const h2 = persistDoc(store, 'g', doc);
    doc.getArray('log').push([message(3)]); // arrives before the stored updates are loaded
    await h2.ready;
    await h2.destroy();
    store.close();

    const restored = await reopenLog(profile, 'g');
    expect(restored).toHaveLength(3);
    expect(new Set(restored.map((m) => (m as { n: number }).n))).toEqual(new Set([1, 2, 3]));
  });

  it('batches a burst of updates and reports them durable on flush', async () => {
    const profile = newProfile();
    const store = await profile.open();
    const doc = new Y.Doc();
    const handle = persistDoc(store, 'g', doc, { compactAfter: 1_000_000 });
    await handle.ready;
    for (let i = 0; i < 200; i++) doc.getArray('log').push([message(i, 16)]);
    await handle.flush();
    const loaded = await store.loadUpdates('g');
    expect(loaded.merged).toBe(200);
    const probe = new Y.Doc();
    for (const r of loaded.records) Y.applyUpdate(probe, r.update);
    expect(logOf(probe)).toEqual(logOf(doc));
    await handle.destroy();
    store.close();
  });
});

describe('compaction', () => {
  it('merges a game into one record with the same content', async () => {
    const profile = newProfile();
    const store = await profile.open();
    const doc = new Y.Doc();
    const handle = persistDoc(store, 'g', doc, { compactAfter: 1_000_000 });
    await handle.ready;
    for (let i = 0; i < 40; i++) {
      doc.getArray('log').push([message(i)]);
      await handle.flush(); // one record per update
    }
    expect(await store.countUpdates('g')).toBe(40);
    const result = await handle.compact();
    expect(result).toMatchObject({ before: 40, after: 1 });
    expect(await store.countUpdates('g')).toBe(1);
    doc.getArray('log').push([message(40)]);
    await handle.destroy();
    store.close();

    const restored = await reopenLog(profile, 'g');
    expect(restored).toEqual(Array.from({ length: 41 }, (_, i) => message(i)));
    const again = await profile.open();
    const loaded = await again.loadUpdates('g');
    expect(loaded.records).toHaveLength(2);
    expect(loaded.merged).toBe(41);
    again.close();
  });

  it('compacts by itself past the threshold', async () => {
    const profile = newProfile();
    const store = await profile.open();
    const doc = new Y.Doc();
    const handle = persistDoc(store, 'g', doc, { compactAfter: 10 });
    await handle.ready;
    for (let i = 0; i < 35; i++) {
      doc.getArray('log').push([message(i)]);
      await handle.flush();
    }
    expect(await store.countUpdates('g')).toBeLessThanOrEqual(10);
    await handle.destroy();
    store.close();
    expect(await reopenLog(profile, 'g')).toEqual(Array.from({ length: 35 }, (_, i) => message(i)));
  });

  it('with an idle scheduler, a due compaction waits for idle time, and then loses nothing', async () => {
    const profile = newProfile();
    const store = await profile.open();
    const doc = new Y.Doc();
    const idle: (() => void)[] = [];
    const handle = persistDoc(store, 'g', doc, { compactAfter: 10, whenIdle: (run) => idle.push(run) });
    await handle.ready;
    for (let i = 0; i < 25; i++) {
      doc.getArray('log').push([message(i)]);
      await handle.flush();
    }
    // Due since the 11th record, asked for once, not run: every append is still its own record.
    expect(idle).toHaveLength(1);
    expect(await store.countUpdates('g')).toBeGreaterThan(20);
    idle.shift()!();
    doc.getArray('log').push([message(25)]); // an append while it runs
    await handle.flush();
    expect(await store.countUpdates('g')).toBeLessThanOrEqual(2);
    // Past the threshold again: asked again.
    for (let i = 26; i < 40; i++) {
      doc.getArray('log').push([message(i)]);
      await handle.flush();
    }
    expect(idle).toHaveLength(1);
    await handle.destroy();
    store.close();
    expect(await reopenLog(profile, 'g')).toEqual(Array.from({ length: 40 }, (_, i) => message(i)));
  });

  it('loses no update appended while a compaction runs', async () => {
    const profile = newProfile();
    const store = await profile.open();
    const source = new Y.Doc();
    const updates: Uint8Array[] = [];
    source.on('update', (u: Uint8Array) => updates.push(u));
    for (let i = 0; i < 120; i++) source.getArray('log').push([message(i)]);
    for (const u of updates.slice(0, 60)) await store.appendUpdates('g', [u]);

    // Start the compaction and, without waiting, append the rest one by one from "another tab".
    const other = await profile.open();
    const compaction = store.compact('g');
    const appends = updates.slice(60).map((u) => other.appendUpdates('g', [u]));
    const [result, ...seqs] = await Promise.all([compaction, ...appends]);
    expect(result.before).toBeGreaterThanOrEqual(60);
    expect(new Set(seqs.flat()).size).toBe(60);

    const loaded = await store.loadUpdates('g');
    expect(loaded.merged).toBe(120);
    const doc = new Y.Doc();
    for (const r of loaded.records) Y.applyUpdate(doc, r.update);
    expect(logOf(doc)).toEqual(logOf(source));
    // And once more, compacting everything, still nothing lost.
    await store.compact('g');
    const final = await store.loadUpdates('g');
    expect(final.records).toHaveLength(1);
    const doc2 = new Y.Doc();
    Y.applyUpdate(doc2, final.records[0]!.update);
    expect(logOf(doc2)).toEqual(logOf(source));
    store.close();
    other.close();
  });

  it('is a no-op for a game with fewer than two records', async () => {
    const store = await newProfile().open();
    expect(await store.compact('none')).toMatchObject({ before: 0, after: 0 });
    store.close();
  });
});

// When a write fails the caller hears about it: flush() rejects and onError is told; the
// update is kept queued rather than silently dropped.
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { persistDoc } from '../../src/store';
import { message, newProfile, reopenLog } from './helpers';

describe('write failures', () => {
  it('a closed database makes flush reject and reports the error', async () => {
    const profile = newProfile();
    const store = await profile.open();
    const doc = new Y.Doc();
    const errors: unknown[] = [];
    const handle = persistDoc(store, 'g', doc, { onError: (e) => errors.push(e) });
    await handle.ready;
    doc.getArray('log').push([message(1)]);
    await handle.flush();
    store.close();
    doc.getArray('log').push([message(2)]);
    await expect(handle.flush()).rejects.toBeDefined();
    expect(errors.length).toBeGreaterThan(0);
    await expect(handle.destroy()).rejects.toBeDefined();
    expect(await reopenLog(profile, 'g')).toEqual([message(1)]);
  });

  it('destroying the doc still writes the updates queued before it', async () => {
    const profile = newProfile();
    const store = await profile.open();
    const doc = new Y.Doc();
    const handle = persistDoc(store, 'g', doc);
    await handle.ready;
    doc.getArray('log').push([message(1)]);
    doc.destroy();
    await handle.flush();
    expect(await store.countUpdates('g')).toBe(1);
    store.close();
  });
});

// The lobby's list of games works from IndexedDB alone, and a game opens with its whole log.
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { persistDoc } from '../../src/store';
import { message, newProfile, reopenLog } from './helpers';

describe('games', () => {
  it('are listed newest first after a reload, each opening with its own log', async () => {
    const profile = newProfile();
    const store = await profile.open();
    await store.putGame({ id: 'old', title: 'Partida del martes', created: 1000, myPower: 'italy' });
    await store.putGame({ id: 'new', title: 'Friday game', created: 3000 });
    await store.putGame({ id: 'mid', title: 'Club', created: 2000, lastPhase: '1901-spring-movement', invite: { room: 'r' } });
    for (const [id, n] of [
      ['old', 3],
      ['new', 5],
    ] as const) {
      const doc = new Y.Doc();
      const h = persistDoc(store, id, doc);
      await h.ready;
      for (let i = 0; i < n; i++) doc.getArray('log').push([message(i)]);
      await h.destroy();
    }
    store.close();

    const after = await profile.open();
    const games = await after.listGames();
    expect(games.map((g) => g.id)).toEqual(['new', 'mid', 'old']);
    expect(games[1]).toEqual({ id: 'mid', title: 'Club', created: 2000, lastPhase: '1901-spring-movement', invite: { room: 'r' } });
    expect(games[2]?.myPower).toBe('italy');
    after.close();
    expect(await reopenLog(profile, 'old')).toHaveLength(3);
    expect(await reopenLog(profile, 'new')).toHaveLength(5);
    expect(await reopenLog(profile, 'mid')).toHaveLength(0);
  });

  it('updateGame changes only what it is given', async () => {
    const store = await newProfile().open();
    await store.putGame({ id: 'g', title: 'T', created: 1, myPower: 'turkey' });
    const next = await store.updateGame('g', { lastPhase: '1902-fall-retreat' });
    expect(next).toEqual({ id: 'g', title: 'T', created: 1, myPower: 'turkey', lastPhase: '1902-fall-retreat' });
    expect(await store.getGame('g')).toEqual(next);
    await expect(store.updateGame('nope', { title: 'x' })).rejects.toThrow(/no game nope/);
    await expect(store.putGame({ id: 'bad', title: 7 as unknown as string, created: 1 })).rejects.toThrow(/title/);
    store.close();
  });

  it('deleteGame removes the game with its updates, drafts, entries and failed hashes, and nothing else', async () => {
    const store = await newProfile().open();
    for (const id of ['a', 'b']) {
      await store.putGame({ id, title: id, created: 1 });
      await store.appendUpdates(id, [Y.encodeStateAsUpdate(new Y.Doc())]);
      await store.saveDraftOrders({ gameId: id, phase: 'p', power: 'russia' }, [], 1);
      await store.putEntries(
        id,
        [
          { id: '1'.repeat(32), bytes: Uint8Array.of(1) },
          { id: '0'.repeat(32), bytes: Uint8Array.of(0) },
        ],
        [],
      );
      await store.putFailed(id, ['f'.repeat(32)]);
    }
    await store.deleteGame('a');
    expect((await store.listGames()).map((g) => g.id)).toEqual(['b']);
    expect(await store.countUpdates('a')).toBe(0);
    expect(await store.listDrafts('a')).toEqual([]);
    expect(await store.listEntries('a')).toEqual([]);
    expect(await store.listFailed('a')).toEqual([]);
    expect(await store.countUpdates('b')).toBe(1);
    expect(await store.listDrafts('b')).toHaveLength(1);
    expect((await store.listEntries('b')).map((v) => v.id)).toEqual(['0'.repeat(32), '1'.repeat(32)]);
    expect(await store.listFailed('b')).toEqual(['f'.repeat(32)]);
    store.close();
  });
});

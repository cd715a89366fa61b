// An entry kept with its once-only name in the reservations (store.modifyReservation `kept`, the
// last seal's FINAL: src/ui/game/outbox.ts SendOptions.with): it stays while its name is reserved,
// whatever later reservations write, goes with its name when the name is given back, and a stored
// list of the wrong shape is never overwritten.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { openPactoStore, StoreDataError } from '../../src/store';
import { KEPT_ENTRIES, openReserved } from '../../src/store/reservations';

const GAME = 'k'.repeat(32);

describe('entries kept with their once-only name', () => {
  it('stay through reservations that do not name them, leave with their name, and only the latest are kept', async () => {
    const store = await openPactoStore('pacto-kept-1', new IDBFactory());
    const bytes = Uint8Array.of(1, 2, 3);
    await store.modifyReservation(GAME, (old) => ({ nextSeq: 5, once: [...old.once, 'final|x|france'], kept: [{ name: 'final|x|france', entries: [bytes] }] }));
    // A block and another name, written without `kept`.
    await store.modifyReservation(GAME, (old) => ({ nextSeq: old.nextSeq + 32, once: [...old.once, 'lock|x'] }));
    expect(await store.modifyReservation(GAME, () => null)).toBeNull();
    let stored: { kept?: readonly { name: string; entries: readonly Uint8Array[] }[] } = {};
    await store.modifyReservation(GAME, (old) => ((stored = old), null));
    expect(stored.kept?.map((k) => [k.name, k.entries.map((e) => [...e])])).toEqual([['final|x|france', [[1, 2, 3]]]]);
    // The name given back (outbox release): its entry goes too.
    await store.modifyReservation(GAME, (old) => ({ nextSeq: old.nextSeq, once: old.once.filter((n) => n !== 'final|x|france') }));
    await store.modifyReservation(GAME, (old) => ((stored = old), null));
    expect(stored.kept ?? []).toEqual([]);
    // At most KEPT_ENTRIES, the latest.
    const names = Array.from({ length: KEPT_ENTRIES + 3 }, (_, i) => `final|p${i}|france`);
    for (const name of names)
      await store.modifyReservation(GAME, (old) => ({
        nextSeq: old.nextSeq,
        once: [...old.once, name],
        kept: [...(old.kept ?? []), { name, entries: [bytes] }],
      }));
    await store.modifyReservation(GAME, (old) => ((stored = old), null));
    expect(stored.kept?.map((k) => k.name)).toEqual(names.slice(-KEPT_ENTRIES));
    store.close();
  });

  it('a stored list of the wrong shape is reported and never overwritten', async () => {
    const factory = new IDBFactory();
    const store = await openPactoStore('pacto-kept-2', factory);
    await store.modifyReservation(GAME, () => ({ nextSeq: 40, once: ['final|x|france'] }));
    const db = await openReserved(factory, 'pacto-kept-2');
    await db.put('games', { gameId: GAME, nextSeq: 40, once: ['final|x|france'], kept: [{ name: 'final|x|france', entries: ['not bytes'] }] } as never);
    await expect(store.modifyReservation(GAME, (old) => ({ nextSeq: old.nextSeq + 1, once: old.once }))).rejects.toBeInstanceOf(StoreDataError);
    const raw = (await db.get('games', GAME)) as unknown as { nextSeq: number };
    expect(raw.nextSeq).toBe(40);
    db.close();
    store.close();
  });
});

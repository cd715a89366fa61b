// A phone killed after its own entry's write and before the doc update carrying it was stored
// (issue 29: killed right after sealing) holds the entry in its entry set only: not in the doc,
// not in the relay outbox. Reopened, the game's core (openGameCore, as the app and the service
// worker open a game) puts it in the doc, and so in the relay outbox, at once: a visit of a few
// seconds must upload it, not wait for the carrier's delay.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { readLog } from '../../src/net/log-doc';
import { openGameCore } from '../../src/ui/game/core';
import { phoneOn, startedWithBea } from './crash-helpers';

const T0 = Date.UTC(2026, 10, 29, 9);
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

describe('opening a game after a kill between the entry and its update', () => {
  it('the own entry the doc lacks is carried before the game is handed over, and enters the relay outbox', async () => {
    const now = () => T0;
    // Bea's phone keeps its entries but never its doc updates (phoneOn): as if killed each time
    // between the two writes.
    const { b, db, gameId } = await startedWithBea(T0, now, (d, g) => phoneOn(d, g, d.store, now));
    await b.runner.seal('germany', []);
    await b.runner.idle();
    await b.replica.flush();
    const commit = b.runner.view.current!.ballot.heads.germany!;
    const stored = (await db.store.listEntries(gameId)).find((e) => e.id === commit);
    expect(stored, 'the commit is in the entry set').toBeDefined();
    b.runner.close();
    b.replica.destroy();
    const outboxBefore = (await db.store.outboxList(gameId)).length;

    const undo: (() => void)[] = [];
    const core = await openGameCore(db, gameId, undo, () => false);
    try {
      expect(core).not.toBeNull();
      // At once: no timer has run between the stored updates loading and this line.
      expect(readLog(core!.doc).some((e) => same(e, stored!.bytes))).toBe(true);
      await core!.replica.flush();
      await expect.poll(async () => (await db.store.outboxList(gameId)).length, { timeout: 2_000 }).toBeGreaterThan(outboxBefore);
    } finally {
      for (const u of undo.reverse()) u();
    }
  });
});

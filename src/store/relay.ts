// The relay's phone side in IndexedDB: the outbox (every update this phone made for a game, kept
// until each of the game's relays has acknowledged it) and one cursor per game per relay. An update
// of this phone enters the outbox in the transaction that stores it (appendUpdates in updates.ts),
// before it is sent to any relay, so an update made offline, or just before the app was killed, is
// uploaded on the next connection; and one the store lost with the app is published again from the
// entry set (the replica's carrier), into the outbox too.
import { checkOutbox, checkRelayCursor } from './check';
import { StoreDataError } from './errors';
import { readGame } from './records';
import type { OutboxRecord, PactoDB, RelayCursorRecord } from './schema';
import { DURABLE } from './updates';

/** Yjs's encoding of an empty update (no structs, no deletions). */
function isEmptyUpdate(u: Uint8Array): boolean {
  return u.length === 0 || (u.length === 2 && u[0] === 0 && u[1] === 0);
}

/** The game's outbox, oldest first. Throws StoreDataError (the good records as `partial`) if a record is bad. */
export async function outboxList(db: PactoDB, gameId: string): Promise<OutboxRecord[]> {
  const tx = db.transaction('outbox', 'readonly');
  const { good, bad } = await readGame('outbox', tx.store.index('byGame'), gameId, checkOutbox);
  await tx.done;
  if (bad.length > 0) throw new StoreDataError(bad, good);
  return good;
}

/**
 * `relay` has stored outbox item `seq`. The item leaves the outbox once every relay in `relays`
 * (the game's list now) has it. Relaxed durability: a lost acknowledgement costs one resend, which
 * the relay answers as a duplicate.
 */
export async function outboxAck(db: PactoDB, gameId: string, seq: number, relay: string, relays: readonly string[]): Promise<void> {
  const tx = db.transaction('outbox', 'readwrite', { durability: 'relaxed' });
  const rec = await tx.store.get([gameId, seq]);
  if (rec === undefined || checkOutbox(rec) !== null) {
    await tx.done;
    return;
  }
  const acked = rec.acked.includes(relay) ? rec.acked : [...rec.acked, relay];
  if (relays.every((r) => acked.includes(r))) await Promise.all([tx.store.delete([gameId, seq]), tx.done]);
  else await Promise.all([tx.store.put({ ...rec, acked }), tx.done]);
}

export async function getRelayCursor(db: PactoDB, gameId: string, relay: string): Promise<string | undefined> {
  const rec = await db.get('relayCursors', [gameId, relay]);
  return rec !== undefined && checkRelayCursor(rec) === null ? rec.cursor : undefined;
}

/** Relaxed durability: a lost cursor only makes the phone fetch again what it already has. */
export async function putRelayCursor(db: PactoDB, gameId: string, relay: string, cursor: string): Promise<void> {
  const tx = db.transaction('relayCursors', 'readwrite', { durability: 'relaxed' });
  await Promise.all([tx.store.put({ gameId, relay, cursor } satisfies RelayCursorRecord), tx.done]);
}

export async function listRelayCursors(db: PactoDB, gameId: string): Promise<RelayCursorRecord[]> {
  const tx = db.transaction('relayCursors', 'readonly');
  const { good } = await readGame('relayCursors', tx.store.index('byGame'), gameId, checkRelayCursor);
  await tx.done;
  return good;
}

/**
 * The first time a game uses a relay: makes the relay's cursor record and puts the game's whole
 * state (`state()`, called inside the transaction, so no update made meanwhile falls between the
 * two) in the outbox for the new relays only, so a relay added late, or a game created before the
 * phone had a relay, still reaches it. Returns the relays that were new. One strict transaction.
 * Items every relay of `relays` already has leave the outbox here: after a relay is removed from
 * the game, what only it lacked would otherwise stay for ever. Relays in `again` are begun again
 * though the game used them: they lost what they had stored (a relay restored from an older backup).
 */
export async function beginRelays(
  db: PactoDB,
  gameId: string,
  relays: readonly string[],
  state: () => Uint8Array,
  again: readonly string[] = [],
): Promise<string[]> {
  const tx = db.transaction(['outbox', 'relayCursors'], 'readwrite', DURABLE);
  const cursors = tx.objectStore('relayCursors');
  if (relays.length > 0) {
    for (let c = await tx.objectStore('outbox').index('byGame').openCursor(gameId); c !== null; c = await c.continue()) {
      const rec = c.value;
      if (checkOutbox(rec) === null && relays.every((r) => rec.acked.includes(r))) await c.delete();
    }
  }
  const known = new Set((await cursors.index('byGame').getAllKeys(gameId)).map((k) => k[1]));
  for (const relay of again) known.delete(relay);
  const fresh = [...new Set(relays)].filter((r) => !known.has(r));
  if (fresh.length === 0) {
    await tx.done;
    return [];
  }
  const update = state();
  const writes: Promise<unknown>[] = fresh.map((relay) => cursors.put({ gameId, relay, cursor: '' }));
  if (!isEmptyUpdate(update)) {
    const outbox = tx.objectStore('outbox');
    const last = await outbox.index('byGame').openKeyCursor(gameId, 'prev');
    const seq = (last === null ? 0 : last.primaryKey[1]) + 1;
    writes.push(outbox.add({ gameId, seq, update, acked: relays.filter((r) => known.has(r)) }));
  }
  await Promise.all([...writes, tx.done]);
  return fresh;
}

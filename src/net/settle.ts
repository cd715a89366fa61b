// Applying a Yjs update so that nothing it could integrate stays held back.
//
// Yjs keeps the structs whose dependencies it lacks in `store.pendingStructs`, with a `missing`
// map (client → clock: "retry once this client's clock passes this"). On each later update it
// retries them only if that update's own integration passed a clock the *old* pending set was
// missing. When the new update's leftovers and the old pending set need each other (client A's
// items wait for B's, B's for A's, each half in a different piece), nothing integrates, so Yjs
// never retries, though the merged pending set is now complete: the doc stays short of messages
// it holds, for good (a catch-up cut in pieces and applied out of order did this; see
// tests/net/split-update.test.ts). After each update we give the merged set one more pass, as
// Yjs's own retry would, as long as it makes progress.
import * as Y from 'yjs';

/** Whether re-applying the pending set may integrate something: a clock it waits for is passed,
 * or the set itself holds structs of a client it waits for (the mutual case above). */
function mayProgress(doc: Y.Doc, pending: { missing: Map<number, number>; update: Uint8Array }): boolean {
  let held: Map<number, number> | null = null;
  for (const [client, clock] of pending.missing) {
    if (clock < Y.getState(doc.store, client)) return true;
    held ??= Y.parseUpdateMetaV2(pending.update).to; // Yjs keeps the pending set in V2
    if ((held.get(client) ?? 0) > clock) return true;
  }
  return false;
}

function clockSum(doc: Y.Doc): number {
  let n = 0;
  for (const client of doc.store.clients.keys()) n += Y.getState(doc.store, client);
  return n;
}

/** Integrates what the doc's pending structs allow, with `origin` (as Yjs's own retry would,
 * inside the update that made it possible). Stops when a pass integrates nothing. */
export function settlePending(doc: Y.Doc, origin?: unknown): void {
  for (;;) {
    const pending = doc.store.pendingStructs;
    if (pending === null || !mayProgress(doc, pending)) return;
    const before = clockSum(doc);
    doc.store.pendingStructs = null;
    // What still cannot integrate goes back to pendingStructs.
    Y.applyUpdateV2(doc, pending.update, origin);
    if (clockSum(doc) === before) return;
  }
}

/** Y.applyUpdate, then settlePending. Every place that applies a peer's or the store's update
 * goes through this. */
export function applyUpdateSettled(doc: Y.Doc, update: Uint8Array, origin?: unknown): void {
  Y.applyUpdate(doc, update, origin);
  settlePending(doc, origin);
}

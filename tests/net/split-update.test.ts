// A catch-up cut into pieces under a byte budget must rebuild the same document, in any order.
import { createHash } from 'node:crypto';
import * as Y from 'yjs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendMessage, applyUpdates, applyUpdateSettled, catchUpUpdates, createGameDoc, readLog, splitUpdate, structuralGate } from '../../src/net';

function bytes(seed: number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** A fingerprint of a log: deep equality on hundreds of typed arrays is slow in vitest. */
function digest(log: readonly Uint8Array[]): string {
  const h = createHash('sha256');
  for (const m of log) h.update(`${m.length}:`).update(m);
  return `${log.length}/${h.digest('hex')}`;
}

/** Several writers appending in turns and syncing now and then: structs from many clients, whose
 * items' left neighbours are other clients' items. `ids`: the writers' Yjs client ids (random when
 * left out); Yjs orders an update's clients by id, so they decide how a catch-up is cut. */
function busyDoc(writers: number, messages: number, size: (i: number) => number, ids?: readonly number[]): Y.Doc {
  const docs = Array.from({ length: writers }, (_, w) => {
    const d = createGameDoc();
    if (ids !== undefined) d.clientID = ids[w]!;
    return d;
  });
  for (let i = 0; i < messages; i++) {
    const w = docs[i % writers]!;
    appendMessage(w, bytes(i, size(i)));
    if (i % 7 === 0) {
      const other = docs[(i + 1) % writers]!;
      Y.applyUpdate(other, Y.encodeStateAsUpdate(w, Y.encodeStateVector(other)));
    }
  }
  const all = createGameDoc();
  for (const d of docs) Y.applyUpdate(all, Y.encodeStateAsUpdate(d));
  return all;
}

describe('splitUpdate', () => {
  it('cuts a 1 MiB catch-up into pieces under 64 KiB that rebuild the same log', () => {
    const doc = busyDoc(3, 400, (i) => 1000 + (i % 5) * 1000);
    const whole = Y.encodeStateAsUpdate(doc);
    expect(whole.length).toBeGreaterThan(1024 * 1024);
    const pieces = splitUpdate(whole, 64 * 1024);
    expect(pieces.length).toBeGreaterThanOrEqual(Math.ceil(whole.length / (64 * 1024)));
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(64 * 1024);
    const copy = createGameDoc();
    for (const p of pieces) Y.applyUpdate(copy, p);
    expect(digest(readLog(copy))).toBe(digest(readLog(doc)));
    expect(Y.encodeStateVector(copy)).toEqual(Y.encodeStateVector(doc));
  });

  it('leaves an update under the budget alone', () => {
    const doc = busyDoc(2, 5, () => 100);
    const whole = Y.encodeStateAsUpdate(doc);
    expect(splitUpdate(whole, 64 * 1024)).toEqual([whole]);
  });

  it('sends only what the peer lacks, and keeps deletions', () => {
    const doc = busyDoc(2, 50, () => 3000);
    const peer = createGameDoc();
    Y.applyUpdate(peer, Y.encodeStateAsUpdate(doc));
    for (let i = 0; i < 40; i++) appendMessage(doc, bytes(1000 + i, 5000));
    doc.getArray('log').delete(0, 3); // the log is append-only, but the splitter must not lose a delete set
    const pieces = catchUpUpdates(doc, Y.encodeStateVector(peer), 20_000);
    const total = pieces.reduce((n, p) => n + p.length, 0);
    expect(total).toBeLessThan(40 * 5000 + 10_000);
    for (const p of pieces) Y.applyUpdate(peer, p);
    expect(digest(readLog(peer))).toBe(digest(readLog(doc)));
  });

  it('rebuilds the same document whatever the budget, the writers and the order of the pieces', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 300, max: 20_000 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.uniqueArray(fc.integer({ min: 1, max: 2 ** 32 - 1 }), { minLength: 4, maxLength: 4 }),
        (writers, messages, budget, shuffleSeed, ids) => {
          const doc = busyDoc(writers, messages, (i) => 1 + ((i * 37) % 900), ids);
          const pieces = splitUpdate(Y.encodeStateAsUpdate(doc), budget);
          for (const p of pieces) expect(p.length).toBeLessThanOrEqual(Math.max(budget, 1000));
          const order = pieces.map((p, i) => ({ p, k: (i * 7919 + shuffleSeed) % 1009 })).sort((a, b) => a.k - b.k);
          const copy = createGameDoc();
          for (const { p } of order) applyUpdateSettled(copy, p);
          expect(digest(readLog(copy))).toBe(digest(readLog(doc)));
          expect(copy.store.pendingStructs).toBeNull();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('pieces that need each other, arriving so that Yjs alone never retries them, still all integrate', () => {
    // Found by the property above in CI (stop 25): writers 2, 3, 1; the last piece to arrive holds
    // items that wait for the pending set, and the pending set waits for them.
    const doc = busyDoc(3, 49, (i) => 1 + ((i * 37) % 900), [2, 3, 1]);
    const pieces = splitUpdate(Y.encodeStateAsUpdate(doc), 5437);
    const order = pieces.map((p, i) => ({ p, k: (i * 7919 + 9) % 1009 })).sort((a, b) => a.k - b.k);
    const plain = createGameDoc();
    for (const { p } of order) Y.applyUpdate(plain, p);
    expect(readLog(plain).length).toBeLessThan(49); // the trap: Yjs keeps the rest pending for good
    expect(plain.store.pendingStructs).not.toBeNull();
    const settled = createGameDoc();
    const seen: unknown[] = [];
    settled.on('update', (_u: Uint8Array, origin: unknown) => seen.push(origin));
    for (const { p } of order) applyUpdateSettled(settled, p, 'peer');
    expect(digest(readLog(settled))).toBe(digest(readLog(doc)));
    expect(settled.store.pendingStructs).toBeNull();
    expect(Y.encodeStateVector(settled)).toEqual(Y.encodeStateVector(doc));
    expect(new Set(seen)).toEqual(new Set(['peer'])); // what the retry integrates carries the update's origin

    // The same pieces through the structural gate (a bare doc's receive path) and applyUpdates.
    const gated = createGameDoc();
    const gate = structuralGate(gated);
    for (const { p } of order) expect(gate.receive(p, { name: 'peer', origin: 'peer' }).clean).toBe(true);
    expect(digest(readLog(gated))).toBe(digest(readLog(doc)));
    const batched = createGameDoc();
    applyUpdates(
      batched,
      order.map(({ p }) => p),
    );
    expect(digest(readLog(batched))).toBe(digest(readLog(doc)));
  });

  it('leaves structs that really lack a dependency pending, and integrates them when it comes', () => {
    const doc = busyDoc(2, 20, () => 500, [5, 6]);
    const whole = Y.encodeStateAsUpdate(doc);
    const pieces = splitUpdate(whole, 2000);
    expect(pieces.length).toBeGreaterThan(2);
    const copy = createGameDoc();
    for (const p of pieces.slice(1)) applyUpdateSettled(copy, p);
    expect(readLog(copy).length).toBeLessThan(20);
    expect(copy.store.pendingStructs).not.toBeNull();
    applyUpdateSettled(copy, pieces[0]!);
    expect(digest(readLog(copy))).toBe(digest(readLog(doc)));
    expect(copy.store.pendingStructs).toBeNull();
  });

  it('handles merged updates with gaps (skips), as stored compactions may hold', () => {
    const doc = createGameDoc();
    const updates: Uint8Array[] = [];
    doc.on('update', (u: Uint8Array) => updates.push(u));
    for (let i = 0; i < 30; i++) appendMessage(doc, bytes(i, 700));
    const withGap = Y.mergeUpdates([...updates.slice(0, 10), ...updates.slice(20)]);
    const pieces = splitUpdate(withGap, 3000);
    expect(pieces.length).toBeGreaterThanOrEqual(5);
    const copy = createGameDoc();
    for (const p of pieces) Y.applyUpdate(copy, p);
    expect(readLog(copy)).toHaveLength(10); // the rest waits for the gap
    for (const u of updates.slice(10, 20)) Y.applyUpdate(copy, u);
    expect(digest(readLog(copy))).toBe(digest(readLog(doc)));
  });
});

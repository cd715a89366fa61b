// The strict Yjs v1 reader: what Yjs itself writes for a log of byte arrays passes, byte for byte
// the same shape; everything else a peer could send is refused with a reason, and nothing throws.
import * as Y from 'yjs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keepPrefixes, parseStateVector, parseSyncMessage, parseUpdate, syncMessage } from '../../src/net/yjs-update';

function logDoc(clientID: number): Y.Doc {
  const doc = new Y.Doc();
  doc.clientID = clientID;
  return doc;
}

const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

describe('strict Yjs update reader', () => {
  it('reads what Yjs writes: appends, inserts before, merged updates with gaps, catch-ups', () => {
    const a = logDoc(7);
    const updates: Uint8Array[] = [];
    a.on('update', (u: Uint8Array) => updates.push(u));
    a.getArray<Uint8Array>('log').push([bytes(3, 1), bytes(70_000, 2)]);
    const b = logDoc(99);
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    b.getArray<Uint8Array>('log').insert(1, [bytes(5, 3)]);
    a.getArray<Uint8Array>('log').insert(0, [bytes(2, 4)]);
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
    for (const u of [...updates, Y.encodeStateAsUpdate(a), Y.mergeUpdates([updates[0]!, updates[2]!]), Y.encodeStateAsUpdate(a, Y.encodeStateVector(b))]) {
      const p = parseUpdate(u);
      expect(p.ok, p.reason).toBe(true);
    }
    const all = parseUpdate(Y.encodeStateAsUpdate(a));
    expect(all.items.map((i) => [i.client, i.clock, i.content.length])).toEqual([
      [99, 0, 5],
      [7, 0, 3],
      [7, 1, 70_000],
      [7, 2, 2],
    ]);
  });

  it('refuses deletions, other types and roots, GC, nesting, and says why', () => {
    const a = logDoc(1);
    a.getArray<Uint8Array>('log').push([bytes(3, 1), bytes(3, 2)]);
    const before = Y.encodeStateVector(a);
    a.getArray<Uint8Array>('log').delete(0, 1);
    expect(parseUpdate(Y.encodeStateAsUpdate(a, before)).reason).toBe('deletes');
    expect(parseUpdate(Y.encodeStateAsUpdate(a)).reason).toBe('deleted-content');
    const cases: [string, (d: Y.Doc) => void][] = [
      ['content-not-binary', (d) => d.getArray('log').push(['text'])],
      ['content-not-binary', (d) => d.getMap('log').set('k', 1)],
      ['other-root-type', (d) => d.getArray('other').push([bytes(1, 1)])],
      ['content-not-binary', (d) => d.getArray('log').push([new Y.Array()])],
      ['content-not-binary', (d) => d.getText('log').insert(0, 'x')],
    ];
    for (const [reason, make] of cases) {
      const d = logDoc(5);
      make(d);
      expect(parseUpdate(Y.encodeStateAsUpdate(d)).reason).toBe(reason);
    }
    // Binary items read from a refused update are still listed: their bytes may be valid entries.
    const mixed = logDoc(6);
    mixed.getArray<Uint8Array>('log').push([bytes(4, 9)]);
    mixed.getArray('other').push([bytes(4, 8)]);
    const p = parseUpdate(Y.encodeStateAsUpdate(mixed));
    expect(p.ok).toBe(false);
    expect(p.items.map((i) => i.content[0])).toContain(9);
  });

  it('refuses a same-client origin at or after the item (Yjs would throw), a client twice, trailing bytes', () => {
    // One item of client 3 at clock 0 whose origin is (3, 5): Yjs looks it up before it exists.
    const forward = Uint8Array.of(1, 1, 3, 0, 0x83, 3, 5, 1, 9);
    expect(parseUpdate(forward).reason).toBe('origin-not-before-item');
    expect(() => Y.applyUpdate(new Y.Doc(), Uint8Array.of(1, 2, 3, 0, 3, 1, 3, 108, 111, 103, 1, 9, 0x83, 3, 5, 1, 8, 0))).toThrow();
    expect(parseUpdate(Uint8Array.of(1, 2, 3, 0, 3, 1, 3, 108, 111, 103, 1, 9, 0x83, 3, 5, 1, 8, 0)).reason).toBe('origin-not-before-item');
    const one = [1, 3, 0, 3, 1, 3, 108, 111, 103, 1, 9];
    expect(parseUpdate(Uint8Array.of(1, ...one, 0)).ok).toBe(true);
    expect(parseUpdate(Uint8Array.of(2, ...one, ...one, 0)).reason).toBe('client-twice');
    expect(parseUpdate(Uint8Array.of(1, ...one, 0, 0)).reason).toBe('trailing-bytes');
    expect(parseUpdate(Uint8Array.of(1, 1, 0x83, 0x00, 0, 3, 1, 3, 108, 111, 103, 1, 9, 0)).reason).toBe('malformed'); // non-minimal varuint
  });

  it('never throws, whatever the bytes, and refuses what Yjs cannot apply', () => {
    const a = logDoc(11);
    a.getArray<Uint8Array>('log').push([bytes(40, 1), bytes(20, 2), bytes(10, 3)]);
    const honest = Y.encodeStateAsUpdate(a);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(honest.length + 4), fc.nat(255)), { maxLength: 6 }), fc.nat(honest.length), (flips, cut) => {
        const m = honest.slice(0, Math.max(1, cut + 5));
        for (const [at, v] of flips) if (at < m.length) m[at] = v;
        const p = parseUpdate(m);
        if (p.ok) {
          // What passes is something Yjs applies without throwing.
          const d = new Y.Doc();
          expect(() => Y.applyUpdate(d, m)).not.toThrow();
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps a clean prefix of each client run, byte for byte', () => {
    const a = logDoc(21);
    a.getArray<Uint8Array>('log').push([bytes(3, 1), bytes(3, 2), bytes(3, 3)]);
    const u = Y.encodeStateAsUpdate(a);
    const p = parseUpdate(u);
    const prefix = keepPrefixes(u, p, new Map([[21, 2]]));
    expect(parseUpdate(prefix).ok).toBe(true);
    const d = new Y.Doc();
    Y.applyUpdate(d, prefix);
    expect(
      d
        .getArray<Uint8Array>('log')
        .toArray()
        .map((x) => x[0]),
    ).toEqual([1, 2]);
  });

  it('reads state vectors and sync frames strictly', () => {
    const a = logDoc(4);
    a.getArray<Uint8Array>('log').push([bytes(1, 1)]);
    expect(parseStateVector(Y.encodeStateVector(a))).toEqual(new Map([[4, 1]]));
    expect(parseStateVector(Uint8Array.of(2, 4, 1, 4, 2))).toBeNull();
    expect(parseStateVector(Uint8Array.of(1, 4))).toBeNull();
    const m = syncMessage(2, Y.encodeStateAsUpdate(a));
    expect(parseSyncMessage(m)?.syncType).toBe(2);
    expect(parseSyncMessage(Uint8Array.of(...m, 0))).toBeNull();
  });
});

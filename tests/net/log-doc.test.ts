// The log in a Y.Doc: opaque bytes, appended and observed, the same order on every peer.
import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES } from '../../src/protocol';
import { appendMessage, appendMessages, applyUpdates, catchUpUpdates, createGameDoc, LogError, onLog, readLog } from '../../src/net';

const m = (...b: number[]): Uint8Array => new Uint8Array(b);

describe('game log doc', () => {
  it('appends copies and reads them back in order', () => {
    const doc = createGameDoc();
    const buf = m(1, 2, 3);
    appendMessage(doc, buf);
    buf[0] = 9;
    appendMessages(doc, [m(4), m(5, 6)]);
    expect(readLog(doc)).toEqual([m(1, 2, 3), m(4), m(5, 6)]);
  });

  it('refuses empty, oversized and non-byte messages', () => {
    const doc = createGameDoc();
    expect(() => appendMessage(doc, m())).toThrow(LogError);
    expect(() => appendMessage(doc, new Uint8Array(MAX_MESSAGE_BYTES + 1))).toThrow(LogError);
    expect(() => appendMessage(doc, 'text' as unknown as Uint8Array)).toThrow(LogError);
    expect(() => appendMessages(doc, [m(1), m()])).toThrow(LogError);
    expect(readLog(doc)).toEqual([]); // nothing of a refused batch lands
    appendMessage(doc, new Uint8Array(MAX_MESSAGE_BYTES));
    expect(readLog(doc)).toHaveLength(1);
  });

  it('tells listeners what each transaction added, local or remote, until unsubscribed', () => {
    const a = createGameDoc();
    const b = createGameDoc();
    const seen: [number[][], unknown][] = [];
    const off = onLog(b, (added, origin) => seen.push([added.map((x) => [...x]), origin]));
    appendMessages(a, [m(1), m(2)]);
    applyUpdates(b, catchUpUpdates(a, Y.encodeStateVector(b)), 'peer');
    appendMessage(b, m(3));
    off();
    appendMessage(b, m(4));
    expect(seen).toEqual([
      [[[1], [2]], 'peer'],
      [[[3]], null],
    ]);
  });

  it('orders concurrent appends the same way on every peer', () => {
    const docs = [createGameDoc(), createGameDoc(), createGameDoc()];
    docs.forEach((d, i) => appendMessages(d, [m(i, 0), m(i, 1)]));
    const updates = docs.map((d) => Y.encodeStateAsUpdate(d));
    for (const [i, d] of docs.entries()) for (const [j, u] of updates.entries()) if (i !== j) Y.applyUpdate(d, u);
    const logs = docs.map((d) => readLog(d).map((x) => [...x].join('.')));
    expect(logs[0]).toHaveLength(6);
    expect(logs[1]).toEqual(logs[0]);
    expect(logs[2]).toEqual(logs[0]);
  });
});

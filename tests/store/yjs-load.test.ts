// The store loads Yjs on first use (src/store/yjs.ts): a record checked before Yjs has loaded is a
// bug in the caller, and must throw as one, never be reported as a corrupt record (a corrupt
// record is kept aside as evidence and blocks compaction).
import { describe, expect, it } from 'vitest';
import { checkUpdate } from '../../src/store/check';
import { loadYjs } from '../../src/store/yjs';

const record = { gameId: 'g', seq: 0, update: new Uint8Array([1, 2, 3]), merged: 1 };

describe('checkUpdate and the lazily loaded Yjs', () => {
  it('throws before loadYjs() and reads the bytes after it', async () => {
    expect(() => checkUpdate(record)).toThrow(/before loadYjs/);
    await loadYjs();
    expect(checkUpdate(record)).toMatch(/^update bytes do not decode/);
  });
});

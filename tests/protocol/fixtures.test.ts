// Logs recorded by an older Pacto (tests/fixtures/v*.json, written by tests/fixtures/record.ts when
// that version was current) still reduce to the state they had: every entry is read from its own
// bytes (never re-encoded), admitted as a phone admits it, and the game reaches the same phases,
// state hashes and played commits.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  Admission,
  COMPACT_VERSION,
  gameMessages,
  hashHex,
  namesAuthorByPlace,
  openMessage,
  parseEntry,
  READABLE_VERSIONS,
  reduceLog,
  SIGNATURE_BYTES,
  startKeys,
  type WireContext,
} from '../../src/protocol';
import { entriesOf, factsOf, type Fixture } from '../fixtures/fixture';

const dir = new URL('../fixtures/', import.meta.url);
const files = readdirSync(dir)
  .filter((f) => /^v\d+-.*\.json$/.test(f))
  .sort();
const load = (f: string) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Fixture;

/** The game and its STARTs' key lists, which compact entries (version 6 on) are read with. */
function contextOf(gameId: string, log: readonly Uint8Array[]): WireContext {
  const keyLists: string[][] = [];
  for (const bytes of log) {
    const p = parseEntry(bytes, { game: gameId, keyLists: [] });
    if (p.ok && p.entry.payload.type === 'start') keyLists.push(startKeys(p.entry.payload));
  }
  return { game: gameId, keyLists };
}

describe('recorded logs of earlier protocol versions', () => {
  it('are there: the three games of each protocol version read, 2 (JSON), 3 (binary), 4 (REVEALs list their LOCK ids), 5 (the START pins escrow keys, derived escrow, the ACK in the LOCK), 6 (the compact wire form) and 7 (version 6 bytes, the clock of issue 31)', () => {
    for (const v of READABLE_VERSIONS) expect(files.filter((f) => f.startsWith(`v${v}-`)).length, `v${v}`).toBeGreaterThanOrEqual(3);
  });

  it('each file holds entries of its own version only, so each version’s reading is what is tested', () => {
    for (const file of files) {
      const version = Number(/^v(\d+)-/.exec(file)![1]);
      const f = load(file);
      const ctx = contextOf(f.gameId, entriesOf(f));
      for (const bytes of entriesOf(f)) {
        const parsed = parseEntry(bytes, ctx);
        expect(parsed.ok && parsed.entry.payload.v).toBe(version);
      }
    }
  });

  for (const file of files) {
    it(`${file} reduces to its recorded state`, () => {
      const f = load(file);
      const log = entriesOf(f);
      const v = reduceLog(f.gameId, log);
      const { gameId: _g, entries: _e, about: _a, ...recorded } = f;
      expect(factsOf(v)).toEqual(recorded);
      expect(recorded.phases.length).toBeGreaterThan(0);
    });

    it(`${file}: every entry opens under the id of its own bytes, and a phone admits them all`, () => {
      const f = load(file);
      const log = entriesOf(f);
      const ctx = contextOf(f.gameId, log);
      for (const bytes of log) {
        const opened = openMessage(bytes, undefined, ctx);
        expect(opened.ok).toBe(true);
        // A compact entry (version 6) is named by its signed bytes, which the reader rebuilt.
        if (opened.ok && !namesAuthorByPlace(bytes.subarray(SIGNATURE_BYTES))) expect(opened.message.id).toBe(hashHex(bytes.subarray(SIGNATURE_BYTES)));
      }
      if (Number(/^v(\d+)-/.exec(file)![1]) >= COMPACT_VERSION)
        expect(
          log.some((b) => namesAuthorByPlace(b.subarray(SIGNATURE_BYTES))),
          'a version 6 or 7 log carries compact entries',
        ).toBe(true);
      expect(gameMessages(f.gameId, log).size).toBe(log.length);
      const admission = new Admission(f.gameId);
      for (const bytes of log) expect(['admitted', 'duplicate']).toContain(admission.offer(bytes).kind);
      const kept = admission.entries();
      expect(kept.length).toBe(log.length);
      const { gameId: _g, entries: _e, about: _a, ...recorded } = f;
      expect(factsOf(reduceLog(f.gameId, kept))).toEqual(recorded);
    });
  }
});

// Why lobby.ts checkPins checks only each pin (a point, named by its key's JOINs): a version 5
// START without pins, or with other than one pin per key it names, has no bytes at all (the
// encoder refuses to write it) and bytes claiming it do not decode or fail the shape check, so no
// such START reaches the lobby. Each case passes when that holds; escrow-pin.test.ts has the
// wire-level cases (binary-start-escrow-not-one-per-key).
import { describe, expect, it } from 'vitest';
import { checkPayload, encodePayload, type Payload } from '../../src/protocol';
import { payloadOf, startedGame } from './helpers';

describe('a version 5 START names one pin per key, or is no START', () => {
  const g = startedGame(88);
  const honest = payloadOf(g.log.find((b) => payloadOf(b).type === 'start')!);
  const pins = honest.escrow as Record<string, string>;
  const keys = Object.keys(pins);
  const [first, ...rest] = keys;
  const cases: [string, Record<string, string> | undefined][] = [
    ['no pins', undefined],
    ['one pin short', Object.fromEntries(rest.map((k) => [k, pins[k]!]))],
    ['a pin for a key it does not name', { ...pins, ['ab'.repeat(32)]: pins[first!]! }],
    ['a named key unpinned, another pinned', { ...Object.fromEntries(rest.map((k) => [k, pins[k]!])), ['cd'.repeat(32)]: pins[first!]! }],
  ];
  for (const [what, escrow] of cases) {
    it(`${what}: no bytes, and refused by the shape check or the encoder`, () => {
      const p = { ...honest, escrow } as unknown as Payload;
      expect(() => encodePayload(p)).toThrow();
      const shape = checkPayload(JSON.parse(JSON.stringify(p)));
      if (escrow === undefined) expect(shape).toMatchObject({ ok: false, reason: 'missing-escrow-keys' });
    });
  }
});

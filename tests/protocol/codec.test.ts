// The binary payload encoding (protocols 3 and 4, src/protocol/codec.ts): every kind of payload the
// protocol writes survives it unchanged, one payload has one byte form, and malformed bytes from
// a peer give a reason, never a throw.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BINARY_VERSION,
  BINARY_VERSIONS,
  canonicalEncode,
  CodecError,
  decodeBody,
  decodePayload,
  encodePayload,
  hashHex,
  openMessage,
  parseEntry,
  PROTOCOL_VERSION,
  READABLE_VERSIONS,
  signMessage,
  signPayloadBytes,
  type Payload,
} from '../../src/protocol';
import { entriesOf, type Fixture } from '../fixtures/fixture';
import { identity, playPhase, randomPhaseOrders, rng, startedGame, T0, view } from './helpers';

const dir = new URL('../fixtures/', import.meta.url);
const v2Payloads: Payload[] = readdirSync(dir)
  .filter((f) => /^v2-.*\.json$/.test(f))
  .flatMap((f) => entriesOf(JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Fixture))
  .map((bytes) => {
    const p = parseEntry(bytes);
    if (!p.ok) throw new Error(p.reason);
    return p.entry.payload;
  });

const base = { v: 3, game: 'ab'.repeat(16), from: identity(1).id, seq: 1, time: 1, phase: '1901-spring-movement' };
const ack = (over: Record<string, unknown> = {}): Payload => ({ ...base, type: 'ack', hash: 'cd'.repeat(16), ...over }) as Payload;
const of = (fields: Record<string, unknown>): Payload => ({ ...base, ...fields }) as unknown as Payload;

describe('the binary payload encoding', () => {
  it('new entries are written in version 7; versions 2, 3, 4, 5, 6 and 7 are read', () => {
    expect(PROTOCOL_VERSION).toBe(7);
    expect(BINARY_VERSIONS).toEqual([BINARY_VERSION, 4, 5, 6, PROTOCOL_VERSION]);
    expect(READABLE_VERSIONS).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('carries every payload of the recorded games unchanged, in far fewer bytes', () => {
    const types = new Set<string>();
    let json = 0;
    let binary = 0;
    for (const p of v2Payloads) {
      const v3 = { ...p, v: BINARY_VERSION } as Payload;
      const bytes = encodePayload(v3);
      expect(decodePayload(bytes)).toEqual({ ok: true, value: v3 });
      types.add(p.type);
      json += canonicalEncode(p).length;
      binary += bytes.length;
    }
    expect([...types].sort()).toEqual(['ack', 'alliance', 'chat', 'commit', 'concede', 'create', 'final', 'join', 'lock', 'lot-commit', 'reveal', 'start']);
    expect(binary).toBeLessThan(json * 0.75);
  });

  it('carries the kinds the recorded games lack: timeout, clock, handover, complaints, key slots', () => {
    const game = startedGame(4);
    const key = identity(2).id;
    const more: Payload[] = [
      of({ type: 'timeout', phase: 'lot', slots: ['france', key] }),
      of({ type: 'clock', phase: '1902-fall-retreat', stage: 'reveal' }),
      of({ type: 'handover', phase: '1903-winter-adjustment', power: 'italy', to: key, start: 'ef'.repeat(16) }),
      of({
        type: 'lock',
        phase: 'lot',
        finals: { [key]: '01'.repeat(16) },
        heads: { turkey: '02'.repeat(16) },
        complaints: [{ commit: '03'.repeat(16), k: 'A'.repeat(43), proof: 'B'.repeat(85) + 'A' }],
      }),
      ack({ phase: 'start', game: game.gameId }),
      { ...of({ type: 'start', roster: null, participants: [key] }), phase: undefined } as unknown as Payload,
    ];
    for (const p of more) expect(decodePayload(encodePayload(p))).toEqual({ ok: true, value: p });
  });

  it('refuses to write what has no single binary form', () => {
    expect(() => encodePayload(ack({ phase: '01901-spring-movement' }))).toThrow(CodecError);
    expect(() => encodePayload(ack({ hash: 'CD'.repeat(16) }))).toThrow(CodecError);
    expect(() => encodePayload(ack({ extra: 1 }))).toThrow(CodecError);
    expect(() => encodePayload(ack({ v: 2 }))).toThrow(CodecError);
    const join = { type: 'join', phase: undefined, name: 'x', box: '00'.repeat(32), escrow: 'A'.repeat(43), power: null };
    expect(encodePayload(of(join)).length).toBeGreaterThan(0);
    expect(() => encodePayload(of({ ...join, name: 'a\ud800' }))).toThrow(CodecError);
    // Base64 with non-zero unused bits is another text for the same bytes: not written.
    expect(() => encodePayload(of({ ...join, escrow: 'A'.repeat(42) + 'B' }))).toThrow(CodecError);
    const lot = { type: 'lot-commit', phase: undefined, sealed: 'AAAA', hash: hashHex(new Uint8Array(3)), escrow: { c: [], e: null, s: [] } };
    expect(encodePayload(of(lot)).length).toBeGreaterThan(0);
    expect(() => encodePayload(of({ ...lot, hash: '00'.repeat(16) }))).toThrow(CodecError);
  });

  it('reads only the one byte form: no padded varint, unsorted record, stray byte or second JSON spelling', () => {
    const good = encodePayload(ack({ seq: 5 }));
    expect(decodePayload(good).ok).toBe(true);
    // seq sits after version, type, game and author: 1 + 1 + 16 + 32 bytes.
    expect(good[50]).toBe(5);
    const padded = new Uint8Array([...good.subarray(0, 50), 0x85, 0x00, ...good.subarray(51)]);
    expect(decodePayload(padded)).toEqual({ ok: false, reason: 'not-canonical' });
    expect(decodePayload(new Uint8Array([...good, 0]))).toEqual({ ok: false, reason: 'binary-trailing-bytes' });
    const lock = encodePayload(of({ type: 'lock', finals: { austria: '01'.repeat(16), england: '02'.repeat(16) }, heads: {}, complaints: [] }));
    // header 52 bytes (seq 1, time 1), phase 3 bytes, count 1, then two entries of 17 bytes.
    expect(lock[55]).toBe(2);
    const swapped = new Uint8Array([...lock.subarray(0, 56), ...lock.subarray(73, 90), ...lock.subarray(56, 73), ...lock.subarray(90)]);
    expect(decodePayload(swapped).ok).toBe(false);
    const boolTwo = encodePayload(of({ type: 'alliance', power: 'austria', powers: ['austria', 'italy'], yes: true }));
    expect(boolTwo.at(-1)).toBe(1);
    boolTwo[boolTwo.length - 1] = 2;
    expect(decodePayload(boolTwo).ok).toBe(false);
    // A JSON payload is version 2 only; binary bytes claiming version 2 are not version 2.
    expect(decodeBody(canonicalEncode(ack()))).toEqual({ ok: false, reason: 'unknown-protocol-version' });
    expect(decodeBody(canonicalEncode(ack({ v: 2 }))).ok).toBe(true);
    expect(decodePayload(new Uint8Array([2, ...good.subarray(1)]))).toEqual({ ok: false, reason: 'unknown-protocol-version' });
  });

  it('one byte form: a second spelling of a well-formed payload is refused as not-canonical (the re-encoding check)', () => {
    // Each spelling below reads field by field to the very payload of `good`; only the check that
    // encoding the value gives the bytes back refuses it. Without that check they would be
    // second ids for one message.
    for (const v of BINARY_VERSIONS) {
      const good = encodePayload(ack({ v, seq: 5, time: 1 }));
      const value = decodePayload(good);
      expect(value).toEqual({ ok: true, value: ack({ v, seq: 5, time: 1 }) });
      // seq (offset 50) and time (51) padded with a continuation byte; the phase's year likewise.
      const seqPadded = new Uint8Array([...good.subarray(0, 50), 0x85, 0x00, ...good.subarray(51)]);
      const timePadded = new Uint8Array([...good.subarray(0, 51), 0x81, 0x80, 0x00, ...good.subarray(52)]);
      // phase: tag at 52, then the year 1901 as a two-byte varint (0xed 0x0e); pad it to three.
      expect([...good.subarray(53, 55)]).toEqual([0xed, 0x0e]);
      const yearPadded = new Uint8Array([...good.subarray(0, 53), 0xed, 0x8e, 0x00, ...good.subarray(55)]);
      // The version itself padded: 0x83 0x00 is 3 (or 0x84 0x00 is 4) in two bytes.
      const versionPadded = new Uint8Array([0x80 | v, 0x00, ...good.subarray(1)]);
      for (const bad of [seqPadded, timePadded, yearPadded, versionPadded]) {
        expect(decodePayload(bad)).toEqual({ ok: false, reason: 'not-canonical' });
        expect(decodeBody(bad)).toEqual({ ok: false, reason: 'not-canonical' });
        const entry = signPayloadBytes(identity(1), bad);
        expect(parseEntry(entry)).toMatchObject({ ok: false, reason: 'not-canonical' });
        expect(openMessage(entry).ok).toBe(false);
      }
    }
  });

  it('a peer’s malformed bytes give a reason and never throw: every truncation and every byte changed of real entries', () => {
    const game = startedGame(8);
    const r = rng(8);
    playPhase(game, randomPhaseOrders(view(game), r.int), T0 + 100);
    const me = identity(0);
    const samples = [game.log[0]!, game.log[1]!, ...game.log.slice(-30)];
    let cases = 0;
    let stillParsed = 0;
    for (const entry of samples) {
      const body = entry.subarray(64);
      for (let n = 0; n < body.length; n += Math.max(1, Math.floor(body.length / 47))) {
        const cut = body.subarray(0, n);
        expect(decodeBody(cut).ok).toBe(false);
        expect(parseEntry(new Uint8Array([...entry.subarray(0, 64), ...cut])).ok).toBe(false);
        cases++;
      }
      for (let k = 0; k < body.length; k += Math.max(1, Math.floor(body.length / 31))) {
        for (const flip of [1, 0x80, 0xff]) {
          const changed = body.slice();
          changed[k]! ^= flip;
          const bytes = new Uint8Array([...entry.subarray(0, 64), ...changed]);
          const parsed = parseEntry(bytes);
          if (parsed.ok) {
            // Still a well-formed payload: then it is exactly those bytes' one form, under their own id.
            expect(encodePayload(parsed.entry.payload)).toEqual(changed);
            expect(parsed.entry.id).toBe(hashHex(changed));
            // The signature check costs milliseconds: a sample of them.
            if (stillParsed++ % 100 === 0) expect(openMessage(bytes).ok).toBe(false);
          }
          cases++;
        }
      }
    }
    expect(cases).toBeGreaterThan(1500);
    // Signed by their author, truncated payloads still open to nothing.
    for (const entry of samples.slice(0, 4)) expect(openMessage(signPayloadBytes(me, entry.subarray(64, entry.length - 3))).ok).toBe(false);
  });

  it('the id is the hash of the payload bytes carried, in both encodings', () => {
    const me = identity(5);
    const v3 = signMessage(me, { type: 'ack', game: 'ab'.repeat(16), seq: 1, time: T0, phase: 'start', hash: 'cd'.repeat(16) });
    const v2 = signPayloadBytes(
      me,
      canonicalEncode({ v: 2, type: 'ack', game: 'ab'.repeat(16), from: me.id, seq: 1, time: T0, phase: 'start', hash: 'cd'.repeat(16) }),
    );
    for (const bytes of [v2, v3]) {
      const opened = openMessage(bytes);
      expect(opened.ok).toBe(true);
      if (opened.ok) expect(opened.message.id).toBe(hashHex(bytes.subarray(64)));
    }
    expect(v3.length).toBeLessThan(v2.length / 2);
  });
});

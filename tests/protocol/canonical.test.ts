import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CanonicalError, canonicalDecode, canonicalEncode, canonicalText, fromBase64, toBase64 } from '../../src/protocol';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('canonical encoding', () => {
  it('sorts keys at every depth and drops undefined fields', () => {
    expect(canonicalText({ b: 1, a: { d: [1, { z: true, y: null }], c: 'x' }, u: undefined })).toBe('{"a":{"c":"x","d":[1,{"y":null,"z":true}]},"b":1}');
  });

  it('refuses floats, NaN, infinities, unsafe integers, undefined in arrays and class instances', () => {
    for (const bad of [1.5, NaN, Infinity, 2 ** 60, [undefined], new Date(0), new Uint8Array(2), () => 1]) {
      expect(() => canonicalEncode({ x: bad })).toThrow(CanonicalError);
    }
  });

  it('decodes only the exact canonical bytes', () => {
    expect(canonicalDecode(utf8('{"a":1,"b":[2]}'))).toEqual({ ok: true, value: { a: 1, b: [2] } });
    for (const text of ['{"b":1,"a":2}', '{"a": 1}', '{"a":1.0}', '{"a":1e3}', '{"a":"\\u0041"}', ' {}', '{"a":1', '[1.5]']) {
      expect(canonicalDecode(utf8(text)).ok, text).toBe(false);
    }
    expect(canonicalDecode(new Uint8Array([0xff, 0xfe]))).toEqual({ ok: false, reason: 'not-utf8' });
  });

  it('round-trips any JSON value made of integers, strings, booleans and nulls', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        fc.constant(null),
        fc.boolean(),
        fc.maxSafeInteger(),
        fc.string(),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (v) => {
        const bytes = canonicalEncode(v);
        const back = canonicalDecode(bytes);
        expect(back.ok).toBe(true);
        if (back.ok) expect(canonicalEncode(back.value)).toEqual(bytes);
      }),
    );
  });

  it('base64url is strict and round-trips', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), (b) => {
        expect(fromBase64(toBase64(b))).toEqual(b);
      }),
    );
    expect(fromBase64('AQ')).toEqual(new Uint8Array([1]));
    expect(fromBase64('AR')).toBeNull(); // non-zero padding bits: a second spelling of the same byte
    expect(fromBase64('A+==')).toBeNull();
  });
});

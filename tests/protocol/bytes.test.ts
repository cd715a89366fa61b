// Hex, as ids and keys are written (bytes.ts): one byte string has exactly one text form.
import { describe, expect, it } from 'vitest';
import { fromHex, toHex } from '../../src/protocol';

describe('hex', () => {
  it('writes every byte as two lower-case digits and reads them back', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const text = toHex(all);
    expect(text).toHaveLength(512);
    expect(text.slice(0, 6)).toBe('000102');
    expect(text.slice(-4)).toBe('feff');
    expect(text).toMatch(/^[0-9a-f]+$/);
    expect(fromHex(text)).toEqual(all);
    expect(fromHex('')).toEqual(new Uint8Array(0));
  });

  it('refuses any other spelling: upper case, odd length, other characters', () => {
    for (const bad of ['A0', '0A', 'ff0', 'g0', '0g', ' 00', '0x', '-1', 'é0', '0\u0660', '00\u{1F600}']) expect(fromHex(bad), bad).toBeNull();
    expect(fromHex('a0ff')).toEqual(Uint8Array.of(0xa0, 0xff));
  });
});

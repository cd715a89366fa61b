// Signing: the protocol's signEd25519 keeps each key's expansion, and must still give exactly the
// bytes of RFC 8032 (tweetnacl's sign.detached, an independent implementation) for every key and
// message, whichever keys were used before.
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import { checkSignature, signEd25519 } from '../../src/protocol/ed25519';
import { createIdentity, signPayloadBytes } from '../../src/protocol';
import { prng } from '../../src/util/prng';

function bytes(next: () => number, n: number): Uint8Array {
  return Uint8Array.from({ length: n }, () => Math.floor(next() * 256));
}

describe('signEd25519', () => {
  it('gives tweetnacl sign.detached bytes for many keys and message lengths, keys interleaved', () => {
    const next = prng(20261127);
    const keys = Array.from({ length: 12 }, () => nacl.sign.keyPair.fromSeed(bytes(next, 32)));
    let checked = 0;
    for (let i = 0; i < 240; i++) {
      // Keys in a mixed order, so a kept expansion of one key is never used for another.
      const key = keys[(i * 7 + Math.floor(next() * 5)) % keys.length]!;
      const message = bytes(next, [0, 1, 31, 32, 33, 64, 127, 1000][i % 8]!);
      const mine = signEd25519(message, key.secretKey);
      expect(mine).toEqual(nacl.sign.detached(message, key.secretKey));
      expect(checkSignature(message, mine, key.publicKey)).toBe(true);
      checked++;
    }
    expect(checked).toBe(240);
  });

  it('a key array changed in place is expanded again (the kept expansion is per array, checked)', () => {
    const next = prng(7);
    const a = nacl.sign.keyPair.fromSeed(bytes(next, 32));
    const b = nacl.sign.keyPair.fromSeed(bytes(next, 32));
    const holder = a.secretKey.slice();
    const m = bytes(next, 40);
    expect(signEd25519(m, holder)).toEqual(nacl.sign.detached(m, a.secretKey));
    holder.set(b.secretKey);
    expect(signEd25519(m, holder)).toEqual(nacl.sign.detached(m, b.secretKey));
  });

  it('refuses a secret key of the wrong length', () => {
    expect(() => signEd25519(new Uint8Array(3), new Uint8Array(32))).toThrow(/64 bytes/);
  });

  it('signPayloadBytes is signature ‖ payload with the identity key', () => {
    const next = prng(11);
    const me = createIdentity(bytes(next, 32), bytes(next, 32));
    const payload = bytes(next, 77);
    const entry = signPayloadBytes(me, payload);
    expect(entry.subarray(64)).toEqual(payload);
    expect(entry.subarray(0, 64)).toEqual(nacl.sign.detached(payload, me.signSecretKey));
  });
});

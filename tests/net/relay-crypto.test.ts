// The relay's pure parts: what a phone derives from the invite (and what the relay can and cannot
// learn from it), sealed blobs, and the checking of frames. Nothing here may throw on bad input.
import fc from 'fast-check';
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import { toBase64, toHex } from '../../src/protocol';
import { BLOB_OVERHEAD, openBlob, paddedLength, sealBlob, sealedLength } from '../../src/net/relay/blob';
import { appendIdFor, relayKeysFor, roomIdForToken } from '../../src/net/relay/keys';
import { compareCursors, parseClientFrame, parseServerFrame } from '../../src/net/relay/protocol';
import { roomNameFor } from '../../src/net/room';

const GAME = 'relay-game-000001';
const PASSWORD = 'Zm9vYmFyYmF6cXV4LXh5';

describe('relay keys', () => {
  it('derive a key, a token and a room that differ from each other and from the signaling room', () => {
    const k = relayKeysFor(GAME, PASSWORD);
    expect(k.key).toHaveLength(32);
    expect(k.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(k.room).toMatch(/^[0-9a-f]{64}$/);
    expect(toBase64(k.key)).not.toBe(k.token);
    expect(k.room).not.toContain(toHex(k.key).slice(0, 16));
    expect(roomNameFor(GAME, PASSWORD)).not.toContain(k.room.slice(0, 32));
    // The same invite gives the same values on every phone.
    expect(relayKeysFor(GAME, PASSWORD)).toEqual(k);
  });

  it('the relay checks a token against a room by hashing it; any other token fails', () => {
    const k = relayKeysFor(GAME, PASSWORD);
    expect(roomIdForToken(k.token)).toBe(k.room);
    const other = relayKeysFor(GAME, `${PASSWORD}x`);
    expect(roomIdForToken(other.token)).not.toBe(k.room);
    expect(relayKeysFor(`${GAME}x`, PASSWORD).room).not.toBe(k.room);
  });

  it('the token alone does not give the key: the key is not any simple function of the token', () => {
    const k = relayKeysFor(GAME, PASSWORD);
    const tokenBytes = new Uint8Array(Buffer.from(k.token, 'base64url'));
    for (const guess of [tokenBytes, nacl.hash(tokenBytes).slice(0, 32), nacl.hash(new TextEncoder().encode(k.token)).slice(0, 32)]) {
      expect(toHex(guess)).not.toBe(toHex(k.key));
    }
    // A sealed blob does not open under anything the relay holds.
    const blob = sealBlob(k.key, new TextEncoder().encode('orders'));
    expect(openBlob(tokenBytes, blob).ok).toBe(false);
  });

  it('refuses inputs that could blur the domain separation', () => {
    expect(() => relayKeysFor('a\nb', PASSWORD)).toThrow();
    expect(() => relayKeysFor('', PASSWORD)).toThrow();
  });

  it('append ids are the same for the same update and key, and differ otherwise', () => {
    const { key } = relayKeysFor(GAME, PASSWORD);
    const u = new Uint8Array([1, 2, 3]);
    expect(appendIdFor(key, u)).toBe(appendIdFor(key, new Uint8Array([1, 2, 3])));
    expect(appendIdFor(key, u)).not.toBe(appendIdFor(key, new Uint8Array([1, 2, 4])));
    expect(appendIdFor(relayKeysFor(GAME, `${PASSWORD}y`).key, u)).not.toBe(appendIdFor(key, u));
    expect(appendIdFor(key, u)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

describe('sealed blobs', () => {
  const { key } = relayKeysFor(GAME, PASSWORD);

  it('round-trip any update, with a fresh nonce each time', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), (update) => {
        const a = sealBlob(key, update);
        const b = sealBlob(key, update);
        expect(toHex(a)).not.toBe(toHex(b));
        const opened = openBlob(key, a);
        expect(opened.ok && toHex(opened.update)).toBe(toHex(update));
        expect(a.length).toBe(sealedLength(update.length));
      }),
      { numRuns: 200 },
    );
  });

  it('pad sizes to few buckets: at most 12% over, never under 256 bytes', () => {
    expect(paddedLength(1)).toBe(256);
    expect(paddedLength(256)).toBe(256);
    const sizes = new Set<number>();
    for (let n = 1; n <= 4096; n++) {
      const p = paddedLength(n);
      expect(p).toBeGreaterThanOrEqual(n);
      expect(p).toBeLessThanOrEqual(Math.max(256, n * 1.125));
      sizes.add(p);
    }
    expect(sizes.size).toBeLessThan(100); // 4,096 lengths fall into fewer than 100 sizes
    // Commits and reveals (700-900 B in the benchmarks) fall into a dozen sizes, not 200.
    expect(new Set(Array.from({ length: 201 }, (_, i) => sealedLength(700 + i))).size).toBeLessThanOrEqual(12);
    expect(BLOB_OVERHEAD).toBe(41);
  });

  it('a blob that does not open says why, and nothing that arrives throws', () => {
    const good = sealBlob(key, new Uint8Array([9, 9, 9]));
    const flipped = good.slice();
    flipped[60] = flipped[60]! ^ 1;
    expect(openBlob(key, flipped)).toEqual({ ok: false, problem: 'does-not-open' });
    expect(openBlob(key, new Uint8Array(10))).toEqual({ ok: false, problem: 'too-short' });
    const v2 = good.slice();
    v2[0] = 2;
    expect(openBlob(key, v2)).toEqual({ ok: false, problem: 'unknown-version' });
    expect(openBlob(relayKeysFor(GAME, `${PASSWORD}z`).key, good)).toEqual({ ok: false, problem: 'does-not-open' });
    // A blob sealed by someone with the key but a lying length field.
    const nonce = nacl.randomBytes(24);
    const plain = new Uint8Array(256);
    new DataView(plain.buffer).setUint32(0, 10_000, true);
    const liar = new Uint8Array([1, ...nonce, ...nacl.secretbox(plain, nonce, key)]);
    expect(openBlob(key, liar)).toEqual({ ok: false, problem: 'bad-length' });
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (junk) => {
        expect(openBlob(key, junk).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe('relay frames', () => {
  const k = relayKeysFor(GAME, PASSWORD);

  it('accepts well-formed client frames and names the first bad field of others', () => {
    const append = { t: 'append', rid: '1', room: k.room, token: k.token, id: 'A'.repeat(22), blob: 'AQID' };
    expect(parseClientFrame(JSON.stringify(append))).toEqual({ ok: true, frame: append });
    expect(parseClientFrame(JSON.stringify({ t: 'fetch', rid: 'x', room: k.room, token: k.token, after: '17-3', limit: 5 })).ok).toBe(true);
    const bad: [unknown, string][] = [
      ['{', 'not JSON'],
      [[], 'not a JSON object'],
      [{ ...append, rid: '' }, 'rid'],
      [{ ...append, room: k.room.toUpperCase() }, 'room'],
      [{ ...append, token: `${k.token}=` }, 'token'],
      [{ ...append, id: 'short' }, 'id'],
      [{ ...append, blob: '' }, 'blob'],
      [{ ...append, blob: 'A' }, 'blob'],
      [{ ...append, blob: 'a+b/' }, 'blob'],
      [{ t: 'fetch', rid: '1', room: k.room, token: k.token, after: 'zz' }, 'after'],
      [{ t: 'fetch', rid: '1', room: k.room, token: k.token, after: '', limit: 0 }, 'limit'],
      [{ ...append, t: 'delete' }, 't must be'],
    ];
    for (const [frame, message] of bad) {
      const r = parseClientFrame(typeof frame === 'string' ? frame : JSON.stringify(frame));
      expect(r.ok).toBe(false);
      expect(r.ok ? '' : r.message).toContain(message);
    }
  });

  it('never throws on arbitrary text, either side', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify(v)),
        ),
        (text) => {
          expect(() => parseClientFrame(text)).not.toThrow();
          expect(() => parseServerFrame(text)).not.toThrow();
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('orders cursors of both stores', () => {
    const sorted = ['', '5', '17', '1700000000000-0', '1700000000000-2', '1700000000000-10', '1700000000001-0'];
    for (let i = 0; i < sorted.length; i++)
      for (let j = 0; j < sorted.length; j++) expect(Math.sign(compareCursors(sorted[i]!, sorted[j]!))).toBe(Math.sign(i - j));
  });
});

import { describe, expect, it } from 'vitest';
import {
  canonicalEncode,
  checkPayload,
  createIdentity,
  encodePayload,
  fingerprint,
  openMessage,
  parseEntry,
  PROTOCOL_VERSION,
  sealedHash,
  signMessage,
  signPayloadBytes,
  toBase64,
  type Payload,
} from '../../src/protocol';
import { identity, payloadOf, rng, T0 } from './helpers';

const body = { type: 'ack' as const, game: 'ab'.repeat(16), seq: 3, time: T0, phase: '1901-spring-movement', hash: 'cd'.repeat(16) };

describe('identities and signed messages', () => {
  it('an identity is a pure function of its seeds, named by a short fingerprint', () => {
    const r = rng(1);
    const [s, b] = [r.bytes(32), r.bytes(32)];
    const one = createIdentity(s, b);
    expect(createIdentity(s, b)).toEqual(one);
    expect(one.id).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint(one.id)).toMatch(/^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}$/);
    expect(fingerprint(identity(2).id)).not.toBe(fingerprint(one.id));
    expect(() => createIdentity(new Uint8Array(31), b)).toThrow();
  });

  it('signs the binary payload with the author inside, and opens it back', () => {
    const me = identity(1);
    const bytes = signMessage(me, body);
    const opened = openMessage(bytes);
    expect(opened.ok).toBe(true);
    if (opened.ok) expect(opened.message.payload).toEqual({ ...body, v: PROTOCOL_VERSION, from: me.id });
    expect(bytes.subarray(64)).toEqual(encodePayload({ ...body, v: PROTOCOL_VERSION, from: me.id }));
  });

  it('a message claiming another author does not verify', () => {
    const [me, other] = [identity(1), identity(2)];
    const bytes = signMessage(me, body);
    const swapped = new Uint8Array([...bytes.subarray(0, 64), ...encodePayload({ ...(payloadOf(bytes) as Payload), from: other.id })]);
    expect(openMessage(swapped)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('refuses unknown types, unknown fields, other protocol versions and malformed fields', () => {
    const base = { ...body, v: PROTOCOL_VERSION, from: identity(1).id };
    expect(checkPayload(base).ok).toBe(true);
    expect(checkPayload({ ...base, extra: 1 })).toEqual({ ok: false, reason: 'bad-shape' });
    expect(checkPayload({ ...base, type: 'teleport' })).toEqual({ ok: false, reason: 'unknown-type' });
    expect(checkPayload({ ...base, type: 'toString' })).toEqual({ ok: false, reason: 'unknown-type' });
    expect(checkPayload({ ...base, v: 1 })).toEqual({ ok: false, reason: 'unknown-protocol-version' });
    expect(checkPayload({ ...base, v: 2 }).ok).toBe(true);
    expect(checkPayload({ ...base, v: 3 }).ok).toBe(true);
    expect(checkPayload({ ...base, v: 4 }).ok).toBe(true);
    expect(checkPayload({ ...base, v: 6 }).ok).toBe(true);
    expect(checkPayload({ ...base, v: 7 }).ok).toBe(true);
    expect(checkPayload({ ...base, v: 8 })).toEqual({ ok: false, reason: 'unknown-protocol-version' });
    expect(checkPayload({ ...base, seq: -1 })).toEqual({ ok: false, reason: 'bad-shape' });
    expect(checkPayload({ ...base, phase: '1901-summer-movement' })).toEqual({ ok: false, reason: 'bad-shape' });
    expect(checkPayload({ ...base, game: 'AB'.repeat(16) })).toEqual({ ok: false, reason: 'bad-shape' });
    expect(checkPayload([base])).toEqual({ ok: false, reason: 'not-an-object' });
  });

  it('a commit’s hash is the hash of its sealed bytes: a version 2 (JSON) commit carrying another is refused, a binary one carries none', () => {
    const me = identity(1);
    const sealed = toBase64(rng(3).bytes(80));
    const c0 = toBase64(rng(4).bytes(32));
    const commit = {
      type: 'commit',
      game: 'ab'.repeat(16),
      seq: 1,
      time: T0,
      phase: '1901-spring-movement',
      power: 'france',
      sealed,
      escrow: { c: [c0], e: null, s: [] },
    };
    const json = (hash: string) => signPayloadBytes(me, canonicalEncode({ ...commit, v: 2, from: me.id, hash }));
    const right = parseEntry(json(sealedHash(sealed)!));
    expect(right.ok).toBe(true);
    const wrong = parseEntry(json('00'.repeat(16)));
    expect(wrong).toMatchObject({ ok: false, reason: 'commit-hash-mismatch' });
    const binary = encodePayload({ ...commit, v: PROTOCOL_VERSION, from: me.id, hash: sealedHash(sealed)! } as Payload);
    const opened = parseEntry(signPayloadBytes(me, binary));
    expect(opened.ok && (opened.entry.payload as Payload & { hash: string }).hash).toBe(sealedHash(sealed));
  });
});

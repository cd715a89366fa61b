// The protocol's one Ed25519 acceptance rule (src/protocol/ed25519.ts; README "Signatures"): the
// published edge cases of "Taming the many EdDSAs" (ed25519/speccheck-cases.json, see
// ed25519/SOURCE.md) and cases made here (ed25519/ed25519-generated.json, by generate.ts), checked
// by the rule in front of three verifiers: the protocol's pure code, tweetnacl and Node's WebCrypto
// Ed25519 (what phones get from their browser). All must decide alike, and as the protocol pins.
import { readFileSync } from 'node:fs';
import { ed25519 } from '@noble/curves/ed25519.js';
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import {
  cachedVerifier,
  checkSignature,
  KNOWN_ANSWERS,
  nativeAgrees,
  nativeFirstVerifier,
  parseEntry,
  reduceLog,
  ruleRefusal,
  type NativeCheck,
  type Verifier,
} from '../../src/protocol';
import { webCryptoEd25519 } from '../../src/net/native-ed25519';
import { playPhase, randomPhaseOrders, rng, startedGame, T0, view } from './helpers';

interface Case {
  readonly name: string;
  readonly message: string;
  readonly pub_key: string;
  readonly signature: string;
}
const read = (f: string): Case[] => JSON.parse(readFileSync(new URL(`./ed25519/${f}`, import.meta.url), 'utf8')) as Case[];
const CASES: Case[] = [...read('speccheck-cases.json').map((c, i) => ({ ...c, name: `speccheck-${i}` })), ...read('ed25519-generated.json')];
const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, 'hex'));

/** The pinned decision of each case, and for refused ones the rule's reason. */
const PINNED: Record<string, string | true | false> = {
  'speccheck-0': 'r-small-order', // small-order A and R, S = 0
  'speccheck-1': 'key-small-order', // small-order A, mixed-order R
  'speccheck-2': 'r-small-order', // mixed-order A, small-order R
  'speccheck-3': 'key-mixed-order', // mixed-order A and R, both equations hold
  'speccheck-4': 'key-mixed-order', // mixed-order A and R, only the cofactored equation holds
  'speccheck-5': 'key-mixed-order',
  'speccheck-6': 's-not-reduced', // S > L
  'speccheck-7': 's-not-reduced', // S >> L
  'speccheck-8': 'r-non-canonical',
  'speccheck-9': 'r-non-canonical',
  honest: true,
  'wrong-message': false,
  's-plus-l': 's-not-reduced',
  'r-mixed-order': false, // passes the rule; only the cofactored equation holds: refused
  'r-small-order': 'r-small-order',
  'r-non-canonical': 'r-non-canonical',
  'key-non-canonical': 'key-non-canonical',
  'key-mixed-order': 'key-mixed-order',
};

const ruleThen =
  (verify: (m: Uint8Array, s: Uint8Array, k: Uint8Array) => boolean) =>
  (m: Uint8Array, s: Uint8Array, k: Uint8Array): boolean =>
    ruleRefusal(s, k) === null && verify(m, s, k);
const tweetnacl = ruleThen((m, s, k) => nacl.sign.detached.verify(m, s, k));
const webCrypto = async (m: Uint8Array, s: Uint8Array, k: Uint8Array): Promise<boolean> => {
  if (ruleRefusal(s, k) !== null) return false;
  try {
    const key = await crypto.subtle.importKey('raw', k as Uint8Array<ArrayBuffer>, { name: 'Ed25519' }, false, ['verify']);
    return await crypto.subtle.verify({ name: 'Ed25519' }, key, s as Uint8Array<ArrayBuffer>, m as Uint8Array<ArrayBuffer>);
  } catch {
    return false;
  }
};

describe('the Ed25519 acceptance rule', () => {
  it('holds every case, and the published ones are the ten of speccheck', () => {
    expect(CASES.map((c) => c.name).sort()).toEqual(Object.keys(PINNED).sort());
    expect(CASES.filter((c) => c.name.startsWith('speccheck'))).toHaveLength(10);
  });

  for (const c of CASES) {
    it(`${c.name}: the rule, the pure check, tweetnacl and WebCrypto decide alike, as pinned`, async () => {
      const [m, s, k] = [hex(c.message), hex(c.signature), hex(c.pub_key)];
      const pinned = PINNED[c.name]!;
      const refusal = ruleRefusal(s, k);
      expect(refusal).toBe(typeof pinned === 'string' ? pinned : null);
      const expected = pinned === true;
      expect(checkSignature(m, s, k)).toBe(expected);
      expect(tweetnacl(m, s, k)).toBe(expected);
      expect(await webCrypto(m, s, k)).toBe(expected);
    });
  }

  it('the verifiers disagree on these cases without the rule (what the rule is for)', async () => {
    const differ: string[] = [];
    for (const c of CASES) {
      const [m, s, k] = [hex(c.message), hex(c.signature), hex(c.pub_key)];
      const native = await crypto.subtle.importKey('raw', k as Uint8Array<ArrayBuffer>, { name: 'Ed25519' }, false, ['verify']).then(
        (key) => crypto.subtle.verify({ name: 'Ed25519' }, key, s as Uint8Array<ArrayBuffer>, m as Uint8Array<ArrayBuffer>),
        () => false,
      );
      const cofactored = ed25519.verify(s, m, k, { zip215: false });
      if (new Set([native, nacl.sign.detached.verify(m, s, k), cofactored]).size > 1) differ.push(c.name);
    }
    expect(differ).toEqual(expect.arrayContaining(['speccheck-0', 'speccheck-4', 'speccheck-6', 's-plus-l', 'r-mixed-order', 'key-non-canonical']));
  });

  it('refuses all eight points of small order as keys and as R, whatever the sign bit', () => {
    const t8 = ed25519.Point.fromHex('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05');
    const seen = new Set<string>();
    let p = ed25519.Point.ZERO;
    for (let i = 0; i < 8; i++, p = p.add(t8)) {
      expect(p.isSmallOrder()).toBe(true);
      const enc = p.toBytes();
      seen.add(Buffer.from(enc).toString('hex'));
      for (const sign of [0, 0x80]) {
        const e = enc.slice();
        e[31] = (e[31]! & 0x7f) | sign;
        const sig = new Uint8Array(64);
        sig.set(e);
        expect(ruleRefusal(sig, e)).toMatch(/^r-small-order$/);
        expect(ruleRefusal(hex(CASES.find((c) => c.name === 'honest')!.signature), e)).toBe('key-small-order');
      }
    }
    expect(seen.size).toBe(8);
  });

  it('uses a platform verifier only if it gives the pinned answers: WebCrypto does, a cofactored one does not', async () => {
    expect(KNOWN_ANSWERS.map((c) => c.name)).toEqual(['honest', 'wrong-message', 'r-mixed-order']);
    expect(await webCryptoEd25519()).not.toBeNull();
    const cofactored: NativeCheck = async (m, s, k) => ed25519.verify(s, m, k, { zip215: false });
    expect(await nativeAgrees(cofactored)).toBe(false);
    const tweet: NativeCheck = async (m, s, k) => nacl.sign.detached.verify(m, s, k);
    expect(await nativeAgrees(tweet)).toBe(true);
    const broken: NativeCheck = async () => {
      throw new Error('no Ed25519 here');
    };
    expect(await nativeAgrees(broken)).toBe(false);
  });
});

/** Malleates an entry's signature to S + L (same payload, same id). */
function sPlusL(entry: Uint8Array): Uint8Array {
  const out = entry.slice();
  let carry = 0;
  const L = 2n ** 252n + 27742317777372353535851937790883648493n;
  for (let i = 0; i < 32; i++) {
    const sum = out[32 + i]! + Number((L >> BigInt(8 * i)) & 0xffn) + carry;
    out[32 + i] = sum & 0xff;
    carry = sum >> 8;
  }
  return out;
}

describe('a log holding an edge-case entry', () => {
  it('reduces to the same state hash with the pure check, tweetnacl and WebCrypto, each behind the rule', async () => {
    const game = startedGame(3);
    playPhase(game, randomPhaseOrders(view(game), rng(5).int), T0 + 1000);
    const honest = reduceLog(game.gameId, game.log).stateHash;
    // The last entry (a REVEAL) is present only as its S + L copy: tweetnacl alone would accept it.
    const last = game.log[game.log.length - 1]!;
    const odd = [...game.log.slice(0, -1), sPlusL(last)];
    const without = reduceLog(game.gameId, game.log.slice(0, -1)).stateHash;
    expect(without).not.toBe(honest);

    const pure = reduceLog(game.gameId, odd).stateHash;
    const withTweetnacl = reduceLog(game.gameId, odd, { verifier: cachedVerifier(tweetnacl) }).stateHash;
    // WebCrypto's answers, found first (asynchronously), then read by the reducer.
    const answers = new Map<string, boolean>();
    for (const bytes of odd) {
      const p = parseEntry(bytes);
      if (!p.ok) continue;
      answers.set(p.entry.id + Buffer.from(p.entry.signature).toString('hex'), await webCrypto(p.entry.body, p.entry.signature, hex(p.entry.payload.from)));
    }
    const fromWebCrypto: Verifier = {
      verify: (id, _m, s) => {
        const a = answers.get(id + Buffer.from(s).toString('hex'));
        if (a === undefined) throw new Error('not checked by WebCrypto');
        return a;
      },
    };
    const withWebCrypto = reduceLog(game.gameId, odd, { verifier: fromWebCrypto }).stateHash;
    // The phone's verifier: WebCrypto as entries arrive, counted; nothing left to check after.
    let nativeCalls = 0;
    const native = webCryptoEd25519().then((check) => check && (((m, s, k) => (nativeCalls++, check(m, s, k))) as NativeCheck));
    const phone = nativeFirstVerifier(native);
    await phone.prepare(odd);
    expect(nativeCalls).toBe(odd.length - 1); // every entry but the refused one
    const withPhone = reduceLog(game.gameId, odd, { verifier: phone }).stateHash;

    expect([pure, withTweetnacl, withWebCrypto, withPhone]).toEqual([without, without, without, without]);
  });
});

describe("a phone's replica", () => {
  it('checks the entries of an incoming update ahead with WebCrypto, then admits them without checking again', async () => {
    const { GameReplica } = await import('../../src/net/replica');
    const Y = await import('yjs');
    const game = startedGame(4);
    // Another phone's doc holding the lobby: its update is what arrives.
    const other = new Y.Doc();
    other.getArray<Uint8Array>('log').push(game.log);
    const update = Y.encodeStateAsUpdate(other);
    let nativeCalls = 0;
    const native = webCryptoEd25519().then((check) => check && (((m, s, k) => (nativeCalls++, check(m, s, k))) as NativeCheck));
    const replica = await GameReplica.open({ gameId: game.gameId, verifier: nativeFirstVerifier(native) });
    await replica.prepare(update);
    expect(nativeCalls).toBe(game.log.length);
    const r = replica.receive(update, { name: 'peer', origin: 'peer' });
    expect(r.clean).toBe(true);
    expect(replica.entries()).toHaveLength(game.log.length);
    expect(replica.prepare(update)).toBeNull(); // all admitted: nothing to wait for
    expect(nativeCalls).toBe(game.log.length);
    replica.destroy();
  });
});

// The protocol's one Ed25519 acceptance rule (src/protocol/README.md, "Signatures"). Ed25519
// implementations disagree on odd inputs (non-canonical encodings, S >= L, small-order or mixed-order
// points, the cofactored or the cofactorless equation), and a phone that admits an entry another
// refuses breaks "same state on every phone". So the protocol fixes:
//   1. `ruleRefusal`: a few cheap checks every phone runs in this code before any verifier;
//   2. one equation, cofactorless: encode([S]B - [k]A) == R, byte for byte, k = SHA-512(R|A|M) mod L.
// `checkSignature` is 1 + 2 in pure code (@noble/curves' point arithmetic). A platform verifier
// (WebCrypto's Ed25519, injected by src/net) may stand in for step 2 only after step 1 passed and
// only if it gives the pinned answer on every `KNOWN_ANSWERS` case (a verifier using the cofactored
// equation, or skipping a check, fails them and is not used).
import { ed25519 } from '@noble/curves/ed25519.js';
import nacl from 'tweetnacl';

const P = 2n ** 255n - 19n;
/** The order of the base point. */
export const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const Point = ed25519.Point;

function leNumber(bytes: Uint8Array, mask255 = false): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(i === 31 && mask255 ? bytes[i]! & 0x7f : bytes[i]!);
  return n;
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * The y coordinates of the eight points of small order (order 1, 2, 4, 8): the identity (y = 1),
 * (0, -1), the two points with y = 0, and the four of order 8 (y = ±y8). A point and its negation
 * share y, so "small order" is a property of y alone. (tests/protocol/ed25519-rule.test.ts checks
 * every point with one of these y is of small order, and that there are eight.)
 */
const Y8 = leNumber(hexBytes('26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05'), true);
const SMALL_ORDER_Y: ReadonlySet<bigint> = new Set([0n, 1n, P - 1n, Y8, P - Y8]);

/** Why an encoded point is refused by the rule, or null. */
function pointRefusal(bytes: Uint8Array, name: 'key' | 'r'): string | null {
  const y = leNumber(bytes, true);
  if (y >= P) return `${name}-non-canonical`;
  if (SMALL_ORDER_Y.has(y)) return `${name}-small-order`;
  return null;
}

/** Public keys seen, with the rule's verdict on them (keys are few: a game has at most a few dozen). */
const keyVerdicts = new Map<string, string | null>();
const KEY_VERDICTS_KEPT = 4096;

function keyRefusal(publicKey: Uint8Array): string | null {
  const cheap = pointRefusal(publicKey, 'key');
  if (cheap !== null) return cheap;
  let hex = '';
  for (const b of publicKey) hex += b.toString(16).padStart(2, '0');
  const known = keyVerdicts.get(hex);
  if (known !== undefined) return known;
  let verdict: string | null;
  try {
    // Strict decoding (y < p, and x = 0 only with sign bit 0; y < p was checked above).
    verdict = Point.fromBytes(publicKey, false).isTorsionFree() ? null : 'key-mixed-order';
  } catch {
    verdict = 'key-not-a-point';
  }
  if (keyVerdicts.size >= KEY_VERDICTS_KEPT) keyVerdicts.clear();
  keyVerdicts.set(hex, verdict);
  return verdict;
}

/**
 * Step 1, before any verifier: null if the signature and key may be checked, else why not.
 * - lengths: 64-byte signature, 32-byte key;
 * - S < L (no S + L malleability);
 * - A canonical (y < p), a point, not of small order, and torsion-free (in the prime-order
 *   subgroup: every key made from a seed is; checked once per key, then remembered);
 * - R canonical (y < p) and not of small order.
 */
export function ruleRefusal(signature: Uint8Array, publicKey: Uint8Array): string | null {
  if (signature.length !== 64) return 'signature-length';
  if (publicKey.length !== 32) return 'key-length';
  if (leNumber(signature.subarray(32)) >= L) return 's-not-reduced';
  const r = pointRefusal(signature.subarray(0, 32), 'r');
  if (r !== null) return r;
  return keyRefusal(publicKey);
}

/**
 * Step 2 in pure code: the cofactorless equation, encode([S]B - [k]A) == R byte for byte. Only for
 * inputs step 1 accepted (S < L, A a torsion-free point).
 */
function cofactorless(payload: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  const R = signature.subarray(0, 32);
  const S = leNumber(signature.subarray(32));
  const h = new Uint8Array(64 + payload.length);
  h.set(R);
  h.set(publicKey, 32);
  h.set(payload, 64);
  const k = leNumber(nacl.hash(h)) % L;
  const A = Point.fromBytes(publicKey, false);
  const computed = Point.BASE.multiplyUnsafe(S).subtract(A.multiplyUnsafe(k)).toBytes();
  for (let i = 0; i < 32; i++) if (computed[i] !== R[i]) return false;
  return true;
}

/** A signing key's expansion (RFC 8032 5.1.5): the clamped scalar, the nonce prefix, the public key. */
interface Expanded {
  /** The 64 bytes it was expanded from (a copy): an array changed in place is expanded again. */
  readonly key: Uint8Array;
  readonly scalar: bigint;
  readonly prefix: Uint8Array;
  readonly publicKey: Uint8Array;
}
/** Per 64-byte secret key (seed ‖ public key, as Identity holds it): expanding it costs a hash and a
 *  base-point multiplication, as much again as the signature itself, and a phone signs with one key. */
const expansions = new WeakMap<Uint8Array, Expanded>();

function leBytes32(n: bigint): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 32; i++, n >>= 8n) out[i] = Number(n & 0xffn);
  return out;
}

/**
 * Ed25519 signing (RFC 8032 5.1.6), the key's expansion computed once per secret key: the same
 * bytes as tweetnacl's sign.detached and @noble/curves' sign (signatures are deterministic;
 * tests/protocol/sign.test.ts compares them). `secretKey`: 64 bytes, seed ‖ public key.
 */
export function signEd25519(payload: Uint8Array, secretKey: Uint8Array): Uint8Array {
  if (secretKey.length !== 64) throw new Error('ed25519: the secret key is 64 bytes (seed and public key)');
  let x = expansions.get(secretKey);
  if (x === undefined || x.key.some((b, i) => b !== secretKey[i])) {
    const e = ed25519.utils.getExtendedPublicKey(secretKey.slice(0, 32));
    x = { key: secretKey.slice(), scalar: e.scalar, prefix: e.prefix, publicKey: e.pointBytes };
    expansions.set(secretKey, x);
  }
  const nonce = new Uint8Array(32 + payload.length);
  nonce.set(x.prefix);
  nonce.set(payload, 32);
  const r = leNumber(nacl.hash(nonce)) % L;
  // r = 0 has probability 2^-252; multiply() refuses it, as @noble/curves' own sign does.
  const R = Point.BASE.multiply(r).toBytes();
  const h = new Uint8Array(64 + payload.length);
  h.set(R);
  h.set(x.publicKey, 32);
  h.set(payload, 64);
  const k = leNumber(nacl.hash(h)) % L;
  const out = new Uint8Array(64);
  out.set(R);
  out.set(leBytes32((r + k * x.scalar) % L), 32);
  return out;
}

/** The protocol's signature check (steps 1 and 2, pure code). Never throws. */
export function checkSignature(payload: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  try {
    return ruleRefusal(signature, publicKey) === null && cofactorless(payload, signature, publicKey);
  } catch {
    return false;
  }
}

/** A platform's Ed25519 verify (WebCrypto's), asynchronous. May throw or reject: that counts as false. */
export type NativeCheck = (payload: Uint8Array, signature: Uint8Array, publicKey: Uint8Array) => Promise<boolean>;

/**
 * Cases where a verifier that skips a check of step 2's equation, or uses the cofactored equation,
 * answers differently from the pinned rule. Each passes step 1. They are cases of
 * tests/protocol/ed25519/ed25519-generated.json (made by generate.ts there from fixed scalars):
 * - honest: an ordinary signature (must verify);
 * - mixed-order R: R = rB + T with T of order 8, S = r + k·a: the cofactored equation accepts it,
 *   the pinned cofactorless one does not;
 * - wrong message: an honest signature over another message (must not verify).
 */
export const KNOWN_ANSWERS: readonly {
  readonly name: string;
  readonly message: string;
  readonly key: string;
  readonly signature: string;
  readonly valid: boolean;
}[] = [
  {
    name: 'honest',
    message: '706163746f26',
    key: '631427eae043068d1920c0c8fa32e58618bb7f4e5b3bf0c1af4fe3adcfbb0040',
    signature: '9bf97c5d47372a58a51544a73f20f1473aa79b78e1f9260892bc360150f03d6330cc5cff439e098b8b5886fbf0dd1fe41970333e8f0e381ce06375f3d77cd408',
    valid: true,
  },
  {
    name: 'wrong-message',
    message: '706163746f3f',
    key: '631427eae043068d1920c0c8fa32e58618bb7f4e5b3bf0c1af4fe3adcfbb0040',
    signature: '9bf97c5d47372a58a51544a73f20f1473aa79b78e1f9260892bc360150f03d6330cc5cff439e098b8b5886fbf0dd1fe41970333e8f0e381ce06375f3d77cd408',
    valid: false,
  },
  {
    name: 'r-mixed-order',
    message: '706163746f26',
    key: '631427eae043068d1920c0c8fa32e58618bb7f4e5b3bf0c1af4fe3adcfbb0040',
    signature: 'a47e64c73857e370649a4a129f1993c7b926a488afd4c55003120f5cf542aac753009bcca1a02bd74cd11712d52d48789a41c0f72b9bb9a2f65734ea321df002',
    valid: false,
  },
];

function bytesOf(hex: string): Uint8Array {
  return hexBytes(hex);
}

/**
 * Whether a platform verifier gives the pinned answer on every known case (run once, before it is
 * used). Never throws.
 */
export async function nativeAgrees(native: NativeCheck): Promise<boolean> {
  for (const c of KNOWN_ANSWERS) {
    const m = bytesOf(c.message);
    const s = bytesOf(c.signature);
    const k = bytesOf(c.key);
    if (ruleRefusal(s, k) !== null || checkSignature(m, s, k) !== c.valid) return false;
    let answer: boolean;
    try {
      answer = (await native(m, s, k)) === true;
    } catch {
      answer = false;
    }
    if (answer !== c.valid) return false;
  }
  return true;
}

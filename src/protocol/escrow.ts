// Key escrow for sealed commits over ristretto255: Feldman verifiable secret sharing (commits of
// protocol versions 2 to 4), and from version 5 an additive sharing whose shares are derived
// (below, "Version 5"), which carries no encrypted share at all.
//
// Versions 2 to 4 (Feldman):
// A commit is sealed under a key derived from a random scalar s (seal.ts). The commit publishes
// Feldman commitments C_j = a_j·G of a polynomial f of degree t−1 with f(0) = s (C_0 = s·G binds
// the one key that opens the box, secretbox not being key-committing), an ephemeral point E = r·G,
// and for each share holder i (x-coordinate i = 1..m) the share f(i) XOR a pad derived from r·P_i,
// P_i being the holder's escrow public key from its JOIN. Only holder i can decrypt its share
// (x_i·E = r·P_i); anyone can check a released share against the commitments; all m shares give s
// back by Lagrange interpolation at 0. A holder whose share does not check out proves it with a
// Chaum–Pedersen proof that its shared point K is x_i·E (a DLEQ of P_i = x_i·G and K = x_i·E),
// so anyone can decrypt the share with K and see it fail, and nobody can forge such a complaint
// against an honest commit. The rules that use this are in README.md ("Key escrow").
//
// Everything is pure: the caller supplies every random byte. No curve arithmetic is written here:
// points and scalars come from @noble/curves (audited, pure JS).
import { ristretto255 } from '@noble/curves/ed25519.js';
import nacl from 'tweetnacl';
import { concatBytes, fromBase64, toBase64, toHex, utf8 } from './bytes';

const Point = ristretto255.Point;
type Point = InstanceType<typeof Point>;
const ORDER = Point.Fn.ORDER;

/** Bytes of an encoded scalar or point (base64url: 43 characters). */
export const ESCROW_BYTES = 32;

const mod = (n: bigint): bigint => {
  const r = n % ORDER;
  return r < 0n ? r + ORDER : r;
};

/** SHA-512 of the labelled parts, as a scalar (64 bytes reduced mod ℓ: no bias worth naming). */
function hashToScalar(label: string, ...parts: readonly Uint8Array[]): bigint {
  return mod(bytesToNumberLE(nacl.hash(concatBytes(utf8(label), ...parts))));
}

/** Little-endian bytes as a number (through hex, parsed natively: every REVEAL's scalars are read at every rebuild). */
function bytesToNumberLE(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${toHex(bytes.slice().reverse())}`);
}

/** Little-endian 32 bytes. */
export function scalarToBytes(s: bigint): Uint8Array {
  const out = new Uint8Array(ESCROW_BYTES);
  let n = mod(s);
  for (let i = 0; i < ESCROW_BYTES; i++) {
    out[i] = Number(n & 255n);
    n >>= 8n;
  }
  return out;
}

/** A canonical scalar (< ℓ), or null: one scalar has one byte form. */
export function scalarFromBytes(bytes: Uint8Array): bigint | null {
  if (bytes.length !== ESCROW_BYTES) return null;
  const n = bytesToNumberLE(bytes);
  return n < ORDER ? n : null;
}

export function scalarFromText(text: string): bigint | null {
  const b = fromBase64(text);
  return b === null ? null : scalarFromBytes(b);
}

export const scalarText = (s: bigint): string => toBase64(scalarToBytes(s));

const points = new Map<string, Point | null>();
const POINT_CACHE = 20_000;

/** A ristretto255 point from its base64url encoding, or null (decoding costs a square root: cached). */
export function pointFromText(text: string): Point | null {
  const have = points.get(text);
  if (have !== undefined) return have;
  let p: Point | null = null;
  const b = fromBase64(text);
  if (b !== null && b.length === ESCROW_BYTES) {
    try {
      p = Point.fromBytes(b);
    } catch {
      p = null;
    }
  }
  if (points.size >= POINT_CACHE) points.clear();
  points.set(text, p);
  return p;
}

export const pointText = (p: Point): string => toBase64(p.toBytes());

const keyPoints = new Map<string, Point | null>();
/** Escrow keys with a table kept: the players of the games on this phone, a few dozen. */
const KEY_TABLES = 1_000;

/**
 * A player's escrow public key as a point with a table of its multiples: every commit by another
 * player multiplies it by a fresh scalar (dealEscrow, dealDerivedEscrow), so the table (built once,
 * about as costly as ten multiplications without it: six of them made a game's first seal cost a
 * third of a second more) makes each of those five to seven times cheaper. Constant time either
 * way, and the same point: only time changes. Kept apart from the decoding cache, so a long game's
 * stream of points never drops a table; built ahead, in idle time (prepareKeyTables).
 */
function keyPoint(text: string): Point | null {
  const have = keyPoints.get(text);
  if (have !== undefined) return have;
  const p = pointFromText(text);
  if (p !== null) p.precompute(6, false);
  if (keyPoints.size >= KEY_TABLES) keyPoints.clear();
  keyPoints.set(text, p);
  return p;
}

/**
 * Builds the tables of these escrow keys now (keyPoint), so that a seal later does not: a phone
 * calls it in idle time once the holders of its next seals are known (the START fixes them).
 */
export function prepareKeyTables(keys: readonly string[]): void {
  for (const k of keys) keyPoint(k);
}

// ---- Keys ---------------------------------------------------------------------------------------

/** The escrow secret x of an identity, derived from its signing seed so nothing new is stored. */
export function escrowSecret(signSeed: Uint8Array): bigint {
  const x = hashToScalar('pacto-escrow', signSeed);
  return x === 0n ? 1n : x;
}

export function escrowPublic(x: bigint): string {
  return pointText(Point.BASE.multiply(x));
}

/** A fresh secret scalar from 32 random bytes (hashed, so any bytes give a uniform nonzero scalar). */
export function secretFromRandom(random: Uint8Array): bigint {
  const s = hashToScalar('pacto-secret', random);
  return s === 0n ? 1n : s;
}

// ---- Dealing ------------------------------------------------------------------------------------

/** The escrow part of a commit, as it travels (base64url of 32-byte points and values). */
export interface EscrowFields {
  /** Feldman commitments C_0..C_{t−1}; with escrow off only C_0. */
  readonly c: readonly string[];
  /** Ephemeral point E = r·G; null with escrow off. */
  readonly e: string | null;
  /** Encrypted share of holder i at index i−1. */
  readonly s: readonly string[];
}

/** Escrow is on when a commit has at least two share holders; the threshold is then all of them. */
export function escrowOn(holders: number): boolean {
  return holders >= 2;
}

/**
 * How many commitments and shares a commit with `holders` share holders carries: Feldman (before
 * version 5) m commitments and m encrypted shares; derived (version 5) m share commitments and no
 * share. With escrow off, C_0 alone either way.
 */
export function escrowShape(holders: number, derived = false): { commitments: number; shares: number; ephemeral: boolean } {
  if (!escrowOn(holders)) return { commitments: 1, shares: 0, ephemeral: false };
  return { commitments: holders, shares: derived ? 0 : holders, ephemeral: true };
}

function pad(shared: Point, index: number): Uint8Array {
  return nacl.hash(concatBytes(utf8(`pacto-escrow-pad|${index}|`), shared.toBytes())).subarray(0, ESCROW_BYTES);
}

function xor(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]! ^ b[i]!;
  return out;
}

/**
 * Shares the secret `s` among `holders` (their escrow public keys, in share order: holder i is at
 * index i−1). `entropy`: 32 random bytes; the polynomial and the ephemeral scalar are derived from
 * it and `s`, so they are as secret as `s`. With fewer than two holders only C_0 is published.
 */
export function dealEscrow(s: bigint, holders: readonly string[], entropy: Uint8Array): EscrowFields | null {
  const C0 = Point.BASE.multiply(mod(s));
  if (!escrowOn(holders.length)) return { c: [pointText(C0)], e: null, s: [] };
  const keys = holders.map(keyPoint);
  if (keys.some((k) => k === null)) return null;
  const t = holders.length;
  const seed = concatBytes(scalarToBytes(s), entropy);
  const coefficients = [mod(s)];
  for (let j = 1; j < t; j++) {
    const a = hashToScalar(`pacto-escrow-coef|${j}`, seed);
    coefficients.push(a === 0n ? 1n : a);
  }
  const r = hashToScalar('pacto-escrow-ephemeral', seed) || 1n;
  const E = Point.BASE.multiply(r);
  const c = coefficients.map((a, j) => (j === 0 ? pointText(C0) : pointText(Point.BASE.multiply(a))));
  const shares = keys.map((P, k) => {
    const i = k + 1;
    return toBase64(xor(scalarToBytes(evaluate(coefficients, BigInt(i))), pad(P!.multiply(r), i)));
  });
  return { c, e: pointText(E), s: shares };
}

/** n·P for public n (variable time is fine: nothing secret), 0·P being the identity. */
function times(P: Point, n: bigint): Point {
  return n === 0n ? Point.ZERO : P.multiplyUnsafe(n);
}

function evaluate(coefficients: readonly bigint[], x: bigint): bigint {
  let acc = 0n;
  for (let j = coefficients.length - 1; j >= 0; j--) acc = mod(acc * x + coefficients[j]!);
  return acc;
}

// ---- Holders ------------------------------------------------------------------------------------

/** Holder i's shared point x_i·E (the key to its share), or null if E is not a point. */
export function sharedPoint(x: bigint, e: string): Point | null {
  const E = pointFromText(e);
  return E === null ? null : E.multiply(mod(x));
}

/** Decrypts share i with the shared point; null if the result is not a canonical scalar. */
export function decryptShare(shared: Point, encrypted: string, index: number): bigint | null {
  const bytes = fromBase64(encrypted);
  if (bytes === null || bytes.length !== ESCROW_BYTES) return null;
  return scalarFromBytes(xor(bytes, pad(shared, index)));
}

const verified = new Map<string, boolean>();

/** f(i)·G = Σ C_j·i^j: the share belongs to the committed polynomial. Remembered. */
export function verifyShare(commitments: readonly string[], index: number, share: bigint): boolean {
  const key = `${commitments.join(',')}|${index}|${share}`;
  const have = verified.get(key);
  if (have !== undefined) return have;
  const C = commitments.map(pointFromText);
  let ok = false;
  if (C.every((p) => p !== null) && C.length > 0) {
    // Horner from the top: ((C_{t−1}·i + C_{t−2})·i + …)·i + C_0. The multipliers are small and public.
    let acc = C[C.length - 1]!;
    for (let j = C.length - 2; j >= 0; j--) acc = times(acc, BigInt(index)).add(C[j]!);
    ok = times(Point.BASE, share).equals(acc);
  }
  if (verified.size >= POINT_CACHE) verified.clear();
  verified.set(key, ok);
  return ok;
}

/** s·G = C_0: the secret is the one the commit was sealed with. */
export function checkSecret(c0: string, s: bigint): boolean {
  const C0 = pointFromText(c0);
  if (C0 === null || s === 0n) return false;
  const key = `secret|${c0}|${s}`;
  const have = verified.get(key);
  if (have !== undefined) return have;
  const ok = times(Point.BASE, s).equals(C0);
  if (verified.size >= POINT_CACHE) verified.clear();
  verified.set(key, ok);
  return ok;
}

/** f(0) from points (x, f(x)) by Lagrange interpolation: the secret when they are all m shares. */
export function interpolateAtZero(points: readonly (readonly [number, bigint])[]): bigint {
  let s = 0n;
  for (const [xi, yi] of points) {
    let num = 1n;
    let den = 1n;
    for (const [xj] of points) {
      if (xj === xi) continue;
      num = mod(num * BigInt(xj));
      den = mod(den * BigInt(xj - xi));
    }
    s = mod(s + yi * num * Point.Fn.inv(den));
  }
  return s;
}

/** The secret from the shares of all holders 1..m, share of holder i at index i−1. */
export function reconstructSecret(shares: readonly bigint[]): bigint {
  return interpolateAtZero(shares.map((y, k) => [k + 1, y] as const));
}

// ---- Complaints ---------------------------------------------------------------------------------

export interface ComplaintProof {
  /** The shared point K = x_i·E (base64url). */
  readonly k: string;
  /** Chaum–Pedersen proof (c ‖ z, 64 bytes, base64url) that log_G P_i = log_E K. */
  readonly proof: string;
}

function challenge(P: Point, E: Point, K: Point, A1: Point, A2: Point, context: string): bigint {
  return hashToScalar(`pacto-escrow-dleq|${context}`, P.toBytes(), E.toBytes(), K.toBytes(), A1.toBytes(), A2.toBytes());
}

/** Holder's proof that its shared point for this commit is K = x·E. `context`: the commit id. */
export function proveShared(x: bigint, e: string, context: string): ComplaintProof | null {
  const E = pointFromText(e);
  if (E === null) return null;
  const P = Point.BASE.multiply(mod(x));
  const K = E.multiply(mod(x));
  // Deterministic nonce from the secret and the statement (no randomness needed, never reused).
  const w = hashToScalar('pacto-escrow-dleq-nonce', scalarToBytes(x), E.toBytes(), utf8(context)) || 1n;
  const A1 = Point.BASE.multiply(w);
  const A2 = E.multiply(w);
  const c = challenge(P, E, K, A1, A2, context);
  const z = mod(w + c * mod(x));
  return { k: pointText(K), proof: toBase64(concatBytes(scalarToBytes(c), scalarToBytes(z))) };
}

/** Checks a proof that K = x·E for the x with P = x·G. */
export function verifyShared(p: string, e: string, proof: ComplaintProof, context: string): boolean {
  const P = pointFromText(p);
  const E = pointFromText(e);
  const K = pointFromText(proof.k);
  const bytes = fromBase64(proof.proof);
  if (P === null || E === null || K === null || bytes === null || bytes.length !== 2 * ESCROW_BYTES) return false;
  const c = scalarFromBytes(bytes.subarray(0, ESCROW_BYTES));
  const z = scalarFromBytes(bytes.subarray(ESCROW_BYTES));
  if (c === null || z === null) return false;
  // A1 = z·G − c·P, A2 = z·E − c·K; the proof holds iff hashing them gives c back.
  const A1 = times(Point.BASE, z).subtract(times(P, c));
  const A2 = times(E, z).subtract(times(K, c));
  return challenge(P, E, K, A1, A2, context) === c;
}

/**
 * A complaint is valid iff its proof holds and the share decrypted with its K does not check
 * against the commitments. An honest commit can never draw one: the proof pins K to the true
 * shared point, and the true share checks out.
 */
export function complaintValid(holderKey: string, escrow: EscrowFields, index: number, complaint: ComplaintProof, context: string): boolean {
  if (escrow.e === null || index < 1 || index > escrow.s.length) return false;
  const key = `complaint|${context}|${index}|${escrow.s[index - 1]}|${escrow.c.join(',')}|${complaint.k}|${complaint.proof}|${holderKey}`;
  const have = verified.get(key);
  if (have !== undefined) return have;
  let ok = false;
  if (verifyShared(holderKey, escrow.e, complaint, context)) {
    const K = pointFromText(complaint.k)!;
    const share = decryptShare(K, escrow.s[index - 1]!, index);
    ok = share === null || !verifyShare(escrow.c, index, share);
  }
  verified.set(key, ok);
  return ok;
}

// ---- Version 5: derived additive shares --------------------------------------------------------
//
// The threshold is all m holders, so a polynomial is more than needed: s = share_1 + … + share_m.
// Share i is not sent, it is derived: share_i = H(owner | P_i | i | E | r·P_i), E = r·G, which
// holder i computes as x_i·E. The commit publishes E and S_i = share_i·G for every holder;
// C_0 = Σ S_i is implied (s·G = C_0 binds the one key that opens the box). Holder i checks
// share_i·G = S_i; a complaint is K = x_i·E with its Chaum–Pedersen proof, after which anyone
// derives the share from K and sees share·G ≠ S_i. README.md "Key escrow" says why it is safe.

/** Derived share i of a commit by `owner` (hex key) for the holder with escrow key `holderKey`, from K = r·P_i = x_i·E. */
export function derivedShare(K: Point, owner: string, holderKey: string, index: number, e: string): bigint {
  return hashToScalar('pacto-escrow-share-v5', utf8(`${owner}|${holderKey}|${index}|${e}|`), K.toBytes());
}

/**
 * A version-5 escrow of a fresh secret by `owner` to `holders` (their escrow public keys, in share
 * order: holder i at index i−1), and that secret (the sum of the derived shares). `random` and
 * `entropy`: 32 random bytes each; the ephemeral scalar is derived from both. With fewer than two
 * holders escrow is off: the secret is derived from `random` alone and only C_0 is published.
 */
export function dealDerivedEscrow(
  owner: string,
  holders: readonly string[],
  random: Uint8Array,
  entropy: Uint8Array,
): { escrow: EscrowFields; secret: bigint } | null {
  const key = dealKey(owner, holders, random, entropy);
  const ahead = dealtAhead.get(key);
  if (ahead !== undefined) {
    dealtAhead.delete(key);
    return ahead;
  }
  return deal(owner, holders, random, entropy);
}

type Dealt = { escrow: EscrowFields; secret: bigint };
const dealtAhead = new Map<string, Dealt>();
/** Deals kept for seals to come: one or two per game being played on this phone. */
const DEALT_AHEAD = 16;

const dealKey = (owner: string, holders: readonly string[], random: Uint8Array, entropy: Uint8Array): string =>
  `${owner}|${holders.join(',')}|${toHex(random)}|${toHex(entropy)}`;

/**
 * Deals a version-5 escrow now (dealDerivedEscrow), for a seal to come that will be given these
 * very inputs: that call then takes it, once, instead of dealing (the same escrow and secret, it
 * depends on nothing else; only time changes). The escrow is independent of the orders, so a phone
 * deals it in idle time and its seal, in the critical path when it is the last, does no curve work.
 * The random bytes are the caller's, drawn fresh for every seal as without it.
 */
export function dealAhead(owner: string, holders: readonly string[], random: Uint8Array, entropy: Uint8Array): void {
  const key = dealKey(owner, holders, random, entropy);
  if (dealtAhead.has(key)) return;
  const dealt = deal(owner, holders, random, entropy);
  if (dealt === null) return;
  if (dealtAhead.size >= DEALT_AHEAD) dealtAhead.clear();
  dealtAhead.set(key, dealt);
}

/** The deal dealAhead made for these inputs and no seal has taken yet (undefined if none). */
export function dealtFor(owner: string, holders: readonly string[], random: Uint8Array, entropy: Uint8Array): Dealt | undefined {
  return dealtAhead.get(dealKey(owner, holders, random, entropy));
}

function deal(owner: string, holders: readonly string[], random: Uint8Array, entropy: Uint8Array): Dealt | null {
  if (!escrowOn(holders.length)) {
    const secret = secretFromRandom(random);
    return { escrow: { c: [pointText(Point.BASE.multiply(secret))], e: null, s: [] }, secret };
  }
  const keys = holders.map(keyPoint);
  if (keys.some((k) => k === null)) return null;
  for (let round = 0; ; round++) {
    const r = hashToScalar('pacto-escrow-v5-ephemeral', random, entropy, new Uint8Array([round])) || 1n;
    const e = pointText(Point.BASE.multiply(r));
    const shares = keys.map((P, k) => derivedShare(P!.multiply(r), owner, holders[k]!, k + 1, e));
    const secret = shares.reduce((a, b) => mod(a + b), 0n);
    // s = 0 opens nothing (checkSecret refuses it); never met in practice, another r then.
    if (secret !== 0n) return { escrow: { c: shares.map((x) => pointText(Point.BASE.multiply(x))), e, s: [] }, secret };
  }
}

/** Whether every point of an escrow decodes (version 5 refuses a commit where one does not). */
export function escrowPointsValid(escrow: EscrowFields): boolean {
  return escrow.c.every((c) => pointFromText(c) !== null) && (escrow.e === null || pointFromText(escrow.e) !== null);
}

const keyTexts = new Map<string, string | null>();

/** C_0 = s·G of a commit: c[0] (Feldman, or escrow off), Σ S_i (derived). Null if a point does not decode. */
export function escrowKeyText(escrow: EscrowFields, derived: boolean): string | null {
  if (!derived || escrow.e === null) return escrow.c[0] ?? null;
  const key = escrow.c.join(',');
  const have = keyTexts.get(key);
  if (have !== undefined) return have;
  const C = escrow.c.map(pointFromText);
  const point = C.every((p) => p !== null) && C.length > 0 ? C.reduce((a, b) => a!.add(b!), Point.ZERO)! : null;
  const sum = point === null ? null : pointText(point);
  // The sum is checked against a REVEAL's secret (checkSecret reads it back as a point): kept as
  // the point its text decodes to (ristretto's equals compares the encoded point, so the sum is
  // that point), saving a square root per commit when its REVEAL comes.
  if (sum !== null && point !== null && !points.has(sum)) {
    if (points.size >= POINT_CACHE) points.clear();
    points.set(sum, point);
  }
  if (keyTexts.size >= POINT_CACHE) keyTexts.clear();
  keyTexts.set(key, sum);
  return sum;
}

/** s·G = C_0 of the commit: the secret is the one the commit was sealed with. */
export function checkCommitSecret(escrow: EscrowFields, derived: boolean, s: bigint): boolean {
  const c0 = escrowKeyText(escrow, derived);
  return c0 !== null && checkSecret(c0, s);
}

/** Share i (1-based) checks: against the polynomial (Feldman), or share·G = S_i (derived). Remembered. */
export function checkHolderShare(escrow: EscrowFields, derived: boolean, index: number, share: bigint): boolean {
  if (!derived) return verifyShare(escrow.c, index, share);
  const S = escrow.c[index - 1];
  if (S === undefined || escrow.e === null) return false;
  const key = `derived|${S}|${share}`;
  const have = verified.get(key);
  if (have !== undefined) return have;
  const P = pointFromText(S);
  const ok = P !== null && times(Point.BASE, share).equals(P);
  if (verified.size >= POINT_CACHE) verified.clear();
  verified.set(key, ok);
  return ok;
}

/** Holder i's share as it reads it (decrypted, or derived), not yet checked; null if unreadable. */
export function holderShare(x: bigint, escrow: EscrowFields, derived: boolean, owner: string, holderKey: string, index: number): bigint | null {
  if (escrow.e === null) return null;
  const K = sharedPoint(x, escrow.e);
  if (K === null) return null;
  return derived ? derivedShare(K, owner, holderKey, index, escrow.e) : decryptShare(K, escrow.s[index - 1] ?? '', index);
}

/** The secret from the shares of all holders 1..m: Lagrange at 0 (Feldman) or their sum (derived). */
export function reconstructFor(shares: readonly bigint[], derived: boolean): bigint {
  return derived ? shares.reduce((a, b) => mod(a + b), 0n) : reconstructSecret(shares);
}

/**
 * A complaint by holder i (escrow key `holderKey`) against a commit by `owner` is valid iff its
 * proof pins K = x_i·E and the share read with K does not check: decrypted against the polynomial
 * (Feldman), or derived from K against S_i (derived). An honest commit can never draw one.
 */
export function complaintValidFor(
  holderKey: string,
  escrow: EscrowFields,
  derived: boolean,
  owner: string,
  index: number,
  complaint: ComplaintProof,
  context: string,
): boolean {
  if (!derived) return complaintValid(holderKey, escrow, index, complaint, context);
  if (escrow.e === null || index < 1 || index > escrow.c.length) return false;
  const key = `complaint5|${context}|${index}|${escrow.c.join(',')}|${escrow.e}|${owner}|${complaint.k}|${complaint.proof}|${holderKey}`;
  const have = verified.get(key);
  if (have !== undefined) return have;
  let ok = false;
  if (verifyShared(holderKey, escrow.e, complaint, context)) {
    const K = pointFromText(complaint.k)!;
    ok = !checkHolderShare(escrow, true, index, derivedShare(K, owner, holderKey, index, escrow.e));
  }
  if (verified.size >= POINT_CACHE) verified.clear();
  verified.set(key, ok);
  return ok;
}

// ---- A holder's work, done ahead ----------------------------------------------------------------

/** What a holder makes of its share of one commit. */
export interface HolderCheck {
  /** Its share, read (decrypted, or derived) and checked against the commit; null if it does not check. */
  readonly share: bigint | null;
  /** When the share does not check: the holder's complaint (K = x_i·E and its proof); null when it checks or E is no point. */
  readonly complaint: ComplaintProof | null;
}

const holderChecks = new Map<string, HolderCheck>();

/**
 * Holder i's share of the commit `commitId` (escrow `escrow` by `owner`), read with its secret `x`
 * and checked, and, when it does not check, its complaint (proveShared, for that commit).
 * Remembered by the commit id, the holder's escrow key `holderKey` (the public key of `x`) and its
 * index i: the id fixes the escrow, the owner and the version (`derived`), so the caller passes the
 * commit of that id, and the answer is the same remembered or not. The costly part (x_i·E: E is
 * new with every commit, so no table helps) can then be done as soon as the commit arrives, and a
 * phone's LOCK and REVEAL, in the critical path once the last commit is in, only read it.
 */
export function holderCheck(x: bigint, holderKey: string, commitId: string, escrow: EscrowFields, derived: boolean, owner: string, index: number): HolderCheck {
  const key = `${commitId}|${holderKey}|${index}`;
  const have = holderChecks.get(key);
  if (have !== undefined) return have;
  const read = holderShare(x, escrow, derived, owner, holderKey, index);
  const share = read !== null && checkHolderShare(escrow, derived, index, read) ? read : null;
  const complaint = share === null && escrow.e !== null ? proveShared(x, escrow.e, commitId) : null;
  const fresh: HolderCheck = { share, complaint };
  if (holderChecks.size >= POINT_CACHE) holderChecks.clear();
  holderChecks.set(key, fresh);
  return fresh;
}

/** Whether holderCheck has this commit's answer for this holder already (nothing is computed). */
export function holderChecked(holderKey: string, commitId: string, index: number): boolean {
  return holderChecks.has(`${commitId}|${holderKey}|${index}`);
}

/** Forgets remembered checks (benchmarks measure a cold start). */
export function clearEscrowMemos(): void {
  points.clear();
  verified.clear();
  keyTexts.clear();
  keyPoints.clear();
  holderChecks.clear();
  dealtAhead.clear();
}

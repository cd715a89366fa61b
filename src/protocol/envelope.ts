// The wire form of a log entry: signature (64 bytes) followed by the canonical payload bytes.
// The id is the hash of the payload alone, so a re-signed copy (ed25519 signatures are not
// unique in tweetnacl) is the same message, and duplicates collapse.
import { ed25519 } from '@noble/curves/ed25519.js';
import { concatBytes, fromHex, toHex } from './bytes';
import { canonicalDecode, canonicalEncode, hashHex } from './canonical';
import type { Identity } from './identity';
import { checkPayload, PROTOCOL_VERSION, type Payload, type PayloadBody } from './messages';
import { sealedHash } from './seal';

/**
 * The largest entry: it must cross a data channel as one Yjs update in one 64 KiB frame, with the
 * update's and the sync message's framing (a few dozen bytes) around it.
 */
export const MAX_MESSAGE_BYTES = 60 * 1024;
export const SIGNATURE_BYTES = 64;
const SIG = SIGNATURE_BYTES;

export interface Message<P extends Payload = Payload> {
  readonly id: string;
  readonly payload: P;
}

/** Checks a signature; implementations may cache by (id, signature) since the id covers the payload. */
export interface Verifier {
  verify(id: string, payload: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean;
}

/**
 * Ed25519 as RFC 8032 strict (@noble/curves, zip215 off: canonical encodings, S < ℓ, no small-order
 * key, the cofactored equation). Every phone runs this same check, so a peer's odd signature is
 * accepted by all honest phones or by none. (An honest signature passes any Ed25519 verifier.)
 */
export function checkSignature(payload: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== SIG || publicKey.length !== 32) return false;
  try {
    return ed25519.verify(signature, payload, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/** A signature check takes milliseconds, so a phone verifies each message once and remembers. */
export function cachedVerifier(check: (payload: Uint8Array, signature: Uint8Array, publicKey: Uint8Array) => boolean, limit = 200_000): Verifier {
  const good = new Set<string>();
  return {
    verify(id, payload, signature, publicKey) {
      const key = id + toHex(signature);
      if (good.has(key)) return true;
      if (!check(payload, signature, publicKey)) return false;
      if (good.size >= limit) good.clear();
      good.add(key);
      return true;
    },
  };
}

export const signatureVerifier: Verifier = cachedVerifier(checkSignature);

/**
 * Fills in protocol version and author, encodes canonically and signs. Ed25519 signatures are
 * deterministic: these are the bytes tweetnacl's sign.detached gives for the same key (a test
 * checks it), made with @noble/curves' precomputed base-point tables, several times faster.
 */
export function signMessage(identity: Identity, body: PayloadBody): Uint8Array {
  const payload = canonicalEncode({ ...body, v: PROTOCOL_VERSION, from: identity.id });
  return concatBytes(ed25519.sign(payload, identity.signSecretKey.subarray(0, 32)), payload);
}

/** The id a raw entry is listed under when it cannot even be parsed. */
export function rawId(bytes: Uint8Array): string {
  return hashHex(bytes);
}

export type Opened = { ok: true; message: Message } | { ok: false; id: string; reason: string };

/** An entry whose shape is right and whose signature is not yet checked. */
export interface ParsedEntry {
  readonly id: string;
  readonly payload: Payload;
  /** The signed bytes (the canonical payload). */
  readonly body: Uint8Array;
  readonly signature: Uint8Array;
}

export type Parsed = { ok: true; entry: ParsedEntry } | { ok: false; id: string; reason: string };

/** Everything openMessage checks except the signature; never throws. */
export function parseEntry(bytes: unknown): Parsed {
  if (!(bytes instanceof Uint8Array)) return { ok: false, id: 'not-bytes', reason: 'not-bytes' };
  if (bytes.length <= SIG) return { ok: false, id: rawId(bytes), reason: 'truncated' };
  if (bytes.length > MAX_MESSAGE_BYTES) return { ok: false, id: rawId(bytes), reason: 'too-large' };
  const signature = bytes.subarray(0, SIG);
  const body = bytes.subarray(SIG);
  const decoded = canonicalDecode(body);
  if (!decoded.ok) return { ok: false, id: rawId(bytes), reason: decoded.reason };
  const checked = checkPayload(decoded.value);
  const id = hashHex(body);
  if (!checked.ok) return { ok: false, id, reason: checked.reason };
  if ((checked.payload.type === 'commit' || checked.payload.type === 'lot-commit') && sealedHash(checked.payload.sealed) !== checked.payload.hash) return { ok: false, id, reason: 'commit-hash-mismatch' };
  return { ok: true, entry: { id, payload: checked.payload, body, signature } };
}

/** Whether the author named in the payload signed it. */
export function verifyEntry(entry: ParsedEntry, verifier: Verifier = signatureVerifier): boolean {
  const publicKey = fromHex(entry.payload.from);
  return publicKey !== null && verifier.verify(entry.id, entry.body, entry.signature, publicKey);
}

/** Parses and verifies one log entry; never throws. */
export function openMessage(bytes: unknown, verifier: Verifier = signatureVerifier): Opened {
  const parsed = parseEntry(bytes);
  if (!parsed.ok) return parsed;
  if (!verifyEntry(parsed.entry, verifier)) return { ok: false, id: rawId(bytes as Uint8Array), reason: 'bad-signature' };
  return { ok: true, message: { id: parsed.entry.id, payload: parsed.entry.payload } };
}

/**
 * What an entry of another protocol version says about itself (version, game, type), so a phone
 * can tell "a game made with another Pacto" from garbage; null if it is not even that.
 */
export function legacyEntry(bytes: unknown): { version: number; game: string; type: string } | null {
  if (!(bytes instanceof Uint8Array) || bytes.length <= SIG || bytes.length > MAX_MESSAGE_BYTES) return null;
  const decoded = canonicalDecode(bytes.subarray(SIG));
  if (!decoded.ok || typeof decoded.value !== 'object' || decoded.value === null) return null;
  const v = decoded.value as Record<string, unknown>;
  if (typeof v.v !== 'number' || typeof v.game !== 'string' || typeof v.type !== 'string' || v.v === PROTOCOL_VERSION) return null;
  return { version: v.v, game: v.game, type: v.type };
}

// The wire form of a log entry: signature (64 bytes) followed by the canonical payload bytes.
// The id is the hash of the payload alone, so a re-signed copy (ed25519 signatures are not
// unique in tweetnacl) is the same message, and duplicates collapse.
import { concatBytes, equalBytes, fromHex, toHex } from './bytes';
import { checkSignature, ruleRefusal, signEd25519, type NativeCheck } from './ed25519';
import { canonicalDecode, hashHex } from './canonical';
import { compactPayload, decodePayload, encodePayload, expandWire, isBinaryPayload, peekBinary, type WireContext } from './codec';
import type { Identity } from './identity';
import { checkPayload, JSON_VERSION, PROTOCOL_VERSION, READABLE_VERSIONS, type Payload, type PayloadBody } from './messages';
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
  /**
   * Where the readers using this verifier (its own check ahead, the admission, openMessage,
   * openLog) find each entry read once (`Readings`); none: each reads the bytes afresh.
   */
  readonly readings?: Readings;
}

/**
 * Entries already read on this phone, each by its exact signed bytes: the signature and the signed
 * payload bytes (for a compact entry, the bytes its context rebuilt, which name the game and the
 * author's key). What parseSigned makes of an entry is a function of those bytes alone, so a
 * reading found here is the one a fresh read would give, and two byte strings never share one (the
 * lookup compares every byte). It saves the decoding, the canonical re-encoding and the hash of an
 * entry its other readers do after the first (src/protocol/README.md, "Reading an entry once").
 *
 * Only readings of entries whose signature held (verifyEntry, the check ahead) or that the
 * admission kept are remembered: bytes a peer makes up cost nothing here. The memory is bounded
 * (READING_LIMITS, the least recently used forgotten first): a peer signing many entries with its
 * own keys can push readings out, and then they are read again, with the same result.
 */
export interface Readings {
  /** The reading of `body` signed with `signature`, if remembered. */
  get(signature: Uint8Array, body: Uint8Array): { readonly id: string; readonly payload: Payload } | undefined;
  /** Remembers an entry's reading. */
  keep(entry: ParsedEntry): void;
}

/** The most entries and bytes (of signatures and signed bytes, kept as copies) Readings remembers. */
export const READING_LIMITS = { entries: 8192, bytes: 8 * 1024 * 1024 } as const;

interface Reading {
  readonly body: Uint8Array;
  readonly id: string;
  readonly payload: Payload;
}

/** A Readings in memory: per signature (as a binary string) the few signed byte strings read under it. */
export function readingMemo(limits: { readonly entries: number; readonly bytes: number } = READING_LIMITS): Readings {
  const bySignature = new Map<string, Reading[]>();
  let entries = 0;
  let bytes = 0;
  const keyOf = (signature: Uint8Array) => String.fromCharCode(...signature);
  const find = (list: readonly Reading[] | undefined, body: Uint8Array) => list?.find((r) => equalBytes(r.body, body));
  return {
    get(signature, body) {
      const key = keyOf(signature);
      const list = bySignature.get(key);
      const found = find(list, body);
      if (found === undefined) return undefined;
      // Most recently used last.
      bySignature.delete(key);
      bySignature.set(key, list!);
      return found;
    },
    keep(entry) {
      const key = keyOf(entry.signature);
      const list = bySignature.get(key) ?? [];
      bySignature.delete(key);
      bySignature.set(key, list);
      if (find(list, entry.body) !== undefined) return;
      // One signature stands for one message; more than a few under one are a peer's variants.
      if (list.length >= 4) {
        const gone = list.shift()!;
        entries--;
        bytes -= SIG + gone.body.length;
      }
      // A copy: the entry's bytes may be a view into a larger buffer (a Yjs update).
      list.push({ body: entry.body.slice(), id: entry.id, payload: entry.payload });
      entries++;
      bytes += SIG + entry.body.length;
      while (entries > limits.entries || bytes > limits.bytes) {
        const [oldest, readings] = bySignature.entries().next().value!;
        bySignature.delete(oldest);
        entries -= readings.length;
        for (const r of readings) bytes -= SIG + r.body.length;
      }
    },
  };
}

/**
 * The protocol's signature check: the pinned acceptance rule, then the cofactorless equation, in
 * pure code (`ed25519.ts`; src/protocol/README.md, "Signatures"). Every phone runs this same rule,
 * so a peer's odd signature is accepted by all honest phones or by none.
 */
export { checkSignature };

/** A signature check takes milliseconds, so a phone verifies each message once and remembers. */
export function cachedVerifier(check: (payload: Uint8Array, signature: Uint8Array, publicKey: Uint8Array) => boolean, limit = 200_000): Verifier {
  const good = new Set<string>();
  // Failed checks too (README.md "Determinism and speed"): a compact entry is tried against each
  // key its place names, and every reader after the first asks again about the keys that failed.
  const bad = new Set<string>();
  return {
    readings: readingMemo(),
    verify(id, payload, signature, publicKey) {
      const key = id + toHex(signature);
      if (good.has(key)) return true;
      if (bad.has(key)) return false;
      const ok = check(payload, signature, publicKey);
      const into = ok ? good : bad;
      if (into.size >= limit) into.clear();
      into.add(key);
      return ok;
    },
  };
}

export const signatureVerifier: Verifier = cachedVerifier(checkSignature);

/** A verifier that can check entries ahead of time, asynchronously (with the platform's Ed25519). */
export interface PreparingVerifier extends Verifier {
  /**
   * Checks these entries' signatures now, with the platform's verifier where it has one, so that
   * verify() later finds the answers. Null when there is nothing to check (or no platform
   * verifier): verify() then checks in pure code. Never rejects.
   */
  prepare(entries: readonly Uint8Array[], ctx?: WireContext): Promise<void> | null;
}

/**
 * The acceptance rule in pure code first, then the platform's Ed25519 (`native`, resolved once;
 * null where the platform has none or it failed the known answers), asynchronously, as entries
 * arrive (`prepare`). verify() answers from what prepare() found and checks anything else in
 * pure code (checkSignature), with the same decision: the rule has refused every input on which
 * the two could differ.
 */
export function nativeFirstVerifier(native: Promise<NativeCheck | null>, limit = 200_000): PreparingVerifier {
  const known = new Map<string, boolean>();
  let platform: NativeCheck | null | undefined;
  void native.then(
    (n) => (platform = n),
    () => (platform = null),
  );
  const remember = (key: string, ok: boolean): void => {
    if (known.size >= limit) known.clear();
    known.set(key, ok);
  };
  const readings = readingMemo();
  return {
    readings,
    verify(id, payload, signature, publicKey) {
      const key = id + toHex(signature);
      const have = known.get(key);
      if (have !== undefined) return have;
      const ok = checkSignature(payload, signature, publicKey);
      remember(key, ok);
      return ok;
    },
    prepare(entries, ctx) {
      if (platform === null) return null;
      const todo: { key: string; entry: ParsedEntry; publicKey: Uint8Array }[] = [];
      for (const entry of entries.flatMap((bytes) => {
        const parsed = parseCandidates(bytes, ctx, readings);
        return parsed.ok ? parsed.entries : [];
      })) {
        const { id, signature, payload } = entry;
        const key = id + toHex(signature);
        const publicKey = fromHex(payload.from);
        if (known.has(key) || publicKey === null) continue;
        if (ruleRefusal(signature, publicKey) !== null) {
          remember(key, false);
          continue;
        }
        todo.push({ key, entry, publicKey });
      }
      if (todo.length === 0) return null;
      return native.then(
        async (check) => {
          if (check === null) return;
          await Promise.all(
            todo.map(async (t) => {
              let ok: boolean;
              try {
                ok = (await check(t.entry.body, t.entry.signature, t.publicKey)) === true;
              } catch {
                ok = false;
              }
              remember(t.key, ok);
              if (ok) readings.keep(t.entry);
            }),
          );
        },
        () => undefined,
      );
    },
  };
}

/**
 * Fills in protocol version and author, encodes (binary, codec.ts) and signs. Ed25519 signatures
 * are deterministic: these are the bytes tweetnacl's sign.detached gives for the same key
 * (tests/protocol/sign.test.ts), made by ed25519.ts signEd25519 with @noble/curves' precomputed
 * base-point tables and the key's expansion kept, several times faster.
 * Throws (CodecError) for a body that has no binary form: a bug of the caller.
 */
export function signMessage(identity: Identity, body: PayloadBody): Uint8Array {
  return signPayloadBytes(identity, encodePayload({ ...body, v: PROTOCOL_VERSION, from: identity.id } as Payload));
}

/**
 * A version 6 entry (signature ‖ signed payload) in its compact wire form (codec.ts
 * compactPayload): the author by its place in `keys` (the START's key list) when it is there. The
 * signature is kept as it is: it is over the signed payload, which the reader rebuilds.
 */
export function compactEntry(entry: Uint8Array, keys: readonly string[] | null): Uint8Array {
  return concatBytes(entry.subarray(0, SIG), compactPayload(entry.subarray(SIG), keys));
}

/** Signs payload bytes as they are: the entry is signature ‖ payload. */
export function signPayloadBytes(identity: Identity, payload: Uint8Array): Uint8Array {
  return concatBytes(signEd25519(payload, identity.signSecretKey), payload);
}

/**
 * The payload bytes read in the encoding their version uses, never re-encoded: canonical JSON for
 * version 2 (only version 2: a JSON payload of another version is another protocol), binary for
 * 3. Shape checks follow in checkPayload. Never throws.
 */
export function decodeBody(body: Uint8Array): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (isBinaryPayload(body)) return decodePayload(body);
  const decoded = canonicalDecode(body);
  if (!decoded.ok) return decoded;
  const v = (decoded.value as { v?: unknown } | null)?.v;
  if (typeof decoded.value === 'object' && decoded.value !== null && v !== JSON_VERSION) return { ok: false, reason: 'unknown-protocol-version' };
  return decoded;
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
export function parseEntry(bytes: unknown, ctx?: WireContext, verifier: Verifier = signatureVerifier): Parsed {
  const all = parseCandidates(bytes, ctx, verifier.readings);
  if (!all.ok || all.entries.length === 1) return all.ok ? { ok: true, entry: all.entries[0]! } : all;
  // A place named in two START lists with two keys (a creator who signed two STARTs): the one
  // expansion whose signature holds, if any (README.md "The compact wire form": at most one can).
  return { ok: true, entry: all.entries.find((e) => verifyEntry(e, verifier)) ?? all.entries[0]! };
}

/** Why wire bytes cannot be read yet, but may be once the reader holds a START: kept waiting, never forgotten for it. */
export function waitsForStart(reason: string): boolean {
  return reason === 'author-place-unknown';
}

/** Every reading of wire bytes (one unless a place names two keys across START lists), unchecked signatures. */
function parseCandidates(
  bytes: unknown,
  ctx: WireContext | undefined,
  readings: Readings | undefined,
): { ok: true; entries: ParsedEntry[] } | { ok: false; id: string; reason: string } {
  if (!(bytes instanceof Uint8Array)) return { ok: false, id: 'not-bytes', reason: 'not-bytes' };
  if (bytes.length <= SIG) return { ok: false, id: rawId(bytes), reason: 'truncated' };
  if (bytes.length > MAX_MESSAGE_BYTES) return { ok: false, id: rawId(bytes), reason: 'too-large' };
  const signature = bytes.subarray(0, SIG);
  const wire = bytes.subarray(SIG);
  const expanded = isBinaryPayload(wire) ? expandWire(wire, ctx) : ({ ok: true, signed: [wire] } as const);
  if (!expanded.ok) return { ok: false, id: rawId(bytes), reason: expanded.reason };
  const entries: ParsedEntry[] = [];
  for (const body of expanded.signed) {
    const known = readings?.get(signature, body);
    const one: Parsed =
      known === undefined ? parseSigned(bytes, body, signature) : { ok: true, entry: { id: known.id, payload: known.payload, body, signature } };
    if (!one.ok) return one;
    entries.push(one.entry);
  }
  return { ok: true, entries };
}

function parseSigned(bytes: Uint8Array, body: Uint8Array, signature: Uint8Array): Parsed {
  const decoded = decodeBody(body);
  if (!decoded.ok) return { ok: false, id: decoded.reason === 'unknown-protocol-version' ? hashHex(body) : rawId(bytes), reason: decoded.reason };
  const checked = checkPayload(decoded.value);
  const id = hashHex(body);
  if (!checked.ok) return { ok: false, id, reason: checked.reason };
  // A binary payload carries no hash: codec.ts reads it as the hash of the sealed bytes it read
  // (so hashing them again here would only repeat it); a JSON (version 2) one carries it, checked.
  const p = checked.payload;
  if ((p.type === 'commit' || p.type === 'lot-commit') && !isBinaryPayload(body) && sealedHash(p.sealed) !== p.hash)
    return { ok: false, id, reason: 'commit-hash-mismatch' };
  return { ok: true, entry: { id, payload: checked.payload, body, signature } };
}

/** Whether the author named in the payload signed it. */
export function verifyEntry(entry: ParsedEntry, verifier: Verifier = signatureVerifier): boolean {
  const publicKey = fromHex(entry.payload.from);
  const ok = publicKey !== null && verifier.verify(entry.id, entry.body, entry.signature, publicKey);
  if (ok) verifier.readings?.keep(entry);
  return ok;
}

/**
 * Parses and verifies one log entry; never throws. `ctx`: the game and its START key lists, which
 * a version 6 entry (other than a CREATE) needs to be read (codec.ts expandWire).
 */
export function openMessage(bytes: unknown, verifier: Verifier = signatureVerifier, ctx?: WireContext): Opened {
  const parsed = parseEntry(bytes, ctx, verifier);
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
  const body = bytes.subarray(SIG);
  if (isBinaryPayload(body)) {
    const peek = peekBinary(body);
    return peek === null || READABLE_VERSIONS.includes(peek.version) ? null : peek;
  }
  const decoded = canonicalDecode(body);
  if (!decoded.ok || typeof decoded.value !== 'object' || decoded.value === null) return null;
  const v = decoded.value as Record<string, unknown>;
  if (typeof v.v !== 'number' || typeof v.game !== 'string' || typeof v.type !== 'string' || READABLE_VERSIONS.includes(v.v)) return null;
  return { version: v.v, game: v.game, type: v.type };
}

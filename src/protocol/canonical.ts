// Deterministic JSON: the one byte form of every signed payload and of every hashed state.
// Keys sorted by code unit, no whitespace, integers only; undefined object fields are dropped
// (as JSON does) so optional fields need no special casing, anything else non-JSON is refused.
import nacl from 'tweetnacl';
import { fromUtf8, toHex, utf8 } from './bytes';

export type Canonical = null | boolean | number | string | readonly Canonical[] | { readonly [key: string]: Canonical | undefined };

export class CanonicalError extends Error {}

/**
 * The canonical text of a value, built as one string (this runs for every state hash and memo
 * key of a rebuild). Arrays are read exactly as the forEach this replaced read them: a hole is
 * skipped (never met: no payload or position has one), an undefined element refused.
 */
function write(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(value)) throw new CanonicalError(`not a safe integer: ${value}`);
      return String(value === 0 ? 0 : value);
    case 'string':
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new CanonicalError(`not canonical JSON: ${typeof value}`);
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) continue;
      const item: unknown = value[i];
      if (i > 0) out += ',';
      if (item === undefined) throw new CanonicalError('undefined in array');
      out += write(item);
    }
    return out + ']';
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new CanonicalError(`not canonical JSON: ${typeof value}`);
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((k) => record[k] !== undefined)
    .sort();
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    if (i > 0) out += ',';
    out += JSON.stringify(keys[i]) + ':' + write(record[keys[i]!]);
  }
  return out + '}';
}

export function canonicalText(value: unknown): string {
  return write(value);
}

/** Throws CanonicalError for floats, NaN, undefined in arrays, class instances, functions. */
export function canonicalEncode(value: unknown): Uint8Array {
  return utf8(canonicalText(value));
}

/** Parses only bytes that are exactly the canonical encoding of what they parse to. */
export function canonicalDecode(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false; reason: string } {
  const text = fromUtf8(bytes);
  if (text === null) return { ok: false, reason: 'not-utf8' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'not-json' };
  }
  try {
    if (canonicalText(value) !== text) return { ok: false, reason: 'not-canonical' };
  } catch {
    return { ok: false, reason: 'not-canonical' };
  }
  return { ok: true, value };
}

/** SHA-512 truncated to 16 bytes (128 bits), hex: message ids, commit hashes, state hashes. */
export function hashHex(bytes: Uint8Array): string {
  return toHex(nacl.hash(bytes).subarray(0, 16));
}

export function stateHash(value: unknown): string {
  return hashHex(canonicalEncode(value));
}

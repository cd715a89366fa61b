// Deterministic JSON: the one byte form of every signed payload and of every hashed state.
// Keys sorted by code unit, no whitespace, integers only; undefined object fields are dropped
// (as JSON does) so optional fields need no special casing, anything else non-JSON is refused.
import nacl from 'tweetnacl';
import { fromUtf8, toHex, utf8 } from './bytes';

export type Canonical = null | boolean | number | string | readonly Canonical[] | { readonly [key: string]: Canonical | undefined };

export class CanonicalError extends Error {}

function write(value: unknown, out: string[]): void {
  if (value === null) out.push('null');
  else if (typeof value === 'boolean') out.push(value ? 'true' : 'false');
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new CanonicalError(`not a safe integer: ${value}`);
    out.push(String(value === 0 ? 0 : value));
  } else if (typeof value === 'string') out.push(JSON.stringify(value));
  else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, i) => {
      if (i > 0) out.push(',');
      if (item === undefined) throw new CanonicalError('undefined in array');
      write(item, out);
    });
    out.push(']');
  } else if (typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((k) => record[k] !== undefined)
      .sort();
    out.push('{');
    keys.forEach((k, i) => {
      if (i > 0) out.push(',');
      out.push(JSON.stringify(k), ':');
      write(record[k], out);
    });
    out.push('}');
  } else throw new CanonicalError(`not canonical JSON: ${typeof value}`);
}

export function canonicalText(value: unknown): string {
  const out: string[] = [];
  write(value, out);
  return out.join('');
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

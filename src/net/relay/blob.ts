// Sealing a Yjs update for a relay, and opening what a relay hands back. Pure (tweetnacl).
//
//   blob = 0x01 || nonce (24 random bytes) || secretbox(key, nonce, length (4 bytes, LE) || update || zeros)
//
// The plaintext is padded to a Padmé size (at most 12% larger, never below 256 bytes) so blob
// sizes say less about what is inside: a commit, a reveal and a chat line of similar length fall
// in the same few sizes. Opening never throws: a blob that fails to open says why.
import nacl from 'tweetnacl';

export const BLOB_VERSION = 1;
const NONCE = nacl.secretbox.nonceLength;
/** Bytes a blob spends besides its padded plaintext: version, nonce, MAC. */
export const BLOB_OVERHEAD = 1 + NONCE + nacl.secretbox.overheadLength;
const LENGTH_PREFIX = 4;
const MIN_PADDED = 256;

/** Padmé (Nikitin et al., "Reducing metadata leakage from encrypted files and communication with
 *  PURBs", 2019): keeps the top bits of the length, zeroes the rest; leaks O(log log n) bits. */
export function paddedLength(n: number): number {
  if (n <= MIN_PADDED) return MIN_PADDED;
  const e = Math.floor(Math.log2(n));
  const s = Math.floor(Math.log2(e)) + 1;
  const zeroBits = e - s;
  const mask = 2 ** zeroBits - 1;
  return Math.floor((n + mask) / (mask + 1)) * (mask + 1);
}

/** Size of the sealed blob of an update of `updateBytes` bytes. */
export function sealedLength(updateBytes: number): number {
  return BLOB_OVERHEAD + paddedLength(LENGTH_PREFIX + updateBytes);
}

export function sealBlob(key: Uint8Array, update: Uint8Array, random: (n: number) => Uint8Array = nacl.randomBytes): Uint8Array {
  const plain = new Uint8Array(paddedLength(LENGTH_PREFIX + update.length));
  new DataView(plain.buffer).setUint32(0, update.length, true);
  plain.set(update, LENGTH_PREFIX);
  const nonce = random(NONCE);
  const box = nacl.secretbox(plain, nonce, key);
  const out = new Uint8Array(1 + NONCE + box.length);
  out[0] = BLOB_VERSION;
  out.set(nonce, 1);
  out.set(box, 1 + NONCE);
  return out;
}

export type BlobProblem = 'too-short' | 'unknown-version' | 'does-not-open' | 'bad-length';

export type OpenedBlob = { readonly ok: true; readonly update: Uint8Array } | { readonly ok: false; readonly problem: BlobProblem };

export function openBlob(key: Uint8Array, blob: Uint8Array): OpenedBlob {
  if (blob.length < BLOB_OVERHEAD + LENGTH_PREFIX) return { ok: false, problem: 'too-short' };
  if (blob[0] !== BLOB_VERSION) return { ok: false, problem: 'unknown-version' };
  const plain = nacl.secretbox.open(blob.subarray(1 + NONCE), blob.subarray(1, 1 + NONCE), key);
  if (!plain) return { ok: false, problem: 'does-not-open' };
  const length = new DataView(plain.buffer, plain.byteOffset, plain.byteLength).getUint32(0, true);
  if (length > plain.length - LENGTH_PREFIX) return { ok: false, problem: 'bad-length' };
  return { ok: true, update: plain.slice(LENGTH_PREFIX, LENGTH_PREFIX + length) };
}

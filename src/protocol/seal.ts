// Sealed orders: the plaintext {orders, draw?, coin?, pad} is padded to a size that depends only on
// the public board, then sealed with secretbox under a key derived from a secret scalar s. The
// commit carries the sealed bytes, their hash, and the escrow of s (escrow.ts: C_0 = s·G binds the
// one key that opens the box). The owner's REVEAL releases s; or all share holders together do.
import nacl from 'tweetnacl';
import { adjustmentsNeeded, type Order, type Position, type Power } from '../rules';
import { concatBytes, fromBase64, toBase64, utf8 } from './bytes';
import { canonicalDecode, hashHex } from './canonical';
import { scalarToBytes } from './escrow';
import { JSON_VERSION, PROTOCOL_VERSION } from './messages';
import { checkOrders } from './orders';
import { FIXED_BYTES, lotPlain, lotValueFromBinaryPlain, ORDER_BYTES, ordersFromBinaryPlain, ordersPlain, PLAIN_TAG } from './plain';

const NONCE = nacl.secretbox.nonceLength;
const OVERHEAD = NONCE + nacl.secretbox.overheadLength;

/** Bytes of a coin sealed with the orders for the two-player toss (variants.ts). */
export const COIN_BYTES = 32;
/** Bytes of a lot value. */
export const LOT_VALUE_BYTES = 32;

/** The secretbox key of a commit: a hash of its secret scalar. */
export function sealKey(secret: bigint): Uint8Array {
  return nacl.hash(concatBytes(utf8('pacto-seal-key'), scalarToBytes(secret))).subarray(0, nacl.secretbox.keyLength);
}

/**
 * The padded plaintext size for k public units of account: the power's units (movement), its
 * dislodged units (retreat), |adjustment delta| (adjustment); 0 for a lot value. Version 3 (binary
 * plaintext, plain.ts): an order takes at most ORDER_BYTES, the fields around them FIXED_BYTES, in
 * steps of 32. Version 2 (JSON, commits of old logs): the longest legal order is 120 bytes, 96
 * bytes cover the fields around the orders, in steps of 256.
 */
export function paddedSize(k: number, version: number = PROTOCOL_VERSION): number {
  if (version === JSON_VERSION) return 256 * Math.ceil((96 + 121 * Math.max(0, k)) / 256);
  return 32 * Math.ceil((FIXED_BYTES + ORDER_BYTES * Math.max(0, k)) / 32);
}

/** Above paddedSize(k) (no legal order set is): the next multiple of 256 (version 2: 1,024). */
const overflowStep = (version: number) => (version === JSON_VERSION ? 1024 : 256);

/** A plaintext longer than paddedSize(k) goes to the next multiple of the overflow step. */
export function paddedTo(k: number, length: number, version: number = PROTOCOL_VERSION): number {
  const base = paddedSize(k, version);
  const step = overflowStep(version);
  return length <= base ? base : step * Math.ceil(length / step);
}

/** How many things a power orders in a position: what its sealed orders are padded for (seal.ts). */
export function paddingUnits(position: Position, power: Power): number {
  switch (position.phase.kind) {
    case 'movement':
      return position.units.filter((u) => u.power === power).length;
    case 'retreat':
      return position.dislodged.filter((d) => d.unit.power === power).length;
    case 'adjustment':
      return Math.abs(adjustmentsNeeded(position)[power]);
  }
}

/** Whether a sealed field (base64url) has a size an honest phone makes for k, in the commit's protocol version. */
export function sealedSizeAllowed(sealed: string, k: number, version: number): boolean {
  // base64url without padding: 4 characters per 3 bytes, the rest as 2 or 3 characters.
  const bytes = Math.floor((sealed.length * 3) / 4);
  const plain = bytes - OVERHEAD;
  if (plain < 0) return false;
  const base = paddedSize(k, version);
  return plain === base || (plain > base && plain % overflowStep(version) === 0);
}

/** The plaintext followed by zero bytes up to `size(its length)`. */
function padded(plain: Uint8Array, size: (length: number) => number): Uint8Array {
  const out = new Uint8Array(size(plain.length));
  out.set(plain);
  return out;
}

export interface SealedBox {
  /** base64url(nonce || ciphertext) */
  readonly sealed: string;
  readonly hash: string;
}

function box(plain: Uint8Array, secret: bigint, nonce: Uint8Array): SealedBox {
  if (nonce.length !== NONCE) throw new Error('seal: nonce must be 24 bytes');
  const bytes = concatBytes(nonce, nacl.secretbox(plain, nonce, sealKey(secret)));
  return { sealed: toBase64(bytes), hash: hashHex(bytes) };
}

/** What a sealed order set carries. */
export interface OrdersContent {
  readonly orders: readonly Order[];
  /** Movement phases: the power's draw vote (rulebook II, secret until every vote is fixed). */
  readonly draw?: boolean;
  /** The two-player toss phase: 32 random bytes. */
  readonly coin?: Uint8Array;
}

/** Seals orders padded for k (see paddedSize). nonce: 24 random bytes from the caller. */
export function sealOrders(content: OrdersContent, k: number, secret: bigint, nonce: Uint8Array): SealedBox {
  if (content.coin !== undefined && content.coin.length !== COIN_BYTES) throw new Error('sealOrders: coin must be 32 bytes');
  return box(
    padded(ordersPlain(content), (n) => paddedTo(k, n)),
    secret,
    nonce,
  );
}

/** Seals a lot value (32 bytes), padded like an empty order set. */
export function sealLotValue(value: Uint8Array, secret: bigint, nonce: Uint8Array): SealedBox {
  if (value.length !== LOT_VALUE_BYTES) throw new Error('sealLotValue: the value must be 32 bytes');
  return box(
    padded(lotPlain(value), (n) => paddedTo(0, n)),
    secret,
    nonce,
  );
}

export function sealedHash(sealed: string): string | null {
  const bytes = fromBase64(sealed);
  return bytes === null ? null : hashHex(bytes);
}

/** The plaintext, or null if the secret's key does not open the box. */
export function openSealed(sealed: string, secret: bigint): Uint8Array | null {
  const bytes = fromBase64(sealed);
  if (bytes === null || bytes.length < NONCE) return null;
  return nacl.secretbox.open(bytes.subarray(NONCE), bytes.subarray(0, NONCE), sealKey(secret));
}

function record(plain: Uint8Array, allowed: readonly string[]): Record<string, unknown> | null {
  const decoded = canonicalDecode(plain);
  if (!decoded.ok) return null;
  const value = decoded.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const r = value as Record<string, unknown>;
  if (Object.keys(r).some((k) => !allowed.includes(k)) || typeof r.pad !== 'string' || !/^x*$/.test(r.pad)) return null;
  return r;
}

export interface OpenedOrders {
  readonly orders: Order[];
  readonly draw: boolean;
  readonly coin: Uint8Array | null;
}

/** The content of an opened order plaintext (binary, or JSON in version-2 commits), or null if it is not one. */
export function ordersFromPlain(plain: Uint8Array): OpenedOrders | null {
  if (plain[0] === PLAIN_TAG) return ordersFromBinaryPlain(plain, COIN_BYTES);
  const r = record(plain, ['orders', 'draw', 'coin', 'pad']);
  if (r === null) return null;
  const orders = checkOrders(r.orders);
  if (orders === null) return null;
  if (r.draw !== undefined && typeof r.draw !== 'boolean') return null;
  let coin: Uint8Array | null = null;
  if (r.coin !== undefined) {
    coin = typeof r.coin === 'string' ? fromBase64(r.coin) : null;
    if (coin === null || coin.length !== COIN_BYTES) return null;
  }
  return { orders, draw: r.draw === true, coin };
}

export function lotValueFromPlain(plain: Uint8Array): Uint8Array | null {
  if (plain[0] === PLAIN_TAG) return lotValueFromBinaryPlain(plain, LOT_VALUE_BYTES);
  const r = record(plain, ['value', 'pad']);
  if (r === null || typeof r.value !== 'string') return null;
  const value = fromBase64(r.value);
  return value !== null && value.length === LOT_VALUE_BYTES ? value : null;
}

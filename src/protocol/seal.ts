// Sealed orders: secretbox under a fresh key per commit. The commit carries only the sealed
// bytes and their hash; the key travels in the reveal, once the revealer has seen everyone's commit.
import nacl from 'tweetnacl';
import type { Order } from '../rules';
import { concatBytes, fromBase64, toBase64 } from './bytes';
import { canonicalDecode, canonicalEncode, hashHex } from './canonical';
import { checkOrders } from './orders';

export interface Sealed {
  /** base64url(nonce || ciphertext) */
  readonly sealed: string;
  readonly hash: string;
  /** hashHex of the key. secretbox does not commit to its key (one ciphertext can be made to open
   *  under two keys to two texts), so the commit names its key's hash and the reveal must match it. */
  readonly keyHash: string;
}

const NONCE = nacl.secretbox.nonceLength;

/** Bytes of a coin sealed with the orders for the two-player toss (variants.ts). */
export const COIN_BYTES = 32;

/**
 * key: 32 fresh random bytes, nonce: 24 random bytes, both from the caller (nacl.randomBytes).
 * coin: 32 random bytes, only in the phase of a two-player toss; the plaintext is then
 * {coin, orders} instead of the bare order list, so it is sealed and revealed with the orders.
 */
export function sealOrders(orders: readonly Order[], key: Uint8Array, nonce: Uint8Array, coin?: Uint8Array): Sealed {
  if (key.length !== nacl.secretbox.keyLength || nonce.length !== NONCE) throw new Error('sealOrders: key must be 32 bytes, nonce 24');
  if (coin !== undefined && coin.length !== COIN_BYTES) throw new Error('sealOrders: coin must be 32 bytes');
  const plain = coin === undefined ? orders : { coin: toBase64(coin), orders };
  const bytes = concatBytes(nonce, nacl.secretbox(canonicalEncode(plain), nonce, key));
  return { sealed: toBase64(bytes), hash: hashHex(bytes), keyHash: hashHex(key) };
}

export function sealedHash(sealed: string): string | null {
  const bytes = fromBase64(sealed);
  return bytes === null ? null : hashHex(bytes);
}

/** The plaintext, or null if the key does not open the box. */
export function openSealed(sealed: string, key: Uint8Array): Uint8Array | null {
  const bytes = fromBase64(sealed);
  if (bytes === null || bytes.length < NONCE || key.length !== nacl.secretbox.keyLength) return null;
  return nacl.secretbox.open(bytes.subarray(NONCE), bytes.subarray(0, NONCE), key);
}

/** The orders inside, or null if the key does not open the box or what is inside is not an order list. */
export function openOrders(sealed: string, key: Uint8Array): Order[] | null {
  const plain = openSealed(sealed, key);
  if (plain === null) return null;
  return ordersFromPlain(plain);
}

export function ordersFromPlain(plain: Uint8Array): Order[] | null {
  return contentOf(plain)?.orders ?? null;
}

/** The coin sealed with the orders, or null if there is none (or the plaintext is malformed). */
export function coinFromPlain(plain: Uint8Array): Uint8Array | null {
  return contentOf(plain)?.coin ?? null;
}

function contentOf(plain: Uint8Array): { orders: Order[]; coin: Uint8Array | null } | null {
  const decoded = canonicalDecode(plain);
  if (!decoded.ok) return null;
  const value = decoded.value;
  if (Array.isArray(value)) {
    const orders = checkOrders(value);
    return orders === null ? null : { orders, coin: null };
  }
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  if (Object.keys(record).some((k) => k !== 'coin' && k !== 'orders') || typeof record.coin !== 'string') return null;
  const orders = checkOrders(record.orders);
  const coin = fromBase64(record.coin);
  if (orders === null || coin === null || coin.length !== COIN_BYTES) return null;
  return { orders, coin };
}

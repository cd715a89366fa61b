// Push subscriptions as the relay stores them: sealed under a key derived from the room's token,
// which the relay holds only while a request that carries it is open (the store keeps the room id,
// a hash of the token). A device's endpoint is the same in every game it plays, so stored in clear
// it let a reader of the disk alone link rooms to one device; sealed, each room's record is an
// HMAC of the endpoint under that room's key and a secretbox of the subscription, unlinkable
// without the rooms' tokens. Records written before (in clear) are still read, and replaced the
// next time their device registers.
import { createHmac } from 'node:crypto';
import nacl from 'tweetnacl';
import { fromBase64, toBase64 } from '../../../protocol';
import { parseStoredPush, type StoredPush } from './store';

const SEALED = 'sealed:';

/** The room's push key: HMAC-SHA-256 of the token under a fixed domain. */
function keyOf(token: string): Buffer {
  return createHmac('sha256', 'pacto-relay-push-seal').update(token).digest();
}

/** How a sealed subscription of `endpoint` is named in the room (stable: a second registration replaces it). */
export function sealedEndpointId(token: string, endpoint: string): string {
  return SEALED + createHmac('sha256', keyOf(token)).update(endpoint).digest('hex');
}

/** The record stored for `sub` in the room whose token is `token`. */
export function sealPush(token: string, sub: StoredPush): StoredPush {
  const nonce = nacl.randomBytes(nacl.secretbox.nonceLength);
  const box = nacl.secretbox(new TextEncoder().encode(JSON.stringify(sub)), nonce, new Uint8Array(keyOf(token)));
  const sealed = new Uint8Array(nonce.length + box.length);
  sealed.set(nonce);
  sealed.set(box, nonce.length);
  return { endpoint: sealedEndpointId(token, sub.endpoint), p256dh: toBase64(sealed), auth: '' };
}

/** The subscription a stored record holds (a record from before sealing as it is), or null if it does not open. */
export function openPush(token: string, stored: StoredPush): StoredPush | null {
  if (!stored.endpoint.startsWith(SEALED)) return stored;
  const bytes = fromBase64(stored.p256dh);
  if (bytes === null || bytes.length <= nacl.secretbox.nonceLength) return null;
  const plain = nacl.secretbox.open(bytes.subarray(nacl.secretbox.nonceLength), bytes.subarray(0, nacl.secretbox.nonceLength), new Uint8Array(keyOf(token)));
  if (plain === null) return null;
  const sub = parseStoredPush(new TextDecoder().decode(plain));
  return sub !== null && sealedEndpointId(token, sub.endpoint) === stored.endpoint ? sub : null;
}

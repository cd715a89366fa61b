// What a phone derives from the invite to use a relay, and what the relay can check. Pure
// functions (tweetnacl's SHA-512), the same in browsers, service workers and Node.
//
//   secret = the invite's room password (128 random bits) and the game id
//   key    = H("pacto-relay-v1\nblob-key\n" gameId "\n" password)[0..32]   seals every blob
//   token  = H("pacto-relay-v1\naccess-token\n" gameId "\n" password)[0..32] proves the invite
//   room   = H("pacto-relay-v1\nroom-id\n" base64url(token))[0..32], hex     the relay's label
//   id     = H("pacto-relay-v1\nappend-id\n" key update)[0..16]             makes a retry idempotent
//   hint   = H("pacto-relay-v1\npush-hint\n" key)[0..32]                    seals push payloads
//
// Different labels make the outputs independent: knowing the token (as the relay does) tells
// nothing about the key, and the room id tells nothing about the token. The relay checks a
// request by recomputing `room` from the token it carries. Why this is enough: README.md here.
import nacl from 'tweetnacl';
import { toBase64, toHex } from '../../protocol';
import { concatBytes, utf8 } from '../../protocol/bytes';

const DOMAIN = 'pacto-relay-v1';

export interface RelayKeys {
  /** secretbox key for the game's blobs. Never leaves the phone. */
  readonly key: Uint8Array;
  /** Sent with every request; proves the sender holds the invite. base64url, 43 characters. */
  readonly token: string;
  /** The room the relay stores the game under: 64 hex characters. */
  readonly room: string;
}

export class RelayKeyError extends Error {}

function derive(label: string, ...parts: readonly string[]): Uint8Array {
  for (const p of parts) if (p.includes('\n')) throw new RelayKeyError('a relay key input cannot contain a line break');
  return nacl.hash(utf8([DOMAIN, label, ...parts].join('\n'))).slice(0, 32);
}

export function relayKeysFor(gameId: string, password: string): RelayKeys {
  if (gameId === '' || password === '') throw new RelayKeyError('a relay key needs the game id and the room password');
  const token = toBase64(derive('access-token', gameId, password));
  return { key: derive('blob-key', gameId, password), token, room: roomIdForToken(token) };
}

/** The one place the relay and the phones compute a room from a token. */
export function roomIdForToken(token: string): string {
  return toHex(derive('room-id', token));
}

/** Same update, same key: same id, so a resent append is stored once. Keyed, so the id says
 *  nothing about the update to the relay. base64url, 22 characters. */
export function appendIdFor(key: Uint8Array, update: Uint8Array): string {
  return toBase64(nacl.hash(concatBytes(utf8(`${DOMAIN}\nappend-id\n`), key, update)).slice(0, 16));
}

/** The key that seals a push's hint (client.ts `sealPushHint`): derived from the blob key under
 *  its own label, so a hint can never be taken for a blob or a blob for a hint. */
export function pushHintKeyFor(key: Uint8Array): Uint8Array {
  return nacl.hash(concatBytes(utf8(`${DOMAIN}\npush-hint\n`), key)).slice(0, 32);
}

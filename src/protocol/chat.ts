// Private chat: the text is sealed once under a fresh key, and that key is boxed to each
// recipient's curve25519 key (from their JOIN), so the log carries it without anyone else reading it.
import nacl from 'tweetnacl';
import { concatBytes, fromBase64, fromHex, fromUtf8, toBase64, utf8 } from './bytes';
import type { Identity } from './identity';
import type { ChatPayload } from './messages';

export interface ChatRecipient {
  /** Signing key (hex): how the recipient is named. */
  readonly key: string;
  /** curve25519 box key (hex), from the recipient's JOIN. */
  readonly box: string;
}

/** messageKey: 32 random bytes; nonce: 24 random bytes (both from the caller). */
export function sealChat(
  text: string,
  sender: Identity,
  recipients: readonly ChatRecipient[],
  messageKey: Uint8Array,
  nonce: Uint8Array,
): Pick<ChatPayload, 'keys' | 'nonce' | 'sealed'> {
  const keys: Record<string, string> = {};
  for (const r of [...recipients, { key: sender.id, box: sender.boxPublicKey }]) {
    const box = fromHex(r.box);
    if (box === null || box.length !== 32) throw new Error(`bad box key for ${r.key}`);
    keys[r.key] = toBase64(nacl.box(messageKey, nonce, box, sender.boxSecretKey));
  }
  return { keys, nonce: toBase64(nonce), sealed: toBase64(nacl.secretbox(utf8(text), nonce, messageKey)) };
}

/** The text, if this identity is a recipient and the box opens; senderBox is the author's box key (hex). */
export function openChat(payload: Pick<ChatPayload, 'keys' | 'nonce' | 'sealed'>, senderBox: string, me: Identity): string | null {
  const boxed = payload.keys[me.id];
  const nonce = fromBase64(payload.nonce);
  const sealed = fromBase64(payload.sealed);
  const senderKey = fromHex(senderBox);
  if (boxed === undefined || nonce === null || sealed === null || senderKey === null || nonce.length !== 24 || senderKey.length !== 32) return null;
  const boxedBytes = fromBase64(boxed);
  if (boxedBytes === null) return null;
  const messageKey = nacl.box.open(boxedBytes, nonce, senderKey, me.boxSecretKey);
  if (messageKey === null) return null;
  const plain = nacl.secretbox.open(sealed, nonce, messageKey);
  return plain === null ? null : fromUtf8(concatBytes(plain));
}

// Private chat with hidden recipients. The plaintext {to, text, time, pad} is padded to a fixed
// bucket and sealed once under a fresh message key; the entry carries a box for EVERY player of the
// game (always the same set): recipients' boxes hold the message key, the others' a fresh random
// 32-byte value (boxes of 32-byte values look alike). So the log shows who sent a chat, never to
// whom, how long, or when it was written (the public `time` is 0; the real claim is inside).
// "To all" means the players of the game (chatPlayers), never someone who only joined.
import nacl from 'tweetnacl';
import { compareText, concatBytes, fromBase64, fromHex, toBase64 } from './bytes';
import { canonicalDecode, canonicalEncode } from './canonical';
import type { Identity } from './identity';
import type { ChatPayload } from './messages';
import type { GameView } from './view';

export interface ChatRecipient {
  /** Signing key (hex): how the recipient is named. */
  readonly key: string;
  /** curve25519 box key (hex), from the recipient's JOIN. */
  readonly box: string;
}

/** Plaintext sizes a chat is padded to; a longer text is refused. */
export const CHAT_SIZES = [512, 2048, 8192, 32768] as const;

export interface ChatContent {
  /** The recipients (keys, sorted), or 'all': every player of the game. */
  readonly to: readonly string[] | 'all';
  readonly text: string;
  /** The sender's clock when it wrote the message. */
  readonly time: number;
}

/**
 * The players a chat is boxed to: the game's members (START roster or participants) and every key a
 * hand-over made a holder; before any START, everyone who joined. Spectators are never among them.
 */
export function chatPlayers(view: GameView): ChatRecipient[] {
  const keys = view.start === undefined ? view.players.map((p) => p.key) : view.members;
  return view.players
    .filter((p) => keys.includes(p.key))
    .map((p) => ({ key: p.key, box: p.box }))
    .sort((a, b) => compareText(a.key, b.key));
}

/** The smallest bucket the plaintext fits, or null if it is too long. */
function padded(content: ChatContent): Uint8Array | null {
  const to = content.to === 'all' ? 'all' : [...new Set(content.to)].sort(compareText);
  const bare = canonicalEncode({ pad: '', text: content.text, time: content.time, to }).length;
  const size = CHAT_SIZES.find((s) => s >= bare);
  if (size === undefined) return null;
  return canonicalEncode({ pad: 'x'.repeat(size - bare), text: content.text, time: content.time, to });
}

/**
 * Seals a chat for `players` (chatPlayers of the view; the sender among them). `random(n)` gives
 * n random bytes (the caller's source). Throws on a text over the largest bucket or a bad box key.
 */
export function sealChat(
  content: ChatContent,
  sender: Identity,
  players: readonly ChatRecipient[],
  random: (n: number) => Uint8Array,
): Pick<ChatPayload, 'keys' | 'nonce' | 'sealed'> {
  const plain = padded(content);
  if (plain === null) throw new Error('the message is too long');
  const messageKey = random(32);
  const nonce = random(24);
  const to = content.to === 'all' ? null : new Set([...content.to, sender.id]);
  const keys: Record<string, string> = {};
  for (const r of players) {
    const box = fromHex(r.box);
    if (box === null || box.length !== 32) throw new Error(`bad box key for ${r.key}`);
    const value = to === null || to.has(r.key) ? messageKey : random(32);
    keys[r.key] = toBase64(nacl.box(value, nonce, box, sender.boxSecretKey));
  }
  return { keys, nonce: toBase64(nonce), sealed: toBase64(nacl.secretbox(plain, nonce, messageKey)) };
}

/** What `me` reads in a chat, or null when it is not a recipient (or the chat does not open). */
export function openChat(payload: Pick<ChatPayload, 'keys' | 'nonce' | 'sealed'>, senderBox: string, me: Identity): ChatContent | null {
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
  if (plain === null) return null;
  const decoded = canonicalDecode(concatBytes(plain));
  if (!decoded.ok || typeof decoded.value !== 'object' || decoded.value === null) return null;
  const v = decoded.value as Record<string, unknown>;
  const to = v.to === 'all' ? 'all' : Array.isArray(v.to) && v.to.every((k) => typeof k === 'string') ? (v.to as string[]) : null;
  if (to === null || typeof v.text !== 'string' || typeof v.time !== 'number' || typeof v.pad !== 'string') return null;
  return { to, text: v.text, time: v.time };
}

// The first message each side of a new table link sends, before the game's sync starts: which
// player's phone it is (its public key), which game it holds, and, from a phone inviting a
// newcomer, the game's invite link (game id and room password), which is how a guest who has no
// game yet learns it. The link is already private (DTLS, paired face to face by QR codes); the
// invite gives nothing the game's invite link would not.
//
// Bytes: 0x48 ('H') then UTF-8 JSON. Anything else as a first message, or a hello over 4 KiB,
// fails the greeting and the link is closed.
import type { TableLink } from './link';

const HELLO = 0x48;
const MAX_HELLO_BYTES = 4096;

export interface TableHello {
  readonly v: 1;
  /** The phone's player key (its identity). */
  readonly key: string;
  /** The game this phone holds; absent: none yet (a newcomer). */
  readonly gameId?: string;
  /** The game's invite link, sent by a phone that holds the game. */
  readonly invite?: string;
}

function encodeHello(h: TableHello): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(h));
  const out = new Uint8Array(json.length + 1);
  out[0] = HELLO;
  out.set(json, 1);
  return out;
}

export function decodeHello(bytes: Uint8Array): TableHello {
  if (bytes[0] !== HELLO || bytes.length > MAX_HELLO_BYTES) throw new Error('the other phone did not greet as a Pacto phone');
  let h: unknown;
  try {
    h = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(1)));
  } catch {
    throw new Error('the other phone sent an unreadable greeting');
  }
  const o = h as Record<string, unknown>;
  if (typeof o !== 'object' || o === null || o.v !== 1 || typeof o.key !== 'string' || o.key.length > 256)
    throw new Error('the other phone sent an unreadable greeting');
  if (o.gameId !== undefined && (typeof o.gameId !== 'string' || o.gameId.length > 256)) throw new Error('the other phone sent an unreadable greeting');
  if (o.invite !== undefined && typeof o.invite !== 'string') throw new Error('the other phone sent an unreadable greeting');
  return {
    v: 1,
    key: o.key,
    ...(o.gameId !== undefined ? { gameId: o.gameId as string } : {}),
    ...(o.invite !== undefined ? { invite: o.invite as string } : {}),
  };
}

/**
 * Sends our hello, waits for theirs, and hands back a link that delivers every later message
 * (messages that arrive before a listener is set are kept for it).
 */
export function greet(link: TableLink, mine: TableHello, timeoutMs = 20_000): Promise<{ hello: TableHello; link: TableLink }> {
  return new Promise((resolve, reject) => {
    let theirs: TableHello | undefined;
    const early: Uint8Array[] = [];
    const listeners: ((m: Uint8Array) => void)[] = [];
    const timer = setTimeout(() => {
      link.close();
      reject(new Error('the other phone did not greet in time'));
    }, timeoutMs);
    link.onMessage((m) => {
      if (theirs !== undefined) {
        if (listeners.length === 0) early.push(m);
        else for (const l of listeners) l(m);
        return;
      }
      try {
        theirs = decodeHello(m);
      } catch (e) {
        clearTimeout(timer);
        link.close();
        reject(e as Error);
        return;
      }
      clearTimeout(timer);
      resolve({
        hello: theirs,
        link: {
          send: (message) => link.send(message),
          onMessage: (listener) => {
            listeners.push(listener);
            for (const m of early.splice(0)) listener(m);
          },
          onClose: (listener) => link.onClose(listener),
          close: () => link.close(),
          get open() {
            return link.open;
          },
        },
      });
    });
    link.onClose(() => {
      clearTimeout(timer);
      if (theirs === undefined) reject(new Error('the other phone left before greeting'));
    });
    link.send(encodeHello(mine));
  });
}

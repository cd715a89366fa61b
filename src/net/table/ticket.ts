// The app's table QR code: a pairing code with a tag saying which game it belongs to, so a phone
// that scans the QR code of another game (another table, an old screenshot) says so before it
// tries to connect, instead of pairing with a stranger's game. Five bytes on top of the pairing code.
//
// Layout: 0x54 ('T'), then 4 bytes of SHA-512(game id) (all zero: "no game yet", a newcomer's
// answer), then the pairing code (pairing-code.ts). As text (typed or pasted when there is no
// camera) it is base64url, about 140 characters.
import nacl from 'tweetnacl';
import { decodePairingCode, type PairingCode } from './pairing-code';

const MAGIC = 0x54;
const TAG_BYTES = 4;
const NO_GAME = new Uint8Array(TAG_BYTES);

export type TicketProblem = 'not-pacto' | 'other-game' | 'wrong-kind';

export class TicketError extends Error {
  override readonly name = 'TicketError';
  constructor(
    readonly problem: TicketProblem,
    message: string,
  ) {
    super(message);
  }
}

export interface Ticket {
  /** Absent: the phone that made it is in no game yet. */
  readonly tag: Uint8Array | undefined;
  readonly code: Uint8Array;
  readonly pairing: PairingCode;
}

export function gameTag(gameId: string): Uint8Array {
  return nacl.hash(new TextEncoder().encode(`pacto table ${gameId}`)).subarray(0, TAG_BYTES);
}

function sameTag(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function encodeTicket(gameId: string | undefined, code: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + TAG_BYTES + code.length);
  out[0] = MAGIC;
  out.set(gameId === undefined ? NO_GAME : gameTag(gameId), 1);
  out.set(code, 1 + TAG_BYTES);
  return out;
}

/** Throws TicketError: not a Pacto table code at all, or (with `want`) the other kind of code. */
export function decodeTicket(bytes: Uint8Array, want?: 'offer' | 'answer'): Ticket {
  if (bytes.length < 1 + TAG_BYTES + 3 || bytes[0] !== MAGIC) throw new TicketError('not-pacto', 'not a Pacto table code');
  const tag = bytes.slice(1, 1 + TAG_BYTES);
  const code = bytes.slice(1 + TAG_BYTES);
  let pairing: PairingCode;
  try {
    pairing = decodePairingCode(code);
  } catch (e) {
    throw new TicketError('not-pacto', `not a Pacto table code: ${(e as Error).message}`);
  }
  if (want !== undefined && pairing.type !== want)
    throw new TicketError('wrong-kind', `expected ${want === 'offer' ? "an inviting phone's" : "an answering phone's"} code`);
  return { tag: sameTag(tag, NO_GAME) ? undefined : tag, code, pairing };
}

/**
 * Checks that a ticket may pair with this phone's game. `gameId` undefined: this phone is in no
 * game yet and follows whoever invites it. A newcomer's answer (no tag) fits any game.
 */
export function checkTicketGame(ticket: Ticket, gameId: string | undefined): void {
  if (gameId === undefined || ticket.tag === undefined) return;
  if (!sameTag(ticket.tag, gameTag(gameId))) throw new TicketError('other-game', 'this code belongs to another game');
}

export function ticketText(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Reads a typed or pasted code; spaces and line breaks are ignored. Throws TicketError. */
export function parseTicketText(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9_-]+$/.test(clean)) throw new TicketError('not-pacto', 'not a Pacto table code');
  let raw: string;
  try {
    raw = atob(clean.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    throw new TicketError('not-pacto', 'not a Pacto table code');
  }
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

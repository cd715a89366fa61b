// A realistic game log for speed tests: every power posts a few signed messages (commit,
// reveal, ack, chat) each phase, 1-2 KB each, one Y.Doc update per message as on a real phone.
// Entries are message bytes, as src/net stores them in the log. Seeded: every run stores the same bytes.
import * as Y from 'yjs';
import { prng } from '../../../../src/util/prng';

const POWERS = ['austria', 'england', 'france', 'germany', 'italy', 'russia', 'turkey'];
const KINDS = ['commit', 'reveal', 'ack', 'chat'];
const PHASES = ['spring-movement', 'fall-movement', 'winter-adjustment'];

function base64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

export interface LogShape {
  readonly years: number;
  readonly messagesPerPowerPhase: number;
}

export const TWENTY_YEARS: LogShape = { years: 20, messagesPerPowerPhase: 4 };

/** Appends the whole log to `doc`, one transaction per message; returns the number of messages. */
export function generateLog(doc: Y.Doc, shape: LogShape, seed = 1901): number {
  const next = prng(seed);
  const log = doc.getArray<Uint8Array>('log');
  const encoder = new TextEncoder();
  let n = 0;
  for (let year = 1901; year < 1901 + shape.years; year++) {
    for (const phase of PHASES) {
      for (const power of POWERS) {
        for (let k = 0; k < shape.messagesPerPowerPhase; k++) {
          // ~750-1500 random bytes; base64 makes the message 1-2 KB.
          const body = new Uint8Array(750 + Math.floor(next() * 750));
          for (let i = 0; i < body.length; i++) body[i] = Math.floor(next() * 256);
          const sig = new Uint8Array(64);
          for (let i = 0; i < sig.length; i++) sig[i] = Math.floor(next() * 256);
          const message = {
            v: 1,
            game: 'bench',
            phase: `${year}-${phase}`,
            power,
            seq: n,
            type: KINDS[k % KINDS.length],
            body: base64(body),
            sig: base64(sig),
          };
          log.push([encoder.encode(JSON.stringify(message))]);
          n++;
        }
      }
    }
  }
  return n;
}

/** The updates that generating the log emits, one per message. */
export function generateUpdates(shape: LogShape, seed = 1901): { updates: Uint8Array[]; messages: number; bytes: number } {
  const doc = new Y.Doc();
  const updates: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array) => updates.push(u));
  const messages = generateLog(doc, shape, seed);
  doc.destroy();
  return { updates, messages, bytes: updates.reduce((s, u) => s + u.length, 0) };
}

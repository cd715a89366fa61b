// Issue 17: a phone reads each entry's bytes once and every later reader (the admission, openMessage,
// openLog and the reducer) reuses that reading. A remembered reading must never stand for other
// bytes: a peer sends bytes with the signature (so the same prefix) of an admitted entry and another
// payload, the same payload under a forged signature, a compact entry naming another place or read
// in another game, an entry signed for another game, and sends each again after it was refused or
// admitted. Every reader on a phone that remembers must decide each of them exactly as a phone
// that reads everything afresh (a verifier that remembers nothing, a fresh memo per verifier).
import { describe, expect, it } from 'vitest';
import {
  Admission,
  cachedVerifier,
  checkSignature,
  gameMessages,
  openMessage,
  parseEntry,
  reduceLog,
  SIGNATURE_BYTES,
  type Opened,
  type Verifier,
  type WireContext,
} from '../../src/protocol';
import { playedCompactLog, typeOf } from './helpers';

const SIG = SIGNATURE_BYTES;
const flip = (b: Uint8Array, at: number): Uint8Array => {
  const out = b.slice();
  out[at]! ^= 1;
  return out;
};

/** What a reader decided, in a form two phones can compare. */
function opened(o: Opened): unknown {
  return o.ok ? { ok: true, id: o.message.id, payload: o.message.payload } : o;
}
function parsed(p: ReturnType<typeof parseEntry>): unknown {
  return p.ok ? { ok: true, id: p.entry.id, payload: p.entry.payload, body: [...p.entry.body] } : p;
}

/** Every reader of one phone, run over `offers` in order, then a reduce of everything offered. */
function readAll(gameId: string, offers: readonly Uint8Array[], verifier: Verifier, other: WireContext, me: string) {
  const admission = new Admission(gameId, { verifier });
  const decisions: unknown[] = [];
  for (const bytes of offers) {
    const arrived = Uint8Array.from(bytes);
    const ctx = admission.wireContext();
    // Readers before the admission (the check ahead reads with the same context) and after it.
    decisions.push({
      before: opened(openMessage(arrived, admission.verifier, ctx)),
      verdict: admission.offer(arrived),
      after: opened(openMessage(Uint8Array.from(bytes), admission.verifier, admission.wireContext())),
      parsed: parsed(parseEntry(Uint8Array.from(bytes), admission.wireContext(), admission.verifier)),
      // The same bytes read in another game (a compact entry is rebuilt with that game's id).
      elsewhere: opened(openMessage(Uint8Array.from(bytes), verifier, other)),
      raw: opened(openMessage(Uint8Array.from(bytes), verifier, admission.wireContext())),
    });
  }
  const admitted = admission.entries();
  const everything = [...admitted, ...offers.map((b) => Uint8Array.from(b))];
  const view = reduceLog(gameId, everything, { verifier: admission.verifier, me });
  const raw = reduceLog(
    gameId,
    offers.map((b) => Uint8Array.from(b)),
    { verifier, me },
  );
  return {
    decisions,
    admitted: admission.ids(),
    view: { stateHash: view.stateHash, ignored: view.ignored, status: view.status },
    raw: { stateHash: raw.stateHash, ignored: raw.ignored, status: raw.status },
    messages: [...gameMessages(gameId, everything, admission.verifier).keys()].sort(),
  };
}

describe('a reading remembered for some bytes never stands for other bytes', () => {
  it('forged variants of admitted entries, sent before and after them and again, are decided as without any memory', () => {
    const { gameId, log, keys } = playedCompactLog(23);
    const elsewhere = playedCompactLog(24);
    const startAt = log.findIndex((b) => typeOf(b) === 'start');
    const pick = (type: string) => log.find((b, i) => i > startAt && typeOf(b) === type) ?? log.find((b) => typeOf(b) === type)!;
    const join = log.find((b) => typeOf(b) === 'join')!;
    const start = log[startAt]!;
    // Compact entries: typeOf decodes their wire, which a reader must rebuild first, so find them by position.
    const compact = log.slice(startAt + 1);
    expect(compact.length).toBeGreaterThan(20);
    const targets = [join, start, compact[0]!, compact[10]!, compact.at(-1)!, pick('create')];
    const variants = targets.flatMap((b) => [
      // Same signature, same prefix, the last payload byte changed: another byte string.
      flip(b, b.length - 1),
      // Same payload (so the same id), a forged signature.
      flip(b, 10),
      // A byte more and a byte less than the admitted bytes.
      Uint8Array.from([...b, 0]),
      b.slice(0, -1),
      // A compact entry naming the next place (another member's key, the same signature).
      ...(b[SIG] === 6 && b[SIG + 1]! >= 128 ? [Uint8Array.from(b).fill(((b[SIG + 2]! % keys.length) + 1) as number, SIG + 2, SIG + 3)] : []),
    ]);
    // Entries validly signed by the same keys for another game: refused there, and read with this game's id when compact.
    const foreign = elsewhere.log.slice(0, 12);
    const offers = [...variants.slice(0, 8), ...log, ...variants, ...foreign, ...log.slice(0, 5), ...variants, ...foreign, ...log.slice(-5)];
    const other: WireContext = { game: elsewhere.gameId, keyLists: [keys] };
    // The phone that remembers: a verifier of the kind phones use (it remembers its checks and, with
    // this change, its readings); the reference reads everything afresh with a verifier that remembers nothing.
    const remembering = readAll(gameId, offers, cachedVerifier(checkSignature), other, keys[0]!);
    const fresh = readAll(gameId, offers, { verify: (_id, payload, signature, key) => checkSignature(payload, signature, key) }, other, keys[0]!);
    expect(remembering.admitted).toEqual(fresh.admitted);
    expect(remembering.admitted.length).toBe(log.length);
    expect(remembering.view).toEqual(fresh.view);
    expect(remembering.raw).toEqual(fresh.raw);
    expect(remembering.messages).toEqual(fresh.messages);
    remembering.decisions.forEach((d, i) => expect({ i, d }).toEqual({ i, d: fresh.decisions[i] }));
    // The attacks were refused or ignored, not admitted: nothing but the honest log is held.
    const verdicts = remembering.decisions.map((d) => (d as { verdict: { kind: string } }).verdict.kind);
    expect(verdicts.filter((k) => k === 'admitted').length).toBe(log.length);
    expect((remembering.view.ignored as readonly unknown[]).length).toBeGreaterThan(0);
  });
});

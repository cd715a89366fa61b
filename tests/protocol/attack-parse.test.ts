// Adversarial review of "one parse per entry" (admission.ts, envelope.ts, codec.ts, reduce.ts
// openLog): whatever remembers a parse or a decision must remember it for the very bytes, the game
// and the START key lists it was made with. The cheats a shared parse could let through: two byte
// strings read as one entry (one payload under a forged signature, one signature over an altered
// payload, the same compact bytes in two games of the same keys), and a decision made once (a
// refusal, a wait for a START) standing where it no longer holds, so that two phones that saw the
// same entries in another order keep different sets.
import { describe, expect, it } from 'vitest';
import {
  Admission,
  acceptStart,
  cachedVerifier,
  checkSignature,
  joinGame,
  openMessage,
  parseEntry,
  reduceLog,
  SIGNATURE_BYTES,
  type Signed,
} from '../../src/protocol';
import { READING_LIMITS, readingMemo } from '../../src/protocol/envelope';
import { POWERS } from '../../src/rules';
import { identity, lobby, T0, type Lobby } from './helpers';

/** Player i's acceptance of the START, compact (its author named by its place in the START's list). */
const ackOf = (l: Lobby, i: number): Signed => acceptStart(l.players[i]!, l.gameId, l.start, { seq: 3, time: T0 + 3, places: l.keys });
/** Player i's acceptance in full form (game id and key on the wire). */
const fullAckOf = (l: Lobby, i: number): Signed => acceptStart(l.players[i]!, l.gameId, l.start, { seq: 3, time: T0 + 3 });

/** The same bytes with one signature byte changed: the same payload (so the same id) under a forged signature. */
function forged(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  out[5] = out[5]! ^ 0x40;
  return out;
}

function admissionOf(l: Lobby): Admission {
  const a = new Admission(l.gameId);
  for (const b of l.log) expect(a.offer(b).kind).toBe('admitted');
  return a;
}

const ctxOf = (l: Lobby) => ({ game: l.gameId, keyLists: [l.keys] });

describe('one payload, two signatures', () => {
  it('a forged copy read first never makes the honest entry refused, and read after never stands for it', () => {
    const l = lobby(1);
    const honest = fullAckOf(l, 3);
    const fake = forged(honest.bytes);
    // Phone X reads the forgery first, phone Y the honest bytes first; each then reads the other.
    const x = admissionOf(l);
    const y = admissionOf(l);
    const xFake = x.offer(fake);
    expect(xFake.kind).toBe('refused');
    expect(xFake.id).toBe(honest.id);
    expect(x.offer(honest.bytes).kind).toBe('admitted');
    expect(y.offer(honest.bytes).kind).toBe('admitted');
    const yFake = y.offer(fake);
    expect(yFake).toMatchObject({ kind: 'refused', reason: 'bad-signature' });
    // Read again: still refused, and the bytes kept are the honest ones on both phones.
    expect(x.offer(fake).kind).toBe('refused');
    expect(y.offer(fake).kind).toBe('refused');
    for (const a of [x, y]) {
      expect(a.bytesOf(honest.id)).toEqual(honest.bytes);
      expect(a.idOfBytes(fake)).toBeUndefined();
    }
    expect(x.ids()).toEqual(y.ids());
  });

  it('opening the honest bytes never makes the forged bytes open, in either order, nor through the admission’s verifier', () => {
    const l = lobby(2);
    const honest = fullAckOf(l, 4);
    const fake = forged(honest.bytes);
    expect(openMessage(honest.bytes).ok).toBe(true);
    expect(openMessage(fake)).toMatchObject({ ok: false, reason: 'bad-signature' });
    const l2 = lobby(3);
    const honest2 = fullAckOf(l2, 4);
    const fake2 = forged(honest2.bytes);
    expect(openMessage(fake2)).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(openMessage(honest2.bytes).ok).toBe(true);
    // The admission's verifier trusts what it admitted: those very bytes, never another signature.
    const a = admissionOf(l);
    expect(a.offer(honest.bytes).kind).toBe('admitted');
    expect(openMessage(fake, a.verifier)).toMatchObject({ ok: false, reason: 'bad-signature' });
    // The reducer, reading the forgery beside the honest entry, counts the honest one only.
    const member = l.players[4]!.id;
    const withFake = reduceLog(l.gameId, [...l.log, fake], { verifier: a.verifier });
    expect(withFake.acceptances[member]).toBeUndefined();
    expect(withFake.ignored.some((i) => i.id === honest.id || i.reason === 'bad-signature')).toBe(true);
    const both = reduceLog(l.gameId, [...l.log, fake, honest.bytes], { verifier: a.verifier });
    expect(both.acceptances[member]).toBe(l.start.id);
  });
});

describe('one signature, two payloads', () => {
  it('bytes sharing a valid entry’s signature and prefix but not its payload never open as it, before or after it', () => {
    const l = lobby(4);
    const honest = fullAckOf(l, 2);
    const last = honest.bytes.length - 1;
    const altered = honest.bytes.slice();
    altered[last] = altered[last]! ^ 0x01;
    const longer = new Uint8Array([...honest.bytes, 0]);
    const shorter = honest.bytes.slice(0, last);
    const variants = [altered, longer, shorter];
    // Before the honest entry was ever read...
    for (const v of variants) expect(openMessage(v).ok).toBe(false);
    expect(openMessage(honest.bytes).ok).toBe(true);
    // ...and after.
    for (const v of variants) {
      const o = openMessage(v);
      expect(o.ok).toBe(false);
    }
    const a = admissionOf(l);
    const before = a.ids();
    for (const v of variants) expect(a.offer(v).kind).toBe('refused');
    expect(a.offer(honest.bytes).kind).toBe('admitted');
    for (const v of variants) {
      const verdict = a.offer(v);
      expect(verdict.kind, 'altered bytes taken for the admitted entry').toBe('refused');
      expect(a.idOfBytes(v)).toBeUndefined();
    }
    expect(a.ids()).toEqual([...before, honest.id].sort());
  });

  it('a compact entry’s bytes with another place read as another key’s, whose signature fails, after the honest one was read', () => {
    const l = lobby(5);
    const honest = ackOf(l, 3);
    const a = admissionOf(l);
    expect(a.offer(honest.bytes).kind).toBe('admitted');
    const moved = honest.bytes.slice();
    moved[SIGNATURE_BYTES + 2] = moved[SIGNATURE_BYTES + 2]! + 1;
    expect(openMessage(moved, a.verifier, ctxOf(l)).ok).toBe(false);
    expect(a.offer(moved).kind).not.toBe('admitted');
    expect(a.idOfBytes(moved)).toBeUndefined();
    expect(reduceLog(l.gameId, [...l.log, moved], { verifier: a.verifier }).acceptances[l.players[4]!.id]).toBeUndefined();
  });
});

describe('the same compact bytes in two games of the same keys', () => {
  it('bytes signed for game A read in game B (same keys, same places) are never B’s, whichever game read them first', () => {
    const players = POWERS.map((_, i) => identity(i));
    const gameA = lobby(6, players);
    const gameB = lobby(7, players);
    expect(gameA.gameId).not.toBe(gameB.gameId);
    expect(gameA.keys).toEqual(gameB.keys);
    const member = players[3]!.id;
    // A's acceptance, compact: nothing on the wire names the game.
    const ackA = ackOf(gameA, 3);
    const ackB = ackOf(gameB, 3);
    expect(ackA.bytes.length).toBe(ackB.bytes.length);

    // Read in B first (a phone holding both games), then in A.
    const inB = admissionOf(gameB);
    expect(inB.offer(ackA.bytes).kind).not.toBe('admitted');
    expect(openMessage(ackA.bytes, undefined, ctxOf(gameB)).ok).toBe(false);
    expect(reduceLog(gameB.gameId, [...gameB.log, ackA.bytes]).acceptances[member]).toBeUndefined();
    const inA = admissionOf(gameA);
    expect(inA.offer(ackA.bytes).kind, 'a refusal made in game B stood in game A').toBe('admitted');
    const okA = openMessage(ackA.bytes, undefined, ctxOf(gameA));
    expect(okA.ok && okA.message.payload.game).toBe(gameA.gameId);
    expect(reduceLog(gameA.gameId, [...gameA.log, ackA.bytes]).acceptances[member]).toBe(gameA.start.id);

    // The other way round with B's own acceptance: read in B first (admitted), then in A (never A's).
    const inB2 = admissionOf(gameB);
    expect(inB2.offer(ackB.bytes).kind).toBe('admitted');
    expect(reduceLog(gameB.gameId, [...gameB.log, ackB.bytes]).acceptances[member]).toBe(gameB.start.id);
    const inA2 = admissionOf(gameA);
    expect(inA2.offer(ackB.bytes).kind, 'an entry admitted in game B was taken as game A’s').not.toBe('admitted');
    expect(openMessage(ackB.bytes, undefined, ctxOf(gameA)).ok).toBe(false);
    expect(reduceLog(gameA.gameId, [...gameA.log, ackB.bytes]).acceptances[member]).toBeUndefined();
    // And B still reads its own as before.
    const again = openMessage(ackB.bytes, undefined, ctxOf(gameB));
    expect(again.ok && again.message.payload.game).toBe(gameB.gameId);
  });

  it('the same byte object read by two games’ reducers in turn opens in its own game only, each time', () => {
    const players = POWERS.map((_, i) => identity(i));
    const gameA = lobby(8, players);
    const gameB = lobby(9, players);
    const member = players[5]!.id;
    const ackA = ackOf(gameA, 5).bytes;
    // One byte object read in A first, another (a copy) in B first.
    const copy = ackA.slice();
    for (let round = 0; round < 3; round++) {
      expect(reduceLog(gameA.gameId, [...gameA.log, ackA]).acceptances[member]).toBe(gameA.start.id);
      expect(reduceLog(gameB.gameId, [...gameB.log, ackA]).acceptances[member]).toBeUndefined();
      expect(reduceLog(gameB.gameId, [...gameB.log, copy]).acceptances[member]).toBeUndefined();
      expect(reduceLog(gameA.gameId, [...gameA.log, copy]).acceptances[member], 'a reading made in game B stood in game A').toBe(gameA.start.id);
    }
  });
});

describe('a decision that no longer holds', () => {
  it('compact bytes read before their START wait, and are admitted (and reduced) once it comes, on every phone and order', () => {
    const l = lobby(10);
    const early = ackOf(l, 6);
    const beforeStart = l.log.slice(0, -1);
    // Phone X reads the entry before the START, phone Y after.
    const x = new Admission(l.gameId);
    for (const b of beforeStart) x.offer(b);
    expect(x.offer(early.bytes).kind).toBe('pending');
    expect(openMessage(early.bytes, undefined, { game: l.gameId, keyLists: [] })).toMatchObject({ ok: false, reason: 'author-place-unknown' });
    expect(reduceLog(l.gameId, [...beforeStart, early.bytes]).acceptances[l.players[6]!.id]).toBeUndefined();
    expect(x.offer(l.start.bytes).kind).toBe('admitted');
    expect(x.has(early.id)).toBe(true);
    const y = admissionOf(l);
    expect(y.offer(early.bytes).kind).toBe('admitted');
    expect(x.ids()).toEqual(y.ids());
    // The reducer reads the same byte object again with the START now in the log.
    expect(reduceLog(l.gameId, [...beforeStart, early.bytes, l.start.bytes]).acceptances[l.players[6]!.id]).toBe(l.start.id);
  });

  it('an entry whose author does not count yet waits and is admitted when a START makes it count; a refused one stays refused', () => {
    const l = lobby(11);
    const stranger = identity(40);
    const join = joinGame(stranger, l.gameId, 'late', null, { seq: 1, time: T0 + 5 });
    const a = admissionOf(l);
    // After a START a JOIN of a key the START does not name waits (never counted here).
    const first = a.offer(join.bytes);
    expect(first.kind).toBe('pending');
    expect(a.offer(join.bytes).kind).toBe('pending');
    expect(a.has(join.id)).toBe(false);
    // A forged copy of a member's JOIN is refused every time it is read, the honest one admitted.
    const memberJoin = joinGame(l.players[2]!, l.gameId, 'p2-again', null, { seq: 4, time: T0 + 6 });
    const fake = forged(memberJoin.bytes);
    for (let i = 0; i < 3; i++) expect(a.offer(fake).kind).toBe('refused');
    expect(a.offer(memberJoin.bytes).kind).toBe('admitted');
    for (let i = 0; i < 3; i++) expect(a.offer(fake).kind).toBe('refused');
    expect(a.bytesOf(memberJoin.id)).toEqual(memberJoin.bytes);
  });
});

describe('what the readings of entries remember (envelope.ts Readings)', () => {
  const sigOf = (b: Uint8Array) => b.subarray(0, SIGNATURE_BYTES);
  const bodyOf = (b: Uint8Array) => b.subarray(SIGNATURE_BYTES);

  it('bytes whose signature fails, or that were only parsed, leave no reading; an entry that checks does', () => {
    const l = lobby(12);
    const v = cachedVerifier(checkSignature);
    expect(v.readings).toBeDefined();
    const honest = fullAckOf(l, 2);
    const fake = forged(honest.bytes);
    expect(openMessage(fake, v).ok).toBe(false);
    expect(v.readings!.get(sigOf(fake), bodyOf(fake)), 'a forged signature’s reading was kept').toBeUndefined();
    const other = fullAckOf(l, 5);
    expect(parseEntry(other.bytes, undefined, v).ok).toBe(true);
    expect(v.readings!.get(sigOf(other.bytes), bodyOf(other.bytes)), 'a reading kept before any check').toBeUndefined();
    // An entry waiting for its author to count (never checked) leaves none either.
    const a = new Admission(l.gameId, { verifier: v });
    for (const b of l.log) a.offer(b);
    const stranger = joinGame(identity(41), l.gameId, 'x', null, { seq: 1, time: T0 + 9 });
    expect(a.offer(stranger.bytes).kind).toBe('pending');
    expect(v.readings!.get(sigOf(stranger.bytes), bodyOf(stranger.bytes))).toBeUndefined();
    expect(openMessage(honest.bytes, v).ok).toBe(true);
    expect(v.readings!.get(sigOf(honest.bytes), bodyOf(honest.bytes))?.id).toBe(honest.id);
  });

  it('stays within its bounds: entries, bytes, and readings under one signature', () => {
    const l = lobby(13);
    const me = l.players[1]!;
    const entries = Array.from({ length: 120 }, (_, i) => {
      const signed = joinGame(me, l.gameId, `name-${i}`, null, { seq: 10 + i, time: T0 + i });
      const p = parseEntry(signed.bytes);
      if (!p.ok) throw new Error(p.reason);
      return p.entry;
    });
    const found = (r: ReturnType<typeof readingMemo>, list: typeof entries) => list.filter((e) => r.get(e.signature, e.body) !== undefined);
    // By count: the latest kept, the oldest forgotten.
    const byCount = readingMemo({ entries: 16, bytes: 1 << 20 });
    for (const e of entries) byCount.keep(e);
    expect(found(byCount, entries).length).toBeLessThanOrEqual(16);
    expect(found(byCount, entries.slice(-8)).length).toBe(8);
    // By bytes.
    const size = entries[0]!.body.length + SIGNATURE_BYTES;
    const byBytes = readingMemo({ entries: 10_000, bytes: size * 10 });
    for (const e of entries) byBytes.keep(e);
    expect(found(byBytes, entries).length).toBeLessThanOrEqual(10);
    // Many bodies under one signature (a peer's variants): a few at most, and never another's reading.
    const one = readingMemo({ entries: 10_000, bytes: 1 << 24 });
    const sig = entries[0]!.signature;
    const variants = entries.map((e) => ({ ...e, signature: sig }));
    for (const e of variants) one.keep(e);
    const kept = found(one, variants);
    expect(kept.length).toBeLessThanOrEqual(4);
    for (const e of kept) expect(one.get(sig, e.body)?.id).toBe(e.id);
    expect(READING_LIMITS.entries).toBeGreaterThan(0);
  });
});

// Protocol 6's compact wire form (src/protocol/README.md "The compact wire form"): after the START an
// entry leaves out the game id and names its author by its place in a START's key list; the
// signature and the id are over the full payload the reader rebuilds. These are the cheats the form
// could let through, and the bytes no honest phone sends.
import { describe, expect, it } from 'vitest';
import {
  Admission,
  acceptStart,
  compactEntry,
  COMPACT_VERSION,
  expandWire,
  gameMessages,
  namesAuthorByPlace,
  openMessage,
  parseEntry,
  PROTOCOL_VERSION,
  reduceLog,
  SIGNATURE_BYTES,
  startGame,
  startKeys,
  voteTimeout,
  type Signed,
} from '../../src/protocol';
import { POWERS, type Power } from '../../src/rules';
import { escrowOf, identity, lobby, T0, type Lobby } from './helpers';

/** Each player's acceptance of the START, written compact (the START's key list as Stamp.places). */
function acks(l: Lobby, places: readonly string[] = l.keys): Signed[] {
  return l.players.slice(1).map((p) => acceptStart(p, l.gameId, l.start, { seq: 3, time: T0 + 3, places }));
}

const wire = (b: Uint8Array) => b.subarray(SIGNATURE_BYTES);
/** The same entry with its place replaced (one byte: the places here are below 128). */
function withPlace(entry: Uint8Array, place: number): Uint8Array {
  const out = entry.slice();
  out[SIGNATURE_BYTES + 2] = place;
  return out;
}
const placeOf = (entry: Uint8Array) => entry[SIGNATURE_BYTES + 2]!;
const ctxOf = (l: Lobby, ...lists: string[][]) => ({ game: l.gameId, keyLists: lists.length > 0 ? lists : [l.keys] });

describe('the compact wire form (protocol 6, and 7 alike)', () => {
  it('writes compact after the START only with the START named, and reads back the very message: same id, same payload, 47 bytes fewer', () => {
    expect(PROTOCOL_VERSION).toBeGreaterThanOrEqual(COMPACT_VERSION);
    const l = lobby(1);
    const p = l.players[3]!;
    const full = acceptStart(p, l.gameId, l.start, { seq: 3, time: T0 + 3 });
    const compact = acceptStart(p, l.gameId, l.start, { seq: 3, time: T0 + 3, places: l.keys });
    expect(namesAuthorByPlace(wire(full.bytes))).toBe(false);
    expect(namesAuthorByPlace(wire(compact.bytes))).toBe(true);
    expect(compact.id).toBe(full.id);
    expect(full.bytes.length - compact.bytes.length).toBe(16 + 32 - 1);
    const a = openMessage(full.bytes);
    const b = openMessage(compact.bytes, undefined, ctxOf(l));
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) expect(b.message).toEqual(a.message);
    // The lobby's own entries never go compact: they are read before any START exists.
    for (const b2 of l.log) expect(compactEntry(b2, l.keys)).toEqual(b2);
  });

  it('an entry lifted from game A into game B (same players, same START list) fails its signature there, and changes nothing', () => {
    const a = lobby(1);
    const b = lobby(2);
    expect(b.keys).toEqual(a.keys);
    expect(b.gameId).not.toBe(a.gameId);
    const lifted = acks(a)[0]!;
    const opened = openMessage(lifted.bytes, undefined, ctxOf(b));
    expect(opened).toMatchObject({ ok: false, reason: 'bad-signature' });
    const logB = [...b.log, ...acks(b).slice(1)];
    const before = reduceLog(b.gameId, logB);
    const after = reduceLog(b.gameId, [...logB, lifted.bytes]);
    expect(after.accepted).toEqual(before.accepted);
    expect(after.status).toBe(before.status);
    expect(after.ignored.map((i) => i.reason)).toContain('bad-signature');
    const admission = new Admission(b.gameId);
    for (const e of logB) admission.offer(e);
    const size = admission.size;
    expect(admission.offer(lifted.bytes)).toMatchObject({ kind: 'refused', reason: 'bad-signature' });
    expect(admission.size).toBe(size);
  });

  it('a place pointing at another member’s key (signing as someone else) fails its signature; the member named is not blamed', () => {
    const l = lobby(3);
    const [mine] = acks(l);
    const me = l.keys.indexOf(l.players[1]!.id) + 1;
    expect(placeOf(mine!.bytes)).toBe(me);
    const other = me === 1 ? 2 : 1;
    const forged = withPlace(mine!.bytes, other);
    expect(openMessage(forged, undefined, ctxOf(l))).toMatchObject({ ok: false, reason: 'bad-signature' });
    const v = reduceLog(l.gameId, [...l.log, forged]);
    expect(v.accepted).toEqual(reduceLog(l.gameId, l.log).accepted);
    expect(v.misconduct).toEqual([]);
    // A full-form entry whose `from` is another key is refused the same way.
    const p = l.players[1]!;
    const asOther = { ...p, id: l.players[2]!.id, escrowPublicKey: l.players[2]!.escrowPublicKey };
    expect(openMessage(acceptStart(asOther, l.gameId, l.start, { seq: 9, time: T0 }).bytes)).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('a hand-over recipient (not in the START list) writes its key in full, and is read without any START', () => {
    const l = lobby(4);
    const stranger = identity(40);
    const vote = voteTimeout(stranger, l.gameId, '1901-spring-movement', ['austria'], { seq: 5, time: T0 + 9, places: l.keys });
    expect(namesAuthorByPlace(wire(vote.bytes))).toBe(false);
    expect(openMessage(vote.bytes)).toMatchObject({ ok: true, message: { id: vote.id } });
  });

  it('an entry arriving before its START waits (admission and reducer), then counts once the START comes: nothing is lost', () => {
    const l = lobby(5);
    const mine = acks(l);
    const admission = new Admission(l.gameId);
    for (const e of l.log.slice(0, -1)) expect(admission.offer(e).kind).toBe('admitted');
    for (const e of mine) expect(admission.offer(e.bytes).kind).toBe('pending');
    expect(reduceLog(l.gameId, [...l.log.slice(0, -1), ...mine.map((m) => m.bytes)]).ignored.map((i) => i.reason)).toContain('author-place-unknown');
    expect(admission.offer(l.log.at(-1)!).kind).toBe('admitted');
    for (const m of mine) expect(admission.has(m.id)).toBe(true);
    const v = reduceLog(l.gameId, admission.entries());
    expect(v.accepted).toEqual(l.keys);
    expect(v.status).toBe(reduceLog(l.gameId, [...l.log, ...mine.map((m) => m.bytes)]).status);
    // A phone restoring them from its store in any order reads them too.
    const again = new Admission(l.gameId);
    again.restore([...mine.map((m) => m.bytes).reverse(), ...l.log]);
    for (const m of mine) expect(again.has(m.id)).toBe(true);
  });

  it('two STARTs naming different keys at one place (a creator equivocating): each entry reads as the one key that signed it, under the same id on every phone', () => {
    const players = POWERS.map((_, i) => identity(i));
    const a = lobby(6, players);
    // The creator's second START: the powers in another order (the same key list, so the same places).
    const creator = players[0]!;
    const reversed = [players[0]!, ...players.slice(1).reverse()];
    const roster = Object.fromEntries(POWERS.map((q, i) => [q, reversed[i]!.id])) as Record<Power, string>;
    const startB = startGame(creator, a.gameId, roster, escrowOf(players), { seq: 4, time: T0 + 2 });
    expect(startKeys({ roster, participants: [] })).toEqual(a.keys);
    // A third, without the lowest key that is not the creator's (its power to the creator): the places after it name others.
    const dropped = a.keys.find((k) => k !== creator.id)!;
    const fewer = Object.fromEntries(POWERS.map((q, i) => [q, players[i]!.id === dropped ? creator.id : players[i]!.id])) as Record<Power, string>;
    const startC = startGame(creator, a.gameId, fewer, escrowOf(players), { seq: 5, time: T0 + 2 });
    const keysC = startKeys({ roster: fewer, participants: [] });
    const shifted = a.keys.findIndex((k, i) => k !== dropped && keysC[i] !== undefined && keysC[i] !== k);
    expect(shifted).toBeGreaterThanOrEqual(0);
    // The player at `shifted` in A's list signs compact under A: in C that place names another key.
    const author = players.find((p) => p.id === a.keys[shifted])!;
    const ack = acceptStart(author, a.gameId, a.start, { seq: 3, time: T0 + 3, places: a.keys });
    expect(keysC[shifted]).not.toBe(author.id);
    const both = expandWire(wire(ack.bytes), ctxOf(a, a.keys, keysC));
    expect(both.ok && both.signed.length).toBe(2);
    const opened = openMessage(ack.bytes, undefined, ctxOf(a, keysC, a.keys));
    expect(opened).toMatchObject({ ok: true, message: { id: ack.id, payload: { from: author.id } } });
    // And the other way: a player of C's list signs under C, where A names a lower key at that place.
    const authorC = players.find((p) => p.id === keysC[shifted])!;
    const ackC = acceptStart(authorC, a.gameId, startC, { seq: 3, time: T0 + 3, places: keysC });
    expect(openMessage(ackC.bytes, undefined, ctxOf(a, a.keys, keysC))).toMatchObject({ ok: true, message: { id: ackC.id, payload: { from: authorC.id } } });
    // A phone holding only C reads the other key: bad signature, and it keeps the bytes until A comes.
    const onlyC = new Admission(a.gameId);
    for (const e of [...a.log.slice(0, -1), startC.bytes]) onlyC.offer(e);
    expect(onlyC.offer(ack.bytes)).toMatchObject({ kind: 'refused', reason: 'bad-signature' });
    onlyC.offer(a.start.bytes);
    expect(onlyC.has(ack.id)).toBe(true);
    // Every reducer, whatever STARTs and order, names it by one id and one author.
    for (const log of [
      [...a.log, startB.bytes, startC.bytes, ack.bytes],
      [ack.bytes, startC.bytes, ...a.log],
    ]) {
      const m = gameMessages(a.gameId, log).get(ack.id);
      expect(m?.payload.from).toBe(author.id);
    }
    expect(dropped).not.toBe(author.id);
  });

  it('bytes no honest phone sends give a clear reason, never a throw, and change nothing', () => {
    const l = lobby(7);
    const [ack] = acks(l);
    const good = ack!.bytes;
    const head = good.subarray(0, SIGNATURE_BYTES + 2);
    const rest = good.subarray(SIGNATURE_BYTES + 3);
    const cat = (...parts: Uint8Array[]) => {
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
      return out;
    };
    const cases: [Uint8Array, string][] = [
      [withPlace(good, 0), 'not-canonical'], // place 0: the full key is written in the full form
      [cat(head, Uint8Array.of(0x80 | placeOf(good), 0), rest), 'not-canonical'], // a padded place
      [withPlace(good, 99), 'author-place-unknown'], // no START list that long (waits)
      [cat(head, Uint8Array.of(0x80)), 'binary-truncated'], // a place cut short
      [cat(good, Uint8Array.of(0)), 'binary-trailing-bytes'], // a trailing byte
      [cat(good.subarray(0, SIGNATURE_BYTES + 1), Uint8Array.of(0x80 + 99), good.subarray(SIGNATURE_BYTES + 2)), 'unknown-type'],
    ];
    // A lobby entry (a JOIN) carried compact: refused, it must name its key.
    const join = l.log[1]!.slice();
    const joinCompact = cat(
      join.subarray(0, SIGNATURE_BYTES + 1),
      Uint8Array.of(join[SIGNATURE_BYTES + 1]! + 0x80, 1),
      join.subarray(SIGNATURE_BYTES + 2 + 16 + 32),
    );
    cases.push([joinCompact, 'not-canonical']);
    const base = reduceLog(l.gameId, l.log);
    for (const [bytes, reason] of cases) {
      expect(() => parseEntry(bytes, ctxOf(l))).not.toThrow();
      expect(parseEntry(bytes, ctxOf(l)), reason).toMatchObject({ ok: false, reason });
      const v = reduceLog(l.gameId, [...l.log, bytes]);
      expect(v.status).toBe(base.status);
      expect(v.accepted).toEqual(base.accepted);
      expect(v.ignored.map((i) => i.reason)).toContain(reason);
    }
    // Every truncation of a compact entry: a reason, never a throw.
    for (let n = 0; n < good.length; n++) expect(() => openMessage(good.subarray(0, n), undefined, ctxOf(l))).not.toThrow();
    // Without the game (no context) a compact entry waits: it is never read as another payload.
    expect(parseEntry(good)).toMatchObject({ ok: false, reason: 'author-place-unknown' });
  });
});

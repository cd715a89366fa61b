// Attacks on protocol 6's compact wire form (src/protocol/README.md "The compact wire form"), as a
// player, colluders, the creator, a stranger with the invite link and a peer sending bytes no honest
// phone sends. Each test passes when the defence holds.
import { describe, expect, it } from 'vitest';
import {
  Admission,
  acceptStart,
  cachedVerifier,
  checkSignature,
  clearMemos,
  compactEntry,
  createGame,
  encodePayload,
  joinGame,
  namesAuthorByPlace,
  openMessage,
  parseEntry,
  PENDING_LIMITS,
  PROTOCOL_VERSION,
  reduceLog,
  SIGNATURE_BYTES,
  signPayloadBytes,
  startGame,
  startKeys,
  type Identity,
  type Payload,
  type Signed,
  type Verifier,
} from '../../src/protocol';
import { POWERS, type Power } from '../../src/rules';
import { escrowOf, identity, payloadOf, playPhase, randomPhaseOrders, rng, settings, startedGame, T0, view, type Game, shuffled } from './helpers';

const wire = (b: Uint8Array) => b.subarray(SIGNATURE_BYTES);

/** A real signature check that counts how often it runs (no cache: every call is a check). */
function counting(): Verifier & { n: number } {
  const v = {
    n: 0,
    verify(_id: string, payload: Uint8Array, signature: Uint8Array, publicKey: Uint8Array) {
      v.n++;
      return checkSignature(payload, signature, publicKey);
    },
  };
  return v;
}

/** A played standard game (spring 1901 through), every entry in full form, and its START's key list. */
function played(seed: number): Game & { keys: string[] } {
  const g = startedGame(seed);
  const r = rng(seed);
  playPhase(g, randomPhaseOrders(view(g), r.int), T0 + 100);
  const start = payloadOf(g.log.find((b) => payloadOf(b).type === 'start')!);
  return { ...g, keys: startKeys(start as never) };
}

/** A second START of `g`'s creator whose roster puts `fresh` in the place of `gone`: later places name other keys. */
function otherStart(g: Game, gone: Identity, fresh: Identity, seq: number): Signed {
  const creator = g.phones[0]!.me;
  const roster = Object.fromEntries(g.phones.map((ph) => [ph.power, ph.me.id === gone.id ? fresh.id : ph.me.id])) as Record<Power, string>;
  return startGame(creator, g.gameId, roster, escrowOf([...g.phones.map((p) => p.me), fresh]), { seq, time: T0 + 500 });
}

/** Re-signs an entry as version `v` (the layout of 5 and 6 is one; only the version differs). */
function asVersion(me: Identity, bytes: Uint8Array, v: number): Uint8Array {
  return signPayloadBytes(me, encodePayload({ ...payloadOf(bytes), v } as Payload));
}

describe('protocol 6 attacks: one message, one id, whatever form carries it', () => {
  const g = played(61);
  const compact = g.log.map((b) => compactEntry(b, g.keys));
  const full = reduceLog(g.gameId, g.log);

  it('a played phase carried compact, or in both forms at once, reduces to the full form’s state hash: commits, LOCKs, REVEALs and ACKs count once', () => {
    const shrunk = compact.filter((b, i) => b.length < g.log[i]!.length).length;
    // Everything after the START except nothing: CREATE, JOINs and START stay full.
    expect(shrunk).toBe(g.log.length - 1 - 7 - 1);
    expect(full.phases.length).toBeGreaterThan(0);
    for (const log of [compact, [...g.log, ...compact], [...compact, ...g.log], shuffled([...g.log, ...compact], 3)]) {
      const v = reduceLog(g.gameId, log);
      expect(v.stateHash).toBe(full.stateHash);
      expect(v.accepted).toEqual(full.accepted);
      expect(v.misconduct).toEqual(full.misconduct);
      expect(v.ignored.filter((i) => i.reason !== 'duplicate')).toEqual(full.ignored.filter((i) => i.reason !== 'duplicate'));
    }
  });

  it('the admission holds one copy: the other form of a held entry is a duplicate, stores nothing, in either order', () => {
    for (const [first, second] of [
      [g.log, compact],
      [compact, g.log],
    ] as const) {
      const a = new Admission(g.gameId);
      for (const b of first) expect(a.offer(b).kind).toBe('admitted');
      a.takeChanges();
      const size = a.size;
      for (const b of second) expect(a.offer(b).kind, 'the other form').toBe('duplicate');
      expect(a.size).toBe(size);
      expect(a.takeChanges().put).toEqual([]);
      expect(reduceLog(g.gameId, a.entries()).stateHash).toBe(full.stateHash);
    }
  });

  it('the same entries in any order (the START before or after the compact ones): one state hash in the reducer, one set in the admission', () => {
    const reference = new Admission(g.gameId);
    reference.restore(g.log);
    const ids = reference.ids();
    for (let seed = 1; seed <= 4; seed++) {
      const order = shuffled(compact, seed);
      expect(reduceLog(g.gameId, order).stateHash).toBe(full.stateHash);
      const live = new Admission(g.gameId);
      for (const b of order) live.offer(b);
      expect(live.ids()).toEqual(ids);
      const restored = new Admission(g.gameId);
      restored.restore(order);
      expect(restored.ids()).toEqual(ids);
      expect(reduceLog(g.gameId, live.entries()).stateHash).toBe(full.stateHash);
    }
    // Cold memos read the same.
    clearMemos();
    expect(reduceLog(g.gameId, shuffled(compact, 9)).stateHash).toBe(full.stateHash);
  });

  it('a START the creator signs after play began (another key at the places after it): every compact entry still reads as the key that signed it', () => {
    // A fresh key below every key of the list: each place up to the one it takes names a lower key
    // than before, so taking the lowest key at a place (not the one whose signature holds) reads wrong.
    const low = Array.from({ length: 60 }, (_, k) => identity(300 + k)).reduce((x, y) => (y.id < x.id ? y : x));
    expect(low.id < g.keys[0]!).toBe(true);
    const late = otherStart(g, g.phones[3]!.me, low, 40);
    const lateKeys = startKeys(payloadOf(late.bytes) as never);
    expect(lateKeys).not.toEqual(g.keys);
    for (const log of [
      [...g.log, late.bytes],
      [late.bytes, ...compact],
      [...compact, late.bytes],
    ]) {
      const v = reduceLog(g.gameId, log);
      expect(v.stateHash).toBe(reduceLog(g.gameId, [...g.log, late.bytes]).stateHash);
      expect(v.accepted).toEqual(full.accepted);
    }
    const a = new Admission(g.gameId);
    for (const b of [late.bytes, ...compact]) a.offer(b);
    const b2 = new Admission(g.gameId);
    for (const b of [...g.log, late.bytes]) b2.offer(b);
    expect(a.ids()).toEqual(b2.ids());
  });
});

describe('protocol 6 attacks: bytes no honest phone sends', () => {
  const g = played(62);
  const ack = compactEntry(
    g.log.find((b) => payloadOf(b).type === 'ack')!,
    g.keys,
  );
  const cat = (...parts: (Uint8Array | number[])[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

  it('a compact entry whose version is a padded varint is not read as the honest one (it would be a second byte string anyone can make)', () => {
    expect(namesAuthorByPlace(wire(ack))).toBe(true);
    expect(ack[SIGNATURE_BYTES]).toBe(PROTOCOL_VERSION);
    const ctx = { game: g.gameId, keyLists: [g.keys] };
    for (const pad of [
      [0x80 | PROTOCOL_VERSION, 0x00],
      [0x80 | PROTOCOL_VERSION, 0x80, 0x00],
    ]) {
      const padded = cat(ack.subarray(0, SIGNATURE_BYTES), pad, ack.subarray(SIGNATURE_BYTES + 1));
      expect(parseEntry(padded, ctx)).toMatchObject({ ok: false, reason: 'not-canonical' });
      const a = new Admission(g.gameId);
      for (const b of g.log) a.offer(b);
      const size = a.size;
      expect(a.offer(padded).kind).toBe('refused');
      expect(a.size).toBe(size);
    }
  });

  it('a compact flag on another version, or a version 7 entry whose version the reader cannot rebuild, is refused, never thrown', () => {
    const ctx = { game: g.gameId, keyLists: [g.keys] };
    // 6: rebuilt as a version 6 payload, which the author did not sign; 5 and 8: never compact.
    for (const v of [5, 6, 8, 0x7b - 1]) {
      const other = cat(ack.subarray(0, SIGNATURE_BYTES), [v], ack.subarray(SIGNATURE_BYTES + 1));
      expect(() => openMessage(other, undefined, ctx)).not.toThrow();
      expect(openMessage(other, undefined, ctx).ok).toBe(false);
      expect(reduceLog(g.gameId, [...g.log, other]).stateHash).toBe(reduceLog(g.gameId, g.log).stateHash);
    }
  });

  it('mixed versions in one game: a version 5 lobby and compact version 7 entries read as all-full', () => {
    const r = rng(63);
    const players = POWERS.map((_, i) => identity(i));
    const creator = players[0]!;
    const { gameId, message } = createGame(creator, r.bytes(16), settings(), { seq: 0, time: T0 });
    const lobby5 = [asVersion(creator, message.bytes, 5)];
    players.forEach((p, i) => lobby5.push(asVersion(p, joinGame(p, gameId, `p${i}`, null, { seq: 1, time: T0 + 1 }).bytes, 5)));
    const roster = Object.fromEntries(POWERS.map((q, i) => [q, players[i]!.id])) as Record<Power, string>;
    const start5 = asVersion(creator, startGame(creator, gameId, roster, escrowOf(players), { seq: 2, time: T0 + 2 }).bytes, 5);
    lobby5.push(start5);
    const opened = openMessage(start5);
    expect(opened.ok).toBe(true);
    if (!opened.ok) return;
    const keys = startKeys(opened.message.payload as never);
    const compactAcks = players.slice(1).map((p) => acceptStart(p, gameId, opened.message, { seq: 3, time: T0 + 3, places: keys }));
    const fullAcks = players.slice(1).map((p) => acceptStart(p, gameId, opened.message, { seq: 3, time: T0 + 3 }));
    expect(compactAcks.every((a) => namesAuthorByPlace(wire(a.bytes)))).toBe(true);
    const a = reduceLog(gameId, [...lobby5, ...compactAcks.map((x) => x.bytes)]);
    const b = reduceLog(gameId, [...lobby5, ...fullAcks.map((x) => x.bytes)]);
    expect(a.stateHash).toBe(b.stateHash);
    expect(a.accepted).toEqual(keys);
    // A version 5 entry carried with the compact flag is no entry.
    const ack5 = asVersion(players[1]!, fullAcks[0]!.bytes, 5);
    const flagged = cat(ack5.subarray(0, SIGNATURE_BYTES + 1), [ack5[SIGNATURE_BYTES + 1]! + 128, 1], ack5.subarray(SIGNATURE_BYTES + 2 + 48));
    expect(openMessage(flagged, undefined, { game: gameId, keyLists: [keys] }).ok).toBe(false);
  });
});

describe('protocol 6 attacks: the creator’s other STARTs and what a phone trusts', () => {
  const g = played(64);
  const compact = g.log.map((b) => compactEntry(b, g.keys));
  const startA = g.log.find((b) => payloadOf(b).type === 'start')!;
  const idA = openMessage(startA);
  // Two more STARTs, lower than A in (seq, id), naming a fresh key where player 3 was: places after it shift.
  const c = otherStart(g, g.phones[3]!.me, identity(71), 0);
  const d = otherStart(g, g.phones[3]!.me, identity(71), 1);
  const truth = new Set([...g.log, c.bytes, d.bytes].map((b) => openMessage(b)).flatMap((o) => (o.ok ? [o.message.id] : [])));
  const shifted = compact.filter((b) => {
    if (!namesAuthorByPlace(wire(b))) return false;
    const o = openMessage(b, undefined, { game: g.gameId, keyLists: [startKeys(payloadOf(c.bytes) as never)] });
    return !o.ok || !truth.has(o.message.id);
  });

  it('two lower STARTs sent after play began do not push out the START the players accepted', () => {
    expect(idA.ok).toBe(true);
    expect(shifted.length).toBeGreaterThan(0);
    const a = new Admission(g.gameId);
    a.restore(compact);
    expect(a.offer(c.bytes).kind).toBe('admitted');
    a.offer(d.bytes);
    expect(idA.ok && a.has(idA.message.id)).toBe(true);
  });

  it('after a restart, no compact entry is held under an id (an author) that nobody signed', () => {
    const a = new Admission(g.gameId);
    a.restore(compact);
    a.offer(c.bytes);
    a.offer(d.bytes);
    const again = new Admission(g.gameId);
    again.restore(a.entries());
    const forged = again.ids().filter((id) => !truth.has(id));
    const v = reduceLog(g.gameId, again.entries(), { verifier: again.verifier });
    const w = reduceLog(g.gameId, again.entries());
    expect(forged).toEqual([]);
    // The admission's verifier (what the reducer trusts) vouches for nothing the signature check would refuse.
    expect(v.ignored).toEqual(w.ignored);
    expect(v.stateHash).toBe(w.stateHash);
    expect(w.status).toBe('playing');
  });

  it('an entry restored before its START is read with a START that comes from a peer only if its signature holds', () => {
    const lobby = compact.filter((b) => ['create', 'join'].includes(payloadOf(g.log[compact.indexOf(b)]!).type));
    const a = new Admission(g.gameId);
    a.restore([...lobby, ...shifted]);
    for (const b of shifted) expect(a.idOfBytes(b)).toBeUndefined();
    a.offer(c.bytes);
    for (const id of a.ids()) expect(truth.has(id), id).toBe(true);
    a.offer(startA);
    for (const b of shifted) expect(a.idOfBytes(b)).toBeDefined();
    for (const id of a.ids()) expect(truth.has(id), id).toBe(true);
  });
});

describe('protocol 6 attacks: memos, the verifier cache and what one compact entry costs', () => {
  const a = played(65);
  const b = played(66);
  const compactA = a.log.map((x) => compactEntry(x, a.keys));
  const compactB = b.log.map((x) => compactEntry(x, b.keys));
  const ackA = compactA.find((x) => payloadOf(a.log[compactA.indexOf(x)]!).type === 'ack')!;

  it('the very bytes object of game A, read in game B (same players, same places), is read again there: no memo or cached "true" carries over', () => {
    expect(b.keys).toEqual(a.keys);
    const verifier = cachedVerifier(checkSignature);
    const inA = openMessage(ackA, verifier, { game: a.gameId, keyLists: [a.keys] });
    expect(inA.ok).toBe(true);
    const inB = openMessage(ackA, verifier, { game: b.gameId, keyLists: [b.keys] });
    expect(inB).toMatchObject({ ok: false, reason: 'bad-signature' });
    // The reducer, warm from game A, with the same bytes object in B's log.
    expect(reduceLog(a.gameId, compactA).ignored).toEqual(reduceLog(a.gameId, a.log).ignored);
    const v = reduceLog(b.gameId, [...compactB, ackA]);
    expect(v.ignored.map((i) => i.reason)).toContain('bad-signature');
    expect(v.stateHash).toBe(reduceLog(b.gameId, compactB).stateHash);
    // And back: A still reads it.
    expect(reduceLog(a.gameId, compactA).stateHash).toBe(reduceLog(a.gameId, a.log).stateHash);
  });

  it('the same bytes object read before its START, then with it, then with another START of the creator: each reading is the one its STARTs give', () => {
    const start = a.log.findIndex((x) => payloadOf(x).type === 'start');
    const before = reduceLog(a.gameId, [...compactA.slice(0, start), ackA]);
    expect(before.ignored.map((i) => i.reason)).toContain('author-place-unknown');
    const late = otherStart(a, a.phones[3]!.me, identity(72), 50);
    const withOther = reduceLog(a.gameId, [...compactA.slice(0, start), late.bytes, ackA]);
    const withStart = reduceLog(a.gameId, compactA);
    expect(withStart.ignored).toEqual(reduceLog(a.gameId, a.log).ignored);
    const fullLate = reduceLog(a.gameId, [...a.log.slice(0, start), late.bytes, a.log[compactA.indexOf(ackA)]!]);
    expect(withOther.stateHash).toBe(fullLate.stateHash);
    clearMemos();
    expect(reduceLog(a.gameId, [...compactA.slice(0, start), late.bytes, ackA]).stateHash).toBe(withOther.stateHash);
  });

  it('one compact entry costs at most one signature check per distinct key its place names across the STARTs read; the admission reads at most a few STARTs', () => {
    // The creator signs many STARTs, each naming a fresh key at every place after the creator's.
    const creator = a.phones[0]!.me;
    const many = Array.from({ length: 8 }, (_, k) => {
      const fresh = a.phones.map((ph, i) => (i === 0 ? ph.me : identity(200 + 10 * k + i)));
      const roster = Object.fromEntries(a.phones.map((ph, i) => [ph.power, fresh[i]!.id])) as Record<Power, string>;
      return startGame(creator, a.gameId, roster, escrowOf(fresh), { seq: 60 + k, time: T0 + 600 });
    });
    const junk = ackA.slice();
    junk[0] = junk[0]! ^ 1; // a signature nobody made
    const lists = [a.keys, ...many.map((m) => startKeys(payloadOf(m.bytes) as never))];
    const ctx = { game: a.gameId, keyLists: lists };
    const v = counting();
    expect(openMessage(junk, v, ctx).ok).toBe(false);
    // Each distinct key once to find the one that signed, and the first reading once more to report it failed.
    expect(v.n).toBeLessThanOrEqual(new Set(lists.map((l) => l[wire(ackA)[2]! - 1])).size + 1);
    // The admission: a creator's STARTs beyond the once quota are refused, so a compact entry costs a bounded number of checks.
    const check = counting();
    const adm = new Admission(a.gameId, { verifier: check });
    adm.restore(compactA);
    for (const m of many) adm.offer(m.bytes);
    expect(adm.wireContext().keyLists.length).toBeLessThanOrEqual(3);
    check.n = 0;
    expect(adm.offer(junk).kind).toBe('refused');
    expect(check.n).toBeLessThanOrEqual(adm.wireContext().keyLists.length + 1);
    console.log(
      `v6-attacks: a junk compact entry costs ${v.n} checks with ${lists.length} START lists read, ${check.n} in the admission (${adm.wireContext().keyLists.length} lists held)`,
    );
  });

  it('a flood of junk compact entries before the START pushes an honest one out of the bounded waiting pool; offered again (anti-entropy), it is admitted', () => {
    const start = a.log.findIndex((x) => payloadOf(x).type === 'start');
    const check = counting();
    const adm = new Admission(a.gameId, { verifier: check });
    for (const x of compactA.slice(0, start)) adm.offer(x);
    expect(adm.offer(ackA).kind).toBe('pending');
    for (let k = 0; k < PENDING_LIMITS.entries + 1; k++) {
      const j = ackA.slice();
      j[0] = k & 255;
      j[1] = k >> 8;
      expect(adm.offer(j).kind).toBe('pending');
    }
    check.n = 0;
    expect(adm.offer(compactA[start]!).kind).toBe('admitted');
    // The START's arrival reads the whole pool again: one check per waiting entry, bounded by the pool.
    expect(check.n).toBeLessThanOrEqual(PENDING_LIMITS.entries + 1);
    console.log(`v6-attacks: a START admitted with a full pool of junk costs ${check.n} signature checks`);
    const id = openMessage(ackA, undefined, { game: a.gameId, keyLists: [a.keys] });
    expect(id.ok).toBe(true);
    if (!id.ok) return;
    // The pool is bounded: the honest entry was the oldest, so it was pushed out...
    expect(adm.has(id.message.id)).toBe(false);
    // ...and the next time a peer offers it, it is admitted.
    expect(adm.offer(ackA).kind).toBe('admitted');
    expect(adm.has(id.message.id)).toBe(true);
  });

  it('a player holding several powers has one place: its compact entries read as its key, once', () => {
    const players = POWERS.map((_, i) => identity(i));
    const r = rng(67);
    const creator = players[0]!;
    const { gameId, message } = createGame(creator, r.bytes(16), settings(), { seq: 0, time: T0 });
    const log = [message.bytes];
    players.forEach((p, i) => log.push(joinGame(p, gameId, `p${i}`, null, { seq: 1, time: T0 + 1 }).bytes));
    // players[1] holds three powers; players[5], [6] are left out.
    const holders = [0, 1, 1, 1, 2, 3, 4].map((i) => players[i]!);
    const roster = Object.fromEntries(POWERS.map((q, i) => [q, holders[i]!.id])) as Record<Power, string>;
    const start = startGame(creator, gameId, roster, escrowOf(players), { seq: 2, time: T0 + 2 });
    const keys = startKeys({ roster, participants: [] });
    expect(keys.length).toBe(5);
    expect([...keys].sort()).toEqual(keys);
    const ack = acceptStart(players[1]!, gameId, start, { seq: 3, time: T0 + 3, places: keys });
    expect(wire(ack.bytes)[2]).toBe(keys.indexOf(players[1]!.id) + 1);
    const o = openMessage(ack.bytes, undefined, { game: gameId, keyLists: [keys] });
    expect(o).toMatchObject({ ok: true, message: { id: ack.id, payload: { from: players[1]!.id } } });
    // A left-out joiner cannot borrow a place: its entries are carried in full.
    const out = acceptStart(players[6]!, gameId, start, { seq: 3, time: T0 + 3, places: keys });
    expect(namesAuthorByPlace(wire(out.bytes))).toBe(false);
  });
});

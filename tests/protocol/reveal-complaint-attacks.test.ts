// Adversarial review of the version 6 REVEAL complaint (README.md "The sealed ballot", "a REVEAL's
// complaint in a share's place"): a REVEAL may carry, in the place of the share it owes of a commit
// its author's own named LOCK did not name, a complaint (K = x_i·E with its proof); a valid one
// excuses the share and voids the commit (escrow-bad-share). These tests try to use it to void an
// honest commit, to skip a share, or to get a choice after reading, and check the honest writer.
import { describe, expect, it } from 'vitest';
import {
  acceptStart,
  createGame,
  escrowHolders,
  finalOrders,
  joinGame,
  messageId,
  openMessage,
  paddingUnits,
  revealDue,
  revealLockIds,
  sealOrders,
  signMessage,
  signPayloadBytes,
  startGame,
  voteTimeout,
  type GameView,
  type PayloadBody,
} from '../../src/protocol';
import { escrowPublic, pointFromText, pointText, proveShared, scalarText } from '../../src/protocol/escrow';
import { decodePayload, encodePayload } from '../../src/protocol/codec';
import type { Payload } from '../../src/protocol/messages';
import { POWERS, type Power } from '../../src/rules';
import { escrowOf, messagesOf, payloadOf, Phone, rng, settings, startedGame, T0, view, identity, type Game, shuffled } from './helpers';
import { equivocatedFinals, reasonOf, resign, spoiledCommit } from './complaint-helpers';

type Complaint = { commit: string; k: string; proof: string };

const bytesOf = (game: Game, id: string) => game.log.find((x) => messageId(x) === id)!;
const escrowE = (game: Game, id: string) => payloadOf(bytesOf(game, id)).escrow.e as string;
const byCommit = (x: Complaint, y: Complaint) => (x.commit < y.commit ? -1 : x.commit > y.commit ? 1 : 0);

/**
 * France (honest) commits F1 then F2 and goes silent: timed out, no FINAL. `cheat` locks having
 * "seen" F1 only (its LOCK names head F1); every other key's LOCK names F2, the counted head. So
 * `cheat`'s REVEAL owes its share of F2 or a complaint, and F2 is honest: no complaint can check.
 */
function honestHeads(seed: number, cheatPower: Power = 'england') {
  const game = startedGame(seed);
  const v0 = view(game);
  const key = v0.current!.key;
  const france = game.byPower.france;
  const cheat = game.byPower[cheatPower];
  for (const p of v0.current!.required) game.log.push(game.byPower[p].commit(game.gameId, v0, [], T0 + 100).bytes);
  const f1 = france.commits.get(key)!.at(-1)!;
  game.log.push(france.commit(game.gameId, v0, [], T0 + 101).bytes);
  const f2 = france.commits.get(key)!.at(-1)!;
  const v1 = view(game);
  for (const ph of game.phones) if (ph !== france) game.log.push(ph.final(game.gameId, v1, T0 + 102).bytes);
  const late = v1.current!.revealDeadline + 5;
  for (const ph of game.phones) if (ph !== france) game.log.push(voteTimeout(ph.me, game.gameId, key, ['france'], ph.stamp(late)).bytes);
  expect(view(game).current?.timedOut).toEqual(['france']);
  // The cheater's view without F2 (the FINALs and votes are all there).
  const withoutF2 = game.log.filter((b) => messageId(b) !== f2);
  game.log.push(cheat.lock(game.gameId, view(game, withoutF2), withoutF2, late + 1).bytes);
  expect(payloadOf(game.log.at(-1)!).heads.france).toBe(f1);
  for (const ph of game.phones) if (ph !== france && ph !== cheat) game.log.push(ph.lock(game.gameId, view(game), game.log, late + 2).bytes);
  expect(payloadOf(game.log.at(-1)!).heads.france).toBe(f2);
  return { game, key, france, cheat, f1, f2, late };
}

/**
 * `author`'s honest REVEAL, then: its share of each commit in `drop` left out, `complaints` added
 * (sorted by commit unless `unsorted`), re-signed. Position of a share: its place among the
 * non-secret values revealDue lists for the REVEAL's own named LOCKs.
 */
function withComplaints(game: Game, author: Phone, time: number, drop: readonly string[], complaints: readonly Complaint[]): Uint8Array {
  const honest = payloadOf(author.reveal(game.gameId, view(game), game.log, time).bytes);
  const v = view(game);
  const due = revealDue(author.me.id, v.current!.ballotKeys, messagesOf(game.log), revealLockIds(honest as never), true).filter((d) => d.release !== 'secret');
  // The honest writer gives a share wherever it can; the positions below are those shares'.
  const shareIds = due.map((d) => d.commit.id).filter((id) => !(honest.complaints as Complaint[]).some((k) => k.commit === id));
  expect(shareIds).toHaveLength(honest.shares.length);
  for (const id of drop) expect(shareIds, 'the dropped share was owed').toContain(id);
  const shares = (honest.shares as string[]).filter((_, n) => !drop.includes(shareIds[n]!));
  const all = [...(honest.complaints as Complaint[]), ...complaints].sort(byCommit);
  return resign(author.me, { ...honest, shares, complaints: all });
}

describe('one cheater cannot void an honest commit with a REVEAL complaint', () => {
  // Each attack: England drops its share of France's honest head F2 and complains in its place.
  const attacks: [string, (g: ReturnType<typeof honestHeads>) => Complaint][] = [
    ['a true proof (the share checks)', ({ game, cheat, f2 }) => ({ commit: f2, ...proveShared(cheat.me.escrowSecret, escrowE(game, f2), f2)! })],
    [
      'a forged K (G) with the true proof',
      ({ game, cheat, f2 }) => ({ commit: f2, ...proveShared(cheat.me.escrowSecret, escrowE(game, f2), f2)!, k: escrowPublic(1n) }),
    ],
    [
      'the K and proof of another holder (Germany)',
      ({ game, f2 }) => ({ commit: f2, ...proveShared(game.byPower.germany.me.escrowSecret, escrowE(game, f2), f2)! }),
    ],
    ['its proof for another commit (F1)', ({ game, cheat, f1, f2 }) => ({ commit: f2, ...proveShared(cheat.me.escrowSecret, escrowE(game, f1), f1)! })],
    [
      'its proof bound to another context (F1 id) over F2’s E',
      ({ game, cheat, f1, f2 }) => ({ commit: f2, ...proveShared(cheat.me.escrowSecret, escrowE(game, f2), f1)! }),
    ],
    [
      'its proof for another phase’s context',
      ({ game, cheat, f2 }) => ({ commit: f2, ...proveShared(cheat.me.escrowSecret, escrowE(game, f2), `${f2}|1901-fall`)! }),
    ],
    ['a K and proof for E = G (x·G is its public key)', ({ cheat, f2 }) => ({ commit: f2, ...proveShared(cheat.me.escrowSecret, escrowPublic(1n), f2)! })],
  ];
  for (const [name, make] of attacks)
    it(`${name}: the REVEAL is refused (reveal-complaint-does-not-check), France is not accused`, () => {
      const g = honestHeads(21);
      const { game, france, cheat, f2, late } = g;
      const forged = withComplaints(game, cheat, late + 3, [f2], [make(g)]);
      game.log.push(forged);
      for (const ph of game.phones) if (ph !== france && ph !== cheat) game.log.push(ph.reveal(game.gameId, view(game), game.log, late + 4).bytes);
      const after = view(game);
      expect(reasonOf(after, messageId(forged))).toBe('reveal-complaint-does-not-check');
      expect(
        after.ignored.filter((x) => x.reason.startsWith('reveal') && x.id !== messageId(forged)),
        'honest REVEALs stand',
      ).toEqual([]);
      expect(
        after.misconduct.filter((m) => m.author === france.me.id),
        'France is accused of nothing',
      ).toEqual([]);
      expect(after.misconduct.some((m) => m.kind === 'escrow-bad-share')).toBe(false);
    });

  it('the honest England REVEAL (its LOCK named F1) gives its share of F2, no complaint, and stands', () => {
    const { game, cheat: england, f2, late } = honestHeads(22);
    const honest = england.reveal(game.gameId, view(game), game.log, late + 3);
    expect(payloadOf(honest.bytes).complaints).toEqual([]);
    game.log.push(honest.bytes);
    expect(reasonOf(view(game), honest.id)).toBeUndefined();
    expect(view(game).current?.ballot.reveals[england.me.id]).toBeDefined();
    expect(f2).toBeDefined();
  });

  it('a complaint AND the share of the same commit: refused (one form per REVEAL)', () => {
    const { game, cheat, f2, late } = honestHeads(23);
    const k = { commit: f2, ...proveShared(cheat.me.escrowSecret, escrowE(game, f2), f2)! };
    const both = withComplaints(game, cheat, late + 3, [], [k]);
    game.log.push(both);
    expect(reasonOf(view(game), messageId(both))).toMatch(/^reveal-(complaint-does-not-check|has-extra-shares)$/);
    expect(view(game).current?.ballot.reveals[cheat.me.id]).toBeUndefined();
  });

  it('F1, named by England’s LOCK only: Germany owes its share or a complaint (refused, F1 is honest); England owes the share itself', () => {
    const { game, cheat, f1, late } = honestHeads(24);
    const germany = game.byPower.germany;
    // F1 is not the counted head, but Germany's REVEAL names England's LOCK, so it owes F1's share.
    const k = { commit: f1, ...proveShared(germany.me.escrowSecret, escrowE(game, f1), f1)! };
    const forged = withComplaints(game, germany, late + 3, [f1], [k]);
    game.log.push(forged);
    expect(reasonOf(view(game), messageId(forged))).toBe('reveal-complaint-does-not-check');
    // England's own LOCK named F1: a share it owes plainly (it could have complained in that LOCK).
    const k2 = { commit: f1, ...proveShared(cheat.me.escrowSecret, escrowE(game, f1), f1)! };
    const forged2 = withComplaints(game, cheat, late + 3, [], [k2]);
    game.log.push(forged2);
    expect(reasonOf(view(game), messageId(forged2))).toBe('reveal-complains-about-commit-not-owed');
  });

  it('a complaint about its own commit, about a commit of no LOCK, or of another phase: refused', () => {
    const { game, key, cheat, late } = honestHeads(25);
    const own = cheat.commits.get(key)!.at(-1)!;
    const selfK = { commit: own, ...proveShared(cheat.me.escrowSecret, escrowE(game, own), own)! };
    const unknown = { ...selfK, commit: '00'.repeat(16) };
    for (const k of [selfK, unknown]) {
      const forged = withComplaints(game, cheat, late + 3, [], [k]);
      game.log.push(forged);
      expect(reasonOf(view(game), messageId(forged))).toBe('reveal-complains-about-commit-not-owed');
      game.log.pop();
    }
  });

  it('two complaints about one commit have no byte form: refused with a reason, never thrown', () => {
    const { game, cheat, f2, late } = honestHeads(26);
    const k = { commit: f2, ...proveShared(cheat.me.escrowSecret, escrowE(game, f2), f2)! };
    const honest = payloadOf(cheat.reveal(game.gameId, view(game), game.log, late + 3).bytes);
    expect(() => encodePayload({ ...honest, complaints: [k, k] } as unknown as Payload)).toThrow();
    // Hand-made: two complaints, then the second's commit id overwritten with the first's.
    const other = { ...k, commit: 'ff'.repeat(16) };
    const bytes = encodePayload({ ...honest, complaints: [k, other].sort(byCommit) } as unknown as Payload);
    const n = bytes.length;
    const dup = new Uint8Array(bytes);
    const first = k.commit < other.commit ? n - 224 : n - 112;
    const second = first === n - 224 ? n - 112 : n - 224;
    dup.set(bytes.subarray(first, first + 16), second);
    let decoded: ReturnType<typeof decodePayload> | undefined;
    expect(() => (decoded = decodePayload(dup))).not.toThrow();
    expect(decoded?.ok).toBe(false);
    const signed = signPayloadBytes(cheat.me, dup);
    expect(openMessage(signed).ok).toBe(false);
  });
});

/** startedGame with its CREATE, JOINs and START signed as version 5 (the later entries are version 6). */
function startedGame5(seed: number): Game {
  const random = rng(seed);
  const phones = POWERS.map((p, i) => new Phone(identity(i), p, rng(seed * 100 + i)));
  const creator = phones[0]!;
  const as5 = (ph: Phone, bytes: Uint8Array) => signPayloadBytes(ph.me, encodePayload({ ...payloadOf(bytes), v: 5 } as Payload));
  const { gameId, message } = createGame(creator.me, random.bytes(16), settings(), creator.stamp(T0));
  const log: Uint8Array[] = [as5(creator, message.bytes)];
  for (const ph of phones) log.push(as5(ph, joinGame(ph.me, gameId, ph.power, ph.power, ph.stamp(T0 + 1)).bytes));
  const roster = Object.fromEntries(phones.map((ph) => [ph.power, ph.me.id])) as Record<Power, string>;
  const start5 = as5(creator, startGame(creator.me, gameId, roster, escrowOf(phones.map((ph) => ph.me)), creator.stamp(T0 + 2)).bytes);
  log.push(start5);
  const opened = openMessage(start5);
  if (!opened.ok) throw new Error('start');
  for (const ph of phones.slice(1)) log.push(acceptStart(ph.me, gameId, opened.message, ph.stamp(T0 + 3)).bytes);
  const byPower = Object.fromEntries(phones.map((ph) => [ph.power, ph])) as Record<Power, Phone>;
  return { gameId, phones, byPower, log, startId: opened.message.id };
}

describe('the honest writer', () => {
  it('B with E the identity point (every share spoiled): France complains in its REVEAL and it stands; B is void', () => {
    const G = pointFromText(escrowPublic(1n))!;
    const {
      game,
      key,
      turkey,
      blind: france,
      b,
    } = equivocatedFinals(startedGame(41), { spoiledFor: [], edit: (e) => ({ ...e, e: pointText(G.subtract(G)) }) });
    for (const ph of game.phones) if (ph !== turkey) game.log.push(ph.reveal(game.gameId, view(game), game.log, T0 + 105).bytes);
    const fromFrance = game.log.map(payloadOf).find((p) => p.type === 'reveal' && p.from === france.me.id)!;
    expect(fromFrance.complaints.map((k: Complaint) => k.commit)).toEqual([b]);
    const after = view(game);
    expect(
      after.ignored.filter((x) => x.reason.startsWith('reveal')),
      'no honest REVEAL is refused',
    ).toEqual([]);
    expect(after.phases).toHaveLength(1);
    expect(after.phases[0]!.civilDisorder).toEqual(['turkey']);
    expect(after.phases[0]!.commits.france).toBe(france.commits.get(key)!.at(-1));
    // Turkey's slot is void by equivocation first (two FINALs named); the point is France's REVEAL stands.
    expect(after.misconduct.some((m) => m.author === turkey.me.id && m.kind === 'equivocation')).toBe(true);
  });

  it('an escrow no proof could show spoiled (E or an S_i not a point, a commitment missing) never gets in: the commit is refused', () => {
    const game = startedGame(42);
    const v0 = view(game);
    for (const p of v0.current!.required) game.log.push(game.byPower[p].commit(game.gameId, v0, [], T0 + 100).bytes);
    const notPoint = 'A'.repeat(42) + 'E';
    expect(pointFromText(notPoint)).toBeNull();
    const edits: ((e: Record<string, any>) => Record<string, any>)[] = [
      (e) => ({ ...e, e: notPoint }),
      (e) => ({ ...e, c: [notPoint, ...e.c.slice(1)] }),
      (e) => ({ ...e, c: e.c.slice(0, -1) }),
      (e) => ({ ...e, c: [...e.c, e.c[0]] }),
    ];
    for (const edit of edits) {
      const bad = spoiledCommit(game, v0, game.byPower.turkey, [], T0 + 101, edit);
      game.log.push(bad);
      const reason = reasonOf(view(game), messageId(bad));
      expect(reason === 'commit-bad-escrow' || reason === 'bad-shape' || !openMessage(bad).ok, `refused: ${reason}`).toBe(true);
      expect(view(game).current?.ballot.commits).not.toContain(messageId(bad));
    }
  });
});

describe('a version 5 game keeps the old rule', () => {
  it('a (version 6) REVEAL with a complaint in a game whose START is version 5 is refused; the honest writer complains not', () => {
    const { game, blind: france, b } = equivocatedFinals(startedGame5(51));
    const honest = france.reveal(game.gameId, view(game), game.log, T0 + 105);
    expect(payloadOf(honest.bytes).complaints).toEqual([]);
    // The known gap of version 5 games: France owes a share of B it can neither give nor complain about.
    game.log.push(honest.bytes);
    expect(reasonOf(view(game), honest.id)).toBe('reveal-misses-a-share');
    game.log.pop();
    const k = { commit: b, ...proveShared(france.me.escrowSecret, escrowE(game, b), b)! };
    const forged = resign(france.me, { ...payloadOf(honest.bytes), complaints: [k] });
    game.log.push(forged);
    expect(reasonOf(view(game), messageId(forged))).toBe('reveal-complaint-before-version-6');
    // The same complaint in a version 6 game is valid (the rule is what changed, not the complaint).
    const six = equivocatedFinals(startedGame(51));
    const r6 = six.blind.reveal(six.game.gameId, view(six.game), six.game.log, T0 + 105);
    expect(payloadOf(r6.bytes).complaints).toHaveLength(1);
    six.game.log.push(r6.bytes);
    expect(reasonOf(view(six.game), r6.id)).toBeUndefined();
  });
});

describe('order independence', () => {
  it('a game whose REVEALs carry complaints (and a refused forged one) reduces to one state hash in any order', () => {
    const { game, turkey, blind: france, a } = equivocatedFinals(startedGame(61));
    // England's forged complaint about A, whose share checks: refused whatever the order.
    const england = game.byPower.england;
    const k = { commit: a, ...proveShared(england.me.escrowSecret, escrowE(game, a), a)! };
    const forged = withComplaints(game, england, T0 + 106, [a], [k]);
    game.log.push(forged);
    for (const ph of game.phones) if (ph !== turkey && ph !== england) game.log.push(ph.reveal(game.gameId, view(game), game.log, T0 + 105).bytes);
    expect(game.log.map(payloadOf).find((p) => p.type === 'reveal' && p.from === france.me.id)!.complaints).toHaveLength(1);
    const base = view(game);
    expect(reasonOf(base, messageId(forged))).toBe('reveal-complaint-does-not-check');
    expect(base.current?.ballot.reveals[france.me.id], 'France’s REVEAL with its complaint stands').toBeDefined();
    const sorted = (v: GameView) => [...v.ignored].sort((x, y) => (x.id + x.reason < y.id + y.reason ? -1 : 1));
    for (const seed of [1, 2, 3, 4]) {
      const v = view(game, shuffled(game.log, seed));
      expect(v.stateHash).toBe(base.stateHash);
      expect(sorted(v)).toEqual(sorted(base));
    }
  });
});

/**
 * Turkey's commit like an honest one, but holder `victim`'s S_i moved by G and the box sealed with
 * s + 1 (so C_0 = Σ S_i still matches the secret Turkey reveals): spoiled for `victim` alone, yet
 * opened by its owner. The phone keeps s + 1 as the new commit's secret.
 */
function pairCommit(game: Game, v: GameView, victim: Phone, time: number): Uint8Array {
  const turkey = game.byPower.turkey;
  const honest = turkey.commit(game.gameId, v, [], time);
  const p = payloadOf(honest.bytes);
  const s = turkey.secrets.get(honest.id)! + 1n;
  const i = escrowHolders(v.current!.ballotKeys, turkey.me.id).indexOf(victim.me.id);
  const c = [...p.escrow.c];
  c[i] = pointText(pointFromText(c[i])!.add(pointFromText(escrowPublic(1n))!));
  const box = sealOrders({ orders: [], draw: false }, paddingUnits(v.current!.position, 'turkey'), s, turkey.random.bytes(24));
  const { v: _v, from: _f, ...body } = { ...p, sealed: box.sealed, hash: box.hash, escrow: { ...p.escrow, c } } as Record<string, unknown>;
  const bytes = signMessage(turkey.me, body as PayloadBody);
  turkey.secrets.set(messageId(bytes), s);
  return bytes;
}

/** `author`'s honest REVEAL with `share` in the place of commit `id` (where its complaint was), re-signed. */
function withShare(game: Game, author: Phone, time: number, id: string, share: string, log: readonly Uint8Array[] = game.log): Uint8Array {
  const honest = payloadOf(author.reveal(game.gameId, view(game, log), log, time).bytes);
  const v = view(game, log);
  const due = revealDue(author.me.id, v.current!.ballotKeys, messagesOf(log), revealLockIds(honest as never), true).filter((d) => d.release !== 'secret');
  const given = [...(honest.shares as string[])];
  const shares = due.map((d) => (d.commit.id === id ? share : given.shift()!));
  expect(given).toEqual([]);
  const complaints = (honest.complaints as Complaint[]).filter((k) => k.commit !== id);
  expect(complaints.length).toBe(honest.complaints.length - 1);
  return resign(author.me, { ...honest, shares, complaints });
}

describe('a pair (dealer + a holder whose LOCK did not name the commit): its known choice after reading', () => {
  /**
   * Turkey (dealer) signs A and B (B spoiled for Russia alone, openable by Turkey's secret) and
   * FINALs of both. Russia (accomplice) signs two LOCKs: R1 naming FINAL A, R2 naming FINAL B with
   * no complaint. Turkey reveals first naming R2, so honest writers name R2 (counted: B is
   * Turkey's counted commit). Every key but Russia reveals; Russia has read everything and then
   * reveals naming R1, which did not name B: it owes B's share or a complaint.
   */
  function pairGame(seed: number) {
    const game = startedGame(seed);
    const v0 = view(game);
    const key = v0.current!.key;
    const turkey = game.byPower.turkey;
    const russia = game.byPower.russia;
    for (const p of v0.current!.required) game.log.push(game.byPower[p].commit(game.gameId, v0, [], T0 + 100).bytes);
    const a = turkey.commits.get(key)!.at(-1)!;
    const bBytes = pairCommit(game, v0, russia, T0 + 101);
    const b = messageId(bBytes);
    game.log.push(bBytes);
    const v1 = view(game);
    for (const ph of game.phones) if (ph !== turkey) game.log.push(ph.final(game.gameId, v1, T0 + 102).bytes);
    const finalA = finalOrders(turkey.me, game.gameId, key, 'turkey', a, { seq: 51, time: T0 + 102 }).bytes;
    game.log.push(finalA);
    const r1 = russia.lock(game.gameId, view(game), game.log, T0 + 103).bytes;
    game.log.push(r1);
    game.log.push(finalOrders(turkey.me, game.gameId, key, 'turkey', b, { seq: 50, time: T0 + 102 }).bytes);
    for (const ph of game.phones) if (ph !== russia) game.log.push(ph.lock(game.gameId, view(game), game.log, T0 + 104).bytes);
    const noA = game.log.filter((x) => x !== finalA && x !== r1);
    const r2Honest = payloadOf(russia.lock(game.gameId, view(game, noA), noA, T0 + 104).bytes);
    expect(
      r2Honest.complaints.map((k: Complaint) => k.commit),
      'an honest R2 would complain blind',
    ).toEqual([b]);
    const r2 = resign(russia.me, { ...r2Honest, complaints: [] });
    game.log.push(r2);
    const noR1 = game.log.filter((x) => x !== r1);
    game.log.push(turkey.reveal(game.gameId, view(game, noR1), noR1, T0 + 105).bytes);
    for (const ph of game.phones) if (ph !== russia && ph !== turkey) game.log.push(ph.reveal(game.gameId, view(game), game.log, T0 + 106).bytes);
    const noR2 = game.log.filter((x) => x !== r2);
    return { game, turkey, russia, b, r1: messageId(r1), r2: messageId(r2), noR2 };
  }

  it('Russia, an equivocator, keeps the old rule: complaint or bogus share, B counts either way (no choice after reading)', () => {
    const { game, turkey, russia, b, r1, noR2 } = pairGame(71);
    const before = [...game.log];
    // Russia's phone writes the complaint (the writer cannot know its key signed two LOCKs).
    const complained = russia.reveal(game.gameId, view(game, noR2), noR2, T0 + 107);
    expect(revealLockIds(payloadOf(complained.bytes) as never)).toContain(r1);
    expect(payloadOf(complained.bytes).complaints.map((k: Complaint) => k.commit)).toEqual([b]);
    const v1 = view(game, [...before, complained.bytes]);
    expect(reasonOf(v1, complained.id), 'it owes the share itself').toBe('reveal-misses-a-share');
    const bogus = withShare(game, russia, T0 + 107, b, scalarText(12345n), noR2);
    const v2 = view(game, [...before, bogus]);
    expect(reasonOf(v2, messageId(bogus)), 'unchecked: Turkey’s own secret opens B').toBeUndefined();
    for (const v of [v1, v2]) {
      expect(v.phases).toHaveLength(1);
      for (const who of [turkey, russia])
        expect(
          v.misconduct.some((m) => m.author === who.me.id && m.kind === 'equivocation'),
          'visible',
        ).toBe(true);
      expect(v.misconduct.some((m) => m.kind === 'escrow-bad-share')).toBe(false);
      expect(v.phases[0]!.civilDisorder).toEqual([]);
      expect(v.phases[0]!.commits.turkey).toBe(b);
    }
    // Same outcome whatever Russia chose after reading.
    for (const power of POWERS) expect(v1.phases[0]!.commits[power], power).toBe(v2.phases[0]!.commits[power]);
  });
});

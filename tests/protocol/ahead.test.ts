// Work done ahead (client.ts sharesAhead/prepareShare, escrow.ts holderCheck): a phone checks its
// escrow share of each commit as the commit arrives, remembered, so its LOCK and REVEAL at the
// critical moment only read it. What they sign must be byte for byte what they sign without it,
// a spoiled share must still draw the complaint, and the memory must answer for the commit and
// the holder asked, never for another.
import { describe, expect, it } from 'vitest';
import {
  commitTurn,
  finalOrders,
  lockBallot,
  messageId,
  prepareSealEscrow,
  prepareShare,
  revealBallot,
  sealAhead,
  sharesAhead,
  toHex,
  type GameView,
} from '../../src/protocol';
import {
  clearEscrowMemos,
  dealAhead,
  dealDerivedEscrow,
  escrowPublic,
  holderCheck,
  holderChecked,
  pointFromText,
  pointText,
  verifyShared,
  type EscrowFields,
  type HolderCheck,
} from '../../src/protocol/escrow';
import { escrowHolders as holders, messagesOf, payloadOf, rng, startedGame, T0, view, type Game, type Phone } from './helpers';
import { equivocatedFinals, spoiledCommit } from './complaint-helpers';

const OWNER = 'ab'.repeat(32);
const STAMP = { seq: 900, time: T0 + 500 };

/** Warms the memory the way the runner does: every commit sharesAhead names, for each phone in turn. */
function warm(game: Game, v: GameView): void {
  const messages = messagesOf(game.log);
  for (const ph of game.phones) {
    const ids = sharesAhead(ph.me, v, messages);
    expect(ids.length, `${ph.power} has shares to check`).toBeGreaterThan(0);
    for (const id of ids) prepareShare(ph.me, v, messages, id);
    expect(sharesAhead(ph.me, v, messages), `${ph.power} has nothing left to do ahead`).toEqual([]);
  }
}

/** What each phone signs with `sign`, its memory cleared before each one. */
function cold(game: Game, sign: (ph: Phone) => Uint8Array): Uint8Array[] {
  return game.phones.map((ph) => {
    clearEscrowMemos();
    return sign(ph);
  });
}

/** What each phone signs with `sign` after every phone has done its share work ahead. */
function warmed(game: Game, v: GameView, sign: (ph: Phone) => Uint8Array): Uint8Array[] {
  clearEscrowMemos();
  warm(game, v);
  return game.phones.map(sign);
}

describe('escrow.ts holderCheck: remembered per commit, holder and index', () => {
  const r = rng(17);
  const hs = holders(3, 17);
  const deal = () =>
    dealDerivedEscrow(
      OWNER,
      hs.map((h) => h.p),
      r.bytes(32),
      r.bytes(32),
    )!.escrow;
  const one = deal();
  const two = deal();
  /** Holder 2's S_i moved by G: its share no longer checks. */
  const spoiled: EscrowFields = { ...one, c: one.c.map((c, i) => (i === 1 ? pointText(pointFromText(c)!.add(pointFromText(escrowPublic(1n))!)) : c)) };
  const asks: [string, string, EscrowFields, number, number][] = [
    ['c1', 'holder 1', one, 0, 1],
    ['c1', 'holder 2', one, 1, 2],
    ['c2', 'holder 1', two, 0, 1],
    // Holder 2 reading holder 1's place: its derived share is not S_1's (a complaint).
    ['c1', 'holder 2 at index 1', one, 1, 1],
    ['c3', 'holder 2 of a spoiled commit', spoiled, 1, 2],
    ['c3', 'holder 1 of the spoiled commit', spoiled, 0, 1],
  ];
  const ask = ([id, , escrow, k, index]: (typeof asks)[number]): HolderCheck => holderCheck(hs[k]!.x, hs[k]!.p, id, escrow, true, OWNER, index);

  it('gives, remembered, what it gives computed alone: for the commit and the holder asked', () => {
    const alone = asks.map((a) => {
      clearEscrowMemos();
      return ask(a);
    });
    // The cases differ: a shared answer across commits or holders would show.
    expect(alone[0]!.share).not.toBeNull();
    expect(alone[1]!.share).not.toBeNull();
    expect(alone[2]!.share).not.toBeNull();
    expect(alone[2]!.share).not.toBe(alone[0]!.share);
    expect(alone[3]!.share).toBeNull();
    expect(alone[4]!.share).toBeNull();
    // Holder 1 of the spoiled copy: same E, S_1 untouched, so the same share as of c1.
    expect(alone[5]!.share).toBe(alone[0]!.share);
    clearEscrowMemos();
    for (const [i, a] of asks.entries()) {
      expect(holderChecked(hs[a[3]]!.p, a[0], a[4]), `${a[1]} of ${a[0]} is not remembered before`).toBe(false);
      expect(ask(a), `${a[1]} of ${a[0]}`).toEqual(alone[i]);
      expect(holderChecked(hs[a[3]]!.p, a[0], a[4])).toBe(true);
    }
    // Asked again, in the other order, from memory.
    for (const [i, a] of [...asks.entries()].reverse()) expect(ask(a), `${a[1]} of ${a[0]}, again`).toEqual(alone[i]);
  });

  it('a deal made ahead (dealAhead) is taken only by a deal of the same owner, holders and bytes', () => {
    const random = r.bytes(32);
    const entropy = r.bytes(32);
    const keys = hs.map((h) => h.p);
    const asks: [string, string[]][] = [
      ['cd'.repeat(32), keys],
      [OWNER, [...keys].reverse()],
      [OWNER, keys],
    ];
    const alone = asks.map(([owner, ks]) => {
      clearEscrowMemos();
      return dealDerivedEscrow(owner, ks, random, entropy);
    });
    expect(new Set(alone.map((d) => d!.secret)).size).toBe(3);
    clearEscrowMemos();
    dealAhead(OWNER, keys, random, entropy);
    expect(asks.map(([owner, ks]) => dealDerivedEscrow(owner, ks, random, entropy))).toEqual(alone);
  });

  it('a share that does not check comes with the holder’s complaint, which checks', () => {
    clearEscrowMemos();
    const bad = holderCheck(hs[1]!.x, hs[1]!.p, 'c3', spoiled, true, OWNER, 2);
    expect(bad.share).toBeNull();
    expect(bad.complaint).not.toBeNull();
    expect(verifyShared(hs[1]!.p, spoiled.e!, bad.complaint!, 'c3')).toBe(true);
    const good = holderCheck(hs[0]!.x, hs[0]!.p, 'c3', spoiled, true, OWNER, 1);
    expect(good.share).not.toBeNull();
    expect(good.complaint).toBeNull();
  });
});

describe('LOCK and REVEAL are the same bytes with the share work done ahead or not', () => {
  it('LOCK: Turkey spoils France’s share; France complains either way, every LOCK identical', () => {
    const game = startedGame(23);
    const v0 = view(game);
    const key = v0.current!.key;
    const turkey = game.byPower.turkey;
    const france = game.byPower.france;
    for (const p of v0.current!.required) if (p !== 'turkey') game.log.push(game.byPower[p].commit(game.gameId, v0, [], T0 + 100).bytes);
    const bytes = spoiledCommit(game, v0, turkey, [france], T0 + 100);
    const b = messageId(bytes);
    game.log.push(bytes);
    const v1 = view(game);
    for (const ph of game.phones) if (ph !== turkey) game.log.push(ph.final(game.gameId, v1, T0 + 101).bytes);
    game.log.push(finalOrders(turkey.me, game.gameId, key, 'turkey', b, turkey.stamp(T0 + 101)).bytes);
    const v = view(game);
    const messages = messagesOf(game.log);
    const lock = (ph: Phone) => lockBallot(ph.me, game.gameId, v, messages, STAMP).bytes;
    const before = cold(game, lock);
    const after = warmed(game, v, lock);
    expect(after.map(toHex)).toEqual(before.map(toHex));
    const complaints = game.phones.map((ph, i) => [ph.power, payloadOf(after[i]!).complaints.map((k: { commit: string }) => k.commit)]);
    expect(Object.fromEntries(complaints)).toEqual(Object.fromEntries(game.phones.map((ph) => [ph.power, ph === france ? [b] : []])));
  });

  it('REVEAL: shares, and France’s complaint in a share’s place (version 6), identical', () => {
    const { game, turkey, blind: france, b } = equivocatedFinals(startedGame(29));
    const v = view(game);
    const messages = messagesOf(game.log);
    const reveal = (ph: Phone) => revealBallot(ph.me, game.gameId, v, messages, (id) => ph.secrets.get(id) ?? null, STAMP).bytes;
    const honest = game.phones.filter((ph) => ph !== turkey);
    const before = cold({ ...game, phones: honest }, reveal);
    const after = warmed({ ...game, phones: honest }, v, reveal);
    expect(after.map(toHex)).toEqual(before.map(toHex));
    const fromFrance = payloadOf(after[honest.indexOf(france)]!);
    expect(fromFrance.complaints.map((k: { commit: string }) => k.commit)).toEqual([b]);
    for (const [i, ph] of honest.entries()) {
      const p = payloadOf(after[i]!);
      expect(p.shares.length, `${ph.power} releases shares`).toBeGreaterThan(0);
    }
  });
});

describe('a seal whose escrow was dealt ahead', () => {
  const game = startedGame(31);
  const v = view(game);
  const r = rng(31);
  const bytes = () => ({ secret: r.bytes(32), nonce: r.bytes(24), entropy: r.bytes(32), coin: r.bytes(32) });
  const seal = (ph: Phone, random: ReturnType<typeof bytes>) => {
    const t = commitTurn(ph.me, game.gameId, v, ph.power, [], random, STAMP);
    if (!t.ok) throw new Error(t.reason);
    return { bytes: toHex(t.message.bytes), secret: t.secret };
  };
  const coldSeal = (ph: Phone, random: ReturnType<typeof bytes>) => {
    clearEscrowMemos();
    return seal(ph, random);
  };

  it('is due for a phone with a slot to seal, and no more once it has a commit', () => {
    const france = game.byPower.france;
    expect(sealAhead(v, france.me.id)).toBe(true);
    const g = startedGame(31);
    const v0 = view(g);
    g.log.push(g.byPower.france.commit(g.gameId, v0, [], T0 + 100).bytes);
    expect(sealAhead(view(g), g.byPower.france.me.id)).toBe(false);
    expect(sealAhead(view(g), g.byPower.italy.me.id)).toBe(true);
  });

  it('signs the same bytes, and the same secret, as a seal dealing its own escrow', () => {
    const france = game.byPower.france;
    const random = bytes();
    const before = coldSeal(france, random);
    clearEscrowMemos();
    prepareSealEscrow(france.me, v, random);
    expect(seal(france, random)).toEqual(before);
    // Taken once: the same bytes again deal afresh, to the same result.
    expect(seal(france, random)).toEqual(before);
  });

  it('is used only by a seal of the same owner and the same random bytes', () => {
    const france = game.byPower.france;
    const italy = game.byPower.italy;
    const prepared = bytes();
    const otherEntropy = { ...prepared, entropy: r.bytes(32) };
    const otherSecret = { ...prepared, secret: r.bytes(32) };
    const expected = [coldSeal(france, otherEntropy), coldSeal(france, otherSecret), coldSeal(italy, prepared)];
    clearEscrowMemos();
    prepareSealEscrow(france.me, v, prepared);
    expect([seal(france, otherEntropy), seal(france, otherSecret), seal(italy, prepared)]).toEqual(expected);
    expect(new Set(expected.map((e) => e.secret)).size).toBe(3);
  });
});

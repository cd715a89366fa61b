// Adversarial review of the escrow work done ahead (client.ts prepareShare, escrow.ts holderCheck
// and dealAhead): the memory is filled in idle time from whatever view the phone had then, which
// may be another context than the one its LOCK is signed in: a stale or forked view naming the
// holders in another order (so another index for this phone), another game's commits, another
// phone of the same device. Whatever filled it, the LOCK and REVEAL bytes must be those signed with
// it empty: a spoiled share still complained about, an honest one never.
import { describe, expect, it } from 'vitest';
import { commitTurn, finalOrders, lockBallot, messageId, prepareSealEscrow, prepareShare, sharesAhead, toHex, type GameView } from '../../src/protocol';
import { clearEscrowMemos } from '../../src/protocol/escrow';
import { messagesOf, payloadOf, startedGame, T0, view, type Game, type Phone } from './helpers';
import { spoiledCommit } from './complaint-helpers';

const STAMP = { seq: 900, time: T0 + 500 };

/** Turkey's commit spoiled for `victims`, everyone else honest, every FINAL in: the LOCKs are due. */
function lockingGame(seed: number, victims: (g: Game) => Phone[]) {
  const game = startedGame(seed);
  const v0 = view(game);
  const key = v0.current!.key;
  const turkey = game.byPower.turkey;
  for (const p of v0.current!.required) if (p !== 'turkey') game.log.push(game.byPower[p].commit(game.gameId, v0, [], T0 + 100).bytes);
  const bytes = spoiledCommit(game, v0, turkey, victims(game), T0 + 100);
  const spoiled = messageId(bytes);
  game.log.push(bytes);
  const v1 = view(game);
  for (const ph of game.phones) if (ph !== turkey) game.log.push(ph.final(game.gameId, v1, T0 + 101).bytes);
  game.log.push(finalOrders(turkey.me, game.gameId, key, 'turkey', spoiled, turkey.stamp(T0 + 101)).bytes);
  return { game, spoiled, v: view(game) };
}

/** The view with the open ballot's keys in another order: each phone's holder index moves. */
function reordered(v: GameView): GameView {
  const c = v.current!;
  return { ...v, current: { ...c, ballotKeys: [...c.ballotKeys].reverse() } } as GameView;
}

describe('work done ahead in another context never changes what a LOCK signs', () => {
  it('shares checked ahead under a stale view (holders in another order): LOCK bytes as cold, the spoiled share complained, no honest one', () => {
    const { game, spoiled, v } = lockingGame(41, (g) => [g.byPower.france]);
    const messages = messagesOf(game.log);
    const lock = (ph: Phone) => lockBallot(ph.me, game.gameId, v, messages, STAMP).bytes;
    const cold = game.phones.map((ph) => {
      clearEscrowMemos();
      return toHex(lock(ph));
    });
    clearEscrowMemos();
    const stale = reordered(v);
    for (const ph of game.phones) {
      const ids = sharesAhead(ph.me, stale, messages);
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) prepareShare(ph.me, stale, messages, id);
    }
    const warm = game.phones.map((ph) => toHex(lock(ph)));
    expect(warm).toEqual(cold);
    // And the cold answers are the right ones: France alone complains, about the spoiled commit.
    const complaints = Object.fromEntries(
      game.phones.map((ph, i) => [ph.power, payloadOf(Buffer.from(warm[i]!, 'hex')).complaints.map((k: { commit: string }) => k.commit)]),
    );
    expect(complaints).toEqual(Object.fromEntries(game.phones.map((ph) => [ph.power, ph.power === 'france' ? [spoiled] : []])));
  });

  it('another game’s commits checked ahead by the same identities, then this game’s LOCKs: as cold', () => {
    const one = lockingGame(43, (g) => [g.byPower.france, g.byPower.italy]);
    const two = lockingGame(44, (g) => [g.byPower.england]);
    // The same identities play both games (a device in two games).
    expect(two.game.gameId).not.toBe(one.game.gameId);
    expect(two.game.phones.map((p) => p.me.id)).toEqual(one.game.phones.map((p) => p.me.id));
    const m1 = messagesOf(one.game.log);
    const m2 = messagesOf(two.game.log);
    const lock = (ph: Phone) => toHex(lockBallot(ph.me, two.game.gameId, two.v, m2, STAMP).bytes);
    const cold = two.game.phones.map((ph) => {
      clearEscrowMemos();
      return lock(ph);
    });
    clearEscrowMemos();
    for (const ph of one.game.phones) for (const id of sharesAhead(ph.me, one.v, m1)) prepareShare(ph.me, one.v, m1, id);
    for (const ph of one.game.phones) for (const id of sharesAhead(ph.me, reordered(one.v), m1)) prepareShare(ph.me, reordered(one.v), m1, id);
    expect(two.game.phones.map(lock)).toEqual(cold);
  });

  it('a seal’s escrow dealt ahead from a stale view (holders in another order) is not taken: the commit deals to the holders it names', () => {
    const game = startedGame(47);
    const v = view(game);
    const france = game.byPower.france;
    const random = {
      secret: new Uint8Array(32).fill(7),
      nonce: new Uint8Array(24).fill(8),
      entropy: new Uint8Array(32).fill(9),
      coin: new Uint8Array(32).fill(10),
    };
    const seal = () => {
      const r = commitTurn(france.me, game.gameId, v, 'france', [], random, { seq: 50, time: T0 + 100 });
      if (!r.ok) throw new Error(r.reason);
      return { bytes: toHex(r.message.bytes), secret: r.secret };
    };
    clearEscrowMemos();
    const cold = seal();
    clearEscrowMemos();
    prepareSealEscrow(france.me, reordered(v), random);
    expect(seal()).toEqual(cold);
    // Dealt ahead from the right view: taken, the same bytes; taken once (a second seal deals again, the same bytes).
    prepareSealEscrow(france.me, v, random);
    expect(seal()).toEqual(cold);
    expect(seal()).toEqual(cold);
  });
});

import { describe, expect, it } from 'vitest';
import { POWERS, type Power } from '../../src/rules';
import {
  acceptStart,
  coinToss,
  commitLot,
  createGame,
  dealPowers,
  fingerprint,
  joinGame,
  lotOrder,
  messageId,
  signMessage,
  reduceLog,
  revealLot,
  startGame,
  standardEngine,
  type Signed,
} from '../../src/protocol';
import { identity, Phone, rng, settings, startedGame, T0, view } from './helpers';

function lotLobby(revealing: (i: number) => boolean) {
  const r = rng(41);
  const phones = POWERS.map((p, i) => new Phone(identity(i), p, rng(500 + i)));
  const creator = phones[0]!;
  const { gameId, message } = createGame(creator.me, r.bytes(16), settings({ assignment: 'lot' }), creator.stamp(T0));
  const log: Uint8Array[] = [message.bytes];
  const values = phones.map(() => r.bytes(32));
  const reveals: Signed[] = [];
  phones.forEach((ph, i) => {
    log.push(joinGame(ph.me, gameId, `player ${i}`, null, ph.stamp(T0 + 1)).bytes);
    log.push(commitLot(ph.me, gameId, 'powers', values[i]!, ph.stamp(T0 + 2)).bytes);
  });
  phones.forEach((ph, i) => {
    if (!revealing(i)) return;
    const rv = revealLot(ph.me, gameId, 'powers', values[i]!, ph.stamp(T0 + 3));
    reveals.push(rv);
    log.push(rv.bytes);
  });
  const revealed = new Map(phones.flatMap((ph, i) => (revealing(i) ? [[ph.me.id, values[i]!] as const] : [])));
  const order = lotOrder(phones.map((ph) => ph.me.id), revealed);
  const roster = dealPowers(order, revealed) as Record<Power, string>;
  return { gameId, log, phones, creator, reveals, order, roster, values, revealed };
}

describe('the lobby', () => {
  it('draws powers by lot; a player who does not reveal is seated last; everyone must accept the roster', () => {
    const lobby = lotLobby((i) => i !== 3);
    const { gameId, log, phones, creator, reveals, order, roster } = lobby;
    expect(order.at(-1)).toBe(phones[3]!.me.id);
    expect(Object.keys(roster).sort()).toEqual([...POWERS].sort());
    const start = startGame(creator.me, gameId, roster, reveals.map((r) => r.id), creator.stamp(T0 + 10));
    log.push(start.bytes);
    let v = reduceLog(gameId, log);
    expect(v.status).toBe('starting');
    expect(v.roster).toEqual(roster);
    expect(v.lots[0]?.order).toEqual(order);
    for (const ph of phones.slice(1, 6)) log.push(acceptStart(ph.me, gameId, start.id, ph.stamp(T0 + 11)).bytes);
    expect(reduceLog(gameId, log).status).toBe('starting');
    log.push(acceptStart(phones[6]!.me, gameId, start.id, phones[6]!.stamp(T0 + 11)).bytes);
    v = reduceLog(gameId, log);
    expect(v.status).toBe('playing');
    expect(v.players.map((p) => p.fingerprint)).toEqual(v.players.map((p) => fingerprint(p.key)));
  });

  it('refuses a roster that is not the lot, a START by anyone but the creator, and a lot reveal that does not match', () => {
    const { gameId, log, phones, creator, reveals, roster } = lotLobby(() => true);
    const swapped = { ...roster, austria: roster.england, england: roster.austria };
    const rigged = startGame(creator.me, gameId, swapped, reveals.map((r) => r.id), creator.stamp(T0 + 10));
    const usurper = startGame(phones[2]!.me, gameId, roster, reveals.map((r) => r.id), phones[2]!.stamp(T0 + 10));
    const liar = revealLot(phones[4]!.me, gameId, 'powers', rng(3).bytes(32), phones[4]!.stamp(T0 + 4));
    const v = reduceLog(gameId, [...log, rigged.bytes, usurper.bytes, liar.bytes]);
    expect(v.status).toBe('lobby');
    expect(v.ignored).toEqual(
      expect.arrayContaining([
        { id: rigged.id, reason: 'start-roster-not-the-lot' },
        { id: usurper.id, reason: 'start-not-by-creator' },
        { id: liar.id, reason: 'lot-reveal-does-not-match-commit' },
      ]),
    );
  });

  it('reports a creator who leaves out a reveal made before the START', () => {
    const { gameId, log, creator, reveals, phones, revealed } = lotLobby(() => true);
    const counted = reveals.slice(1);
    const values = new Map(revealed);
    values.delete(phones[0]!.me.id);
    const order = lotOrder(phones.map((p) => p.me.id), values);
    const start = startGame(creator.me, gameId, dealPowers(order, values) as Record<Power, string>, counted.map((r) => r.id), creator.stamp(T0 + 10));
    const v = reduceLog(gameId, [...log, start.bytes]);
    expect(v.roster).toBeDefined();
    expect(v.misconduct.some((m) => m.kind === 'start-omits-lot-reveal' && m.ids.includes(reveals[0]!.id))).toBe(true);
  });

  it('a coin toss depends on every revealed value', () => {
    const a = new Map([['aa', new Uint8Array(32).fill(1)], ['bb', new Uint8Array(32).fill(2)]]);
    const outcomes = new Set<boolean>();
    for (let i = 0; i < 16; i++) outcomes.add(coinToss(new Map([...a, ['bb', new Uint8Array(32).fill(i)]])));
    expect(outcomes).toEqual(new Set([true, false]));
    expect(coinToss(a)).toBe(coinToss(new Map([...a].reverse())));
  });

  it('only the creator key can create a game id; another engine version says so instead of guessing', () => {
    const game = startedGame(42);
    const intruder = identity(50);
    const create = signMessage(intruder, { type: 'create', game: game.gameId, seq: 0, time: T0, salt: '00'.repeat(16), settings: settings() });
    const v = reduceLog(game.gameId, [...game.log, create]);
    expect(v.ignored).toEqual([{ id: messageId(create), reason: 'create-not-bound-to-game' }]);
    expect(v.creator).toBe(game.byPower.austria.me.id);
    const other = reduceLog(game.gameId, game.log, { engine: { ...standardEngine, version: 'pacto-rules/999' } });
    expect(other.status).toBe('incompatible');
    expect(other.incompatible).toEqual({ reason: 'engine-version', game: `${settings().engine} standard`, ours: 'pacto-rules/999' });
    expect(other.phases).toEqual([]);
    expect(view(game).status).toBe('playing');
  });
});

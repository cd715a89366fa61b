// Issue 31, item 3: a game's protocol version is fixed by its CREATE (README.md "Game identity and
// the START anchor"). The attack: a version 6 game started with a version 4 START, which honest
// phones accepted automatically, so the game ran under version 4's rules (no pinned escrow keys); a
// player's second JOIN with another escrow key then set its escrow key to null and every honest
// seal threw "a player has no usable escrow key". Now an entry of an older version than the CREATE
// (START, JOIN, start ACK, anything else) is ignored with a reason, and a START pins every key.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  acceptStart,
  createGame,
  encodePayload,
  joinGame,
  messageId,
  reduceLog,
  signPayloadBytes,
  startGame,
  toHex,
  type GameView,
  type Identity,
  type Payload,
  type Signed,
} from '../../src/protocol';
import { POWERS, type Power } from '../../src/rules';
import { duties } from '../../src/ui/game/duties';
import { escrowOf, identity, Phone, playPhase, randomPhaseOrders, rng, settings, shuffled, startedGame, stateOf, T0, view } from './helpers';

/** Signs a body at an older protocol version (what a cheater's patched app can sign). */
function signAt(v: number, me: Identity, body: Record<string, unknown>): Signed {
  const bytes = signPayloadBytes(me, encodePayload({ ...body, v, from: me.id } as Payload));
  return { id: messageId(bytes), bytes };
}

/** A version 6 game: CREATE and seven JOINs (creator: Austria), nothing started. */
function joined(seed: number) {
  const phones = POWERS.map((p, i) => new Phone(identity(i), p, rng(seed * 100 + i)));
  const creator = phones[0]!;
  const salt = rng(seed).bytes(16);
  const { gameId, message } = createGame(creator.me, salt, settings(), creator.stamp(T0));
  const log: Uint8Array[] = [message.bytes];
  for (const ph of phones) log.push(joinGame(ph.me, gameId, ph.power, ph.power, ph.stamp(T0 + 1)).bytes);
  const roster = Object.fromEntries(phones.map((ph) => [ph.power, ph.me.id])) as Record<Power, string>;
  return { gameId, phones, creator, log, roster, salt: toHex(salt) };
}

const reasonsOf = (v: GameView, id: string) => v.ignored.filter((i) => i.id === id).map((i) => i.reason);

/** How many of the required powers' honest seals go through (the others throw). */
function sealsThatWork(gameId: string, log: Uint8Array[], phones: readonly Phone[]): { ok: number; errors: string[] } {
  const v = reduceLog(gameId, log);
  if (v.status !== 'playing') return { ok: 0, errors: [`status ${v.status}`] };
  let ok = 0;
  const errors: string[] = [];
  for (const ph of phones) {
    try {
      ph.commit(gameId, v, [], T0 + 100);
      ok++;
    } catch (e) {
      errors.push(e instanceof Error ? e.message : String(e));
    }
  }
  return { ok, errors };
}

describe('a game’s protocol version is fixed by its CREATE', () => {
  it('a version 4 START in a version 6 game is ignored with a reason: no phone accepts it on its own', () => {
    const g = joined(3101);
    const old = signAt(4, g.creator.me, { type: 'start', game: g.gameId, ...g.creator.stamp(T0 + 2), roster: g.roster, participants: [] });
    const log = [...g.log, old.bytes];
    const member = g.phones[3]!.me;
    const v = reduceLog(g.gameId, log, { me: member.id });
    // Before: status 'starting' under the old START, startRefusal null, the accept-start duty due.
    expect(v.status).toBe('lobby');
    expect(v.starts).toEqual([]);
    expect(reasonsOf(v, old.id)).toEqual(['older-version-than-game']);
    expect(duties({ view: v, me: member.id } as never).filter((d) => d.kind === 'accept-start')).toEqual([]);
  });

  it('the attack end to end: before, the old START and a second JOIN left nobody able to seal; now the honest START plays', () => {
    const g = joined(3102);
    const old = signAt(4, g.creator.me, { type: 'start', game: g.gameId, ...g.creator.stamp(T0 + 2), roster: g.roster, participants: [] });
    const log = [...g.log, old.bytes];
    // Members accept what their view shows them (the old START, before the fix).
    const shown = reduceLog(g.gameId, log);
    if (shown.status === 'starting') for (const ph of g.phones.slice(1)) log.push(acceptStart(ph.me, g.gameId, old, ph.stamp(T0 + 3)).bytes);
    // The honest START the creator's own app signs (version 6, pins every key).
    const honest = startGame(g.creator.me, g.gameId, g.roster, escrowOf(g.phones.map((ph) => ph.me)), g.creator.stamp(T0 + 4));
    log.push(honest.bytes);
    for (const ph of g.phones.slice(1)) {
      const v = reduceLog(g.gameId, log, { me: ph.me.id });
      if (v.status === 'starting' && v.start === honest.id && v.acceptances[ph.me.id] === undefined)
        log.push(acceptStart(ph.me, g.gameId, honest, ph.stamp(T0 + 5)).bytes);
    }
    // England's second JOIN names another escrow key: at version 4 and at version 6.
    const england = g.phones[1]!;
    const other = identity(40).escrowPublicKey;
    const body = { type: 'join', game: g.gameId, name: 'England', power: 'england', box: england.me.boxPublicKey, escrow: other };
    const join4 = signAt(4, england.me, { ...body, ...england.stamp(T0 + 6) });
    const join6 = signAt(6, england.me, { ...body, ...england.stamp(T0 + 7) });
    log.push(join4.bytes, join6.bytes);
    const v = reduceLog(g.gameId, log);
    expect(v.status).toBe('playing');
    expect('start' in v ? v.start : undefined).toBe(honest.id);
    expect(reasonsOf(v, old.id)).toEqual(['older-version-than-game']);
    expect(reasonsOf(v, join4.id)).toEqual(['older-version-than-game']);
    expect(v.players.find((p) => p.key === england.me.id)!.escrow).toBe(england.me.escrowPublicKey);
    // Before: 0 of 7 seals (each threw "a player has no usable escrow key"); now all 7.
    const seals = sealsThatWork(g.gameId, log, g.phones);
    expect(seals.errors).toEqual([]);
    expect(seals.ok).toBe(7);
  });

  it('older start ACKs and entries of any kind in a newer game are ignored with the same reason', () => {
    const g = joined(3103);
    const honest = startGame(g.creator.me, g.gameId, g.roster, escrowOf(g.phones.map((ph) => ph.me)), g.creator.stamp(T0 + 2));
    const log = [...g.log, honest.bytes];
    const italy = g.phones[3]!;
    const oldAck = signAt(5, italy.me, { type: 'ack', game: g.gameId, ...italy.stamp(T0 + 3), phase: 'start', hash: honest.id });
    log.push(oldAck.bytes);
    const v = reduceLog(g.gameId, log);
    expect(reasonsOf(v, oldAck.id)).toEqual(['older-version-than-game']);
    expect(v.accepted).not.toContain(italy.me.id);
  });

  it('a second CREATE of an older version (same id: the id binds no version) is ignored: it cannot lower the floor', () => {
    const g = joined(3104);
    // Seq 0 like the honest CREATE: were it the CREATE that counts, the old START below would.
    const oldCreate = signAt(4, g.creator.me, { type: 'create', game: g.gameId, seq: 0, time: T0, salt: g.salt, settings: settings() });
    const old = signAt(4, g.creator.me, { type: 'start', game: g.gameId, ...g.creator.stamp(T0 + 2), roster: g.roster, participants: [] });
    const v = reduceLog(g.gameId, [oldCreate.bytes, ...g.log, old.bytes]);
    expect(v.status).toBe('lobby');
    expect(reasonsOf(v, oldCreate.id)).toEqual(['older-version-than-game']);
    expect(reasonsOf(v, old.id)).toEqual(['older-version-than-game']);
  });

  it('a phase entry of an older version in a started game is ignored with the same reason, as it arrives or read cold', () => {
    const game = startedGame(3105);
    const v0 = view(game);
    const france = game.byPower.france;
    const old = signAt(5, france.me, { type: 'timeout', game: game.gameId, ...france.stamp(T0 + 50), phase: v0.current!.key, slots: ['england'] });
    const grown = [...game.log, old.bytes];
    const live = view(game, grown);
    expect(reasonsOf(live, old.id)).toEqual(['older-version-than-game']);
    expect(live.status).toBe('playing');
    // The same view from a fresh array (no index kept from the last reduce).
    expect(
      reduceLog(
        game.gameId,
        grown.map((b) => Uint8Array.from(b)),
      ),
    ).toEqual(live);
  });

  it('property: older entries of every lobby and phase kind, in any order and as they arrive, change nothing for members, spectators or a cold read', () => {
    const seed = 3106;
    const game = startedGame(seed);
    playPhase(game, randomPhaseOrders(view(game), rng(seed).int), T0 + 100);
    const honest = view(game);
    expect(honest.phases).toHaveLength(1);
    const [austria, england, france] = [game.phones[0]!, game.byPower.england, game.byPower.france];
    const roster = Object.fromEntries(game.phones.map((ph) => [ph.power, ph.me.id])) as Record<Power, string>;
    const spring = honest.phases[0]!.key;
    const extras = [
      signAt(4, austria.me, { type: 'create', game: game.gameId, seq: 0, time: T0, salt: toHex(rng(seed).bytes(16)), settings: settings() }),
      signAt(4, austria.me, { type: 'start', game: game.gameId, ...austria.stamp(T0 + 2), roster, participants: [] }),
      signAt(5, england.me, {
        type: 'join',
        game: game.gameId,
        ...england.stamp(T0 + 200),
        name: 'England',
        power: 'england',
        box: england.me.boxPublicKey,
        escrow: identity(41).escrowPublicKey,
      }),
      signAt(5, france.me, { type: 'ack', game: game.gameId, ...france.stamp(T0 + 3), phase: 'start', hash: 'ab'.repeat(16) }),
      signAt(5, france.me, { type: 'timeout', game: game.gameId, ...france.stamp(T0 + 300), phase: spring, slots: ['england'] }),
      signAt(3, france.me, { type: 'timeout', game: game.gameId, ...france.stamp(T0 + 301), phase: honest.current!.key, slots: ['england'] }),
    ];
    const readers = [undefined, austria.me.id, england.me.id, identity(42).id];
    const expected = new Map(readers.map((me) => [me, stateOf(reduceLog(game.gameId, game.log, me === undefined ? {} : { me }))]));
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 1, max: 9 }), (order, chunk) => {
        const all = shuffled([...game.log, ...extras.map((e) => e.bytes)], order);
        for (const me of readers) {
          const options = me === undefined ? {} : { me };
          // As it arrives (the index kept from one reduce to the next), then cold.
          for (let n = chunk; n < all.length; n += chunk) reduceLog(game.gameId, all.slice(0, n), options);
          const live = reduceLog(game.gameId, all, options);
          expect(stateOf(live)).toEqual(expected.get(me));
          for (const e of extras) expect(reasonsOf(live, e.id)).toEqual(['older-version-than-game']);
          expect(
            reduceLog(
              game.gameId,
              all.map((b) => Uint8Array.from(b)),
              options,
            ),
          ).toEqual(live);
        }
      }),
      { numRuns: 6 },
    );
  });

  it('an older entry arriving after the CREATE costs no fresh read of the log: no more work than a current one', () => {
    const game = startedGame(3107);
    playPhase(game, randomPhaseOrders(view(game), rng(3107).int), T0 + 100);
    const france = game.byPower.france;
    const phase = view(game).current!.key;
    const timeout = (v: number) => signAt(v, france.me, { type: 'timeout', game: game.gameId, ...france.stamp(T0 + 300), phase, slots: ['england'] });
    const cost = (extra: Signed) => {
      const log = [...game.log];
      reduceLog(game.gameId, log);
      const work = { steps: 0 };
      reduceLog(game.gameId, [...log, extra.bytes], { work });
      return work.steps;
    };
    const older = cost(timeout(5));
    const current = cost(timeout(6));
    expect(older).toBeLessThanOrEqual(current);
  });
});

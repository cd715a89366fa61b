// The view is closed (issue 14): what a phone acts on is computed once, in the reducer, and read
// from the view. Each field here replaced a scan of raw messages in the app.
import { describe, expect, it } from 'vitest';
import {
  acceptStart,
  acknowledge,
  ballotDuties,
  chatPlayers,
  claimClock,
  createGame,
  gameMessages,
  openChat,
  reduceLog,
  sealChat,
  sendChat,
  startGame,
} from '../../src/protocol';
import { POWERS, type Power } from '../../src/rules';
import { escrowOf, identity, messagesOf, playPhase, rng, settings, settlePhase, startedGame, T0, HOUR, view } from './helpers';

describe('the view carries the ballot per power', () => {
  it('lists every valid commit of a power, oldest first, and says when every awaited power has sealed', () => {
    const game = startedGame(31);
    let v = view(game);
    expect(v.current!.ballot.commits).toEqual({});
    expect(v.current!.ballot.sealed).toBe(false);
    const france = game.byPower.france;
    const first = france.commit(game.gameId, v, [], T0 + 10);
    game.log.push(first.bytes);
    v = view(game);
    const second = france.commit(game.gameId, v, [], T0 + 11);
    game.log.push(second.bytes);
    v = view(game);
    expect(v.current!.ballot.commits['france']).toEqual([first.id, second.id]);
    expect(v.current!.ballot.heads['france']).toBe(second.id);
    expect(v.current!.ballot.sealed).toBe(false);
    for (const p of v.current!.required.filter((p) => p !== 'france')) game.log.push(game.byPower[p].commit(game.gameId, v, [], T0 + 12).bytes);
    v = view(game);
    expect(v.current!.ballot.sealed).toBe(true);
    for (const p of POWERS) expect(v.current!.ballot.commits[p]?.length).toBe(p === 'france' ? 2 : 1);
  });

  it('the duties read LOCK and REVEAL from the view: a key whose LOCK is in owes no other', () => {
    const game = startedGame(32);
    const v0 = view(game);
    for (const p of v0.current!.required) game.log.push(game.byPower[p].commit(game.gameId, v0, [], T0 + 10).bytes);
    // FINALs only (no phone locks yet).
    let v = view(game);
    for (const ph of game.phones) {
      const due = ballotDuties(v, ph.me.id);
      expect(due.finals).toEqual([ph.power]);
      game.log.push(ph.final(game.gameId, v, T0 + 11).bytes);
    }
    v = view(game);
    const austria = game.byPower.austria;
    expect(ballotDuties(v, austria.me.id).lock).toBe(true);
    game.log.push(austria.lock(game.gameId, v, game.log, T0 + 12).bytes);
    v = view(game);
    expect(v.current!.ballot.locks[austria.me.id]).toHaveLength(1);
    expect(ballotDuties(v, austria.me.id)).toEqual({ finals: [], lock: false, reveal: false });
    expect(ballotDuties(v, game.byPower.england.me.id).lock).toBe(true);
  });
});

describe('the view counts the CLOCK claims', () => {
  it('lists the players who claimed their clock in the open phase', () => {
    const game = startedGame(33);
    const v0 = view(game);
    expect(v0.current!.clocked).toEqual([]);
    const england = game.byPower.england;
    game.log.push(claimClock(england.me, game.gameId, v0.current!.key, 'orders', england.stamp(T0 + HOUR)).bytes);
    expect(view(game).current!.clocked).toEqual([england.me.id]);
  });
});

describe('the view counts the STARTs and the acceptances', () => {
  it('one START: counted once, and each member’s acceptance names it', () => {
    const game = startedGame(34);
    const v = view(game);
    expect(v.starts).toEqual([game.startId]);
    for (const ph of game.phones.slice(1)) expect(v.acceptances[ph.me.id]).toBe(game.startId);
    expect(v.acceptances[game.phones[0]!.me.id]).toBeUndefined();
  });

  it('a second START is counted (the creator started twice), and a later acceptance does not replace the first', () => {
    const game = startedGame(35);
    const creator = game.phones[0]!;
    const roster = Object.fromEntries(game.phones.map((ph) => [ph.power, ph.me.id])) as Record<Power, string>;
    roster.england = game.byPower.france.me.id;
    const second = startGame(creator.me, game.gameId, roster, escrowOf(game.phones.map((ph) => ph.me)), creator.stamp(T0 + 5));
    game.log.push(second.bytes);
    const england = game.byPower.england;
    game.log.push(acceptStart(england.me, game.gameId, second, england.stamp(T0 + 6)).bytes);
    const v = view(game);
    expect(v.starts).toEqual([game.startId, second.id]);
    expect(v.acceptances[england.me.id]).toBe(game.startId);
  });
});

describe('the view lists who acknowledged each resolved phase', () => {
  it('a player’s ACK shows under its phase, with a wrong hash too (the mismatch is reported apart)', () => {
    const game = startedGame(36);
    playPhase(game, {}, T0 + 10);
    let v = settlePhase(game, T0 + 20);
    const phase = v.phases[0]!;
    expect(v.acked[phase.key]).toBeUndefined();
    const [a, b] = [game.byPower.austria, game.byPower.turkey];
    game.log.push(acknowledge(a.me, game.gameId, phase.key, phase.stateHash, a.stamp(T0 + 30)).bytes);
    const wrong = (phase.stateHash[0] === '0' ? '1' : '0') + phase.stateHash.slice(1);
    game.log.push(acknowledge(b.me, game.gameId, phase.key, wrong, b.stamp(T0 + 30)).bytes);
    v = view(game);
    expect(v.ignored).toEqual(view(game, game.log.slice(0, -2)).ignored);
    expect(v.acked[phase.key]).toEqual([a.me.id, b.me.id].sort());
    expect(v.hashMismatches.map((m) => m.author)).toEqual([b.me.id]);
  });
});

describe('the view carries what the runner read from raw messages', () => {
  it('this phone’s next sequence number: one past its highest, its ignored entries included, whatever the order', () => {
    const game = startedGame(37);
    const [austria, england] = [game.byPower.austria, game.byPower.england];
    const as = (ph: typeof austria, log = game.log) => reduceLog(game.gameId, log, { me: ph.me.id }).nextSeq;
    // Austria signed CREATE, JOIN, START (0, 1, 2); every other phone JOIN and its acceptance (0, 1).
    expect(as(austria)).toBe(3);
    expect(as(england)).toBe(2);
    expect(view(game).nextSeq).toBe(0);
    // A clock claim with a gap in the numbers, then one for a phase not reached (ignored): both count.
    england.seq = 40;
    const phase = view(game).current!.key;
    game.log.push(claimClock(england.me, game.gameId, phase, 'orders', england.stamp(T0 + HOUR)).bytes);
    const early = claimClock(england.me, game.gameId, '1950-spring-movement', 'orders', england.stamp(T0 + HOUR));
    game.log.push(early.bytes);
    const reversed = [...game.log].reverse();
    expect(reduceLog(game.gameId, reversed, { me: england.me.id }).ignored.map((i) => i.id)).toContain(early.id);
    expect(as(england, reversed)).toBe(42);
    expect(as(austria, reversed)).toBe(3);
  });

  it('each chat with its sealed box: a recipient opens it from the view alone, nobody else does', () => {
    const game = startedGame(38);
    const [a, b, c] = [game.byPower.austria, game.byPower.england, game.byPower.france];
    const sealed = sealChat({ to: [b.me.id], text: 'Tyrol?', time: T0 + 5 }, a.me, chatPlayers(view(game)), rng(5).bytes);
    const msg = sendChat(a.me, game.gameId, sealed, a.seq++);
    game.log.push(msg.bytes);
    const entry = view(game).chats.find((m) => m.id === msg.id)!;
    expect(entry.from).toBe(a.me.id);
    expect(entry.box).toEqual({ keys: sealed.keys, nonce: sealed.nonce, sealed: sealed.sealed });
    expect(openChat(entry.box, a.me.boxPublicKey, b.me)?.text).toBe('Tyrol?');
    expect(openChat(entry.box, a.me.boxPublicKey, c.me)).toBeNull();
  });

  it('gameMessages: the entries of this game that open, by id, for the LOCK and REVEAL to name', () => {
    const game = startedGame(39);
    const other = createGame(identity(0), rng(2).bytes(16), settings(), { seq: 99, time: T0 });
    const broken = game.log[1]!.slice();
    broken[0] = broken[0]! ^ 1;
    const log = [...game.log, other.message.bytes, broken];
    const got = gameMessages(game.gameId, log);
    expect([...got.keys()].sort()).toEqual([...messagesOf(game.log).keys()].sort());
    expect(got.size).toBe(game.log.length);
    expect(got.has(other.message.id)).toBe(false);
  });
});

describe('holders and neutral powers, without fallbacks in the app', () => {
  it('neutral powers are in the view from the creation on (empty while no game is known)', () => {
    const creator = identity(0);
    const { gameId, message } = createGame(creator, rng(3).bytes(16), settings({ variant: 'five-players' }), { seq: 0, time: T0 });
    const lobby = reduceLog(gameId, [message.bytes]);
    expect(lobby.status).toBe('lobby');
    expect([...lobby.neutral].sort()).toEqual(['germany', 'italy']);
    expect(lobby.holders).toBeUndefined();
    expect(reduceLog(gameId, []).neutral).toEqual([]);
  });

  it('while the START waits for acceptances, the powers are held as it names them', () => {
    const game = startedGame(40);
    const waiting = view(game, game.log.slice(0, -(game.phones.length - 1)));
    expect(waiting.status).toBe('starting');
    expect(waiting.holders).toEqual(waiting.roster);
    for (const ph of game.phones) expect(waiting.holders![ph.power]).toBe(ph.me.id);
    expect(waiting.neutral).toEqual([]);
    const playing = view(game);
    expect(playing.status).toBe('playing');
    expect(playing.holders).toEqual(waiting.holders);
  });
});

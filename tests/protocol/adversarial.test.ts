// Each hostile or broken entry must be ignored, listed with its reason, and leave the game as it was.
import { describe, expect, it } from 'vitest';
import { POWERS, type Order } from '../../src/rules';
import {
  ballotDuties,
  CodecError,
  createGame,
  encodePayload,
  finalOrders,
  openSealed,
  ordersFromPlain,
  revealBallot,
  sealCommit,
  scalarToBytes,
  signMessage,
  voteTimeout,
  type Payload,
} from '../../src/protocol';
import { identity, messagesOf, payloadOf, Phone, playPhase, rng, settings, settlePhase, startedGame, stateOf, T0, typeOf, view, type Game } from './helpers';

const hold = (power: Order['power'], type: 'A' | 'F', loc: string): Order => ({ kind: 'hold', power, unit: { type, loc } });
const move = (power: Order['power'], type: 'A' | 'F', loc: string, to: string): Order => ({ kind: 'move', power, unit: { type, loc }, to });

/** A game with Spring 1901 resolved (everyone holds) and Fall 1901 open. */
function gameInFall(): Game {
  const game = startedGame(3);
  playPhase(game, {}, T0 + 1000);
  return game;
}

function expectIgnoredWithoutEffect(game: Game, bad: readonly unknown[], reason: string, id?: string) {
  const before = view(game);
  const after = view(game, [...game.log, ...(bad as Uint8Array[])]);
  expect(stateOf(after)).toEqual(stateOf(before));
  const listed = after.ignored.filter((i) => i.reason === reason);
  expect(listed.length).toBeGreaterThan(0);
  if (id !== undefined) expect(listed.map((i) => i.id)).toContain(id);
  expect(before.ignored.some((i) => i.reason === reason)).toBe(false);
}

describe('a peer cannot read orders before every power has committed', () => {
  it('a commit alone does not decrypt, and nobody takes a step that releases anything until every power has committed', () => {
    const game = startedGame(5);
    let v = view(game);
    const secret = [move('france', 'A', 'par', 'bur'), move('france', 'F', 'bre', 'mao')];
    const commit = game.byPower.france.commit(game.gameId, v, secret, T0 + 10);
    game.log.push(commit.bytes);
    for (const p of POWERS.filter((x) => x !== 'france' && x !== 'turkey')) game.log.push(game.byPower[p].commit(game.gameId, v, [], T0 + 10).bytes);
    v = view(game);
    const text = new TextDecoder().decode(commit.bytes);
    expect(text).not.toContain('"kind"');
    expect(text).not.toContain('"bur"');
    // Turkey has not committed: no honest phone may finalize, lock or reveal yet.
    for (const p of POWERS) expect(ballotDuties(v, game.byPower[p].me.id)).toEqual({ finals: [], lock: false, reveal: false });
    expect(v.phases).toEqual([]);
    const sealed = payloadOf(commit.bytes).sealed as string;
    const others = [...game.byPower.england.secrets.values()];
    for (const s of [...others, 1n, 2n ** 200n]) expect(openSealed(sealed, s)).toBeNull();
    expect(ordersFromPlain(openSealed(sealed, game.byPower.france.secrets.get(commit.id)!)!)?.orders).toEqual(secret);
    game.log.push(game.byPower.turkey.commit(game.gameId, v, [], T0 + 11).bytes);
    expect(ballotDuties(view(game), game.byPower.france.me.id).finals).toEqual(['france']);
  });
});

describe('a power cannot change its orders after its FINAL', () => {
  /** Everyone commits (France first `first`), everyone finalizes and locks, England reveals. */
  function finalizedGame() {
    const game = startedGame(6);
    const v = view(game);
    const first = [hold('france', 'A', 'par'), hold('france', 'A', 'mar'), hold('france', 'F', 'bre')];
    const c1 = game.byPower.france.commit(game.gameId, v, first, T0 + 10);
    game.log.push(c1.bytes);
    for (const p of POWERS.filter((x) => x !== 'france')) game.log.push(game.byPower[p].commit(game.gameId, v, [], T0 + 10).bytes);
    settlePhase(game, T0 + 20, { hold: POWERS.filter((p) => p !== 'england') });
    return { game, c1, first };
  }
  const later = [move('france', 'A', 'par', 'pic'), move('france', 'F', 'bre', 'eng'), move('france', 'A', 'mar', 'spa')];

  it('re-committing after the FINAL (and after a reveal) leaves the finalized orders in force', () => {
    const { game, c1, first } = finalizedGame();
    const c2 = game.byPower.france.commit(game.gameId, view(game), later, T0 + 30);
    game.log.push(c2.bytes);
    expect(view(game).current?.ballot.heads.france).toBe(c2.id);
    const done = settlePhase(game, T0 + 40);
    expect(done.phases).toHaveLength(1);
    expect(done.phases[0]!.commits.france).toBe(c1.id);
    expect(done.phases[0]!.orders.france).toEqual(first);
    expect(done.position?.units.some((u) => u.loc === 'pic' || u.loc === 'eng')).toBe(false);
  });

  it('a second FINAL naming the re-commit does not count either, and is reported as equivocation', () => {
    const { game, c1, first } = finalizedGame();
    const france = game.byPower.france;
    const c2 = france.commit(game.gameId, view(game), later, T0 + 30);
    game.log.push(c2.bytes);
    const f2 = finalOrders(france.me, game.gameId, '1901-spring-movement', 'france', c2.id, france.stamp(T0 + 31));
    game.log.push(f2.bytes);
    const done = settlePhase(game, T0 + 40);
    expect(done.phases[0]!.orders.france).toEqual(first);
    expect(done.phases[0]!.commits.france).toBe(c1.id);
    expect(done.misconduct.some((m) => m.kind === 'equivocation' && m.slot === 'france' && m.ids.includes(f2.id))).toBe(true);
  });

  it('replacing a commit before the FINAL is allowed: the latest one counts', () => {
    const game = startedGame(8);
    let v = view(game);
    const first = [hold('italy', 'A', 'rom')];
    const second = [move('italy', 'A', 'ven', 'tyr')];
    game.log.push(game.byPower.italy.commit(game.gameId, v, first, T0 + 5).bytes);
    v = view(game);
    const c2 = game.byPower.italy.commit(game.gameId, v, second, T0 + 6);
    game.log.push(c2.bytes);
    v = view(game);
    for (const p of POWERS.filter((x) => x !== 'italy')) game.log.push(game.byPower[p].commit(game.gameId, v, [], T0 + 7).bytes);
    const done = settlePhase(game, T0 + 8);
    expect(done.phases[0]!.commits.italy).toBe(c2.id);
    expect(done.phases[0]!.orders.italy).toEqual(second);
  });
});

describe('hostile and broken entries are ignored with a reason and change nothing', () => {
  it('a message forged for another power', () => {
    const game = gameInFall();
    const v = view(game);
    const england = game.byPower.england;
    const forged = sealCommit(england.me, game.gameId, v, 'france', [], england.sealRandom(), england.stamp(T0 + 2000)).message;
    expectIgnoredWithoutEffect(game, [forged.bytes], 'not-your-power', forged.id);
  });

  it('a message signed by a stranger', () => {
    const game = gameInFall();
    const v = view(game);
    const stranger = new Phone(identity(99), 'france', rng(4));
    const commit = stranger.commit(game.gameId, v, [], T0 + 2000);
    const vote = voteTimeout(stranger.me, game.gameId, v.current!.key, ['england'], stranger.stamp(T0 + 10 ** 9));
    expectIgnoredWithoutEffect(game, [commit.bytes, vote.bytes], 'not-your-power', commit.id);
    expect(view(game, [...game.log, vote.bytes]).ignored).toContainEqual({ id: vote.id, reason: 'voter-not-a-player' });
  });

  it('a signature that does not match (tampered payload or signature)', () => {
    const game = gameInFall();
    const real = game.byPower.france.commit(game.gameId, view(game), [], T0 + 2000);
    const badSig = real.bytes.slice();
    badSig[3] = badSig[3]! ^ 1;
    const p = payloadOf(real.bytes) as Payload;
    expect(() => encodePayload({ ...p, power: 'frbnce' } as unknown as Payload)).toThrow(CodecError);
    const tampered = new Uint8Array([...real.bytes.subarray(0, 64), ...encodePayload({ ...p, seq: p.seq + 10 })]);
    expectIgnoredWithoutEffect(game, [badSig, tampered], 'bad-signature');
  });

  it('a replay from another game', () => {
    const game = gameInFall();
    const france = game.byPower.france;
    const other = createGame(game.byPower.austria.me, rng(77).bytes(16), settings(), { seq: 0, time: T0 });
    const v = view(game);
    const replay = signMessage(france.me, {
      type: 'final',
      game: other.gameId,
      ...france.stamp(T0 + 2000),
      phase: v.current!.key,
      power: 'france',
      commit: '00'.repeat(16),
    });
    expectIgnoredWithoutEffect(game, [replay, other.message.bytes], 'wrong-game');
  });

  it('a replay into another phase (re-labelled: the signature breaks; as sent: a duplicate)', () => {
    const game = gameInFall();
    const spring = game.log.find((b) => typeOf(b) === 'commit')!;
    expect(payloadOf(spring).phase).toBe('1901-spring-movement');
    const relabelled = new Uint8Array([
      ...spring.subarray(0, 64),
      ...encodePayload({ ...(payloadOf(spring) as Payload), phase: '1901-fall-movement' } as Payload),
    ]);
    expect(relabelled).not.toEqual(spring);
    expectIgnoredWithoutEffect(game, [relabelled], 'bad-signature');
    expect(stateOf(view(game, [...game.log, spring, spring]))).toEqual(stateOf(view(game)));
  });

  it('truncated, empty, garbage and non-byte entries', () => {
    const game = gameInFall();
    const real = game.byPower.italy.commit(game.gameId, view(game), [], T0 + 2000).bytes;
    expectIgnoredWithoutEffect(game, [real.subarray(0, 40), new Uint8Array(0)], 'truncated');
    expectIgnoredWithoutEffect(game, [real.subarray(0, real.length - 5)], 'binary-truncated');
    expectIgnoredWithoutEffect(game, [new Uint8Array([...real, 0])], 'binary-trailing-bytes');
    const signature = rng(5).bytes(64);
    expectIgnoredWithoutEffect(game, [new Uint8Array([...signature, 3, 200, ...rng(6).bytes(100)])], 'unknown-type');
    expectIgnoredWithoutEffect(game, [new Uint8Array([...signature, 0x7b, 0xff, 0xfe])], 'not-utf8');
    expectIgnoredWithoutEffect(game, [new Uint8Array([...signature, ...new TextEncoder().encode('{"a":')])], 'not-json');
    expectIgnoredWithoutEffect(game, ['a string', null, 42, { payload: 1 }], 'not-bytes');
  });

  it('a reveal whose secret does not open the commit', () => {
    const game = gameInFall();
    let v = view(game);
    for (const p of v.current!.required) game.log.push(game.byPower[p].commit(game.gameId, v, [], T0 + 2000).bytes);
    v = settlePhase(game, T0 + 2001, { hold: [...POWERS] });
    expect(v.current?.ballot.stage).toBe('reveal');
    const france = game.byPower.france;
    const bad = revealBallot(france.me, game.gameId, v, messagesOf(game.log), () => 12345n, france.stamp(T0 + 2002));
    expectIgnoredWithoutEffect(game, [bad.bytes], 'reveal-misses-a-secret', bad.id);
    expect(view(game, [...game.log, bad.bytes]).current?.ballot.reveals[france.me.id]).toBeUndefined();
    expect(scalarToBytes(12345n)).toHaveLength(32);
  });

  it('a commit for a finished phase, and one for a phase not reached', () => {
    const game = gameInFall();
    const france = game.byPower.france;
    const spring = view(
      game,
      game.log.slice(
        0,
        game.log.findIndex((b) => typeOf(b) === 'commit'),
      ),
    );
    const late = sealCommit(
      france.me,
      game.gameId,
      spring,
      'france',
      [move('france', 'A', 'par', 'bur')],
      france.sealRandom(),
      france.stamp(T0 + 3000),
    ).message;
    expectIgnoredWithoutEffect(game, [late.bytes], 'commit-not-counted', late.id);
    const future = signMessage(france.me, { ...payloadOf(late.bytes), v: undefined, from: undefined, phase: '1905-spring-movement' } as never);
    expectIgnoredWithoutEffect(game, [future], 'phase-not-reached');
  });
});

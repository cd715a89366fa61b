// Each hostile or broken entry must be ignored, listed with its reason, and leave the game as it was.
import { describe, expect, it } from 'vitest';
import { POWERS, type Order } from '../../src/rules';
import { commitOrders, createGame, messageId, openOrders, revealDue, revealOrders, voteTimeout } from '../../src/protocol';
import { identity, Phone, playPhase, rng, settings, startedGame, stateOf, T0, view, type Game } from './helpers';

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
  it('a commit alone does not decrypt, and nobody reveals until every power has committed', () => {
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
    // Turkey has not committed: no honest phone may reveal yet, so France's key stays private.
    for (const p of POWERS) expect(revealDue(v, p)).toBe(false);
    expect(v.phases).toEqual([]);
    const sealed = JSON.parse(text.slice(text.indexOf('{'))).sealed as string;
    const otherKey = game.byPower.england.keys.get('1901-spring-movement')!;
    for (const k of [...Object.values(otherKey), new Uint8Array(32), new Uint8Array(32).fill(255)]) expect(openOrders(sealed, k)).toBeNull();
    expect(openOrders(sealed, game.byPower.france.keys.get('1901-spring-movement')![commit.id]!)).toEqual(secret);
    game.log.push(game.byPower.turkey.commit(game.gameId, v, [], T0 + 11).bytes);
    expect(revealDue(view(game), 'france')).toBe(true);
  });
});

describe('a power cannot change its orders after seeing someone else’s', () => {
  function committedGame() {
    const game = startedGame(6);
    const v = view(game);
    const first = [hold('france', 'A', 'par'), hold('france', 'A', 'mar'), hold('france', 'F', 'bre')];
    const c1 = game.byPower.france.commit(game.gameId, v, first, T0 + 10);
    game.log.push(c1.bytes);
    for (const p of POWERS.filter((x) => x !== 'france')) game.log.push(game.byPower[p].commit(game.gameId, v, [], T0 + 10).bytes);
    game.log.push(game.byPower.england.reveal(game.gameId, view(game), T0 + 20).bytes);
    return { game, c1, first };
  }
  const later = [move('france', 'A', 'par', 'pic'), move('france', 'F', 'bre', 'eng'), move('france', 'A', 'mar', 'spa')];

  it('re-committing after a reveal (chained to the first commit) leaves the first orders in force', () => {
    const { game, c1, first } = committedGame();
    const c2 = game.byPower.france.commit(game.gameId, view(game), later, T0 + 30);
    game.log.push(c2.bytes);
    const v = view(game);
    expect(v.current?.heads.france).toBe(c2.id);
    for (const p of POWERS.filter((x) => x !== 'england')) game.log.push(game.byPower[p].reveal(game.gameId, v, T0 + 40).bytes);
    const done = view(game);
    expect(done.phases).toHaveLength(1);
    expect(done.phases[0]!.commits.france).toBe(c1.id);
    expect(done.phases[0]!.orders.france).toEqual(first);
    expect(done.position?.units.some((u) => u.loc === 'pic' || u.loc === 'eng')).toBe(false);
  });

  it('a forked re-commit (a second first commit) does not count either, and is reported as equivocation', () => {
    const { game, c1, first } = committedGame();
    const france = game.byPower.france;
    const key = rng(99).bytes(32);
    const fork = commitOrders(france.me, game.gameId, '1901-spring-movement', 'france', later, null, key, rng(98).bytes(24), france.stamp(T0 + 30));
    game.log.push(fork.bytes);
    const v = view(game);
    // France reveals both keys and names its fork as its lock; the others name what they saw first.
    const keys = { ...france.keys.get('1901-spring-movement')!, [fork.id]: key };
    game.log.push(revealOrders(france.me, game.gameId, { ...v.current!, heads: { ...v.current!.heads, france: fork.id } }, 'france', keys, france.stamp(T0 + 40)).bytes);
    for (const p of POWERS.filter((x) => x !== 'england' && x !== 'france')) game.log.push(game.byPower[p].reveal(game.gameId, { ...v, current: { ...v.current!, heads: { ...v.current!.heads, france: c1.id } } }, T0 + 40).bytes);
    const done = view(game);
    expect(done.phases[0]!.orders.france).toEqual(first);
    expect(done.misconduct.some((m) => m.kind === 'equivocation' && m.power === 'france' && m.ids.includes(fork.id))).toBe(true);
  });

  it('replacing a commit before anyone has revealed is allowed: the latest one counts', () => {
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
    v = view(game);
    for (const p of POWERS) game.log.push(game.byPower[p].reveal(game.gameId, v, T0 + 8).bytes);
    const done = view(game);
    expect(done.phases[0]!.commits.italy).toBe(c2.id);
    expect(done.phases[0]!.orders.italy).toEqual(second);
  });
});

describe('hostile and broken entries are ignored with a reason and change nothing', () => {
  it('a message forged for another power', () => {
    const game = gameInFall();
    const v = view(game);
    const england = game.byPower.england;
    const forged = commitOrders(england.me, game.gameId, v.current!.key, 'france', [], null, rng(1).bytes(32), rng(2).bytes(24), england.stamp(T0 + 2000));
    expectIgnoredWithoutEffect(game, [forged.bytes], 'not-your-power', forged.id);
  });

  it('a message signed by a stranger', () => {
    const game = gameInFall();
    const v = view(game);
    const stranger = new Phone(identity(99), 'france', rng(4));
    const commit = stranger.commit(game.gameId, v, [], T0 + 2000);
    const vote = voteTimeout(stranger.me, game.gameId, v.current!.key, 'france', ['england'], stranger.stamp(T0 + 10 ** 9));
    expectIgnoredWithoutEffect(game, [commit.bytes, vote.bytes], 'not-your-power', commit.id);
  });

  it('a signature that does not match (tampered payload or signature)', () => {
    const game = gameInFall();
    const real = game.byPower.france.commit(game.gameId, view(game), [], T0 + 2000);
    const badSig = real.bytes.slice();
    badSig[3] = badSig[3]! ^ 1;
    const text = new TextDecoder().decode(real.bytes.subarray(64)).replace('"power":"france"', '"power":"frbnce"');
    expect(text).toContain('frbnce');
    const tampered = new Uint8Array([...real.bytes.subarray(0, 64), ...new TextEncoder().encode(text.replace('frbnce', 'france').replace('"seq":', '"seq":1'))]);
    expectIgnoredWithoutEffect(game, [badSig, tampered], 'bad-signature');
  });

  it('a replay from another game', () => {
    const game = gameInFall();
    const france = game.byPower.france;
    const other = createGame(game.byPower.austria.me, rng(77).bytes(16), settings(), { seq: 0, time: T0 });
    const v = view(game);
    const replay = commitOrders(france.me, other.gameId, v.current!.key, 'france', [], null, rng(1).bytes(32), rng(2).bytes(24), france.stamp(T0 + 2000));
    expectIgnoredWithoutEffect(game, [replay.bytes, other.message.bytes], 'wrong-game', replay.id);
  });

  it('a replay into another phase (re-labelled: the signature breaks; as sent: a duplicate)', () => {
    const game = gameInFall();
    const spring = game.log.find((b) => new TextDecoder().decode(b).includes('"type":"commit"'))!;
    const payload = new TextDecoder().decode(spring.subarray(64)).replace('1901-spring-movement', '1901-fall-movement');
    const relabelled = new Uint8Array([...spring.subarray(0, 64), ...new TextEncoder().encode(payload)]);
    expect(relabelled).not.toEqual(spring);
    expectIgnoredWithoutEffect(game, [relabelled], 'bad-signature');
    expect(stateOf(view(game, [...game.log, spring, spring]))).toEqual(stateOf(view(game)));
  });

  it('truncated, empty, garbage and non-byte entries', () => {
    const game = gameInFall();
    const real = game.byPower.italy.commit(game.gameId, view(game), [], T0 + 2000).bytes;
    expectIgnoredWithoutEffect(game, [real.subarray(0, 40), new Uint8Array(0)], 'truncated');
    expectIgnoredWithoutEffect(game, [real.subarray(0, real.length - 5)], 'not-json');
    expectIgnoredWithoutEffect(game, [rng(5).bytes(300)], 'not-utf8');
    expectIgnoredWithoutEffect(game, ['a string', null, 42, { payload: 1 }], 'not-bytes');
  });

  it('a reveal whose key does not open the commit', () => {
    const game = gameInFall();
    let v = view(game);
    for (const p of v.current!.required) game.log.push(game.byPower[p].commit(game.gameId, v, [], T0 + 2000).bytes);
    v = view(game);
    const france = game.byPower.france;
    const keys = Object.fromEntries(Object.keys(france.keys.get(v.current!.key)!).map((id) => [id, rng(6).bytes(32)]));
    const bad = revealOrders(france.me, game.gameId, v.current!, 'france', keys, france.stamp(T0 + 2001));
    expectIgnoredWithoutEffect(game, [bad.bytes], 'reveal-key-does-not-open-commit', bad.id);
    expect(view(game, [...game.log, bad.bytes]).current?.revealed).not.toContain('france');
  });

  it('a commit for a finished phase, and one for a phase not reached', () => {
    const game = gameInFall();
    const france = game.byPower.france;
    const springHead = game.log.map((b) => messageId(b)).find((id) => france.keys.get('1901-spring-movement')?.[id] !== undefined)!;
    const late = commitOrders(france.me, game.gameId, '1901-spring-movement', 'france', [move('france', 'A', 'par', 'bur')], springHead, rng(1).bytes(32), rng(2).bytes(24), france.stamp(T0 + 3000));
    expectIgnoredWithoutEffect(game, [late.bytes], 'commit-not-locked', late.id);
    const future = commitOrders(france.me, game.gameId, '1905-spring-movement', 'france', [], null, rng(1).bytes(32), rng(2).bytes(24), france.stamp(T0 + 3000));
    expectIgnoredWithoutEffect(game, [future.bytes], 'phase-not-reached', future.id);
  });
});

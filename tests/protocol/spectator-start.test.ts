// Issue 31, item 5 (src/protocol/README.md "Game identity and the START anchor"): a START naming
// only its creator, signed mid-game, made a reader with no anchor see two STARTs "every member
// accepted" and go `forked` while the members kept playing.
import { describe, expect, it } from 'vitest';
import { acceptStart, compactEntry, joinGame, reduceLog, startGame, startKeys, type Identity } from '../../src/protocol';
import { POWERS, type Power } from '../../src/rules';
import { escrowOf, identity, payloadOf, playPhase, randomPhaseOrders, rng, startedGame, T0, view, type Game } from './helpers';

/** A roster giving the powers to `members` in turn (the standard game lets one key hold several). */
function rosterOf(members: readonly Identity[]): Record<Power, string> {
  return Object.fromEntries(POWERS.map((p, i) => [p, members[i % members.length]!.id])) as Record<Power, string>;
}

/** A standard game started and accepted by all (entries after the START compact), and the entries of its next phase. */
function honest(seed: number): { g: Game; lobby: Uint8Array[]; phase: Uint8Array[] } {
  const g = startedGame(seed);
  const keys = startKeys(payloadOf(g.log.find((b) => payloadOf(b).type === 'start')!) as never);
  const startAt = g.log.findIndex((b) => payloadOf(b).type === 'start');
  const before = g.log.length;
  playPhase(g, randomPhaseOrders(view(g), rng(seed).int), T0 + 100);
  const compact = g.log.map((b, i) => (i > startAt ? compactEntry(b, keys) : b));
  return { g, lobby: compact.slice(0, before), phase: compact.slice(before) };
}

describe('issue 31 (5): spectators and readers with no identity see the game its members play', () => {
  const { g, lobby, phase } = honest(312);
  const log = [...lobby, ...phase];
  const creator = g.phones[0]!.me;
  // Mid-game, the creator signs a START naming only itself (every power its own): "accepted by every member".
  const lone = startGame(creator, g.gameId, rosterOf([creator]), escrowOf([creator]), { seq: 900, time: T0 + 900 });
  const member = (i: number) => reduceLog(g.gameId, [...log, lone.bytes], { me: g.phones[i]!.me.id });

  it('a START naming only its creator does not turn a reader with no anchor from playing to forked', () => {
    const before = reduceLog(g.gameId, log);
    expect(before.status).toBe('playing');
    const members = member(3);
    expect(members.status).toBe('playing');
    for (const me of [undefined, identity(77).id]) {
      const v = reduceLog(g.gameId, [...log, lone.bytes], me === undefined ? {} : { me });
      expect(v.status, me === undefined ? 'no identity' : 'a spectator').toBe('playing');
      expect(v.stateHash).toBe(members.stateHash);
      expect(v.ignored.length).toBeLessThanOrEqual(members.ignored.length);
    }
    // The misconduct still shows.
    expect(reduceLog(g.gameId, [...log, lone.bytes]).misconduct.map((m) => m.kind)).toContain('duplicate-start');
  });

  it('two STARTs each accepted by its own members (disjoint): still forked, with who stands where', () => {
    // A sybil START whose every member (two fresh keys that joined) accepted it.
    const sybils = [identity(80), identity(81)];
    const joins = sybils.map((s, i) => joinGame(s, g.gameId, `s${i}`, null, { seq: 0, time: T0 + 900 }).bytes);
    const x = startGame(creator, g.gameId, rosterOf([creator, ...sybils]), escrowOf([creator, ...sybils]), { seq: 901, time: T0 + 900 });
    const acks = sybils.map((s) => acceptStart(s, g.gameId, x, { seq: 1, time: T0 + 901 }).bytes);
    const v = reduceLog(g.gameId, [...log, ...joins, x.bytes, ...acks]);
    expect(v.status).toBe('forked');
    expect(v.forks.map((f) => f.accepted.length).sort()).toEqual([3, 7]);
    expect(reduceLog(g.gameId, [...log, ...joins, x.bytes, ...acks], { me: g.phones[1]!.me.id }).status).toBe('playing');
  });
});

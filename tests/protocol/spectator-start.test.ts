// Issue 31, item 5 (src/protocol/README.md "Game identity and the START anchor"): a START naming
// only its creator, signed mid-game, made a reader with no anchor see two STARTs "every member
// accepted" and go `forked` while the members kept playing.
import { describe, expect, it } from 'vitest';
import { acceptStart, joinGame, reduceLog, startGame } from '../../src/protocol';
import { compactStartedGame, escrowOf, identity, rosterOf, T0 } from './helpers';

describe('issue 31 (5): spectators and readers with no identity see the game its members play', () => {
  const { g, lobby, phase } = compactStartedGame(312);
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

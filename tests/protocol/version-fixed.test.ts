// Issue 31's residual, item 1: a game's protocol version is fixed by its CREATE (README.md "Game
// identity and the START anchor"). The newest bound CREATE used to set the version, so the creator
// alone could raise it mid-game with a second CREATE: every older entry (the JOINs, the START, the
// acceptances: the whole game) was then ignored as `older-version-than-game`. No version above 7 is
// readable today, so the raise of a version 7 game is what a phone that reads version 8 would do: the
// lobby's rule is fed the version 8 CREATE as such a phone decodes it (same fields, `v: 8`), which is
// the very rule every later release keeps (lobby.ts gameVersionOf). Games created at version 6 or
// older keep the old rule (their recorded logs reduce as before; the README says what remains).
import { describe, expect, it } from 'vitest';
import { FIXED_VERSION, PROTOCOL_VERSION, type Message } from '../../src/protocol';
import { gameVersionOf, reduceLobby, type Lobby } from '../../src/protocol/lobby';
import { shuffled } from './helpers';
import { opened, table, type Table } from './sealed-adapter';

/** The lobby's entries of a started version 7 table, opened (all are carried in full form). */
function lobbyOf(t: Table): Message[] {
  return [...opened(t.log).values()];
}

/** A second CREATE of the creator, as a reader of version `v` decodes it: same game, salt and settings. */
function createAt(t: Table, v: number, seq: number, id: string): Message {
  const first = lobbyOf(t).find((m) => m.payload.type === 'create')!;
  return { ...first, id, payload: { ...first.payload, v, seq, time: first.payload.time + 1_000 } } as Message;
}

const summary = (l: Lobby) => ({
  create: l.create?.id,
  start: l.start?.id,
  members: l.members,
  accepted: l.accepted,
  players: l.players.map((p) => p.key),
  pinned: l.pinned,
});

describe('a game created at version 7 keeps its version whatever its creator signs after', () => {
  it('the game version rule: the lowest bound CREATE version from 7 on, else the newest (old games)', () => {
    expect(FIXED_VERSION).toBe(7);
    expect(PROTOCOL_VERSION).toBeGreaterThanOrEqual(FIXED_VERSION);
    expect(gameVersionOf([7, 8])).toBe(7);
    expect(gameVersionOf([8, 7, 9])).toBe(7);
    expect(gameVersionOf([6, 7])).toBe(7);
    expect(gameVersionOf([4, 6])).toBe(6);
    expect(gameVersionOf([5])).toBe(5);
    expect(gameVersionOf([])).toBeUndefined();
  });

  it('a second, newer CREATE mid-game is ignored with a reason and the whole game stays (was: every entry older-version-than-game)', () => {
    const t = table({ seed: 3171, seats: [['austria'], ['england', 'france'], ['germany'], ['italy', 'russia', 'turkey']] });
    const before = reduceLobby(t.gameId, lobbyOf(t), { me: t.devices[1]!.key });
    expect(before.start?.id).toBe(t.startId);
    expect(before.accepted).toEqual(before.members);
    const raise = createAt(t, 8, 90, 'f'.repeat(32));
    for (const me of [undefined, ...t.devices.map((d) => d.key)]) {
      const options = me === undefined ? {} : { me };
      const plain = reduceLobby(t.gameId, lobbyOf(t), options);
      // Arrival order does not matter: the CREATE first, last, or anywhere between.
      for (const [i, messages] of [[raise, ...lobbyOf(t)], [...lobbyOf(t), raise], shuffled([...lobbyOf(t), raise], 3171)].entries()) {
        const after = reduceLobby(t.gameId, messages, options);
        expect(summary(after), `order ${i}`).toEqual(summary(plain));
        expect(after.create?.payload.v).toBe(7);
        expect(after.ignored.filter((x) => x.id === raise.id).map((x) => x.reason)).toEqual(['create-of-another-version']);
        expect(after.ignored.filter((x) => x.reason === 'older-version-than-game')).toEqual([]);
      }
    }
  });

  it('with two newer CREATEs (8 and 9) the game is still version 7', () => {
    const t = table({ seed: 3172 });
    const two = [createAt(t, 9, 91, 'e'.repeat(32)), createAt(t, 8, 90, 'f'.repeat(32))];
    const l = reduceLobby(t.gameId, [...two, ...lobbyOf(t)]);
    expect(l.start?.id).toBe(t.startId);
    expect(l.create?.payload.v).toBe(7);
    for (const c of two) expect(l.ignored.filter((x) => x.id === c.id).map((x) => x.reason)).toEqual(['create-of-another-version']);
  });
});

// Issue 31's clock is version 7's (messages.ts CLOCK_VERSION; README.md "The clock and timeouts").
// The rules of a version never change for games played under it: a game whose CREATE is version 6
// or older keeps the old clock (the upper median; the next opening from the REVEAL claims), so a
// phone of an older release in that game computes the same deadlines and counts the same TIMEOUT
// votes. The price, and the reason to create new games at version 7: in such a game the pair attack
// of issue 31 still moves the opening. A version 7 game reads no entry of an older version
// (README.md "Game identity and the START anchor"), so an older CREATE or START cannot bring the old
// clock back into it.
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION, type GameView } from '../../src/protocol';
import { DAY, FOUR, FUTURE, HOUR, pairAttack, REAL, resigned } from './clock-helpers';
import { payloadOf, powersHeld, reduceAs, sealAll, table, voteOut, type Device, type Table } from './sealed-adapter';

/** A table whose CREATE is version 6 (a game created by the previous release); the rest as the app writes it. */
function createdAt6(seed: number): Table {
  const t = table({ seed, seats: FOUR });
  const create = resigned(t.devices[0]!.me, t.log[0]!, 6);
  t.log[0] = create.bytes;
  return { ...t, createId: create.id };
}

const required = (t: Table, v: GameView, d: Device) => powersHeld(v, d).filter((p) => v.current!.required.includes(p));

describe('the clock is the game version’s', () => {
  it('the app writes version 7', () => {
    expect(PROTOCOL_VERSION).toBe(7);
  });

  it('a game created at version 6 keeps the old clock: the pair attack still moves its opening a hundred years on (why new games are version 7)', () => {
    const old = createdAt6(3111);
    expect(payloadOf(old.log[0]!).v).toBe(6);
    const { before: v, pair, honest } = pairAttack(old);
    expect(v.status).toBe('playing');
    expect(v.phases).toHaveLength(1);
    // The upper median of the REVEAL claims (two of four at FUTURE), as every version 6 release computes it.
    expect(v.current!.openedAt).toBe(FUTURE);
    expect(v.current!.deadline).toBe(FUTURE + old.settings.deadlines.movement);
    // The honest votes a month later count for nobody (timeout-before-deadline), as before issue 31.
    sealAll(old, honest, {}, REAL + HOUR);
    const theirs = pair.flatMap((d) => required(old, v, d));
    voteOut(old, honest, theirs, REAL + 30 * DAY);
    expect(reduceAs(old, null).current!.timedOut).toEqual([]);

    // The same game created at version 7: the opening stays within the honest claims and the votes count.
    const t = table({ seed: 3111, seats: FOUR });
    const now = pairAttack(t);
    expect(now.before.phases).toEqual(v.phases);
    expect(now.before.current!.openedAt).toBeLessThanOrEqual(REAL + 2);
    sealAll(t, now.honest, {}, REAL + HOUR);
    const targets = now.pair.flatMap((d) => required(t, now.before, d));
    voteOut(t, now.honest, targets, REAL + 30 * DAY);
    expect(reduceAs(t, null).current!.timedOut).toEqual([...targets].sort());
  });

  it('a version 7 game ignores a version 6 CREATE, START and JOIN of its own: the old clock cannot be brought back', () => {
    const t = table({ seed: 3112, seats: FOUR });
    const { before } = pairAttack(t);
    expect(before.current!.openedAt).toBeLessThanOrEqual(REAL + 2);
    const creator = t.devices[0]!;
    const startBytes = t.log.find((b) => payloadOf(b).type === 'start')!;
    const joinBytes = t.log.find((b) => payloadOf(b).type === 'join' && payloadOf(b).from === t.devices[2]!.key)!;
    const entries = [
      resigned(creator.me, t.log[0]!, 6, { seq: 90 }),
      resigned(creator.me, startBytes, 6, { seq: 91 }),
      resigned(t.devices[2]!.me, joinBytes, 6, { seq: 90 }),
    ];
    for (const e of entries) expect(payloadOf(e.bytes).v).toBe(6);
    t.log.push(...entries.map((e) => e.bytes));
    for (const me of [null, ...t.devices]) {
      const v = reduceAs(t, me);
      for (const e of entries) expect(v.ignored.filter((i) => i.id === e.id).map((i) => i.reason)).toEqual(['older-version-than-game']);
      expect(v.status).toBe('playing');
      expect('start' in v ? v.start : undefined).toBe(t.startId);
      expect(v.phases).toEqual(before.phases);
      expect(v.current!.openedAt).toBe(before.current!.openedAt);
      expect(v.current!.deadline).toBe(before.current!.deadline);
    }
  });
});

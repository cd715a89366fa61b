// Issue 12, attack 1: the creator rewrites a running game. Property: a game's identity and roster
// are final once every roster member has accepted its START; no later CREATE or START counts on
// any member's phone, and an honest phone never auto-accepts a second START.
import { describe, expect, it } from 'vitest';
import { POWERS, randomOrders, type Power } from '../../src/rules';
import { acceptStart, openMessage } from '../../src/protocol';
import { duties } from '../../src/ui/game/duties';
import { rng, T0 } from './helpers';
import { opened, playHonest, post, reduceAs, secondCreate, secondStart, table, type Device, type Table } from './sealed-adapter';

const HOUR = 3_600_000;

/** Four phases resolved with random legal orders. */
function running(seed: number, opts: Parameters<typeof table>[0] = {}): Table {
  const t = table({ seed, ...opts });
  const r = rng(seed + 1);
  for (let k = 0; k < 4; k++) {
    const v = reduceAs(t, null);
    const orders = Object.fromEntries(v.current!.required.map((p) => [p, randomOrders(v.current!.position, p, r.int)]));
    playHonest(t, orders, T0 + (k + 1) * HOUR);
  }
  return t;
}

describe('attack 1: the creator cannot rewrite a running game', () => {
  it('a second START giving every power to the creator changes nothing on any member’s phone', () => {
    const t = running(101);
    const before = reduceAs(t, null);
    expect(before.phases).toHaveLength(4);
    const creator = t.devices[0]!;
    const all = Object.fromEntries(POWERS.map((p) => [p, creator.key])) as Record<Power, string>;
    const start = secondStart(t, all, T0 + 10 * HOUR);
    expect(start.id < t.startId).toBe(true);
    for (const d of t.devices) {
      const v = reduceAs(t, d);
      expect(v.roster, `roster on ${d.name}'s phone`).toEqual(t.roster);
      expect(v.phases, `history on ${d.name}'s phone`).toHaveLength(4);
      expect(v.stateHash).toBe(before.stateHash);
    }
    // A phone in no roster (a spectator) does not silently follow the creator's new roster.
    const spectator = reduceAs(t, null);
    expect(spectator.roster).not.toEqual(all);
    expect(spectator.misconduct.some((m) => m.kind === 'duplicate-start' && m.author === creator.key)).toBe(true);
  });

  it('a second START handing the powers to sybils that joined (accepted by them) changes nothing on a member’s phone', () => {
    // A multi-power creator (Austria and England) and an accomplice (France) rewrite the roster
    // to keys the creator controls; the sybils accept it at once.
    const t = running(102, { seats: [['austria', 'england'], ['france'], ['germany'], ['italy'], ['russia'], ['turkey']], spares: 3 });
    const [s0, s1, s2] = t.spares as [Device, Device, Device];
    const creator = t.devices[0]!;
    const swapped = { ...t.roster, germany: s0.key, italy: s1.key, russia: s2.key, turkey: creator.key } as Record<Power, string>;
    const start = secondStart(t, swapped, T0 + 10 * HOUR);
    for (const s of [s0, s1, s2, t.devices[1]!]) post(t, [acceptStart(s.me, t.gameId, start, s.stamp(T0 + 10 * HOUR + 1))]);
    for (const d of t.devices.slice(2)) {
      const v = reduceAs(t, d);
      expect(v.roster, `roster on ${d.name}'s phone`).toEqual(t.roster);
      expect(v.phases).toHaveLength(4);
    }
  });

  it('an honest phone never auto-accepts a second START, in the lobby or in play', () => {
    // Lobby: START A is out, two members have accepted it; the creator then signs START B
    // (Germany and Italy swapped) with a lower id.
    const t = table({ seed: 103 });
    const lobby = t.log.filter((b) => {
      const o = openMessage(b);
      return !(o.ok && o.message.payload.type === 'ack');
    });
    const partial: Table = { ...t, log: [...lobby] };
    for (const d of t.devices.slice(1, 3)) post(partial, [acceptStart(d.me, t.gameId, opened(t.log).get(t.startId)!, d.stamp(T0 + 3))]);
    const swapped = { ...t.roster, germany: t.roster.italy, italy: t.roster.germany };
    const b = secondStart(partial, swapped, T0 + 4);
    for (const d of t.devices.slice(1)) {
      const accepts = duties({ view: reduceAs(partial, d), me: d.key }).filter((x) => x.kind === 'accept-start');
      expect(accepts, `${d.name} must not be asked to accept START B`).not.toContainEqual({ kind: 'accept-start', startId: b.id });
    }
  });

  it('a second CREATE with the same salt (a short game ending in 1901) does not count', () => {
    const t = running(104);
    const before = reduceAs(t, null);
    expect(before.status).toBe('playing');
    secondCreate(t, { endYear: 1901 }, T0 + 10 * HOUR);
    for (const d of [...t.devices, null]) {
      const v = reduceAs(t, d);
      expect(v.settings?.endYear).toBeNull();
      expect(v.status).toBe('playing');
      expect(v.stateHash).toBe(before.stateHash);
    }
  });
});

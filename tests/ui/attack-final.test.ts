// Adversarial review of the FINAL duty as the early FINAL makes it matter (src/ui/game/duty-loop.ts
// 'final', src/ui/game/runner.ts sealNow): an honest phone's FINAL must name a commit that exists
// for the others, else every phone waits for it ("pending", README.md "The sealed ballot") until the
// power is voted out. A re-seal whose secret is stored (drafts) but whose commit never left the
// phone (the tab closed, the phone died between the two) is such a commit: a FINAL signed after
// a reload names it if it trusts the drafts' list of seals alone. So the commit is kept with its
// secret and sent (again) before a FINAL names it.
import { describe, expect, it } from 'vitest';
import { type PactoStore } from '../../src/store';
import { type Order } from '../../src/rules';
import { payloadOf, phoneOn, link, startedWithBea } from './crash-helpers';
import { openPhone, settle, type Phone } from './phones';

const clock = 1_700_000_000_000;
const now = () => clock;

/**
 * A phone that dies, once armed, as the write of a commit's record (its secret, sealed orders and
 * bytes: store.addSeal with orders) starts; the write lands, the commit never goes out (an offline
 * phone whose own entry write had not landed yet is in the same state after a crash).
 */
async function dyingPhone(d: Phone['device'], gameId: string, onDeath: () => void): Promise<Phone & { arm: () => void; died: () => boolean }> {
  let armed = false;
  let died = false;
  const store = new Proxy(d.store, {
    get(target, key, receiver) {
      const v: unknown = Reflect.get(target, key, receiver);
      if (typeof v !== 'function') return v;
      if (key !== 'addSeal') return (v as (...a: unknown[]) => unknown).bind(target);
      return async (...args: unknown[]): Promise<unknown> => {
        // The write naming the commit and its sealed orders (a secret kept ahead has no orders):
        // the phone dies as it starts, and the write still lands (the commit, in memory, never left).
        if (armed && args[2] !== undefined) {
          armed = false;
          died = true;
          onDeath();
        }
        return (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
      };
    },
  }) as PactoStore;
  return { ...(await phoneOn(d, gameId, store, now)), arm: () => (armed = true), died: () => died };
}

const beaMove: Order = { kind: 'move', power: 'germany', unit: { type: 'A', loc: 'ber' }, to: 'pru' };

/** Ana (every power but two), Bea (Germany, on a phone that dies when armed) and Carl (Russia), started. */
async function startedThree() {
  const { gameId, a, b, c, db, phones, bea } = await startedWithBea(clock, now, dyingPhone);
  const beaCommits = (p: Phone) =>
    p.replica.entries().filter((e) => {
      const q = payloadOf(e, p.replica.admission.wireContext());
      return q?.type === 'commit' && q.from === bea;
    });
  return { gameId, a, b, c, db, phones, phase: a.runner.view.current!.key, beaCommits };
}

/** Whether Germany's army from Berlin stands in Prussia (Bea's move was played). */
function moved(p: Phone): boolean {
  const view = p.runner.view;
  const units = view.status === 'playing' ? view.position.units : [];
  return units.some((u) => u.power === 'germany' && u.loc === 'pru');
}

describe('a FINAL names a commit the others can hold', () => {
  it('a re-seal whose secret was kept but which never left (the phone died in between): reopened, it sends the kept commit before its FINAL names it, and the phase resolves with it', async () => {
    const { gameId, a, b, c, db, phones, phase, beaCommits } = await startedThree();
    // Ana seals; Bea seals (all hold), then re-seals a move and dies once its secret is kept.
    for (const power of a.runner.current.me.powers) await a.runner.seal(power, []);
    await b.runner.seal('germany', []);
    await settle(phones);
    b.arm();
    await b.runner.seal('germany', [beaMove]).catch(() => undefined);
    expect(b.died()).toBe(true);
    await settle([a, c]);
    expect(beaCommits(a)).toHaveLength(1);
    // Its drafts hold two seals: the one that went out and the one that did not.
    expect((await db.store.getDraft({ gameId, phase, power: 'germany' }))?.seals).toHaveLength(2);

    // Carl seals last; Bea's phone comes back and catches up: every power has sealed, FINALs are due.
    for (const power of c.runner.current.me.powers) await c.runner.seal(power, []);
    await settle([a, c]);
    const b2 = await openPhone(db, gameId, now);
    const alive = [a, c, b2];
    link(alive, new Set());
    await settle(alive);
    for (const p of alive) {
      const done = p.runner.view.phases.map((ph) => ph.key);
      expect(done, 'the phase waits for a commit Bea’s FINAL names and nobody holds').toContain(phase);
      expect(p.runner.view.misconduct).toEqual([]);
      // The re-seal, kept with its secret, was sent on the way back: Bea's last orders are played.
      expect(moved(p)).toBe(true);
    }
    expect(beaCommits(a)).toHaveLength(2);
  });

  it('a first seal whose secret was kept but which never left: reopened, the phone sends it (its screen says sealed), and the phase resolves with it', async () => {
    const { gameId, a, b, c, db, phase, beaCommits } = await startedThree();
    b.arm();
    await b.runner.seal('germany', [beaMove]).catch(() => undefined);
    expect(b.died()).toBe(true);
    for (const p of [a, c]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await settle([a, c]);
    expect(beaCommits(a)).toHaveLength(0);
    // Bea's phone comes back: its drafts say Germany is sealed, so nothing asks her to seal again.
    const b2 = await openPhone(db, gameId, now);
    await settle([b2]);
    expect(b2.runner.current.sealed.germany).toEqual([beaMove]);
    const alive = [a, c, b2];
    link(alive, new Set());
    await settle(alive);
    expect(beaCommits(a), 'the commit the phone shows as sealed never reached the others').toHaveLength(1);
    for (const p of alive) {
      expect(p.runner.view.phases.map((ph) => ph.key)).toContain(phase);
      expect(p.runner.view.misconduct).toEqual([]);
      expect(moved(p)).toBe(true);
    }
  });
});

describe('a re-seal in another tab after the FINAL', () => {
  it('a second tab, its view not yet holding the first tab’s FINAL, is refused a re-seal (the reservations both read say the orders are final); nothing leaves', async () => {
    const { gameId, a, b, c, db, phase, beaCommits } = await startedThree();
    await b.runner.seal('germany', []);
    await settle([a, b, c]);
    // A second tab of Bea's phone, open already, its doc connected to nothing for now (the tabs'
    // channel lags): it shares the store, and its view has the commit and no FINAL.
    const b2 = await openPhone(db, gameId, now);
    await settle([b2]);
    // Bea marks her orders final in the first tab: its FINAL goes out at once.
    await b.runner.markFinal(true);
    await settle([a, b, c]);
    const finalsOf = (p: Phone) =>
      p.replica.entries().flatMap((e) => {
        const q = payloadOf(e, p.replica.admission.wireContext());
        return q?.type === 'final' && q.from === db.identity.id ? [q.commit] : [];
      });
    expect(finalsOf(a)).toHaveLength(1);
    expect(b2.runner.view.current?.finalized.includes('germany')).toBe(false);
    const refused = await b2.runner.seal('germany', [beaMove]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused, 'a re-seal after the FINAL was sent in another tab').toBeInstanceOf(Error);
    expect(beaCommits(b2)).toHaveLength(1);
    // Everything connected, the others seal: the phase plays the orders the FINAL named, as both tabs show.
    const alive = [a, b, c, b2];
    link(alive, new Set());
    for (const power of a.runner.current.me.powers) await a.runner.seal(power, []);
    for (const power of c.runner.current.me.powers) await c.runner.seal(power, []);
    await settle(alive);
    expect(beaCommits(a)).toHaveLength(1);
    for (const p of alive) {
      expect(p.runner.view.phases.map((ph) => ph.key)).toContain(phase);
      expect(p.runner.view.misconduct).toEqual([]);
      expect(moved(p)).toBe(false);
    }
  });
});

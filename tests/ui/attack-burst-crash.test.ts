// Adversarial review of the last seal's burst (outbox.ts SendOptions.with): the last sealer's FINAL
// is signed with its commit and its bytes written with its once-only name, then both leave in one
// update. Here the phone dies at the worst moments of that burst: right after the name and the
// FINAL's bytes are on disk and before anything leaves, and it is reopened from its store. It must
// never sign a second FINAL (equivocation voids the power), never leave the phase waiting for a
// FINAL it reserved and did not send, and a re-seal after the crash must be refused (the FINAL
// reserved names the seal before it): the phase resolves with the orders sealed before the crash.
import { describe, expect, it } from 'vitest';
import { parseEntry } from '../../src/protocol';
import type { Order } from '../../src/rules';
import type { PactoStore, ReservationRecord } from '../../src/store';
import { link, phoneOn, startedWithBea } from './crash-helpers';
import { openPhone, settle, type Phone } from './phones';

const clock = 1_700_000_000_000;
const now = () => clock;
const WIRE = { name: 'wire', origin: 'wire' };

/** Whether a reservation patch writes an entry kept with a FINAL's name (the burst's FINAL). */
const keepsFinal = (patch: unknown) =>
  ((patch as { readonly kept?: readonly { readonly name: string }[] } | null)?.kept ?? []).some((k) => k.name.startsWith('final|'));

/**
 * A store that dies just after the reservation write keeping a FINAL's bytes with its name lands:
 * the page closes before the burst is published, and no later write of the store lands.
 */
function dyingAfterKeep(store: PactoStore, onCrash: () => void, holdSealRecords = false): { store: PactoStore; crashed: () => boolean; held: () => number } {
  let crashed = false;
  let held = 0;
  const never = new Promise<never>(() => undefined);
  const proxied = new Proxy(store, {
    get(target, key, receiver) {
      const v: unknown = Reflect.get(target, key, receiver);
      if (typeof v !== 'function') return v;
      return async (...args: unknown[]): Promise<unknown> => {
        if (crashed) return never;
        // The record naming a seal by its commit's id, with the commit's bytes (drafts.ts sealed),
        // which a seal whose secret was kept ahead does not wait for: held back, it never lands.
        if (holdSealRecords && key === 'addSeal' && (args[1] as { entry?: unknown }).entry !== undefined) {
          held++;
          return never;
        }
        if (key !== 'modifyReservation') return (v as (...a: unknown[]) => unknown).apply(target, args);
        const change = args[1] as (old: ReservationRecord) => unknown;
        let dies = false;
        const written = await target.modifyReservation(args[0] as string, (old) => {
          const patch = change(old);
          dies = keepsFinal(patch);
          return patch as ReturnType<Parameters<PactoStore['modifyReservation']>[1]>;
        });
        if (!dies) return written;
        // On disk now; the page dies before it goes on (the runner closed: nothing is published).
        crashed = true;
        onCrash();
        return never;
      };
    },
  });
  return { store: proxied, crashed: () => crashed, held: () => held };
}

type Dying = Phone & { crashed: () => boolean; held: () => number };

const berPru: Order = { kind: 'move', power: 'germany', unit: { type: 'A', loc: 'ber' }, to: 'pru' };
const berSil: Order = { kind: 'move', power: 'germany', unit: { type: 'A', loc: 'ber' }, to: 'sil' };

function ofBea(p: Phone, bea: string, kind: string): { id: string; payload: Record<string, unknown> }[] {
  const ctx = p.replica.admission.wireContext();
  return p.replica.entries().flatMap((e) => {
    const o = parseEntry(e, ctx);
    if (!o.ok || o.entry.payload.type !== kind || o.entry.payload.from !== bea) return [];
    return [{ id: o.entry.id, payload: o.entry.payload as unknown as Record<string, unknown> }];
  });
}

describe("a crash in the last seal's burst", () => {
  it('dead after the FINAL is kept with its name and before anything left: reopened, it sends that commit and that FINAL, refuses a re-seal, and the phase plays the seal', async () => {
    const { a, b, c, db, gameId, phones, bea } = await startedWithBea<Dying>(clock, now, async (d, gameId, onCrash) => {
      const { store, crashed, held } = dyingAfterKeep(d.store, onCrash);
      return { ...(await phoneOn(d, gameId, store, now)), crashed, held };
    });
    const phase = a.runner.view.current!.key;
    for (const p of [a, c]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await settle(phones);
    // Bea seals last: her FINAL is due with her commit, kept with its name; she dies right then.
    // (The seal never settles: the page died inside it.)
    void b.runner.seal('germany', [berPru]).catch(() => undefined);
    for (let i = 0; i < 50 && !b.crashed(); i++) await settle([a, c]);
    expect(b.crashed(), 'the burst kept no FINAL with its name').toBe(true);
    for (const p of [a, c]) {
      expect(ofBea(p, bea, 'commit'), 'something left the phone before it died').toEqual([]);
      expect(ofBea(p, bea, 'final')).toEqual([]);
    }

    // Reopened from its store (which holds the others' commits), the player at once tries to change
    // the orders: refused (by then the reopened phone has sent its kept commit and FINAL again, or
    // the reservations say the FINAL is taken), and nothing of that re-seal leaves.
    const b2 = await openPhone(db, gameId, now);
    const others = a.replica.entries();
    b2.replica.receiveEntries(others, WIRE);
    await expect(b2.runner.seal('germany', [berSil])).rejects.toThrow(/final/);
    await settle([b2]);
    const commits = ofBea(b2, bea, 'commit');
    expect(commits, 'the commit kept with its secret was not sent again, or a re-seal left').toHaveLength(1);
    const finals = ofBea(b2, bea, 'final');
    expect(finals, 'the FINAL kept with its name was not sent').toHaveLength(1);
    expect(finals[0]!.payload.commit).toBe(commits[0]!.id);

    const alive = [a, c, b2];
    link(alive, new Set());
    await settle(alive);
    for (const p of alive) {
      expect(p.runner.view.phases.map((ph) => ph.key)).toContain(phase);
      expect(p.runner.view.misconduct).toEqual([]);
      expect(ofBea(p, bea, 'final')).toHaveLength(1);
      expect(p.runner.view.current!.position.units.some((u) => u.power === 'germany' && u.loc === 'pru')).toBe(true);
    }
    const seqs = ofBea(a, bea, 'commit')
      .concat(ofBea(a, bea, 'final'), ofBea(a, bea, 'lock'), ofBea(a, bea, 'reveal'))
      .map((e) => e.payload.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('dead after the FINAL is kept, the seal record naming the commit never landed (its secret kept ahead): reopened, the commit is not lost, and the phase plays the seal', async () => {
    const { a, b, c, db, gameId, phones, bea } = await startedWithBea<Dying>(clock, now, async (d, gameId, onCrash) => {
      const { store, crashed, held } = dyingAfterKeep(d.store, onCrash, true);
      return { ...(await phoneOn(d, gameId, store, now)), crashed, held };
    });
    const phase = a.runner.view.current!.key;
    for (const p of [a, c]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await settle(phones);
    void b.runner.seal('germany', [berPru]).catch(() => undefined);
    for (let i = 0; i < 50 && !b.crashed(); i++) await settle([a, c]);
    expect(b.crashed(), 'the burst kept no FINAL with its name').toBe(true);
    expect(b.held(), 'the seal waited for its record (no secret kept ahead): not the case under attack').toBeGreaterThan(0);
    for (const p of [a, c]) expect(ofBea(p, bea, 'commit')).toEqual([]);

    const b2 = await openPhone(db, gameId, now);
    const alive = [a, c, b2];
    link(alive, new Set());
    await settle(alive);
    const commits = ofBea(a, bea, 'commit');
    expect(commits, 'the commit named by the kept FINAL was lost').toHaveLength(1);
    for (const p of alive) {
      expect(
        p.runner.view.phases.map((ph) => ph.key),
        'the phase stalled',
      ).toContain(phase);
      expect(p.runner.view.misconduct).toEqual([]);
      expect(ofBea(p, bea, 'final')).toHaveLength(1);
      expect(ofBea(p, bea, 'final')[0]!.payload.commit).toBe(commits[0]!.id);
      expect(p.runner.view.current!.position.units.some((u) => u.power === 'germany' && u.loc === 'pru')).toBe(true);
    }
  });
});

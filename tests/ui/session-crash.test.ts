// A phone sends its own entries before their own write lands (src/protocol/README.md, "Sending
// before the entry is stored"): here its writes stop for good at the moment its FINAL's write
// would land (a crash or power loss after the FINAL went out), it is reopened from what its store
// holds, sees the FINAL due again before any peer gives its FINAL back, and must sign nothing that
// conflicts: after it rejoins, the phase resolves and no phone reports misconduct. And a phone
// signs while its reservation is being written: here it dies before that write lands, and nothing
// it signed may have left it.
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import { createGameDoc, GameReplica } from '../../src/net';
import { entryStorage, type ReservationRecord } from '../../src/store';
import { GameRunner } from '../../src/ui/game/runner';
import { link, payloadOf, phoneOn, startedWithBea } from './crash-helpers';
import { openPhone, settle, type Phone } from './phones';

const clock = 1_700_000_000_000;
const now = () => clock;
const WIRE = { name: 'wire', origin: 'wire' };

/**
 * A phone whose store takes every write until the first batch holding a FINAL it signed: that
 * write and every later one never land (the phone died there). Its doc updates are not kept at
 * all (the entry store is the truth; losing the carrier's copy is the worst case).
 */
async function crashingPhone(d: Phone['device'], gameId: string, onCrash: () => void): Promise<Phone & { crashed: () => boolean }> {
  const inner = entryStorage(d.store, gameId);
  let crashed = false;
  const opened: { replica?: GameReplica } = {};
  const never = new Promise<void>(() => undefined);
  const storage = {
    load: () => inner.load(),
    save(put: readonly { readonly id: string; readonly bytes: Uint8Array }[], remove: readonly string[], strict?: boolean): Promise<void> {
      if (crashed) return never;
      const ctx = opened.replica?.admission.wireContext();
      if (put.some((e) => payloadOf(e.bytes, ctx)?.type === 'final' && payloadOf(e.bytes, ctx)?.from === d.identity.id)) {
        // The write is under way when the phone dies: it has gone out by then (the send does not
        // wait for it), and nothing of it lands.
        crashed = true;
        setTimeout(onCrash, 0);
        return never;
      }
      return inner.save(put, remove, strict);
    },
    saveFailed: (hashes: readonly string[]) => (crashed ? never : inner.saveFailed(hashes)),
  };
  const doc = createGameDoc();
  const replica = await GameReplica.open({ gameId, doc, self: d.identity.id, storage });
  opened.replica = replica;
  const runner = await GameRunner.open({ store: d.store, identity: d.identity, gameId, log: replica, now, random: nacl.randomBytes });
  return { device: d, doc, replica, runner, crashed: () => crashed };
}

/**
 * A phone whose store dies while writing the reservation of its first FINAL (the strict write
 * naming it, store.modifyReservation from outbox.ts): that write and every later one of the store never land.
 */
async function reservationCrashPhone(d: Phone['device'], gameId: string, onCrash: () => void): Promise<Phone & { crashed: () => boolean }> {
  let crashed = false;
  const never = new Promise<never>(() => undefined);
  const store = new Proxy(d.store, {
    get(target, key, receiver) {
      const v: unknown = Reflect.get(target, key, receiver);
      if (typeof v !== 'function') return v;
      const namesFinal = (patch: { readonly once?: readonly string[] } | null) => (patch?.once ?? []).some((n) => n.startsWith('final|'));
      return (...args: unknown[]): unknown => {
        if (crashed) return never;
        if (key === 'modifyReservation') {
          // The patch is chosen inside the store's transaction: one naming a FINAL is not written.
          const change = args[1] as (old: ReservationRecord) => { nextSeq: number; once: readonly string[] } | null;
          let dies = false;
          const written = target.modifyReservation(args[0] as string, (old) => {
            const patch = change(old);
            dies = namesFinal(patch);
            return dies ? null : patch;
          });
          return written.then((r) => {
            if (!dies) return r;
            crashed = true;
            setTimeout(onCrash, 0);
            return never;
          });
        }
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { ...(await phoneOn(d, gameId, store, now)), crashed: () => crashed };
}

/** Ana (every power but two), Bea (Germany alone, on the phone `makeB` opens) and Carl (Russia), started. */
async function startedThree<B extends Phone>(makeB: (d: Phone['device'], gameId: string, onCrash: () => void) => Promise<B>) {
  const started = await startedWithBea(clock, now, makeB);
  expect(started.b.runner.view.status).toBe('playing');
  return { ...started, phase: started.a.runner.view.current!.key };
}

describe('a crash between sending an own entry and storing it', () => {
  it('the reopened phone signs no second FINAL or number; the phase resolves with no misconduct', async () => {
    const { a, b, c, db, gameId, phones, bea, phase } = await startedThree(crashingPhone);
    // Ana and Carl seal first; Bea seals last, so her FINALs fall due at once, go out, and she dies
    // as the first one's write would land.
    for (const p of [a, c]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await settle(phones);
    for (const power of b.runner.current.me.powers) await b.runner.seal(power, []);
    await settle([a, c]);
    expect(b.crashed()).toBe(true);
    const sentFinals = a.replica
      .entries()
      .filter((e) => payloadOf(e, a.replica.admission.wireContext())?.type === 'final' && payloadOf(e, a.replica.admission.wireContext())?.from === bea);
    expect(sentFinals.length).toBeGreaterThan(0);

    // Reopened from its store, which lacks the FINAL (its write never landed); given first only the
    // others' entries, the FINAL is due again on its view: it signs none, and sends again the one
    // kept with its reservation (its commit's FINAL left with the commit, outbox.ts
    // SendOptions.with), these very bytes.
    const stored = (await db.store.listEntries(gameId)).map((e) => payloadOf(e.bytes, a.replica.admission.wireContext()));
    expect(stored.some((p) => p?.type === 'final' && p.from === bea)).toBe(false);
    const b2 = await openPhone(db, gameId, now);
    b2.replica.receiveEntries(
      a.replica.entries().filter((e) => payloadOf(e, a.replica.admission.wireContext())?.from !== bea),
      WIRE,
    );
    await settle([b2]);
    expect(b2.runner.view.current?.key).toBe(phase);
    const finalsAfter = b2.replica
      .entries()
      .filter((e) => payloadOf(e, b2.replica.admission.wireContext())?.type === 'final' && payloadOf(e, b2.replica.admission.wireContext())?.from === bea);
    expect(finalsAfter).toEqual(sentFinals);

    // Back online: it gets its FINALs back from the others and the game goes on.
    const alive = [a, c, b2];
    link(alive, new Set());
    await settle(alive);
    for (const p of alive) {
      expect(p.runner.view.phases.map((ph) => ph.key)).toContain(phase);
      expect(p.runner.view.misconduct).toEqual([]);
    }
    const seqs = a.replica
      .entries()
      .flatMap((e) => (payloadOf(e, a.replica.admission.wireContext())?.from === bea ? [payloadOf(e, a.replica.admission.wireContext())!.seq] : []));
    expect(new Set(seqs).size).toBe(seqs.length);
  });
  it("a crash while the FINAL's reservation is being written lets nothing out; reopened later, the phone signs one FINAL and the phase resolves", async () => {
    const { a, b, c, db, gameId, phones, bea, phase } = await startedThree(reservationCrashPhone);
    for (const p of [a, c]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await settle(phones);
    // Her last seal's FINAL is reserved inside the seal (it leaves with the commit): the seal never
    // returns, the phone dies in it.
    for (const power of b.runner.current.me.powers) void b.runner.seal(power, []).catch(() => undefined);
    for (let i = 0; i < 200 && !b.crashed(); i++) await new Promise((r) => setTimeout(r, 5));
    await settle([a, c]);
    expect(b.crashed()).toBe(true);
    // The FINAL may have been signed in memory while its reservation was being written: it must
    // not have left the phone.
    const beaFinals = (p: Phone) =>
      p.replica
        .entries()
        .filter((e) => payloadOf(e, p.replica.admission.wireContext())?.type === 'final' && payloadOf(e, p.replica.admission.wireContext())?.from === bea);
    expect(beaFinals(a)).toEqual([]);
    expect(beaFinals(c)).toEqual([]);

    // Reopened a minute later (its FINAL would now carry another time): the reservation never
    // landed, so the FINAL is due and signed again, once.
    const later = () => clock + 60_000;
    const b2 = await openPhone(db, gameId, later);
    b2.replica.receiveEntries(
      a.replica.entries().filter((e) => payloadOf(e, a.replica.admission.wireContext())?.from !== bea),
      WIRE,
    );
    await settle([b2]);
    expect(beaFinals(b2)).toHaveLength(1);
    const alive = [a, c, b2];
    link(alive, new Set());
    await settle(alive);
    for (const p of alive) {
      expect(p.runner.view.phases.map((ph) => ph.key)).toContain(phase);
      expect(p.runner.view.misconduct).toEqual([]);
      expect(beaFinals(p)).toHaveLength(1);
    }
    const seqs = a.replica
      .entries()
      .flatMap((e) => (payloadOf(e, a.replica.admission.wireContext())?.from === bea ? [payloadOf(e, a.replica.admission.wireContext())!.seq] : []));
    expect(new Set(seqs).size).toBe(seqs.length);
  });
});

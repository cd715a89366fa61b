// The last seal's burst (src/protocol/README.md "The sealed ballot", src/ui/game/outbox.ts
// SendOptions.with): the commit that makes a power's FINAL due leaves with that FINAL, in one
// update of the doc; the FINAL's once-only name and its bytes are written in one strict
// transaction of the reservations before either leaves. So a phone that dies between that write
// and the send sends these very bytes again when reopened (never a second FINAL, never a stall),
// and two tabs of one phone sealing at once still give one FINAL.
import { describe, expect, it } from 'vitest';
import { readLog } from '../../src/net';
import type { ReservationPatch, ReservationRecord, SealRecord } from '../../src/store';
import { link, payloadOf, phoneOn, startedWithBea } from './crash-helpers';
import { openPhone, settle, type Phone } from './phones';

const clock = 1_700_000_000_000;
const now = () => clock;
const WIRE = { name: 'wire', origin: 'wire' };
const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** The entries of `type` by `from` on a phone, as hex. */
function own(p: Phone, from: string, type: string): string[] {
  const ctx = p.replica.admission.wireContext();
  return p.replica
    .entries()
    .filter((e) => payloadOf(e, ctx)?.type === type && payloadOf(e, ctx)?.from === from)
    .map(hex)
    .sort();
}

/** The payloads of `type` by `from` on a phone. */
function payloads(p: Phone, from: string, type: string) {
  const ctx = p.replica.admission.wireContext();
  return p.replica.entries().flatMap((e) => {
    const pl = payloadOf(e, ctx);
    return pl?.type === type && pl.from === from ? [pl as typeof pl & { commit?: string; seq: number; time: number }] : [];
  });
}

/**
 * A phone whose store dies once the reservation naming its first FINAL has landed (the name, and
 * with the burst its bytes, on disk): nothing after that write happens, nothing is sent.
 */
async function diesAfterFinalReserved(
  d: Phone['device'],
  gameId: string,
  onCrash: () => void,
  recordLands = true,
): Promise<Phone & { crashed: () => boolean }> {
  let crashed = false;
  const never = new Promise<never>(() => undefined);
  const store = new Proxy(d.store, {
    get(target, key, receiver) {
      const v: unknown = Reflect.get(target, key, receiver);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]): unknown => {
        if (crashed) return never;
        // The seal's record naming its secret by the commit's id (with the commit's bytes), not
        // waited for when the secret was kept ahead (drafts.ts sealed): here it never lands.
        if (!recordLands && key === 'addSeal' && !(args[1] as SealRecord).hash.startsWith('escrow:')) return never;
        if (key === 'modifyReservation') {
          const change = args[1] as (old: ReservationRecord) => ReservationPatch | null;
          let names = false;
          const written = target.modifyReservation(args[0] as string, (old) => {
            const patch = change(old);
            names = patch !== null && patch.once.some((n) => n.startsWith('final|')) && !old.once.some((n) => n.startsWith('final|'));
            return patch;
          });
          return written.then((r) => {
            if (!names) return r;
            crashed = true;
            onCrash();
            return never;
          });
        }
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { ...(await phoneOn(d, gameId, store, now)), crashed: () => crashed };
}

describe("the last sealer's COMMIT and FINAL in one burst", () => {
  it('the last seal sends its commit and the FINAL naming it in one update; an earlier seal sends no FINAL', async () => {
    const { a, b, c, phones, bea } = await startedWithBea(clock, now, (d, gameId) => phoneOn(d, gameId, d.store, now));
    const ana = a.device.identity.id;
    // Ana seals first, her orders not marked final: no FINAL of hers goes (the rule of today).
    for (const power of a.runner.current.me.powers) await a.runner.seal(power, []);
    await settle(phones);
    expect(own(c, ana, 'final')).toEqual([]);
    for (const power of c.runner.current.me.powers) await c.runner.seal(power, []);
    await settle(phones);
    // Every update Bea's doc makes from here on, with what the log holds after it.
    const after: { commit: boolean; final: boolean }[] = [];
    b.doc.on('update', (_u: Uint8Array, origin: unknown) => {
      if (origin === 'wire') return;
      const ctx = b.replica.admission.wireContext();
      const mine = readLog(b.doc).map((e) => payloadOf(e, ctx));
      after.push({
        commit: mine.some((p) => p?.type === 'commit' && p.from === bea),
        final: mine.some((p) => p?.type === 'final' && p.from === bea),
      });
    });
    await b.runner.seal('germany', []);
    // The seal has returned: the FINAL left with the commit, not after a round of its own.
    const first = after.find((u) => u.commit);
    expect(first).toEqual({ commit: true, final: true });
    const [final] = payloads(b, bea, 'final');
    expect(final?.commit).toBe(b.runner.view.current!.ballot.heads.germany);
    await settle(phones);
    for (const p of phones) {
      expect(p.runner.view.phases).toHaveLength(1);
      expect(p.runner.view.misconduct).toEqual([]);
      expect(own(p, bea, 'final')).toHaveLength(1);
    }
  });

  it('a phone dead once the FINAL is reserved, before anything left: reopened later, it sends the same commit and FINAL, signs no other, and the phase resolves', async () => {
    const { a, b, c, db, gameId, phones, bea } = await startedWithBea(clock, now, diesAfterFinalReserved);
    for (const p of [a, c]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await settle(phones);
    // The seal never returns: the phone dies inside it.
    void b.runner.seal('germany', []).catch(() => undefined);
    for (let i = 0; i < 200 && !b.crashed(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(b.crashed()).toBe(true);
    await settle([a, c]);
    expect(own(a, bea, 'final')).toEqual([]);
    // Reopened a minute later: a FINAL signed now would carry the later time.
    const later = () => clock + 60_000;
    const b2 = await openPhone(db, gameId, later);
    const alive = [a, c, b2];
    link(alive, new Set());
    await settle(alive);
    for (const p of alive) {
      expect(p.runner.view.phases).toHaveLength(1);
      expect(p.runner.view.misconduct).toEqual([]);
      const finals = payloads(p, bea, 'final');
      expect(finals).toHaveLength(1);
      // The bytes written with the reservation before the crash, not a FINAL signed again.
      expect(finals[0]!.time).toBe(clock);
    }
    const seqs = payloads(a, bea, 'commit')
      .concat(payloads(a, bea, 'final'))
      .map((p) => p.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('the same, the commit’s own record (kept ahead, not waited for) never landing either: reopened, the phone sends the commit and FINAL kept with the reservation, and the phase resolves', async () => {
    const { a, b, c, db, gameId, phones, bea } = await startedWithBea(clock, now, (d, id, onCrash) => diesAfterFinalReserved(d, id, onCrash, false));
    const phase = a.runner.view.current!.key;
    for (const p of [a, c]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await settle(phones);
    void b.runner.seal('germany', []).catch(() => undefined);
    for (let i = 0; i < 200 && !b.crashed(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(b.crashed()).toBe(true);
    await settle([a, c]);
    expect(own(a, bea, 'commit')).toEqual([]);
    // Reopened: its drafts hold the secret under its escrow's tag only, no commit to send.
    const draft = await db.store.getDraft({ gameId, phase, power: 'germany' });
    expect(draft?.seals.every((s) => s.entry === undefined)).toBe(true);
    const b2 = await openPhone(db, gameId, () => clock + 60_000);
    const alive = [a, c, b2];
    link(alive, new Set());
    await settle(alive);
    for (const p of alive) {
      expect(p.runner.view.phases).toHaveLength(1);
      expect(p.runner.view.misconduct).toEqual([]);
      expect(payloads(p, bea, 'final').map((f) => f.time)).toEqual([clock]);
      expect(payloads(p, bea, 'commit').map((f) => f.time)).toEqual([clock]);
    }
  });

  it('two tabs of the last sealer that do not see each other seal at once: one FINAL, no misconduct, and the phase resolves', async () => {
    const { a, b, c, db, gameId, phones, bea } = await startedWithBea(clock, now, (d, id) => phoneOn(d, id, d.store, now));
    for (const p of [a, c]) for (const power of p.runner.current.me.powers) await p.runner.seal(power, []);
    await settle(phones);
    // A second tab of Bea's phone, opened from its store, fed the others' entries but not linked
    // to her first tab: only the reservations in the store are shared.
    const b2 = await openPhone(db, gameId, now);
    b2.replica.receiveEntries(
      a.replica.entries().filter((e) => payloadOf(e, a.replica.admission.wireContext())?.from !== bea),
      WIRE,
    );
    await settle([b2]);
    expect(Object.keys(b2.runner.view.current!.ballot.heads).sort()).toEqual(Object.keys(b.runner.view.current!.ballot.heads).sort());
    await Promise.allSettled([b.runner.seal('germany', []), b2.runner.seal('germany', [])]);
    const all = [...phones, b2];
    link(all, new Set());
    await settle(all);
    for (const p of all) {
      expect(payloads(p, bea, 'final')).toHaveLength(1);
      expect(p.runner.view.phases).toHaveLength(1);
      expect(p.runner.view.misconduct).toEqual([]);
    }
  });
});

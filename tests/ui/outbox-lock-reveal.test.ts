// Issue 31: the REVEAL claimed with the LOCK (src/protocol/README.md "Once-only messages"). A page,
// another tab and the service worker of one phone, each with its own connection to the store and
// its own numbers, race to sign the phase's LOCK and then its REVEAL (runner.ts and duty-loop.ts
// send both through Outbox.send with the duty's once-only name). Exactly one entry per name
// leaves, every context that asks again sends those very bytes, and the REVEAL's name is not taken
// with the LOCK's: whichever context comes first to the REVEAL signs it, after the LOCK.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { lockBallot, reduceLog, revealBallot, type Signed, type Stamp } from '../../src/protocol';
import type { PactoStore, ReservationRecord } from '../../src/store';
import { dutyKey } from '../../src/ui/game/duties';
import { messagesOf, payloadOf, view } from '../protocol/helpers';
import { unacceptedPhone } from './outbox-helpers';

/** What the reservations hold for the game (read in a transaction that writes nothing). */
async function reservations(store: PactoStore, gameId: string): Promise<ReservationRecord> {
  let seen: ReservationRecord | undefined;
  await store.modifyReservation(gameId, (old) => {
    seen = old;
    return null;
  });
  return seen!;
}

describe('the LOCK and the REVEAL of one phone, raced by a page, another tab and the service worker', () => {
  it('one signed entry per name, the same bytes whoever sends it again, and no REVEAL name taken with the LOCK', async () => {
    const p = await unacceptedPhone(3131, `pacto-lock-reveal-${Math.random()}`);
    const { g, me, replica } = p;
    // Every power seals and finalizes spring (player 1's own entries included).
    // (g.log holds player 1's acceptance, which its replica lacks so far.)
    const started = view(g);
    const phase = started.current!.key;
    for (const ph of g.phones) g.log.push(ph.commit(g.gameId, started, [], started.current!.openedAt + 10).bytes);
    const sealed = view(g);
    for (const ph of g.phones) g.log.push(ph.final(g.gameId, sealed, started.current!.openedAt + 11).bytes);
    replica.receiveEntries(g.log, { name: 'peer', origin: 'peer' });
    const player = g.phones[1]!;

    const contexts = [p.store, await p.connect(), await p.connect()];
    const [page, tab, worker] = await Promise.all(contexts.map((s) => p.tab(s)));
    const now = () => reduceLog(g.gameId, replica.entries(), { me: me.id });
    const mine = (type: string) => replica.entries().filter((b) => payloadOf(b).type === type && payloadOf(b).from === me.id);

    // The LOCK: each context signs its own (its own number, so its own bytes) at the same moment.
    const lockName = dutyKey({ kind: 'lock', phase });
    const signLock = (stamp: Stamp) => lockBallot(me, g.gameId, now(), messagesOf(replica.entries()), stamp);
    const locks = await Promise.all([page, tab, worker].map((o) => o!.send(signLock, { once: lockName })));
    expect(locks.filter((s) => s !== null)).toHaveLength(1);
    await replica.flush();
    const lock = locks.find((s) => s !== null)!;
    expect(mine('lock')).toHaveLength(1);
    expect(Array.from(mine('lock')[0]!)).toEqual(Array.from(lock.bytes));
    // Kept with its name, those bytes; the REVEAL's name is not taken with it.
    const revealName = dutyKey({ kind: 'reveal', phase });
    for (const s of contexts) {
      const r = await reservations(s, g.gameId);
      expect(r.once.filter((n) => n === lockName)).toHaveLength(1);
      expect(r.once).not.toContain(revealName);
      expect(r.kept!.filter((k) => k.name === lockName).map((k) => k.entries.map((e) => Array.from(e)))).toEqual([[Array.from(lock.bytes)]]);
    }
    // Asked again, every context sends the kept bytes and signs nothing.
    let signedAgain = 0;
    for (const o of [page, tab, worker])
      expect(
        await o!.send(
          (stamp) => {
            signedAgain++;
            return signLock(stamp);
          },
          { once: lockName },
        ),
      ).toBeNull();
    expect(signedAgain).toBe(0);
    expect(mine('lock')).toHaveLength(1);

    // The other players lock; then the three contexts race for the REVEAL.
    const withLock = [...g.log, lock.bytes];
    const locked = view(g, withLock);
    for (const ph of g.phones) if (ph !== player) withLock.push(ph.lock(g.gameId, locked, withLock, started.current!.openedAt + 12).bytes);
    replica.receiveEntries(withLock, { name: 'peer', origin: 'peer' });
    expect(now().current!.ballot.stage).toBe('reveal');
    const signReveal = (stamp: Stamp): Signed =>
      revealBallot(me, g.gameId, now(), messagesOf(replica.entries()), (id) => player.secrets.get(id) ?? null, stamp);
    const reveals = await Promise.all([worker, page, tab].map((o) => o!.send(signReveal, { once: revealName })));
    expect(reveals.filter((s) => s !== null)).toHaveLength(1);
    await replica.flush();
    const reveal = reveals.find((s) => s !== null)!;
    expect(mine('reveal')).toHaveLength(1);
    expect(Array.from(mine('reveal')[0]!)).toEqual(Array.from(reveal.bytes));
    for (const o of [page, tab, worker]) expect(await o!.send(signReveal, { once: revealName })).toBeNull();
    expect(mine('reveal')).toHaveLength(1);
    expect(mine('lock')).toHaveLength(1);
    // The phase resolves with this phone's LOCK and REVEAL, and no equivocation.
    const others = [...withLock, reveal.bytes];
    const revealedView = view(g, others);
    for (const ph of g.phones) if (ph !== player) others.push(ph.reveal(g.gameId, revealedView, others, started.current!.openedAt + 13).bytes);
    replica.receiveEntries(others, { name: 'peer', origin: 'peer' });
    const done = now();
    expect(done.phases).toHaveLength(1);
    expect(done.misconduct.filter((m) => m.author === me.id)).toEqual([]);
    replica.destroy();
    for (const s of contexts) s.close();
  });
});

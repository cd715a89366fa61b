// Adversarial review of the review branch's outbox change (a once-only name given back when the
// block its number came from failed to land, outbox.ts landed/release): giving a name back is safe
// only if nothing signed under it ever leaves. Two tabs of one phone share the reservations: the
// name one tab gives back may be taken by the other at once, and then the first must never send the
// message it signed in memory, nor sign the name again; and no number may stand under two entries.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { GameReplica } from '../../src/net';
import { acceptStart, openMessage, type Message, type Signed, type Stamp } from '../../src/protocol';
import { entryStorage, openPactoStore, type PactoStore } from '../../src/store';
import { Outbox } from '../../src/ui/game/outbox';
import { asAppRecord, GameRecordRef } from '../../src/ui/game/records';
import { fastVerifier } from '../net/helpers/mesh';
import { payloadOf, startedGame } from '../protocol/helpers';

/** Player 1 of a started game that has not accepted the START yet, with one entry set two tabs publish to. */
async function phone(seed: number) {
  const g = startedGame(seed);
  const me = g.phones[1]!.me;
  const mine = g.log.findIndex((b) => payloadOf(b).type === 'ack' && payloadOf(b).from === me.id);
  const log = g.log.filter((_, i) => i !== mine);
  const opened = openMessage(g.log.find((b) => payloadOf(b).type === 'start')!);
  if (!opened.ok) throw new Error('start');
  const start: Message = opened.message;
  const store = await openPactoStore(`pacto-attack-review-${seed}-${Math.random()}`, new IDBFactory());
  await store.putGame({ id: g.gameId, title: 't', created: 0, password: 'p', signaling: [] });
  const replica = await GameReplica.open({ gameId: g.gameId, verifier: fastVerifier, self: me.id, storage: entryStorage(store, g.gameId) });
  replica.receiveEntries(log, { name: 'peer', origin: 'peer' });
  const tab = async (s: PactoStore) =>
    new Outbox({
      store: s,
      record: new GameRecordRef(s, g.gameId, asAppRecord(await s.getGame(g.gameId))!),
      log: replica,
      now: () => 0,
      lang: () => 'en',
      seqFloor: () => 10,
      published: () => undefined,
      closed: () => false,
    });
  return { g, me, start, store, replica, tab };
}

describe('a once-only name given back after its block failed, with two tabs', () => {
  it('the other tab takes the name and signs once; the first tab never sends what it signed, nor signs again; no number is used twice', async () => {
    const p = await phone(7);
    let failNext = false;
    let changed!: () => void;
    const changeRan = new Promise<void>((resolve) => (changed = resolve));
    let land!: () => void;
    const landing = new Promise<void>((resolve) => (land = resolve));
    // Tab A's store: its next reservation runs its change (the block is handed out) and then
    // fails to land once `land` is called, as a transaction that aborts at commit.
    const flaky: PactoStore = {
      ...p.store,
      modifyReservation: async (gameId, change) => {
        if (!failNext) return p.store.modifyReservation(gameId, change);
        failNext = false;
        await p.store.modifyReservation(gameId, (old) => (change(old), null));
        changed();
        await landing;
        throw new Error('the block did not land');
      },
    };
    const a = await p.tab(flaky);
    const b = await p.tab(p.store);
    // Every message either tab's sign step produced, and what each sign step saw.
    const signedBy: { tab: string; signed: Signed }[] = [];
    const sign = (tab: string) => (stamp: Stamp) => {
      const s = acceptStart(p.me, p.g.gameId, p.start, stamp);
      signedBy.push({ tab, signed: s });
      return s;
    };
    failNext = true;
    const block = a.stamp();
    await changeRan;
    const sentA = a.send(sign('A'), { once: 'accept-start' });
    await new Promise((r) => setTimeout(r, 20));
    // Tab B asks while A holds the name: nothing to sign.
    expect(await b.send(sign('B'), { once: 'accept-start' })).toBeNull();
    land();
    await expect(block).rejects.toThrow();
    await expect(sentA).rejects.toThrow();
    // A gave the name back; B takes it now and signs, once.
    const sentB = await b.send(sign('B'), { once: 'accept-start' });
    expect(sentB).not.toBeNull();
    // A's duty comes back: the name is B's now, nothing is signed.
    const before = signedBy.length;
    expect(await a.send(sign('A'), { once: 'accept-start' })).toBeNull();
    expect(signedBy.length, 'a sign step ran without the right').toBe(before);
    expect(await b.send(sign('B'), { once: 'accept-start' })).toBeNull();
    // The entry set holds exactly one acceptance by this key: B's.
    await p.replica.flush();
    const acks = p.replica.entries().filter((e) => payloadOf(e).type === 'ack' && payloadOf(e).from === p.me.id);
    expect(acks).toHaveLength(1);
    expect(p.replica.admission.has(sentB!.id)).toBe(true);
    // A's signed copy (made while its reservation was in flight) never left.
    const fromA = signedBy.filter((s) => s.tab === 'A').map((s) => s.signed.id);
    for (const id of fromA) if (id !== sentB!.id) expect(p.replica.admission.has(id)).toBe(false);
    // The numbers both tabs hand out from now on: none twice, none the acceptance's.
    const numbers = [payloadOf(sentB!.bytes).seq as number];
    for (let i = 0; i < 40; i++) for (const t of [a, b]) numbers.push((await t.stamp()).seq);
    expect(new Set(numbers).size).toBe(numbers.length);
    p.replica.destroy();
    p.store.close();
  });
});

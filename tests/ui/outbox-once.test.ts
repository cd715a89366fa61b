// The once-only right of a message the protocol allows once (src/ui/game/outbox.ts send): reserved
// with the sequence number before signing; used up by a message signed with it, given back when
// the sign step throws (nothing signed with it left the phone), in the reservations' database two
// tabs share.
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

/** A started game whose player 1 has not accepted the START yet, open on player 1's phone (one tab, or two on one store). */
async function phone(seed: number) {
  const g = startedGame(seed);
  const me = g.phones[1]!.me;
  const mine = g.log.findIndex((b) => payloadOf(b).type === 'ack' && payloadOf(b).from === me.id);
  const log = g.log.filter((_, i) => i !== mine);
  const opened = openMessage(g.log.find((b) => payloadOf(b).type === 'start')!);
  if (!opened.ok) throw new Error('start');
  const start: Message = opened.message;
  const store = await openPactoStore(`pacto-once-${seed}`, new IDBFactory());
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
  const accept = (stamp: Stamp): Signed => acceptStart(me, g.gameId, start, stamp);
  return { g, me, store, replica, tab, accept };
}

describe('the once-only right and a block of numbers whose write fails', () => {
  it('a right written while the block its number came from failed to land is given back: the next attempt signs', async () => {
    const p = await phone(99);
    // The store, but the next reservation reads, runs its change (the block is handed out) and
    // then fails to land once `land` is called, as a transaction that aborts at commit.
    let failNext = false;
    let changed!: () => void;
    const changeRan = new Promise<void>((resolve) => (changed = resolve));
    let land!: () => void;
    const landing = new Promise<void>((resolve) => (land = resolve));
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
    const outbox = await p.tab(flaky);
    failNext = true;
    const first = outbox.stamp();
    await changeRan;
    // The START acceptance takes its number from that block, its own write (the name) lands.
    const accept = outbox.send(p.accept, { once: 'accept-start' });
    await new Promise((r) => setTimeout(r, 20));
    land();
    await expect(first).rejects.toThrow('the block did not land');
    await expect(accept).rejects.toThrow('the block did not land');
    // Nothing signed with the right left the phone: it is not used up.
    const sent = await outbox.send(p.accept, { once: 'accept-start' });
    expect(sent).not.toBeNull();
    expect(p.replica.admission.has(sent!.id)).toBe(true);
    p.replica.destroy();
    p.store.close();
  });
});

describe('the once-only right and a sign step that throws', () => {
  it('a sign step that throws gives the right back: the next attempt signs, and then the right is used up', async () => {
    const p = await phone(97);
    const outbox = await p.tab(p.store);
    await expect(
      outbox.send(
        () => {
          throw new Error('sign failed');
        },
        { once: 'accept-start' },
      ),
    ).rejects.toThrow('sign failed');
    // The names reserved, as the reservations' database holds them (read, nothing written).
    const storedOnce = async () => {
      let names: readonly string[] = [];
      await p.store.modifyReservation(p.g.gameId, (old) => ((names = old.once), null));
      return names;
    };
    expect(await storedOnce()).not.toContain('accept-start');
    const sent = await outbox.send(p.accept, { once: 'accept-start' });
    expect(sent).not.toBeNull();
    expect(p.replica.admission.has(sent!.id)).toBe(true);
    expect(await storedOnce()).toContain('accept-start');
    let signedAgain = false;
    const again = await outbox.send(
      (stamp) => {
        signedAgain = true;
        return p.accept(stamp);
      },
      { once: 'accept-start' },
    );
    expect(again).toBeNull();
    expect(signedAgain).toBe(false);
    p.replica.destroy();
    p.store.close();
  });

  it('another tab asking while the sign step runs gets nothing to sign; after the throw it signs, once', async () => {
    const p = await phone(98);
    const tabA = await p.tab(p.store);
    const tabB = await p.tab(p.store);
    let fail!: () => void;
    const failing = new Promise<void>((resolve) => (fail = resolve));
    let signing!: () => void;
    const started = new Promise<void>((resolve) => (signing = resolve));
    const a = tabA.send(
      async () => {
        signing();
        await failing;
        throw new Error('sign failed');
      },
      { once: 'accept-start' },
    );
    await started;
    let bSigned = 0;
    const bSign = (stamp: Stamp) => {
      bSigned++;
      return p.accept(stamp);
    };
    expect(await tabB.send(bSign, { once: 'accept-start' })).toBeNull();
    expect(bSigned).toBe(0);
    fail();
    await expect(a).rejects.toThrow('sign failed');
    const sent = await tabB.send(bSign, { once: 'accept-start' });
    expect(sent).not.toBeNull();
    expect(await tabA.send(bSign, { once: 'accept-start' })).toBeNull();
    expect(bSigned).toBe(1);
    p.replica.destroy();
    p.store.close();
  });
});

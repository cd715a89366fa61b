// Set-up shared by the outbox tests of the once-only right (src/ui/game/outbox.ts send): a started
// game on player 1's phone, the START not accepted yet, whose outbox tabs share one store; and a
// store whose next reservation runs its change and then fails to land.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { GameReplica } from '../../src/net';
import { openMessage, type Message } from '../../src/protocol';
import { entryStorage, openPactoStore, type PactoStore } from '../../src/store';
import { Outbox } from '../../src/ui/game/outbox';
import { asAppRecord, GameRecordRef } from '../../src/ui/game/records';
import { fastVerifier } from '../net/helpers/mesh';
import { payloadOf, startedGame } from '../protocol/helpers';

/**
 * Player 1 of a started game (`seed`) that has not accepted the START yet, its entries in one entry
 * set on a store named `storeName`; `tab` opens an outbox on that set over a store (one tab, or two
 * on one store).
 */
export async function unacceptedPhone(seed: number, storeName: string) {
  const g = startedGame(seed);
  const me = g.phones[1]!.me;
  const mine = g.log.findIndex((b) => payloadOf(b).type === 'ack' && payloadOf(b).from === me.id);
  const log = g.log.filter((_, i) => i !== mine);
  const opened = openMessage(g.log.find((b) => payloadOf(b).type === 'start')!);
  if (!opened.ok) throw new Error('start');
  const start: Message = opened.message;
  const factory = new IDBFactory();
  const store = await openPactoStore(storeName, factory);
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
  /** Another context of the device (a tab, the service worker): its own connection to the same databases. */
  const connect = () => openPactoStore(storeName, factory);
  return { g, me, start, store, replica, tab, connect };
}

/**
 * `store`, but once `failNext()` is called its next reservation runs its change (the block is handed
 * out; `changeRan` resolves) and then fails to land once `land()` is called, as a transaction that
 * aborts at commit.
 */
export function blockFailsOnce(store: PactoStore): { flaky: PactoStore; failNext: () => void; changeRan: Promise<void>; land: () => void } {
  let failNext = false;
  let changed!: () => void;
  const changeRan = new Promise<void>((resolve) => (changed = resolve));
  let land!: () => void;
  const landing = new Promise<void>((resolve) => (land = resolve));
  const flaky: PactoStore = {
    ...store,
    modifyReservation: async (gameId, change) => {
      if (!failNext) return store.modifyReservation(gameId, change);
      failNext = false;
      await store.modifyReservation(gameId, (old) => (change(old), null));
      changed();
      await landing;
      throw new Error('the block did not land');
    },
  };
  return { flaky, failNext: () => (failNext = true), changeRan, land };
}

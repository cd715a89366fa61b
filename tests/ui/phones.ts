// Phones for the session tests in Node: each its own fake IndexedDB, entry set and Y.Doc, the
// docs wired to each other like connected peers (every update through the receiver's gate), and a
// way to wait until every runner has caught up.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import nacl from 'tweetnacl';
import * as Y from 'yjs';
import { createGameDoc, GameReplica } from '../../src/net';
import { entryStorage, openPactoStore, persistDoc } from '../../src/store';
import { acceptInvite, createNewGame } from '../../src/ui/game/create';
import { openDevice, type Device } from '../../src/ui/game/device';
import { GameRunner } from '../../src/ui/game/runner';
import type { Lang } from '../../src/ui/i18n';
import { defaultRoster, isComplete } from '../../src/ui/lobby/roster';

export interface Phone {
  device: Device;
  doc: Y.Doc;
  replica: GameReplica;
  runner: GameRunner;
}

export async function device(name: string, clock: number): Promise<Device> {
  const store = await openPactoStore(`pacto-${name}-${Math.random()}`, new IDBFactory());
  return openDevice(store, nacl.randomBytes, clock);
}

/**
 * Ana's three-seat game (she claims France; seats chosen, or by lot) on three new devices, the
 * other two having accepted its invite: where the session tests start.
 */
export async function threeDevices(clock: number, assignment: 'choice' | 'lot' = 'choice'): Promise<{ gameId: string; devices: [Device, Device, Device] }> {
  const [da, db, dc] = await Promise.all([device('a', clock), device('b', clock), device('c', clock)]);
  const gameId = await createNewGame(
    da,
    { name: 'Ana', seats: 3, assignment, claim: 'france', variant: 'standard', rules: {}, movementHours: 0, retreatHours: 0, endYear: null, signaling: [] },
    nacl.randomBytes,
    clock,
  );
  const record = (await da.store.getGame(gameId))!;
  const invite = { gameId, password: record.password as string, signaling: [] };
  await acceptInvite(db, invite, clock);
  await acceptInvite(dc, invite, clock);
  return { gameId, devices: [da, db, dc] };
}

/** Opens a game on a device, as useGameSession does, minus the network. */
export async function openPhone(d: Device, gameId: string, now: () => number, lang?: Lang): Promise<Phone> {
  const doc = createGameDoc();
  const replica = await GameReplica.open({ gameId, doc, self: d.identity.id, storage: entryStorage(d.store, gameId) });
  await persistDoc(d.store, gameId, doc, { load: (updates, origin) => replica.loadStored(updates, origin) }).ready;
  const runner = await GameRunner.open({
    store: d.store,
    identity: d.identity,
    gameId,
    log: replica,
    now,
    random: nacl.randomBytes,
    ...(lang === undefined ? {} : { lang: () => lang }),
  });
  return { device: d, doc, replica, runner };
}

const WIRE = { name: 'wire', origin: 'wire' };

/** Every update of one doc reaches the others through their gates, like connected peers. */
export function wire(phones: Phone[]): void {
  for (const a of phones) {
    a.doc.on('update', (u: Uint8Array, origin: unknown) => {
      if (origin === 'wire') return;
      for (const b of phones) if (b !== a) b.replica.receive(u, WIRE);
    });
  }
  for (const a of phones) for (const b of phones) if (a !== b) b.replica.receive(Y.encodeStateAsUpdate(a.doc), WIRE);
}

/** Lets every runner finish what the last updates set off. */
export async function settle(phones: Phone[]): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await new Promise((r) => setTimeout(r, 5));
    await Promise.all(phones.map((p) => p.runner.idle()));
  }
}

/**
 * Ana's game (France) on three wired phones, Bea (Germany) and Carl (Russia) joined, started with the
 * default roster, every runner settled.
 */
export async function startedOnThree(clock: number, now: () => number): Promise<{ gameId: string; phones: [Phone, Phone, Phone] }> {
  const {
    gameId,
    devices: [da, db, dc],
  } = await threeDevices(clock);
  const phones = [await openPhone(da, gameId, now), await openPhone(db, gameId, now), await openPhone(dc, gameId, now)];
  wire(phones);
  await settle(phones);
  const [a, b, c] = phones as [Phone, Phone, Phone];
  await b.runner.join('Bea', 'germany');
  await c.runner.join('Carl', 'russia');
  await settle(phones);
  const roster = defaultRoster(a.runner.view.players);
  if (!isComplete(roster, a.runner.view.players)) throw new Error('incomplete roster');
  await a.runner.start(roster);
  await settle(phones);
  return { gameId, phones: phones as [Phone, Phone, Phone] };
}

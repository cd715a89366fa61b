// Set-up shared by the session tests where one phone (Bea's) dies, or has its store's writes held
// back or failing: the docs wired like connected peers but for the phones that died, a phone on a
// wrapped store, and the three-seat game those tests start from.
import nacl from 'tweetnacl';
import * as Y from 'yjs';
import { createGameDoc, GameReplica } from '../../src/net';
import { parseEntry, type WireContext } from '../../src/protocol';
import { POWERS, type Power } from '../../src/rules';
import { entryStorage, type PactoStore } from '../../src/store';
import type { Device } from '../../src/ui/game/device';
import { GameRunner } from '../../src/ui/game/runner';
import { isComplete } from '../../src/ui/lobby/roster';
import { openPhone, settle, threeDevices, type Phone } from './phones';

const WIRE = { name: 'wire', origin: 'wire' };

/** An entry's payload, or null if it does not parse (with `ctx`, a compact entry too). */
export const payloadOf = (bytes: Uint8Array, ctx?: WireContext) => {
  const o = parseEntry(bytes, ctx);
  return o.ok ? o.entry.payload : null;
};

/** Docs wired like connected peers, except phones in `dead` (a crashed phone neither sends nor receives). */
export function link(phones: Phone[], dead: Set<Phone>): void {
  for (const a of phones) {
    a.doc.on('update', (u: Uint8Array, origin: unknown) => {
      if (origin === 'wire' || dead.has(a)) return;
      for (const b of phones) if (b !== a && !dead.has(b)) b.replica.receive(u, WIRE);
    });
  }
  for (const a of phones) for (const b of phones) if (a !== b) b.replica.receive(Y.encodeStateAsUpdate(a.doc), WIRE);
}

/** A phone on `store` (a wrapper of its device's store), its doc updates not kept (the entries are the truth). */
export async function phoneOn(d: Device, gameId: string, store: PactoStore, now: () => number): Promise<Phone> {
  const doc = createGameDoc();
  const replica = await GameReplica.open({ gameId, doc, self: d.identity.id, storage: entryStorage(store, gameId) });
  const runner = await GameRunner.open({ store, identity: d.identity, gameId, log: replica, now, random: nacl.randomBytes });
  return { device: d, doc, replica, runner };
}

/**
 * Ana (every power but two), Bea (Germany alone: one FINAL to send, on the phone `makeB` opens)
 * and Carl (Russia) in a started game, wired by `link`; `onCrash` (given to `makeB`) adds Bea's
 * phone to `dead`, which cuts it off, and closes its runner. `beforeStart` runs just before the START.
 */
export async function startedWithBea<B extends Phone>(
  clock: number,
  now: () => number,
  makeB: (d: Device, gameId: string, onCrash: () => void) => Promise<B>,
  beforeStart: (b: B) => void = () => undefined,
): Promise<{ a: Phone; b: B; c: Phone; db: Device; gameId: string; phones: Phone[]; dead: Set<Phone>; bea: string }> {
  const {
    gameId,
    devices: [da, db, dc],
  } = await threeDevices(clock);
  const dead = new Set<Phone>();
  const a = await openPhone(da, gameId, now);
  const c = await openPhone(dc, gameId, now);
  const b: B = await makeB(db, gameId, () => {
    dead.add(b);
    b.runner.close();
  });
  const phones = [a, b, c];
  link(phones, dead);
  await settle(phones);
  await b.runner.join('Bea', 'germany');
  await c.runner.join('Carl', 'russia');
  await settle(phones);
  const roster = anaBeaCarlRoster(a.runner.view.players);
  beforeStart(b);
  await a.runner.start(roster);
  await settle(phones);
  return { a, b, c, db, gameId, phones, dead, bea: db.identity.id };
}

/** Bea holds Germany, Carl Russia, Ana every other power: the roster of the three-seat game. */
export function anaBeaCarlRoster(players: readonly { readonly name: string; readonly key: string }[]): Record<Power, string> {
  const keyOf = (name: string) => players.find((p) => p.name === name)!.key;
  const roster = Object.fromEntries(POWERS.map((p) => [p, p === 'germany' ? keyOf('Bea') : p === 'russia' ? keyOf('Carl') : keyOf('Ana')])) as Record<
    Power,
    string
  >;
  if (!isComplete(roster, players as Parameters<typeof isComplete>[1])) throw new Error('incomplete roster');
  return roster;
}

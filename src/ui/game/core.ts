// A game's plumbing on this device, without any network: its Y.Doc (the carrier), the replica
// (the gate and the admitted entry set, the truth), the doc's store binding (which also fills the
// relay outbox with this phone's own updates) and the runner (the view and the automatic duties).
// The open app (live.ts) adds WebRTC and the relays' WebSockets on top; the service worker
// (src/ui/background) adds the relays' HTTP API. Both open a game through here, so the worker
// performs exactly the duties the open app performs, through the same runner.
import type * as Y from 'yjs';
import { createGameDoc } from '../../net/log-doc';
import { GameReplica } from '../../net/replica';
import type { Report } from '../../net/gate';
import { entryStorage, persistDoc, type PersistedDoc } from '../../store';
import { PEER_WRITES, writeOnHide } from './peer-writes';
import type { Device } from './device';
import { randomBytes } from './random';
import { asAppRecord, type AppGameRecord } from './records';
import { GameRunner, type RunnerOptions } from './runner';

export interface GameCore {
  readonly record: AppGameRecord;
  readonly doc: Y.Doc;
  readonly replica: GameReplica;
  readonly persisted: PersistedDoc;
  readonly runner: GameRunner;
}

/** What peers sent that was refused goes to the console: the first few, then one in a hundred. */
function reportOnce(): (r: Report) => void {
  let n = 0;
  return (r) => {
    n++;
    if (n <= 20 || n % 100 === 0) console.warn(`pacto: refused (${n})`, r);
  };
}

/**
 * Opens a game held by this device, or null if it holds no such game (or `closed()` turned true
 * on the way). Everything opened is registered in `undo` (to be run in reverse order).
 */
export async function openGameCore(
  device: Device,
  gameId: string,
  undo: (() => void)[],
  closed: () => boolean,
  runnerOptions: Partial<Pick<RunnerOptions, 'onAppended' | 'lang' | 'onError'>> = {},
): Promise<GameCore | null> {
  const record = asAppRecord(await device.store.getGame(gameId));
  if (record === undefined || closed()) return null;
  const doc: Y.Doc = createGameDoc();
  undo.push(() => doc.destroy());
  // The truth: the entries this phone admitted. The doc only carries them; everything in it,
  // from the store or from peers, passes the replica's gate first.
  // Peers' entries and updates are written once a round of the ballot is over (peer-writes.ts).
  const replica = await GameReplica.open({
    gameId,
    doc,
    self: device.identity.id,
    storage: entryStorage(device.store, gameId),
    onReport: reportOnce(),
    peerWrites: PEER_WRITES,
  });
  undo.push(() => replica.destroy());
  const persisted = persistDoc(device.store, gameId, doc, {
    onError: (e) => console.warn('pacto: storing the game failed', e),
    load: (updates, origin) => replica.loadStored(updates, origin),
    // This phone's own updates also enter the relay outbox, in the same transaction.
    own: (origin) => replica.isOwnOrigin(origin),
    peerWrites: PEER_WRITES,
  });
  undo.push(() => void persisted.destroy());
  // What waits is written when the page is hidden or left (a phone may be closed any time after).
  undo.push(writeOnHide([replica, persisted]));
  // Damaged records are reported and skipped; the good updates are in the doc either way.
  await persisted.ready.catch((e) => console.warn('pacto: some stored updates were unreadable', e));
  if (closed()) return null;
  const runner = await GameRunner.open({
    store: device.store,
    identity: device.identity,
    gameId,
    log: replica,
    now: () => Date.now(),
    random: randomBytes,
    onError: (e) => console.warn('pacto:', e),
    ...runnerOptions,
  });
  undo.push(() => runner.close());
  if (closed()) return null;
  return { record, doc, replica, persisted, runner };
}

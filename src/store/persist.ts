// Binding a game's Y.Doc to the store: load what is stored, then append every later update.
// Updates are queued and written in batches by one writer, so a burst of updates costs one
// transaction, and flush() tells when everything seen so far is durable.
import * as Y from 'yjs';
import { StoreDataError } from './errors';
import type { PactoStore } from './open';
import type { Compaction, LoadedUpdates } from './updates';

export interface PersistOptions {
  /** Compact when the game has more than this many records (default 256). */
  readonly compactAfter?: number;
  /** Told about write or compaction failures (the updates stay queued and are retried). */
  readonly onError?: (error: unknown) => void;
  /**
   * Applies the stored updates to the doc with `origin` (the game's gate: GameReplica.loadStored)
   * and says whether all were clean. When some were not, the game's records are replaced by the
   * doc's state, so what the gate refused is not read again. Default (bare docs in tests and
   * tools; the app always passes the replica's): Y.applyUpdate, all clean. The replica's gate
   * settles Yjs's held-back structs (net/settle.ts); the store may not import the network layer.
   */
  readonly load?: (updates: readonly Uint8Array[], origin: symbol) => boolean;
  /** Whether an update with this transaction origin is this phone's own (GameReplica.isOwnOrigin):
   *  such updates also enter the relay outbox, in the transaction that stores them. */
  readonly own?: (origin: unknown) => boolean;
  /**
   * Runs a due compaction when the page is idle. Default: the browser's requestIdleCallback (a
   * compaction reads, merges and rewrites every record of the game: in bench/phase.ts's profile,
   * 32 ms per phone per phase on average, all of it in the phase where it falls, and the seven
   * phones fall due together); where there is none (Node, Safari), the compaction runs at once,
   * after the write that made it due.
   */
  readonly whenIdle?: (run: () => void) => void;
  /**
   * When peers' updates are written: once none came for `quietMs`, and at most `maxMs` after the
   * first that waits (as GameReplica's peerWrites, README "Writing peers' entries later"). An own
   * update (`own`), flush(), writeNow() and destroy() write at once, with whatever waits.
   * Default: no wait.
   */
  readonly peerWrites?: { readonly quietMs: number; readonly maxMs: number };
}

/** How long a due compaction may wait for the page to be idle. */
const COMPACT_IDLE_TIMEOUT_MS = 10_000;

function defaultWhenIdle(): ((run: () => void) => void) | undefined {
  const idle = (globalThis as { requestIdleCallback?: (f: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
  return typeof idle === 'function' ? (run) => idle(run, { timeout: COMPACT_IDLE_TIMEOUT_MS }) : undefined;
}

export interface PersistedDoc {
  /** Resolves once the stored updates are in the doc. Rejects with StoreDataError if some
   * records were bad: the good ones are loaded anyway and new updates are still stored. */
  readonly ready: Promise<LoadedUpdates>;
  /** Resolves when every update seen so far has been durably written; rejects if a write fails twice. */
  flush(): Promise<void>;
  compact(): Promise<Compaction>;
  /** Starts writing whatever waits (PersistOptions.peerWrites) now: the page is being hidden. */
  writeNow(): void;
  /** Called after own updates (PersistOptions.own) were stored in the outbox; returns the unsubscribe. */
  onOutbox(listener: (added: number) => void): () => void;
  /** Own updates seen and not yet written (they are on their way to the outbox). */
  ownQueued(): number;
  /** Stops listening and waits for the writes already queued. */
  destroy(): Promise<void>;
}

export function persistDoc(store: PactoStore, gameId: string, doc: Y.Doc, options: PersistOptions = {}): PersistedDoc {
  const compactAfter = options.compactAfter ?? 256;
  // Loaded updates are applied with this origin, so the update listener knows not to store them again.
  const origin = Symbol(`pacto-store:${gameId}`);
  let queue: Uint8Array[] = [];
  /** Parallel to queue: whether each update is this phone's own (also goes to the outbox). */
  let ownQueue: boolean[] = [];
  const outboxListeners = new Set<(added: number) => void>();
  let writingOwn = 0;
  let running: Promise<void> | null = null;
  let failure: unknown = null;
  let records = 0;
  let damaged = false;
  let destroyed = false;
  const whenIdle = options.whenIdle ?? defaultWhenIdle();
  /** A compaction waiting for idle time, or running (flush waits for a running one). */
  let compactWaiting = false;
  let compacting: Promise<void> | null = null;
  /** peerWrites: set by writeNow (the loop takes peers' updates too); the quiet and bound timers. */
  let forced = false;
  let quietTimer: ReturnType<typeof setTimeout> | null = null;
  let boundTimer: ReturnType<typeof setTimeout> | null = null;
  const due = () => options.peerWrites === undefined || forced || ownQueue.some(Boolean);

  const report = (e: unknown) => options.onError?.(e);

  async function compactNow(): Promise<Compaction> {
    const result = await store.compact(gameId);
    records = result.after;
    return result;
  }

  async function drain(): Promise<void> {
    while (queue.length > 0 && due()) {
      const batch = queue;
      const own = ownQueue;
      queue = [];
      ownQueue = [];
      forced = false;
      writingOwn = own.filter(Boolean).length;
      try {
        await store.appendUpdates(gameId, batch, own);
        writingOwn = 0;
      } catch (e) {
        writingOwn = 0;
        queue = batch.concat(queue);
        ownQueue = own.concat(ownQueue);
        failure = e;
        report(e);
        return;
      }
      records += batch.length;
      const added = own.filter(Boolean).length;
      if (added > 0) {
        for (const l of [...outboxListeners]) {
          try {
            l(added);
          } catch (e) {
            report(e);
          }
        }
      }
      if (records > compactAfter && !damaged) {
        if (whenIdle === undefined) await compactNow().catch(report);
        else compactWhenIdle(whenIdle);
      }
    }
  }

  /** A due compaction, in idle time; appends go on meanwhile (one that lands during it lands after its record). */
  function compactWhenIdle(idle: (run: () => void) => void): void {
    if (compactWaiting || compacting !== null) return;
    compactWaiting = true;
    idle(() => {
      compactWaiting = false;
      if (destroyed || damaged || records <= compactAfter) return;
      compacting = compactNow()
        .then(() => undefined, report)
        .finally(() => {
          compacting = null;
        });
    });
  }

  function kick(): Promise<void> {
    running ??= drain().finally(() => {
      running = null;
      if (queue.length > 0 && failure === null) queueWrites();
    });
    return running;
  }

  function writeNow(): Promise<void> {
    if (quietTimer !== null) clearTimeout(quietTimer);
    if (boundTimer !== null) clearTimeout(boundTimer);
    quietTimer = null;
    boundTimer = null;
    forced = queue.length > 0;
    return kick();
  }

  /** After an update is queued: written now when due, else when peers' updates stop coming. */
  function queueWrites(): void {
    const wait = options.peerWrites;
    if (wait === undefined || due() || destroyed) {
      void writeNow();
      return;
    }
    if (running !== null) return; // the loop ends, then queues what is left
    if (quietTimer !== null) clearTimeout(quietTimer);
    quietTimer = setTimeout(() => void writeNow(), wait.quietMs);
    boundTimer ??= setTimeout(() => void writeNow(), wait.maxMs);
  }

  const onUpdate = (update: Uint8Array, from: unknown) => {
    if (from === origin) return;
    queue.push(update);
    ownQueue.push(options.own?.(from) ?? false);
    failure = null;
    queueWrites();
  };
  doc.on('update', onUpdate);

  // Whatever the doc held before it was bound is stored too, as one update.
  if (doc.store.clients.size > 0) onUpdate(Y.encodeStateAsUpdate(doc), null);

  const ready = (async () => {
    let loaded: LoadedUpdates;
    let error: StoreDataError | null = null;
    try {
      loaded = await store.loadUpdates(gameId);
    } catch (e) {
      if (!(e instanceof StoreDataError)) throw e;
      error = e;
      damaged = true;
      loaded = e.partial as LoadedUpdates;
    }
    records += loaded.records.length;
    let clean = true;
    Y.transact(
      doc,
      () => {
        if (options.load !== undefined)
          clean = options.load(
            loaded.records.map((r) => r.update),
            origin,
          );
        else for (const r of loaded.records) Y.applyUpdate(doc, r.update, origin);
      },
      origin,
    );
    if (!clean && !damaged) {
      await store.replaceUpdates(gameId, () => Y.encodeStateAsUpdate(doc));
      records = 1;
    }
    if (error !== null) throw error;
    return loaded;
  })();
  // The caller may never await ready; its failure is still reported through onError.
  ready.catch(report);

  async function flush(): Promise<void> {
    let retried = false;
    for (;;) {
      if (compacting !== null) await compacting;
      if (running !== null) await running;
      else if (queue.length === 0) return;
      else if (failure !== null && retried) throw failure;
      else {
        retried ||= failure !== null;
        failure = null;
        void writeNow();
      }
    }
  }

  const onDestroy = () => void destroy().catch(report);
  doc.on('destroy', onDestroy);

  async function destroy(): Promise<void> {
    if (!destroyed) {
      destroyed = true;
      doc.off('update', onUpdate);
      doc.off('destroy', onDestroy);
    }
    await flush();
  }

  return {
    ready,
    flush,
    compact: async () => {
      await flush();
      return compactNow();
    },
    destroy,
    writeNow: () => void writeNow(),
    ownQueued: () => ownQueue.filter(Boolean).length + writingOwn,
    onOutbox: (listener) => {
      outboxListeners.add(listener);
      return () => outboxListeners.delete(listener);
    },
  };
}

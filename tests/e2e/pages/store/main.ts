// Drives src/store in a real browser for tests/e2e/store-*.test.ts and the store bench: each
// function opens the store afresh, so calling one after a page reload reads what the last wrote.
import * as Y from 'yjs';
import { StoreDataError, openPactoStore, persistDoc, type PactoStore } from '../../../../src/store';
import { TWENTY_YEARS, generateUpdates } from './log';

const DB = 'pacto';

function digest(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (v instanceof Uint8Array ? { bytes: Array.from(v) } : v));
}

function entry(i: number): { n: number; text: string; body: Uint8Array } {
  return { n: i, text: `mensaje ${i}`, body: Uint8Array.from({ length: 48 }, (_, j) => (i * 13 + j) & 0xff) };
}

async function withStore<T>(run: (store: PactoStore) => Promise<T>): Promise<T> {
  const store = await openPactoStore(DB);
  try {
    return await run(store);
  } finally {
    store.close();
  }
}

/** Appends `count` log entries (from `from`) one update each; resolves when they are durable. */
async function writeLog(gameId: string, from: number, count: number): Promise<string> {
  return withStore(async (store) => {
    if ((await store.getGame(gameId)) === undefined) await store.putGame({ id: gameId, title: `Partida ${gameId}`, created: Date.now(), myPower: 'france' });
    const doc = new Y.Doc();
    const handle = persistDoc(store, gameId, doc, { compactAfter: 1_000_000 });
    await handle.ready;
    for (let i = from; i < from + count; i++) doc.getArray('log').push([entry(i)]);
    await handle.destroy();
    return digest(doc.getArray('log').toArray());
  });
}

async function readLog(gameId: string): Promise<{ log: string; length: number; records: number; games: string[] }> {
  return withStore(async (store) => {
    const games = (await store.listGames()).map((g) => g.id);
    const doc = new Y.Doc();
    const handle = persistDoc(store, gameId, doc);
    await handle.ready;
    await handle.destroy();
    return { log: digest(doc.getArray('log').toArray()), length: doc.getArray('log').length, records: await store.countUpdates(gameId), games };
  });
}

const draftKey = { gameId: 'g1', phase: '1901-spring-movement', power: 'france' };

async function writeDevice(): Promise<string> {
  return withStore(async (store) => {
    const identity = await store.ensureIdentityKeys((n) => crypto.getRandomValues(new Uint8Array(n)), Date.now());
    await store.updateSettings({ language: 'es', name: 'Carmen', signaling: [`ws://${location.host}`] });
    await store.saveDraftOrders(draftKey, [{ kind: 'move', unit: { type: 'A', power: 'france', loc: 'par' }, to: 'bur' }], 1);
    await store.addSeal(draftKey, {
      key: crypto.getRandomValues(new Uint8Array(32)),
      nonce: crypto.getRandomValues(new Uint8Array(24)),
      hash: 'c0ffee',
      created: 2,
    });
    return digest({ identity, settings: await store.getSettings(), draft: await store.getDraft(draftKey) });
  });
}

async function readDevice(): Promise<string> {
  return withStore(async (store) =>
    digest({ identity: await store.getIdentityKeys(), settings: await store.getSettings(), draft: await store.getDraft(draftKey) }),
  );
}

/** Starts a compaction and, without waiting, appends through a second connection. */
async function compactWhileAppending(gameId: string, from: number, count: number): Promise<{ before: number; appended: number }> {
  const other = await openPactoStore(DB);
  try {
    return await withStore(async (store) => {
      const updates: Uint8Array[] = [];
      const doc = new Y.Doc();
      Y.applyUpdate(doc, Y.mergeUpdates((await store.loadUpdates(gameId)).records.map((r) => r.update)));
      doc.on('update', (u: Uint8Array) => updates.push(u));
      for (let i = from; i < from + count; i++) doc.getArray('log').push([entry(i)]);
      const compaction = store.compact(gameId);
      const appends = updates.map((u) => other.appendUpdates(gameId, [u]));
      const [result] = await Promise.all([compaction, ...appends]);
      return { before: result.before, appended: appends.length };
    });
  } finally {
    other.close();
  }
}

/** Truncates the bytes of the record with the highest seq. */
async function corruptLast(gameId: string): Promise<unknown> {
  return withStore(async (store) => {
    const loaded = await store.loadUpdates(gameId);
    const last = loaded.records[loaded.records.length - 1]!;
    await store.db.put('updates', { ...last, update: last.update.subarray(0, Math.max(1, last.update.length - 4)) });
    return [gameId, last.seq];
  });
}

async function readDamaged(gameId: string): Promise<{ error: string; keys: unknown[]; length: number; records: number }> {
  return withStore(async (store) => {
    const doc = new Y.Doc();
    const handle = persistDoc(store, gameId, doc);
    const error = await handle.ready.then(
      () => null,
      (e: unknown) => e,
    );
    await handle.destroy();
    if (!(error instanceof StoreDataError)) throw new Error(`expected a StoreDataError, got ${String(error)}`);
    return { error: error.message, keys: error.records.map((r) => r.key), length: doc.getArray('log').length, records: await store.countUpdates(gameId) };
  });
}

/** Stores the 20-year game twice: one record per update, and compacted. */
async function seedBench(): Promise<{ messages: number; updates: number; bytes: number; writeMs: number }> {
  const { updates, messages, bytes } = generateUpdates(TWENTY_YEARS);
  return withStore(async (store) => {
    const t0 = performance.now();
    for (const u of updates) await store.appendUpdates('bench-raw', [u]);
    const writeMs = performance.now() - t0;
    await store.appendUpdates('bench-compact', updates);
    await store.compact('bench-compact');
    return { messages, updates: updates.length, bytes, writeMs };
  });
}

/** Open the database, load the game into a fresh doc, read the log: what opening a game costs. */
async function timeOpen(gameId: string): Promise<{ ms: number; length: number }> {
  const t0 = performance.now();
  const store = await openPactoStore(DB);
  const doc = new Y.Doc();
  const handle = persistDoc(store, gameId, doc);
  await handle.ready;
  const length = doc.getArray('log').toArray().length;
  const ms = performance.now() - t0;
  await handle.destroy();
  store.close();
  return { ms, length };
}

const api = { writeLog, readLog, writeDevice, readDevice, compactWhileAppending, corruptLast, readDamaged, seedBench, timeOpen };
export type StoreTestApi = typeof api;
(window as unknown as { storeTest: StoreTestApi }).storeTest = api;
document.getElementById('status')!.textContent = 'ready';

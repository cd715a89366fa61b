// Store speed: opening a 20-year game (7 powers x 3 phases x 20 years x 4 messages of 1-2 KB,
// one Y.Doc update each) from IndexedDB, stored one record per update and compacted. In Node
// with fake-indexeddb, and in real Chromium when it is installed.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import * as Y from 'yjs';
import { openPactoStore, persistDoc } from '../src/store';
import { TWENTY_YEARS, generateUpdates } from '../tests/e2e/pages/store/log';
import { report, summarise } from './report';

const RUNS = 5;

async function timeOpen(factory: IDBFactory, gameId: string): Promise<{ ms: number; length: number }> {
  const t0 = performance.now();
  const store = await openPactoStore('pacto', factory);
  const doc = new Y.Doc();
  const handle = persistDoc(store, gameId, doc);
  await handle.ready;
  const length = doc.getArray('log').toArray().length;
  const ms = performance.now() - t0;
  await handle.destroy();
  store.close();
  return { ms, length };
}

async function median(runs: number, once: () => Promise<{ ms: number; length: number }>, expected: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { ms, length } = await once();
    if (length !== expected) throw new Error(`bench: opened ${length} messages, expected ${expected}`);
    times.push(ms);
  }
  return summarise(times).median;
}

async function benchNode(): Promise<void> {
  const { updates, messages, bytes } = generateUpdates(TWENTY_YEARS);
  const factory = new IDBFactory();
  const store = await openPactoStore('pacto', factory);
  const t0 = performance.now();
  for (const u of updates) await store.appendUpdates('raw', [u]);
  const writeMs = performance.now() - t0;
  await store.appendUpdates('compact', updates);
  const c0 = performance.now();
  const compaction = await store.compact('compact');
  const compactMs = performance.now() - c0;
  store.close();
  const rawMs = await median(RUNS, () => timeOpen(factory, 'raw'), messages);
  const compactOpenMs = await median(RUNS, () => timeOpen(factory, 'compact'), messages);
  report('store (Node, fake-indexeddb): open a 20-year game', [
    ['messages / updates', `${messages} / ${updates.length}`],
    ['update bytes', `${(bytes / 1024).toFixed(0)} KiB`],
    ['append, one transaction per update', `${(writeMs / updates.length).toFixed(2)} ms per update`],
    ['compact', `${compactMs.toFixed(0)} ms (${compaction.before} records -> 1, ${(compaction.bytesAfter / 1024).toFixed(0)} KiB)`],
    [`open + load, ${updates.length} records (median of ${RUNS})`, `${rawMs.toFixed(0)} ms`],
    [`open + load, compacted (median of ${RUNS})`, `${compactOpenMs.toFixed(0)} ms`],
  ]);
}

async function benchChromium(): Promise<void> {
  const { launchChromium } = await import('../tests/e2e/browser');
  const { startStorePage } = await import('../tests/e2e/pages/store/serve');
  const site = await startStorePage();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const ready = async () => {
      await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', undefined, { timeout: 60_000 });
    };
    await page.goto(site.base);
    await ready();
    type Api = {
      seedBench(): Promise<{ messages: number; updates: number; bytes: number; writeMs: number }>;
      timeOpen(id: string): Promise<{ ms: number; length: number }>;
    };
    const seeded = await page.evaluate(() => (window as unknown as { storeTest: Api }).storeTest.seedBench());
    const open = async (gameId: string) => {
      await page.reload(); // a cold page, as when the app starts
      await ready();
      return page.evaluate((id) => (window as unknown as { storeTest: Api }).storeTest.timeOpen(id), gameId);
    };
    const rawMs = await median(RUNS, () => open('bench-raw'), seeded.messages);
    const compactMs = await median(RUNS, () => open('bench-compact'), seeded.messages);
    report('store (Chromium, IndexedDB): open a 20-year game after a page reload', [
      ['messages / updates', `${seeded.messages} / ${seeded.updates}`],
      ['append, one strict transaction per update', `${(seeded.writeMs / seeded.updates).toFixed(2)} ms per update`],
      [`open + load, ${seeded.updates} records (median of ${RUNS})`, `${rawMs.toFixed(0)} ms`],
      [`open + load, compacted (median of ${RUNS})`, `${compactMs.toFixed(0)} ms`],
    ]);
  } finally {
    await browser.close();
    await site.stop();
  }
}

export async function benchStore(): Promise<void> {
  await benchNode();
  try {
    await benchChromium();
  } catch (e) {
    console.log(`\nstore (Chromium): skipped (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
  }
}

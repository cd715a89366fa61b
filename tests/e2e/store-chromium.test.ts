// The store in real Chromium: what one page load writes, the next load reads back from
// IndexedDB alone — the log, games, drafts with sealing keys, settings, identity keys —
// and compaction and bad data behave as they do under fake-indexeddb.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './browser';
import { startStorePage, type StorePage } from './pages/store/serve';
import type { StoreTestApi } from './pages/store/main';

let site: StorePage;
let browser: Browser;

beforeAll(async () => {
  site = await startStorePage();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

type Api = StoreTestApi;

/** Calls a function of the test page (the page's storeTest object) with JSON arguments. */
async function call<K extends keyof Api>(page: Page, name: K, ...args: Parameters<Api[K]>): Promise<Awaited<ReturnType<Api[K]>>> {
  return page.evaluate(
    ([n, a]) => {
      const api = (window as unknown as { storeTest: Record<string, (...x: unknown[]) => Promise<unknown>> }).storeTest;
      return api[n as string]!(...(a as unknown[]));
    },
    [name, args] as const,
  ) as Promise<Awaited<ReturnType<Api[K]>>>;
}

async function freshPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await load(page);
  return { context, page };
}

async function load(page: Page, reload = false): Promise<void> {
  if (reload) await page.reload();
  else await page.goto(site.base);
  await expect.poll(() => page.locator('#status').textContent(), { timeout: 30_000 }).toBe('ready');
}

describe('store in Chromium', () => {
  it('a game written in one page load is all there after a reload, from IndexedDB alone', async () => {
    const { context, page } = await freshPage();
    const written = await call(page, 'writeLog', 'g1', 0, 40);
    await call(page, 'writeLog', 'g2', 0, 3);
    await load(page, true);
    const read = await call(page, 'readLog', 'g1');
    expect(read.length).toBe(40);
    expect(read.log).toBe(written);
    expect(read.records).toBe(40); // nothing stored twice when loading
    expect([...read.games].sort()).toEqual(['g1', 'g2']);
    // Another context is another profile: it sees nothing.
    const other = await freshPage();
    expect((await call(other.page, 'readLog', 'g1')).length).toBe(0);
    await other.context.close();
    await context.close();
  });

  it('drafts, sealing keys, settings and identity keys survive a page closed mid-phase', async () => {
    const context = await browser.newContext();
    const first = await context.newPage();
    await load(first);
    const written = await call(first, 'writeDevice');
    await first.close({ runBeforeUnload: false }); // no chance to clean up, like a crash
    const second = await context.newPage();
    await load(second);
    expect(await call(second, 'readDevice')).toBe(written);
    expect(written).toContain('"hash":"c0ffee"');
    expect(written).toContain('"name":"Carmen"');
    // And ensureIdentityKeys does not replace an existing identity.
    const again = JSON.parse(await call(second, 'writeDevice')) as { identity: unknown };
    expect(again.identity).toEqual((JSON.parse(written) as { identity: unknown }).identity);
    await context.close();
  });

  it('compaction with appends from another connection loses nothing', async () => {
    const { context, page } = await freshPage();
    await call(page, 'writeLog', 'g', 0, 50);
    const result = await call(page, 'compactWhileAppending', 'g', 50, 30);
    expect(result.appended).toBe(30);
    await load(page, true);
    const read = await call(page, 'readLog', 'g');
    expect(read.length).toBe(80);
    expect(read.records).toBeLessThanOrEqual(31);
    const ns = (JSON.parse(read.log) as { n: number }[]).map((e) => e.n).sort((a, b) => a - b);
    expect(ns).toEqual(Array.from({ length: 80 }, (_, i) => i));
    await context.close();
  });

  it('a damaged update is named in the error; the good ones load and none is deleted', async () => {
    const { context, page } = await freshPage();
    await call(page, 'writeLog', 'g', 0, 6);
    const key = await call(page, 'corruptLast', 'g');
    await load(page, true);
    const damaged = await call(page, 'readDamaged', 'g');
    expect(damaged.keys).toEqual([key]);
    expect(damaged.error).toContain(JSON.stringify(key));
    expect(damaged.length).toBe(5);
    expect(damaged.records).toBe(6);
    await context.close();
  });
});

// The app's weight and start-up speed (issue 4): the real production build (vite.config.ts, PWA
// included) into a temporary folder, its JavaScript gzipped against the 250 KB budget, and the time
// a fresh Chromium profile takes from navigation start to the home screen being usable.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { createAppServer } from '../src/server/app';
import { APP_STRINGS } from '../src/ui/lobby/strings';
import { launchChromium } from '../tests/e2e/browser';
import { report, summarise } from './report';

const RUNS = 10;
const BUDGET_KB = 250;
const FIRST_RENDER_TARGET_MS = 1000;

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Runs in the page before any of its scripts: records, on the page's own clock (performance.now(),
 * 0 = navigation start), when the home heading first exists in the DOM, and when the games list
 * has replaced the "loading" line (the home screen is then final: a list or the "no games" line)
 * and the frame showing it is about to paint.
 */
const WATCH_HOME = `function (loading) {
  const marks = {};
  window.homeMarks = marks;
  const observer = new MutationObserver(() => {
    const heading = document.getElementById('home-title');
    if (!heading) return;
    if (marks.heading === undefined) marks.heading = performance.now();
    const home = heading.closest('.home');
    const stillLoading = Array.from(home ? home.querySelectorAll(':scope > p.muted') : []).some((p) => loading.includes(p.textContent));
    if (!stillLoading) {
      observer.disconnect();
      marks.listInDom = performance.now();
      // The frame that paints it: rAF callbacks run just before that frame's paint.
      requestAnimationFrame(() => { marks.list = performance.now(); });
    }
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}`;

interface Marks {
  heading: number;
  list: number;
}

/** Loads the home screen once in `page`; when it showed its heading and its final list. */
async function loadHome(page: Page, url: string): Promise<Marks> {
  const loading = Object.values(APP_STRINGS).map((s) => s.home.loading);
  // As source text: tsx wraps named functions in a helper the page does not have.
  await page.addInitScript(`(${WATCH_HOME})(${JSON.stringify(loading)})`);
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { homeMarks: { list?: number } }).homeMarks.list !== undefined, null, { timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  const marks = await page.evaluate(() => (window as unknown as { homeMarks: { heading: number; list: number } }).homeMarks);
  return marks;
}

/** The JS files a fresh load fetched, by path, gzipped at level 9 from the build output. */
function gzippedOf(dir: string, urls: readonly string[]): number {
  return urls.reduce((sum, u) => sum + gzipSync(readFileSync(join(dir, new URL(u).pathname))).length, 0);
}

export async function benchApp(): Promise<void> {
  const outDir = mkdtempSync(join(tmpdir(), 'pacto-bench-app-'));
  let browser: Browser | undefined;
  const server = createAppServer(outDir);
  try {
    await build({ logLevel: 'error', build: { outDir, emptyOutDir: true } });
    const assets = join(outDir, 'assets');
    const jsFiles = readdirSync(assets).filter((f) => f.endsWith('.js'));
    const raw = jsFiles.reduce((s, f) => s + readFileSync(join(assets, f)).length, 0);
    const gz = jsFiles.reduce((s, f) => s + gzipSync(readFileSync(join(assets, f))).length, 0);

    await server.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${(server.http.address() as AddressInfo).port}/`;
    try {
      browser = await launchChromium();
    } catch (e) {
      report('app: production build', [
        ['dist/assets/*.js, raw / gzipped', `${kb(raw)} / ${kb(gz)} (${jsFiles.length} files)`],
        ['first render', `skipped (${(e as Error).message})`],
      ]);
      return;
    }

    // Which JS a fresh start-up fetches (service worker precache comes after, on its own).
    const ctx0 = await browser.newContext();
    const page0 = await ctx0.newPage();
    const startupUrls: string[] = [];
    page0.on('request', (req) => {
      if (req.resourceType() === 'script' && new URL(req.url()).origin === new URL(base).origin) startupUrls.push(req.url());
    });
    await loadHome(page0, base);
    // The scripts requested before the home screen painted its list: what it waits for. The rest
    // of startupUrls is fetched after it (the identity, the practice board, the game's code).
    const beforeList = await page0.evaluate(() => {
      const list = (window as unknown as { homeMarks: { list: number } }).homeMarks.list;
      return performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime < list && new URL(e.name).pathname.endsWith('.js'))
        .map((e) => e.name);
    });
    await ctx0.close();
    const startup = [...new Set(startupUrls)];
    const startupGz = gzippedOf(outDir, startup);
    const firstGz = gzippedOf(outDir, [...new Set(beforeList)]);

    const heading: number[] = [];
    const list: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const ctx = await browser.newContext();
      const m = await loadHome(await ctx.newPage(), base);
      heading.push(m.heading);
      list.push(m.list);
      await ctx.close();
    }

    // Offline after a first visit: the service worker must serve the shell and its scripts.
    const offlineList: number[] = [];
    let offlineNote = '';
    for (let i = 0; i < RUNS; i++) {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.goto(base);
      const controlled = await page
        .evaluate(async () => {
          const reg = await navigator.serviceWorker.ready;
          if (!navigator.serviceWorker.controller) await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
          return reg.active !== null;
        })
        .catch(() => false);
      if (!controlled) {
        offlineNote = 'no service worker took control';
        await ctx.close();
        break;
      }
      await ctx.setOffline(true);
      const fresh = await ctx.newPage();
      await page.close();
      try {
        offlineList.push((await loadHome(fresh, base)).list);
      } catch (e) {
        offlineNote = (e as Error).message.split('\n')[0] ?? 'failed';
        await ctx.close();
        break;
      }
      await ctx.close();
    }

    const h = summarise(heading);
    const l = summarise(list);
    const rows: [string, string][] = [
      ['dist/assets/*.js, raw / gzipped', `${kb(raw)} / ${kb(gz)} (${jsFiles.length} files)`],
      ['JS fetched before the home screen painted its list, gzipped', `${kb(firstGz)} (${new Set(beforeList).size} files)`],
      ['JS fetched by a fresh home load (until the network is idle), gzipped', `${kb(startupGz)} (${startup.length} files)`],
      ['  files', startup.map((u) => new URL(u).pathname.replace(/^\/(assets\/)?/, '')).join(' ')],
      [`  ratio to the ${BUDGET_KB} KB budget`, (startupGz / 1024 / BUDGET_KB).toFixed(2)],
      [`  all JS, ratio to the budget`, (gz / 1024 / BUDGET_KB).toFixed(2)],
      ['nav start -> #home-title in DOM, median / p95', `${h.median.toFixed(0)} ms / ${h.p95.toFixed(0)} ms`],
      ['nav start -> games list final, painted, median / p95', `${l.median.toFixed(0)} ms / ${l.p95.toFixed(0)} ms`],
      [`  p95, ratio to the ${FIRST_RENDER_TARGET_MS} ms target`, (l.p95 / FIRST_RENDER_TARGET_MS).toFixed(2)],
    ];
    if (offlineList.length === RUNS) {
      const o = summarise(offlineList);
      rows.push(['offline after a visit: same, median / p95', `${o.median.toFixed(0)} ms / ${o.p95.toFixed(0)} ms`]);
    } else rows.push(['offline after a visit', `not measured (${offlineNote})`]);
    report(`app: production build, ${RUNS} fresh Chromium profiles on 127.0.0.1 (no throttling)`, rows);
  } finally {
    await browser?.close();
    await server.stop();
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchApp();

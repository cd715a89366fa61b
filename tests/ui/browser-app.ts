// Shared by the app's browser tests: build the app once per file, serve it like `npm start`,
// and tap on the map where a province is drawn (its unit spot), as a finger would.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { createAppServer, type AppServer } from '../../src/server/app';
import { launchChromium, ACTION_TIMEOUT_MS } from '../e2e/browser';

export const SCREENSHOTS = join(process.cwd(), 'test-output');

export interface Served {
  readonly base: string;
  readonly browser: Browser;
  close(): Promise<void>;
}

/** The app built as `npm run build` builds it, into a fresh temp dir (served by serveApp, or by a
 *  real server process given it as DIST). */
export async function buildApp(): Promise<{ readonly dir: string; remove(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'pacto-ui-'));
  await build({ logLevel: 'error', build: { outDir: dir, emptyOutDir: true } });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function serveApp(): Promise<Served> {
  const built = await buildApp();
  const outDir = built.dir;
  const server: AppServer = createAppServer(outDir);
  await server.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(server.http.address() as AddressInfo).port}/`;
  const browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
  return {
    base,
    browser,
    async close() {
      await browser.close();
      await server.signaling.close();
      await new Promise<void>((r) => server.http.close(() => r()));
      built.remove();
    },
  };
}

/** Where on the screen `loc`'s unit spot is drawn (a coast's spot for 'stp/nc'), at the current zoom. */
export function mapPointOnScreen(page: Page, loc: string): Promise<{ x: number; y: number }> {
  return page.evaluate((where) => {
    const el = document.querySelector(where.includes('/') ? `[data-loc="${where}"]` : `[data-province="${where}"]`);
    if (!el) throw new Error(`no ${where} on the map`);
    const svg = (el as SVGGraphicsElement).ownerSVGElement!;
    const p = svg.createSVGPoint();
    p.x = Number(el.getAttribute('data-x') ?? el.getAttribute('cx'));
    p.y = Number(el.getAttribute('data-y') ?? el.getAttribute('cy'));
    const s = p.matrixTransform(svg.getScreenCTM()!);
    return { x: s.x, y: s.y };
  }, loc);
}

/** Taps the screen where `loc`'s unit stands, as a finger would. */
export async function tapOnMap(page: Page, loc: string): Promise<void> {
  let at = await mapPointOnScreen(page, loc);
  // A finger taps what it sees: scroll the spot onto the screen first (a tap off the viewport is lost).
  const height = await page.evaluate(() => window.innerHeight);
  if (at.y < 0 || at.y > height) {
    await page.evaluate((dy) => window.scrollBy(0, dy), at.y - height / 2);
    at = await mapPointOnScreen(page, loc);
  }
  await page.touchscreen.tap(at.x, at.y);
}

/** Text the page shows that betrays a missing string, and controls with no accessible name. */
export async function missingStrings(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const text = document.body.innerText;
    for (const bad of ['undefined', '[object', 'NaN']) if (text.includes(bad)) problems.push(`page shows "${bad}"`);
    document.querySelectorAll('button, [role="button"], select, textarea, a').forEach((el) => {
      const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
      if (name.length === 0) problems.push(`unnamed ${el.tagName.toLowerCase()} ${el.outerHTML.slice(0, 80)}`);
    });
    return problems;
  });
}

/** A separate browser profile (no shared storage or BroadcastChannel) at phone or laptop size;
 *  `contexts` collects it so the test file closes it afterwards. */
export async function newProfile(served: Served, contexts: BrowserContext[], locale: string, size: 'phone' | 'laptop'): Promise<Page> {
  const context = await served.browser.newContext(
    size === 'phone'
      ? { locale, viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 }
      : { locale, viewport: { width: 1280, height: 800 }, hasTouch: true },
  );
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[${locale}] page error:`, e.message));
  return page;
}

// Table mode beside y-webrtc in real Chromium: the table host H is paired by QR code with guest G,
// and G is also in the game's y-webrtc room with phone W, which never meets H. Each phone sees
// every message, whichever provider carried it, in either order of connecting.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { createAppServer, type AppServer } from '../../src/server/app';
import { launchChromium } from './browser';

let outDir: string;
let server: AppServer;
let base: string;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'pacto-table-webrtc-'));
  await build({
    configFile: false,
    root: join(import.meta.dirname, 'pages/table'),
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, target: 'es2022', minify: false },
  });
  server = createAppServer(outDir);
  await server.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(server.http.address() as AddressInfo).port}/`;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await browser?.close();
  await server?.signaling.close();
  server?.http.closeAllConnections();
  await new Promise<void>((r) => (server ? server.http.close(() => r()) : r()));
  rmSync(outDir, { recursive: true, force: true });
});

async function phone(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(base);
  await page.waitForFunction(() => 'table' in window);
  return page;
}

const photograph = async (p: Page) => (await p.screenshot({ type: 'png' })).toString('base64');
const heard = (p: Page) => p.evaluate(() => window.table.heard());
const say = (p: Page, text: string) => p.evaluate((t) => window.table.say(t), text);

describe('table mode beside y-webrtc in Chromium', () => {
  it('a table phone and a y-webrtc phone see the same game through a phone on both', async () => {
    const [h, g, w] = [await phone(), await phone(), await phone()];
    const signaling = base.replace('http', 'ws');
    const room = ['table-webrtc-game', 'a-room-password-of-enough-length', signaling] as const;

    // G and W meet over y-webrtc first; H plays alone at the table meanwhile.
    await g.evaluate((r) => window.table.connectWebrtc(...r), room);
    await w.evaluate((r) => window.table.connectWebrtc(...r), room);
    await expect.poll(() => w.evaluate(() => window.table.webrtcPeers()), { timeout: 30_000 }).toBe(1);
    await say(w, 'from webrtc, before');
    await say(h, 'from the table, before');
    await expect.poll(() => heard(g), { timeout: 15_000 }).toEqual(['from webrtc, before']);

    // Then G pairs with H by QR codes.
    await h.evaluate(() => window.table.becomeHost());
    await h.evaluate(() => window.table.invite());
    await g.evaluate((png) => window.table.scan(png), await photograph(h));
    await h.evaluate((png) => window.table.scan(png), await photograph(g));

    const before = ['from the table, before', 'from webrtc, before'];
    for (const p of [h, g, w]) await expect.poll(() => heard(p), { timeout: 30_000 }).toEqual(before);

    await say(h, 'from the table, after');
    await say(w, 'from webrtc, after');
    const all = [...before, 'from the table, after', 'from webrtc, after'].sort();
    for (const p of [h, g, w]) await expect.poll(() => heard(p), { timeout: 15_000 }).toEqual(all);
    // W never linked to H: the messages went through G's two providers.
    expect(await w.evaluate(() => window.table.status().peers)).toBe(0);
    expect(await h.evaluate(() => window.table.webrtcPeers())).toBe(0);
  }, 90_000);
});

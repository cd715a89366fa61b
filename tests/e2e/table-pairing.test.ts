// Table mode in real Chromium with no server at all: phones pair by photographing each other's QR
// codes (a screenshot of one page is the camera frame the other decodes with jsqr), then play a
// phase over WebRTC; a third phone joins the host and gets everything through the host's relay.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { launchChromium } from './browser';
import { LocalApp } from './local-app';

let outDir: string;
let app: LocalApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'pacto-table-'));
  await build({
    configFile: false,
    root: join(import.meta.dirname, 'pages/table'),
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, target: 'es2022', minify: false },
  });
  app = new LocalApp(outDir);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await browser?.close();
  await app?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

async function openPhones(n: number): Promise<Page[]> {
  const base = await app.start();
  const pages: Page[] = [];
  for (let i = 0; i < n; i++) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(base);
    await page.waitForFunction(() => 'table' in window);
    pages.push(page);
  }
  return pages;
}

/** What a camera pointed at the phone's screen sees. */
async function photograph(page: Page): Promise<string> {
  return (await page.screenshot({ type: 'png' })).toString('base64');
}

async function pair(host: Page, guest: Page): Promise<{ offer: { bytes: number; version: number }; answer: { bytes: number; version: number } }> {
  const offer = await host.evaluate(() => window.table.invite());
  const answer = await guest.evaluate((png) => window.table.scan(png), await photograph(host));
  await host.evaluate((png) => window.table.scan(png), await photograph(guest));
  await expect.poll(() => guest.evaluate(() => window.table.status().events), { timeout: 30_000 }).toContain('joined');
  return { offer, answer };
}

const heard = (p: Page) => p.evaluate(() => window.table.heard());
const say = (p: Page, text: string) => p.evaluate((t) => window.table.say(t), text);

describe('table mode in Chromium', () => {
  it('pairs by QR codes with no server, plays a phase, and relays to a second guest', async () => {
    const [host, guest1, guest2] = await openPhones(3);
    // From here on there is no signaling server and no HTTP server: only the phones.
    await app.stop();
    await host!.evaluate(() => window.table.becomeHost());

    const sizes = await pair(host!, guest1!);
    expect(sizes.offer.version).toBeLessThanOrEqual(6);
    expect(sizes.answer.version).toBeLessThanOrEqual(6);
    console.info(`table pairing codes: offer ${JSON.stringify(sizes.offer)}, answer ${JSON.stringify(sizes.answer)}`);
    await expect.poll(() => host!.evaluate(() => window.table.status().synced), { timeout: 15_000 }).toBe(1);

    // A phase: both phones post their messages and each sees the other's.
    await say(host!, 'spring 1901: commit france');
    await say(guest1!, 'spring 1901: commit germany');
    await say(guest1!, 'spring 1901: reveal germany');
    await say(host!, 'spring 1901: reveal france');
    const phase = ['spring 1901: commit france', 'spring 1901: commit germany', 'spring 1901: reveal france', 'spring 1901: reveal germany'];
    await expect.poll(() => heard(host!), { timeout: 15_000 }).toEqual(phase);
    await expect.poll(() => heard(guest1!), { timeout: 15_000 }).toEqual(phase);

    // A long game's worth of log (about 800 KiB, far over what one data-channel message carries).
    await host!.evaluate(() => window.table.sayMany('history', 400, 2000));
    await expect.poll(() => guest1!.evaluate(() => window.table.count()), { timeout: 30_000 }).toBe(404);

    // A second guest pairs with the host only and gets everything through it...
    await pair(host!, guest2!);
    await expect.poll(() => guest2!.evaluate(() => window.table.count()), { timeout: 30_000 }).toBe(404);
    expect(await heard(guest2!)).toEqual(await heard(host!));
    // ...and what it says reaches the first guest through the host's relay.
    await say(guest2!, 'spring 1901: commit italy');
    await expect.poll(() => guest1!.evaluate(() => window.table.count()), { timeout: 15_000 }).toBe(405);
    expect(await heard(guest1!)).toContain('spring 1901: commit italy');
    expect(await host!.evaluate(() => window.table.status().peers)).toBe(2);
    expect(await guest1!.evaluate(() => window.table.status().peers)).toBe(1);
    for (const p of [host!, guest1!, guest2!]) {
      expect((await p.evaluate(() => window.table.status().events)).filter((e) => e.includes('fail') || e.includes('error'))).toEqual([]);
    }
  }, 90_000);
});

// The whole pairing as phones do it, camera included: Chromium's fake camera plays a picture of the
// other phone's screen (the host's offer, then the guest's answer), and each page finds the QR code
// in its camera frames. No server is running once the pages are loaded.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { CHROMIUM_FLAGS, chromiumPath } from './browser';
import { FakeCamera, LocalApp } from './local-app';

let dir: string;
let camera: FakeCamera;
let app: LocalApp;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pacto-table-camera-'));
  camera = new FakeCamera(join(dir, 'camera.y4m'));
  const outDir = join(dir, 'app');
  await build({
    configFile: false,
    root: join(import.meta.dirname, 'pages/table'),
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, target: 'es2022', minify: false },
  });
  app = new LocalApp(outDir);
  await app.start();
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: [...CHROMIUM_FLAGS, ...camera.flags] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Points the (one, shared) fake camera at a phone's screen. */
async function aimCameraAt(page: Page): Promise<void> {
  const png = (await page.screenshot({ type: 'png' })).toString('base64');
  const { width, height, y } = await page.evaluate((p) => window.table.luma(p), png);
  camera.show(width, height, Buffer.from(y, 'base64'));
}

describe('table pairing through the camera', () => {
  it("host and guest pair by showing their QR codes to each other's camera", async () => {
    const base = app.base;
    const phones: Page[] = [];
    for (let i = 0; i < 2; i++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, permissions: ['camera'] });
      const page = await context.newPage();
      await page.goto(base);
      await page.waitForFunction(() => 'table' in window);
      phones.push(page);
    }
    const [host, guest] = phones as [Page, Page];
    await app.stop();

    await host.evaluate(() => window.table.becomeHost());
    const offer = await host.evaluate(() => window.table.invite());
    await aimCameraAt(host);
    const answer = await guest.evaluate(() => window.table.scanCamera());
    await aimCameraAt(guest);
    const scanned = await host.evaluate(() => window.table.scanCamera());
    expect(scanned).toEqual(answer);
    console.info(`camera pairing codes: offer ${JSON.stringify(offer)}, answer ${JSON.stringify(answer)}`);
    await expect.poll(() => guest.evaluate(() => window.table.status().events), { timeout: 30_000 }).toContain('joined');

    await host.evaluate(() => window.table.say('autumn 1901: commit england'));
    await guest.evaluate(() => window.table.say('autumn 1901: commit russia'));
    const phase = ['autumn 1901: commit england', 'autumn 1901: commit russia'];
    for (const p of phones) await expect.poll(() => p.evaluate(() => window.table.heard()), { timeout: 15_000 }).toEqual(phase);
  }, 90_000);
});

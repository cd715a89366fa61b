// The whole pairing as phones do it, camera included: Chromium's fake camera plays a picture of the
// other phone's screen (the host's offer, then the guest's answer), and each page finds the QR code
// in its camera frames. No server is running once the pages are loaded.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build } from 'vite';
import { createAppServer, type AppServer } from '../../scripts/app-server';
import { stopAppServer } from './app-server-stop';
import { CHROMIUM_FLAGS, chromiumPath } from './browser';

let dir: string;
let camera: string;
let server: AppServer | undefined;
let browser: Browser;

/** One still picture as a Y4M video (4:2:0, grey), which the fake camera plays in a loop. */
function writeCamera(width: number, height: number, y: Uint8Array): void {
  const chroma = new Uint8Array((width / 2) * (height / 2) * 2).fill(128);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\nFRAME\n`);
  writeFileSync(camera, Buffer.concat([header, y, chroma]));
}

async function stopServer(): Promise<void> {
  if (!server) return;
  const s = server;
  server = undefined;
  await stopAppServer(s);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pacto-table-camera-'));
  camera = join(dir, 'camera.y4m');
  writeCamera(320, 240, new Uint8Array(320 * 240).fill(200));
  const outDir = join(dir, 'app');
  await build({
    configFile: false,
    root: join(import.meta.dirname, 'pages/table'),
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, target: 'es2022', minify: false },
  });
  server = createAppServer(outDir);
  const s = server;
  await new Promise<void>((r) => s.http.listen(0, '127.0.0.1', r));
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      ...CHROMIUM_FLAGS,
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${camera}`,
    ],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stopServer();
  rmSync(dir, { recursive: true, force: true });
});

/** Points the (one, shared) fake camera at a phone's screen. */
async function aimCameraAt(page: Page): Promise<void> {
  const png = (await page.screenshot({ type: 'png' })).toString('base64');
  const { width, height, y } = await page.evaluate((p) => window.table.luma(p), png);
  writeCamera(width, height, Buffer.from(y, 'base64'));
}

describe('table pairing through the camera', () => {
  it('host and guest pair by showing their QR codes to each other\'s camera', async () => {
    const base = `http://127.0.0.1:${(server!.http.address() as AddressInfo).port}/`;
    const phones: Page[] = [];
    for (let i = 0; i < 2; i++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, permissions: ['camera'] });
      const page = await context.newPage();
      await page.goto(base);
      await page.waitForFunction(() => 'table' in window);
      phones.push(page);
    }
    const [host, guest] = phones as [Page, Page];
    await stopServer();

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

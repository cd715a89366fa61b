// What `npm start` serves: the built PWA renders the starting board from the rules engine, in both
// languages, and registers a service worker. Built and served for real, seen in real Chromium.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { createAppServer, type AppServer } from '../../scripts/app-server';
import { STARTING_POSITION } from '../../src/rules';
import { launchChromium } from './browser';

let outDir: string;
let server: AppServer;
let browser: Browser;
let base: string;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'pacto-build-'));
  await build({ logLevel: 'error', build: { outDir, emptyOutDir: true } });
  server = createAppServer(outDir);
  await new Promise<void>((r) => server.http.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.http.address() as AddressInfo).port}/`;
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.signaling.close();
  await new Promise<void>((r) => (server ? server.http.close(() => r()) : r()));
  rmSync(outDir, { recursive: true, force: true });
});

describe('start page in Chromium', () => {
  it('shows every starting unit, in Spanish and then in English', async () => {
    const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(base);
    await expect.poll(() => page.locator('li[data-loc]').count()).toBe(STARTING_POSITION.units.length);
    await expect.poll(() => page.locator('li[data-loc="stp/sc"]').textContent()).toContain('San Petersburgo');
    expect(await page.locator('section[data-power="russia"] h3').textContent()).toContain('Rusia');
    await page.getByLabel('Idioma').selectOption('en');
    await expect.poll(() => page.locator('li[data-loc="stp/sc"]').textContent()).toContain('south coast');
    expect(await page.locator('section[data-power="russia"] h3').textContent()).toContain('4 centres');
    await context.close();
  });

  it('registers a service worker so the app loads offline', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(base);
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(base);
    await context.close();
  });
});

// What `npm start` serves: the practice board with the starting units drawn from the rules
// engine, named in Spanish and in English, and a service worker so the app loads offline.
// Built and served for real, seen in real Chromium.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STARTING_POSITION, STANDARD_MAP, provinceOf } from '../../src/rules';
import { serveApp, type Served } from '../ui/browser-app';

let served: Served;

beforeAll(async () => {
  served = await serveApp();
}, 180_000);

afterAll(async () => {
  await served?.close();
});

describe('start page in Chromium', () => {
  it('shows every starting unit, in Spanish and then in English', async () => {
    const context = await served.browser.newContext({ locale: 'es-ES', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(served.base);
    await expect.poll(() => page.locator('.units .unit').count()).toBe(STARTING_POSITION.units.length);
    const label = (province: string) => page.locator(`[data-province="${province}"]`).getAttribute('aria-label');
    for (const u of STARTING_POSITION.units) {
      const p = provinceOf(u.loc);
      const shown = await label(p);
      expect(shown).toContain(STANDARD_MAP.provinces[p]!.name.es);
      expect(shown).toContain(u.type === 'A' ? 'Ejército' : 'Flota');
    }
    expect(await label('stp')).toContain('San Petersburgo');
    expect(await page.locator('.attribution').textContent()).toContain('Martin Asal');
    await page.getByLabel('Idioma').selectOption('en');
    await expect.poll(() => label('stp')).toBe('St Petersburg: Fleet, Russia');
    for (const u of STARTING_POSITION.units) expect(await label(provinceOf(u.loc))).toContain(u.type === 'A' ? 'Army' : 'Fleet');
    expect(await page.locator('.attribution').textContent()).toContain('Map based on Diplomacy.svg by Martin Asal, CC BY-SA 3.0 DE');
    await context.close();
  });

  it('registers a service worker so the app loads offline', async () => {
    const context = await served.browser.newContext();
    const page = await context.newPage();
    await page.goto(served.base);
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(served.base);
    await context.close();
  });
});

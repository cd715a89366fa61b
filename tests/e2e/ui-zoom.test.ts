// Pinch-zoom and pan on the board with real touch input in Chromium, and the zoom buttons.
// A pan must not count as a tap on the province under the finger.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { neighbourInDirection, type Arrow } from '../../src/ui/map/keys';
import { SCREENSHOTS, mapPointOnScreen, serveApp, type Served } from '../ui/browser-app';
import { ACTION_TIMEOUT_MS } from './browser';

let served: Served;

beforeAll(async () => {
  served = await serveApp();
}, 180_000);

afterAll(async () => {
  await served?.close();
});

const viewBox = async (page: Page): Promise<number[]> => ((await page.locator('svg.board-svg').getAttribute('viewBox')) ?? '').split(' ').map(Number);

describe('board zoom and pan', () => {
  it('zooms with two fingers, pans with one, and a pan is not a tap', async () => {
    const context = await served.browser.newContext({ locale: 'en-GB', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const page = await context.newPage();
    await page.goto(served.base);
    await page.waitForSelector('[data-province="par"]');
    const box = (await page.locator('svg.board-svg').boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const cdp = await context.newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: Array<{ x: number; y: number }>) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((p, id) => ({ x: p.x, y: p.y, id })) });

    const [, , fullWidth] = await viewBox(page);
    await touch('touchStart', [
      { x: cx - 20, y: cy },
      { x: cx + 20, y: cy },
    ]);
    for (let d = 30; d <= 80; d += 10)
      await touch('touchMove', [
        { x: cx - d, y: cy },
        { x: cx + d, y: cy },
      ]);
    await touch('touchEnd', []);
    const zoomed = await viewBox(page);
    expect(zoomed[2]!).toBeLessThan(fullWidth! / 2);

    await touch('touchStart', [{ x: cx, y: cy }]);
    for (let d = 10; d <= 80; d += 10) await touch('touchMove', [{ x: cx + d, y: cy + d / 2 }]);
    await touch('touchEnd', []);
    const panned = await viewBox(page);
    expect(panned[0]!).toBeLessThan(zoomed[0]!);
    expect(panned[2]).toBe(zoomed[2]);
    expect(await page.locator('[data-selected]').count()).toBe(0); // the pan selected nothing
    await page.screenshot({ path: join(SCREENSHOTS, 'ui-zoomed.png') });

    // Taps still work on the zoomed map (through the same touch channel as the gestures).
    const ber = await mapPointOnScreen(page, 'ber');
    expect(ber.y).toBeGreaterThan(box.y);
    expect(ber.y).toBeLessThan(box.y + box.height);
    // A finger that lands while the pan is still settling only stops it (Chromium's fling), so
    // let it settle as a player would.
    await page.waitForTimeout(400);
    await touch('touchStart', [ber]);
    await touch('touchEnd', []);
    await expect.poll(() => page.locator('[data-selected]').getAttribute('data-selected')).toBe('ber');

    await page.getByRole('button', { name: 'Show the whole map' }).click();
    expect((await viewBox(page))[2]).toBe(fullWidth);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect((await viewBox(page))[2]!).toBeLessThan(fullWidth!);
    await page.getByRole('button', { name: 'Zoom out' }).click();
    expect((await viewBox(page))[2]).toBeCloseTo(fullWidth!);
    await context.close();
  });
});

describe('board controls and keys', () => {
  it('keeps the zoom buttons off the map: zoomed in and panned east, the army in Moscow under the old "−" button is tapped', async () => {
    const context = await served.browser.newContext({ locale: 'en-GB', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const page = await context.newPage();
    await page.goto(served.base);
    await page.waitForSelector('[data-province="par"]');
    const svg = page.locator('svg.board-svg');
    await svg.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    // Every control of the board lies outside the map's box.
    const map = (await svg.boundingBox())!;
    for (const b of await page.locator('.board button').all()) {
      const box = (await b.boundingBox())!;
      const overlaps = box.x < map.x + map.width && box.x + box.width > map.x && box.y < map.y + map.height && box.y + box.height > map.y;
      expect(overlaps, (await b.getAttribute('aria-label')) ?? '').toBe(false);
    }
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    // Drag the map until Moscow's army stands where the old "−" button was (top right of the map).
    const cdp = await context.newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: Array<{ x: number; y: number }>) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((p, id) => ({ x: p.x, y: p.y, id })) });
    const under = { x: map.x + map.width - 26, y: map.y + 66 };
    const from = { x: map.x + map.width / 2, y: map.y + map.height / 2 };
    const before = await mapPointOnScreen(page, 'mos');
    await touch('touchStart', [from]);
    for (let k = 1; k <= 10; k++) await touch('touchMove', [{ x: from.x + ((under.x - before.x) * k) / 10, y: from.y + ((under.y - before.y) * k) / 10 }]);
    await touch('touchEnd', []);
    await page.waitForTimeout(400);
    const mos = await mapPointOnScreen(page, 'mos');
    expect(Math.abs(mos.x - under.x)).toBeLessThan(12);
    expect(Math.abs(mos.y - under.y)).toBeLessThan(12);
    await touch('touchStart', [mos]);
    await touch('touchEnd', []);
    await expect.poll(() => page.locator('[data-selected]').getAttribute('data-selected')).toBe('mos');
    await page.screenshot({ path: join(SCREENSHOTS, 'ui-zoomed-moscow.png') });
    await context.close();
  });

  it("draws no labels at the phone's default view, labels 9 to 15 px tall once zoomed in, and names the tapped province under the map", async () => {
    const context = await served.browser.newContext({ locale: 'en-GB', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const page = await context.newPage();
    await page.goto(served.base);
    await page.waitForSelector('[data-province="par"]');
    await page.locator('svg.board-svg').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    // Each label's height on screen: its font size in map units times the map's scale.
    const labelPx = () =>
      page
        .locator('svg.board-svg .labels text')
        .evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize) * ((e as SVGGraphicsElement).getScreenCTM()?.a ?? 0)));
    expect(await labelPx()).toEqual([]);
    // A tap names the province in the bar under the map instead.
    const par = await mapPointOnScreen(page, 'par');
    await page.touchscreen.tap(par.x, par.y);
    await expect.poll(() => page.locator('.board-caption').getAttribute('data-caption')).toBe('par');
    expect(await page.locator('.board-caption').innerText()).toBe('Paris');
    // At every zoom step the labels are readable or absent; zoomed in all the way, every province has one.
    let sizes: number[] = [];
    for (let zooms = 1; zooms <= 4; zooms++) {
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
      sizes = await labelPx();
      for (const px of sizes) {
        expect(px, `a label after ${zooms} zoom steps`).toBeGreaterThanOrEqual(9 - 0.01);
        expect(px, `a label after ${zooms} zoom steps`).toBeLessThanOrEqual(15 + 0.01);
      }
    }
    expect(sizes.length).toBe(
      await page.locator('svg.board-svg [data-province]').evaluateAll((els) => new Set(els.map((e) => e.getAttribute('data-province'))).size),
    );
    await context.close();
  });

  it('is one stop in the Tab order; arrow keys walk to Paris and Enter selects it', async () => {
    const context = await served.browser.newContext({ locale: 'en-GB', viewport: { width: 390, height: 844 } });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const page = await context.newPage();
    await page.goto(served.base);
    await page.waitForSelector('[data-province="par"]');
    // Only one province of the map takes Tab focus.
    expect(await page.locator('.board-svg [data-province][tabindex="0"]').count()).toBe(1);
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-province') ?? null);
    let tabs = 0;
    while ((await focused()) === null && tabs < 20) {
      await page.keyboard.press('Tab');
      tabs++;
    }
    expect(tabs).toBeLessThanOrEqual(10);
    // The shortest walk by arrows from where the map was entered (the keys' own rule finds it).
    const start = (await focused())!;
    const arrows: Arrow[] = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'];
    const route = new Map<string, Arrow[]>([[start, []]]);
    const queue = [start];
    for (let i = 0; i < queue.length && !route.has('par'); i++) {
      for (const a of arrows) {
        const next = neighbourInDirection(queue[i]!, a);
        if (!route.has(next)) {
          route.set(next, [...route.get(queue[i]!)!, a]);
          queue.push(next);
        }
      }
    }
    const keys = route.get('par')!;
    expect(keys.length).toBeLessThanOrEqual(15);
    for (const k of keys) await page.keyboard.press(k);
    expect(await focused()).toBe('par');
    await expect.poll(() => page.locator('.board-caption').textContent()).toBe('Paris');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-selected]').getAttribute('data-selected')).toBe('par');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-selected]').count()).toBe(0);
    await context.close();
  });
});

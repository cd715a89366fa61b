// Pinch-zoom and pan on the board with real touch input in Chromium, and the zoom buttons.
// A pan must not count as a tap on the province under the finger.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENSHOTS, mapPointOnScreen, serveApp, type Served } from '../ui/browser-app';

let served: Served;

beforeAll(async () => {
  served = await serveApp();
}, 180_000);

afterAll(async () => {
  await served?.close();
});

const viewBox = async (page: Page): Promise<number[]> =>
  ((await page.locator('svg.board-svg').getAttribute('viewBox')) ?? '').split(' ').map(Number);

describe('board zoom and pan', () => {
  it('zooms with two fingers, pans with one, and a pan is not a tap', async () => {
    const context = await served.browser.newContext({ locale: 'en-GB', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    context.setDefaultTimeout(5_000);
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
    await touch('touchStart', [{ x: cx - 20, y: cy }, { x: cx + 20, y: cy }]);
    for (let d = 30; d <= 80; d += 10) await touch('touchMove', [{ x: cx - d, y: cy }, { x: cx + d, y: cy }]);
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

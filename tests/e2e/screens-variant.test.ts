// The Game tab under the "1914" rules in real Chromium (harness page tests/e2e/pages/screens):
// the variant panel names the variant and its seats, and France declares an alliance with
// England by keyboard-usable controls; it stands only when England declares it too.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SCREEN_STRINGS } from '../../src/ui/game/screens/strings';
import { launchChromium, ACTION_TIMEOUT_MS } from './browser';
import { startScreensPage, type ScreensPage } from './pages/screens/serve';
import { SCREENSHOTS, missingStrings } from '../ui/browser-app';

let site: ScreensPage;
let browser: Browser;

beforeAll(async () => {
  site = await startScreensPage();
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const LAPTOP = { viewport: { width: 1280, height: 800 } };

async function gameTab(page: Page, query: string): Promise<void> {
  await page.goto(`${site.base}?${query}`);
  await page.waitForSelector('.game-screen');
  await page.click('[data-tab="game"]');
  await page.waitForSelector('.variant-panel');
}

describe('variant panel and alliances', { timeout: 90_000 }, () => {
  for (const [lang, size, name] of [
    ['en', PHONE, 'phone'],
    ['es', LAPTOP, 'laptop'],
  ] as const) {
    it(`shows the 1914 variant and its seats, and declares an alliance (${lang}, ${name})`, async () => {
      const context = await browser.newContext(size);
      context.setDefaultTimeout(ACTION_TIMEOUT_MS);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const s = SCREEN_STRINGS[lang];
      await gameTab(page, `as=2&lang=${lang}&variant=1914`);
      expect(await page.locator('.variant-panel').getAttribute('data-variant')).toBe('1914');
      expect(await page.locator('[data-seats]').getAttribute('data-seats')).toBe('7');
      expect(await page.locator('[data-alliances]').first().getAttribute('data-alliances')).toBe('0');
      // Declaring with nobody chosen says why; then choose England with the keyboard.
      await page.click('[data-action="alliance-declare"]');
      await expect.poll(() => page.locator('.alliances [role="status"]').innerText()).toBe(s.allianceNeedsTwo);
      await page.focus('[data-alliance-member="england"]');
      await page.keyboard.press('Space');
      expect(await page.locator('[data-alliance-member="england"]').isChecked()).toBe(true);
      await page.click('[data-action="alliance-declare"]');
      await expect.poll(() => page.locator('.alliances [role="status"]').innerText()).toBe(s.allianceDeclared);
      // England (a bot here) has not declared it: no alliance stands yet.
      expect(await page.locator('[data-alliances]').first().getAttribute('data-alliances')).toBe('0');
      expect(await missingStrings(page)).toEqual([]);
      await page.screenshot({ path: join(SCREENSHOTS, `screens-variant-1914-${name}-${lang}.png`), fullPage: true });
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});

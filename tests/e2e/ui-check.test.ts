// Every screen of the app at 390×844 (touch) and at laptop size, in Spanish and English, checked as
// a finger and an eye meet it (tests/e2e/layout.ts): no control under 44×44 px, none overlapping
// another, no text cut off, no horizontal scroll. The outer screens and the lobby run in the built
// app; the in-game screens on the screens harness (a game over the real protocol). A screenshot of
// each goes to test-output/screens/ for review. Also: the built manifest's PNG icons.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { checkLayout } from './layout';
import { startScreensPage, type ScreensPage } from './pages/screens/serve';
import { SCREENSHOTS, missingStrings, serveApp, tapOnMap, type Served } from '../ui/browser-app';
import { ACTION_TIMEOUT_MS } from './browser';

let served: Served;
let site: ScreensPage;
const SHOTS = join(SCREENSHOTS, 'screens');

beforeAll(async () => {
  served = await serveApp();
  site = await startScreensPage();
  mkdirSync(SHOTS, { recursive: true });
}, 240_000);

afterAll(async () => {
  await served?.close();
  await site?.stop();
});

const SIZES = {
  phone: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 },
  laptop: { viewport: { width: 1280, height: 800 }, hasTouch: true },
} as const;
type Size = keyof typeof SIZES;
const LANGS = [
  ['es', 'es-ES'],
  ['en', 'en-GB'],
] as const;

/** Checks the page as it stands and keeps a screenshot; returns the problems, named by screen. */
async function look(page: Page, screen: string, lang: string, size: Size): Promise<string[]> {
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
  const problems = (await checkLayout(page)).map((p) => `${screen} ${lang} ${size}: ${p.kind} ${p.what}`);
  const missing = (await missingStrings(page)).map((m) => `${screen} ${lang} ${size}: ${m}`);
  await page.screenshot({ path: join(SHOTS, `${screen}-${lang}-${size}.png`), fullPage: true });
  return [...problems, ...missing];
}

async function context(locale: string, size: Size): Promise<BrowserContext> {
  const c = await served.browser.newContext({ locale, ...SIZES[size] });
  c.setDefaultTimeout(ACTION_TIMEOUT_MS);
  return c;
}

describe('every screen, both languages, phone and laptop', { timeout: 240_000 }, () => {
  for (const [lang, locale] of LANGS) {
    for (const size of ['phone', 'laptop'] as const) {
      it(`outer screens and the lobby (${lang}, ${size})`, async () => {
        const c = await context(locale, size);
        const page = await c.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        const found: string[] = [];
        const visit = async (route: string, ready: string) => {
          await page.goto(`${served.base}${route}`);
          await page.waitForSelector(ready);
        };
        await visit('#/', '[data-province="par"]');
        found.push(...(await look(page, 'home', lang, size)));
        // The practice board with a unit selected: the actions under the map.
        await page.locator('svg.board-svg').scrollIntoViewIfNeeded();
        await tapOnMap(page, 'lon');
        await page.waitForSelector('[data-selected]');
        found.push(...(await look(page, 'practice-selected', lang, size)));
        await visit('#/new', 'form.form');
        found.push(...(await look(page, 'new-game', lang, size)));
        // Every field the form can show: chosen seats, deadlines, short game, the Advanced section.
        await page.locator('input[name="assignment"][value="choice"]').check();
        await page.locator('input[name="kind"][value="weekend"]').check();
        await page.locator('input[name="short"]').check();
        await page.locator('[data-action="advanced"]').click();
        found.push(...(await look(page, 'new-game-all', lang, size)));
        // No two fields share a label (the short game's checkbox and year did).
        const labels = await page
          .locator('form.form label')
          .evaluateAll((els) => els.map((e) => (e.firstChild?.textContent ?? '').trim() || (e.textContent ?? '').trim()));
        expect(labels.length).toBeGreaterThan(10);
        expect(labels.filter((l, i) => labels.indexOf(l) !== i)).toEqual([]);
        await visit('#/join', '.join textarea');
        found.push(...(await look(page, 'join', lang, size)));
        await visit('#/settings', '.settings form');
        await page.locator('[data-action="advanced"]').click();
        found.push(...(await look(page, 'settings', lang, size)));
        // The creator's lobby of a game with seats chosen.
        await visit('#/new', 'form.form');
        await page.locator('input[name="name"]').fill(lang === 'es' ? 'Lucía' : 'Lucy');
        await page.locator('select[name="seats"]').selectOption('3');
        await page.locator('input[name="assignment"][value="choice"]').check();
        await page.locator('[data-action="create-game"]').click();
        await page.waitForSelector('input.invite-link');
        found.push(...(await look(page, 'lobby-creator', lang, size)));
        // The name is offered again on the next new game, in the same visit.
        await visit('#/new', 'form.form');
        await expect.poll(() => page.locator('input[name="name"]').inputValue()).toBe(lang === 'es' ? 'Lucía' : 'Lucy');
        // Home with that game listed.
        await visit('#/', '.games li');
        found.push(...(await look(page, 'home-games', lang, size)));
        // The practice board played on to a retreat: Venice's army dislodged.
        const t =
          lang === 'es'
            ? { type: 'Escribir órdenes', text: 'Texto de las órdenes', add: 'Añadir órdenes', go: 'Resolver' }
            : { type: 'Type orders', text: 'Order text', add: 'Add orders', go: 'Adjudicate' };
        for (const orders of ['Austria: A Vie - Tyr', 'Austria: F Tri - Ven; A Tyr S F Tri - Ven']) {
          if (!(await page.getByLabel(t.text).isVisible())) await page.getByText(t.type).click();
          await page.getByLabel(t.text).fill(orders);
          await page.getByRole('button', { name: t.add }).click();
          await page.getByRole('button', { name: t.go }).click();
          await page.locator('[data-action="next-phase"]').click();
        }
        await expect.poll(() => page.locator('.practice .phase').getAttribute('data-phase')).toBe('fall-1901-retreat');
        await page.locator('.unit.dislodged').click();
        await page.waitForSelector('[data-selected]');
        found.push(...(await look(page, 'practice-retreat', lang, size)));
        expect(found).toEqual([]);
        expect(errors).toEqual([]);
        await c.close();
      });

      it(`in-game screens (${lang}, ${size})`, async () => {
        const c = await context(locale, size);
        const found: string[] = [];
        const errors: string[] = [];
        const open = async (query: string): Promise<Page> => {
          const page = await c.newPage();
          page.on('pageerror', (e) => errors.push(e.message));
          await page.goto(`${site.base}?lang=${lang}&${query}`);
          await page.waitForSelector('.game-screen');
          return page;
        };
        const tab = (page: Page, id: string) => page.click(`[data-tab="${id}"]`);
        const page = await open('as=2&played=3');
        found.push(...(await look(page, 'game-board', lang, size)));
        await page.locator('svg.board-svg').scrollIntoViewIfNeeded();
        // One of France's units, wherever three random phases left it.
        const unit = await page.evaluate(() => {
          const h = (window as unknown as { harness: { world: { view(): { current?: { position: { units: { power: string; loc: string }[] } } } } } }).harness;
          return h.world.view().current!.position.units.find((u) => u.power === 'france')!.loc;
        });
        await tapOnMap(page, unit);
        await page.waitForSelector('[data-selected]');
        found.push(...(await look(page, 'game-board-selected', lang, size)));
        // Hold: an order in the list, with its ✕.
        await page.locator('.entry-panel [data-action="hold"]').click();
        await page.waitForSelector('.order-list li button');
        await page.click('[data-action="seal"]');
        found.push(...(await look(page, 'game-seal-summary', lang, size)));
        await page.click('[data-action="confirm-seal"]');
        await page.waitForSelector('.sealed-note');
        found.push(...(await look(page, 'game-sealed', lang, size)));
        await tab(page, 'results');
        found.push(...(await look(page, 'game-results', lang, size)));
        await tab(page, 'history');
        found.push(...(await look(page, 'game-history', lang, size)));
        await page.locator('[data-action="practice-open"]').first().click();
        found.push(...(await look(page, 'game-history-practice', lang, size)));
        await tab(page, 'press');
        found.push(...(await look(page, 'game-press', lang, size)));
        await page.locator('[data-recipient]').first().check();
        await page.fill('.chat-input textarea', lang === 'es' ? '¿Hablamos de Bélgica?' : 'Shall we talk about Belgium?');
        await page.click('[data-action="send-chat"]');
        await page.waitForSelector('[data-thread-open]');
        found.push(...(await look(page, 'game-press-thread', lang, size)));
        await tab(page, 'game');
        await page.click('[data-action="concede"]');
        found.push(...(await look(page, 'game-game', lang, size)));
        await page.close();
        // Winter: builds and removals, for France and as the others see it.
        // 1901 by a written opening (fake-world OPENING_1901): France builds three, its free home
        // centres lit; Austria removes one.
        const winter = await open('as=2&opening&until=adjustment');
        found.push(...(await look(winter, 'game-winter', lang, size)));
        expect((await winter.locator('.province.target').evaluateAll((els) => els.map((e) => e.getAttribute('data-province')))).sort()).toEqual([
          'bre',
          'mar',
          'par',
        ]);
        // A coastal centre: army or fleet, picked from a list.
        await winter.locator('svg.board-svg').scrollIntoViewIfNeeded();
        await tapOnMap(winter, 'bre');
        await winter.waitForSelector('.options button');
        found.push(...(await look(winter, 'game-winter-choose', lang, size)));
        await winter.close();
        // The end of a game: a draw voted by everyone. The bots re-seal with their yes first: under
        // protocol v2 the phase's orders are fixed once every power has sealed, so France's yes
        // (a seal) must come last, as in screens-flow's draw test.
        const over = await open('as=2&played=4&solo');
        await tab(over, 'game');
        await over.click('[data-dev="bots-draw"]');
        await over.click('[data-action="draw-yes"]');
        await over.waitForSelector('.game-result');
        found.push(...(await look(over, 'game-over', lang, size)));
        await over.close();
        // A phase this phone takes no part in, and the centre chart of a single year.
        const one = await open('as=1&played=0&bots=0');
        await tab(one, 'game');
        found.push(...(await look(one, 'game-one-year', lang, size)));
        expect(await one.locator('.centre-chart .bar').count()).toBe(7);
        expect(found).toEqual([]);
        expect(errors).toEqual([]);
        await c.close();
      });
    }
  }
});

describe('the built app', () => {
  it('has PNG icons in its manifest and an apple-touch-icon, each the size it says', async () => {
    const manifest = (await (await fetch(`${served.base}manifest.webmanifest`)).json()) as {
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    const pngs = manifest.icons.filter((i) => i.type === 'image/png');
    expect(pngs.map((i) => `${i.sizes} ${i.purpose ?? 'any'}`).sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    const size = async (src: string): Promise<string> => {
      const b = Buffer.from(await (await fetch(`${served.base}${src}`)).arrayBuffer());
      expect(b.subarray(1, 4).toString('latin1')).toBe('PNG');
      return `${b.readUInt32BE(16)}x${b.readUInt32BE(20)}`;
    };
    for (const i of pngs) expect(await size(i.src)).toBe(i.sizes);
    const html = await (await fetch(served.base)).text();
    const apple = /<link rel="apple-touch-icon" href="\/([^"]+)"/.exec(html);
    expect(apple).not.toBeNull();
    expect(await size(apple![1]!)).toBe('180x180');
  });
});

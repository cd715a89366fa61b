// The practice board in real Chromium at phone size: orders entered by tapping the map (and the
// text box), listed in Spanish and English, only legal targets highlighted, and a bounce
// adjudicated and explained. Screenshots go to test-output/.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { STANDARD_MAP, STARTING_POSITION, explainResult, adjudicate, formatLoc, formatOrder, legalOrdersForUnit, provinceOf } from '../../src/rules';
import type { Order } from '../../src/rules';
import { SCREENSHOTS, missingStrings, serveApp, tapOnMap, type Served } from '../ui/browser-app';
import { ACTION_TIMEOUT_MS } from './browser';

let served: Served;

beforeAll(async () => {
  served = await serveApp();
}, 180_000);

afterAll(async () => {
  await served?.close();
});

async function phone(locale: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await served.browser.newContext({ locale, viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(served.base);
  await page.waitForSelector('[data-province="par"]');
  expect(errors).toEqual([]);
  return { context, page };
}

const move = (power: Order['power'], type: 'A' | 'F', loc: string, to: string): Order => ({ kind: 'move', power, unit: { type, loc }, to });
const orderText = (page: Page, province: string) => page.locator(`li[data-order="${province}"] .order-text`).textContent();
const targetsShown = (page: Page) => page.locator('.province.target').evaluateAll((els) => els.map((e) => e.getAttribute('data-province')).sort());

describe('order entry by tapping on the map', () => {
  it('enters moves in Spanish, lists them, switches to English, and adjudicates a bounce with the reason', async () => {
    const { context, page } = await phone('es-ES');
    await tapOnMap(page, 'par');
    await expect.poll(() => page.locator('[data-selected]').getAttribute('data-selected')).toBe('par');
    // Only the legal destinations light up.
    const legal = [...new Set(legalOrdersForUnit(STARTING_POSITION, 'par', STANDARD_MAP).flatMap((o) => (o.kind === 'move' ? [provinceOf(o.to)] : [])))].sort();
    expect(await targetsShown(page)).toEqual(legal);
    await page.screenshot({ path: join(SCREENSHOTS, 'ui-es-unit-selected.png') });
    await tapOnMap(page, 'bur');
    const parBur = move('france', 'A', 'par', 'bur');
    const munBur = move('germany', 'A', 'mun', 'bur');
    await expect.poll(() => orderText(page, 'par')).toBe(formatOrder(parBur, 'es'));
    await tapOnMap(page, 'mun');
    await tapOnMap(page, 'bur');
    await expect.poll(() => orderText(page, 'mun')).toBe(formatOrder(munBur, 'es'));
    expect(await page.locator('.glyph.move').count()).toBe(2);
    expect(await missingStrings(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'ui-es-orders.png'), fullPage: true });

    await page.getByLabel('Idioma').selectOption('en');
    await expect.poll(() => orderText(page, 'par')).toBe(formatOrder(parBur, 'en'));
    expect(await orderText(page, 'mun')).toBe(formatOrder(munBur, 'en'));

    await page.getByRole('button', { name: 'Adjudicate' }).click();
    const verdict = adjudicate(STARTING_POSITION, [munBur, parBur]);
    const parResult = verdict.results.find((r) => r.order.kind === 'move' && r.order.unit.loc === 'par')!;
    expect(parResult.reason?.kind).toBe('bounced');
    const why = explainResult(parResult, 'en', (l) => formatLoc(l, 'en', 'long'));
    await expect.poll(() => page.locator('.results li.failed').allTextContents()).toContainEqual(`${formatOrder(parBur, 'en')} — ${why}`);
    expect(await page.locator('.mark.bounced').count()).toBe(2);
    expect(await missingStrings(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'ui-en-bounce.png'), fullPage: true });

    await page.getByLabel('Language').selectOption('es');
    const whyEs = explainResult(parResult, 'es', (l) => formatLoc(l, 'es', 'long'));
    await expect.poll(() => page.locator('.results li.failed').allTextContents()).toContainEqual(`${formatOrder(parBur, 'es')} — ${whyEs}`);
    await page.locator('[data-action="next-phase"]').click();
    await expect.poll(() => page.locator('.phase').getAttribute('data-phase')).toBe('fall-1901-movement');
    await context.close();
  });

  it('enters a support with the buttons in English, and offers only legal supported units', async () => {
    const { context, page } = await phone('en-GB');
    await tapOnMap(page, 'mar');
    await page.getByRole('button', { name: 'Support', exact: true }).click();
    const supportable = [
      ...new Set(legalOrdersForUnit(STARTING_POSITION, 'mar', STANDARD_MAP).flatMap((o) => (o.kind === 'support' ? [provinceOf(o.supported.loc)] : []))),
    ].sort();
    expect(await targetsShown(page)).toEqual(supportable);
    await tapOnMap(page, 'par');
    await tapOnMap(page, 'bur');
    const support: Order = { kind: 'support', power: 'france', unit: { type: 'A', loc: 'mar' }, supported: { type: 'A', loc: 'par' }, to: 'bur' };
    await expect.poll(() => orderText(page, 'mar')).toBe(formatOrder(support, 'en'));
    // A fleet on a split coast: St Petersburg's south coast is its own target.
    await tapOnMap(page, 'stp/sc');
    await expect.poll(() => page.locator('[data-selected]').getAttribute('data-selected')).toBe('stp');
    await tapOnMap(page, 'bot');
    await expect.poll(() => orderText(page, 'stp')).toBe(formatOrder(move('russia', 'F', 'stp/sc', 'bot'), 'en'));
    expect(await missingStrings(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'ui-en-support.png'), fullPage: true });
    // The keyboard does what a tap does: focus a province, press Enter.
    await page.locator('[data-province="ven"]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-selected]').getAttribute('data-selected')).toBe('ven');
    // The prompt names the dislodged Italian army, not the Austrian fleet that took Venice.
    expect(await page.locator('.entry-panel .prompt strong').textContent()).toContain('(Italy)');
    await page.locator('[data-province="ven"]').press('Enter');
    await expect.poll(() => orderText(page, 'ven')).toBe(formatOrder({ kind: 'hold', power: 'italy', unit: { type: 'A', loc: 'ven' } }, 'en'));
    await context.close();
  });

  it('reads orders typed in the rulebook notation', async () => {
    const { context, page } = await phone('es-ES');
    await page.getByText('Escribir órdenes').click();
    await page.getByLabel('Potencia').selectOption('england');
    await page.getByLabel('Texto de las órdenes').fill('F Lon-MNt\nE Xyz-Bor');
    await page.getByRole('button', { name: 'Añadir órdenes' }).click();
    await expect.poll(() => orderText(page, 'lon')).toBe(formatOrder(move('england', 'F', 'lon', 'nth'), 'es'));
    await expect.poll(() => page.locator('.errors li').count()).toBe(1);
    expect(await page.locator('.errors li').textContent()).toContain('Línea 2');
    await context.close();
  });

  it('plays on to a retreat and to builds and removals with unit type, by tapping', async () => {
    const { context, page } = await phone('en-GB');
    const typeOrders = async (text: string): Promise<void> => {
      if (!(await page.getByLabel('Order text').isVisible())) await page.getByText('Type orders').click();
      await page.getByLabel('Order text').fill(text);
      await page.getByRole('button', { name: 'Add orders' }).click();
      await expect.poll(() => page.locator('.errors li').count()).toBe(0);
    };
    const nextPhase = async (expected: string): Promise<void> => {
      await page.getByRole('button', { name: 'Adjudicate' }).click();
      await page.locator('[data-action="next-phase"]').click();
      await expect.poll(() => page.locator('.phase').getAttribute('data-phase')).toBe(expected);
    };
    await typeOrders('Austria: A Vie - Tyr');
    await nextPhase('fall-1901-movement');
    await typeOrders('Austria: F Tri - Ven; A Tyr S F Tri - Ven');
    await nextPhase('fall-1901-retreat');
    // The dislodged Italian army waits beside Venice; tap it, then where it goes.
    expect(await page.locator('.unit.dislodged').count()).toBe(1);
    await page.locator('.unit.dislodged').tap();
    await expect.poll(() => page.locator('[data-selected]').getAttribute('data-selected')).toBe('ven');
    // The prompt names the dislodged Italian army, not the Austrian fleet that took Venice.
    expect(await page.locator('.entry-panel .prompt strong').textContent()).toContain('(Italy)');
    expect(await targetsShown(page)).toEqual(['apu', 'pie', 'tus']);
    await tapOnMap(page, 'pie');
    const retreat: Order = { kind: 'retreat', power: 'italy', unit: { type: 'A', loc: 'ven' }, to: 'pie' };
    await expect.poll(() => orderText(page, 'ven')).toBe(formatOrder(retreat, 'en'));
    await page.screenshot({ path: join(SCREENSHOTS, 'ui-en-retreat.png'), fullPage: true });
    await nextPhase('winter-1901-adjustment');
    // Austria builds in Trieste and picks the unit type; Italy, one centre short, removes a unit.
    await tapOnMap(page, 'tri');
    await expect.poll(() => page.locator('[data-option]').count()).toBe(2);
    await page.getByRole('button', { name: 'Build fleet in Trieste' }).click();
    await expect.poll(() => orderText(page, 'tri')).toBe(formatOrder({ kind: 'build', power: 'austria', unit: { type: 'F', loc: 'tri' } }, 'en'));
    await tapOnMap(page, 'nap');
    await expect.poll(() => orderText(page, 'nap')).toBe(formatOrder({ kind: 'remove', power: 'italy', unit: { type: 'F', loc: 'nap' } }, 'en'));
    expect(await page.locator('.glyph.build').count()).toBe(1);
    expect(await page.locator('.glyph.remove').count()).toBe(1);
    expect(await missingStrings(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'ui-en-adjustments.png'), fullPage: true });
    await nextPhase('spring-1902-movement');
    expect(await page.locator('[data-province="tri"]').getAttribute('aria-label')).toBe('Trieste: Fleet, Austria');
    expect(await page.locator('[data-province="nap"]').getAttribute('aria-label')).toBe('Naples');
    await context.close();
  });
});

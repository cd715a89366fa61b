// The in-game screens in real Chromium on the harness page (tests/e2e/pages/screens): a fake game
// played through the real protocol, two players in two tabs of one browser. Sealing with the
// summary warning, re-sealing, press between the two, the phase resolving into animated results,
// history stepping and export, draw votes and the result screen; both languages, phone and laptop.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { formatOrder, type Order } from '../../src/rules';
import { SCREEN_STRINGS } from '../../src/ui/game/screens/strings';
import { ORDER_STRINGS } from '../../src/ui/orders/strings';
import { launchChromium, ACTION_TIMEOUT_MS } from './browser';
import { startScreensPage, type ScreensPage } from './pages/screens/serve';
import { SCREENSHOTS, missingStrings, tapOnMap } from '../ui/browser-app';
import { mkdirSync } from 'node:fs';

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

async function open(context: BrowserContext, query: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${site.base}?${query}`);
  await page.waitForSelector('.game-screen');
  return { page, errors };
}

const tab = (page: Page, id: string) => page.click(`[data-tab="${id}"]`);
const text = (page: Page, sel: string) => page.locator(sel).first().innerText();
const move = (power: Order['power'], type: 'A' | 'F', loc: string, to: string): Order => ({ kind: 'move', power, unit: { type, loc }, to });

describe('in-game screens', { timeout: 90_000 }, () => {
  it('seals with a summary, re-seals, passes press between two players, and shows the animated results', async () => {
    const context = await browser.newContext(PHONE);
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const es = SCREEN_STRINGS.es;
    const en = SCREEN_STRINGS.en;
    // France (Spanish) drives the bots; England (English) is another tab.
    const fr = await open(context, 'as=2&lang=es');
    const eng = await open(context, 'as=1&lang=en&bots=0');
    const france = fr.page;
    const england = eng.page;
    // The status line names people, this player's own unsealed power included.
    expect(await text(france, '.waiting-for')).toBe(es.waitingPeople('Bruno (Inglaterra)', 'Francia'));

    // Order entry by tapping, then the seal summary warns about the two units left without orders.
    await tapOnMap(france, 'par');
    await tapOnMap(france, 'bur');
    await expect.poll(() => france.locator('li[data-order="par"] .order-text').textContent()).toBe(formatOrder(move('france', 'A', 'par', 'bur'), 'es'));
    await france.click('[data-action="seal"]');
    const warning = await text(france, '.seal-warning');
    expect(warning).toContain(es.sealWarning);
    expect(warning).toContain('F Bre');
    expect(warning).toContain('E Mar');
    expect(warning).not.toContain('E Par');
    expect(await text(france, '.seal-summary [data-power="france"]')).toContain(formatOrder(move('france', 'A', 'par', 'bur'), 'es'));
    await france.screenshot({ path: join(SCREENSHOTS, 'screens-seal-summary-es.png'), fullPage: true });
    await france.click('[data-action="confirm-seal"]');
    await expect.poll(() => france.locator('.sealed-note').count()).toBe(1);
    await expect.poll(() => text(france, '[data-list="sealed"]')).toContain('Francia');
    expect(await text(france, '[data-list="missing"]')).toBe(`… ${es.notSealedList}: Inglaterra`);

    // England's tab sees that France has sealed (but not what), and the countdown ticks.
    await expect.poll(() => text(england, '[data-list="sealed"]')).toContain('France');
    expect(await text(england, '[data-list="missing"]')).toBe(`… ${en.notSealedList}: England`);
    const before = await text(england, '.countdown');
    await expect.poll(() => text(england, '.countdown'), { timeout: 4_000 }).not.toBe(before);
    expect(await england.locator('body').innerText()).not.toContain(formatOrder(move('france', 'A', 'par', 'bur'), 'en'));

    // France changes its mind: the draft differs until sealed again; no warning for Brest now.
    await tapOnMap(france, 'bre');
    await tapOnMap(france, 'mao');
    await expect.poll(() => france.locator('.draft-differs').count()).toBe(1);
    await france.click('[data-action="seal"]');
    expect(await text(france, '.seal-warning')).not.toContain('F Bre');
    await france.click('[data-action="confirm-seal"]');
    await expect.poll(() => france.locator('.draft-differs').count()).toBe(0);

    // Press: England writes to France only; France sees the unread count, then the text. Players
    // are listed once each (Ana holds five powers), and nobody is ticked to begin with.
    await tab(england, 'press');
    expect(await england.locator('[data-recipient]').count()).toBe(3);
    expect(await england.locator('[data-recipient]:checked').count()).toBe(0);
    await england.click('[data-recipient-powers="france"]');
    await england.fill('.chat-input textarea', 'Let us share the Channel.');
    await england.click('[data-action="send-chat"]');
    await expect.poll(() => france.locator('[data-tab="press"] .badge').textContent()).toBe('1');
    expect(await france.locator('[data-tab="press"]').getAttribute('aria-label')).toBe(`${es.tabs.press}, ${es.unread(1)}`);
    await tab(france, 'press');
    await france.click('[data-thread]');
    await expect.poll(() => text(france, '.chat-text')).toBe('Let us share the Channel.');
    expect(await text(france, '.chat-head')).toContain('Inglaterra');
    await expect.poll(() => france.locator('[data-tab="press"] .badge').count()).toBe(0);
    await france.fill('.chat-input textarea', 'De acuerdo.');
    await france.click('[data-action="send-chat"]');
    await expect.poll(() => england.locator('.chat-text').allInnerTexts()).toEqual(['Let us share the Channel.', 'De acuerdo.']);
    await france.screenshot({ path: join(SCREENSHOTS, 'screens-press-es.png'), fullPage: true });
    expect(await missingStrings(france)).toEqual([]);
    expect(await missingStrings(england)).toEqual([]);

    // England seals: the phase resolves on both tabs, which switch to the results.
    await tab(england, 'board');
    await tapOnMap(england, 'lon');
    await tapOnMap(england, 'eng');
    await england.click('[data-action="seal"]');
    await england.click('[data-action="confirm-seal"]');
    for (const page of [france, england]) {
      await expect.poll(() => page.locator('[data-results-phase]').getAttribute('data-results-phase')).toBe('1901-spring-movement');
      expect(Number(await page.locator('.animated-board').getAttribute('data-moves'))).toBeGreaterThan(0);
      expect(await page.locator('.results li').count()).toBeGreaterThan(0);
    }
    // Units glide from their old spots: mid-way, a moved piece is still shifted.
    expect(await france.locator('.animated-board').getAttribute('data-animating')).toMatch(/yes|done/);
    const results = await france.locator('.results li').allInnerTexts();
    expect(results.join('\n')).toContain(formatOrder(move('england', 'F', 'lon', 'eng'), 'es'));
    for (const li of await france.locator('.results li[data-success="no"] .why').allInnerTexts()) expect(li.length).toBeGreaterThan(5);
    // Results are grouped by power, the reader's own first, each group naming its power and player.
    const groups = france.locator('.results .result-power');
    expect(await groups.first().getAttribute('data-power')).toBe('france');
    expect(await france.locator('.results .result-power[data-power="england"] h4').innerText()).toBe(ORDER_STRINGS.es.resultsOfPlayer('Inglaterra', 'Bruno'));
    for (const g of await groups.all()) {
      const power = await g.getAttribute('data-power');
      expect(await g.locator('li').evaluateAll((els) => els.map((e) => e.getAttribute('data-power')))).toEqual(expect.arrayContaining([power]));
      expect(new Set(await g.locator('li').evaluateAll((els) => els.map((e) => e.getAttribute('data-power'))))).toEqual(new Set([power]));
    }
    await france.waitForTimeout(1_200);
    await france.screenshot({ path: join(SCREENSHOTS, 'screens-results-es.png'), fullPage: true });
    await england.screenshot({ path: join(SCREENSHOTS, 'screens-results-en.png'), fullPage: true });
    expect(await england.locator('#game-phase').textContent()).toBe('Fall 1901, movement');
    expect(fr.errors).toEqual([]);
    expect(eng.errors).toEqual([]);
    await context.close();
  });

  it('offers the timeout vote once the deadline has passed', async () => {
    const context = await browser.newContext(PHONE);
    const { page, errors } = await open(context, 'as=2&lang=en&at=30');
    expect(await text(page, '.past-deadline')).toBe(SCREEN_STRINGS.en.pastDeadline);
    expect(await text(page, '[data-action="vote-timeout"]')).toBe(`${SCREEN_STRINGS.en.voteTimeout} England`);
    await page.click('[data-action="vote-timeout"]');
    await expect.poll(() => text(page, '.seal-status')).toContain(`${SCREEN_STRINGS.en.timeoutVotes} England: 1`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('respects prefers-reduced-motion', async () => {
    const context = await browser.newContext({ ...PHONE, reducedMotion: 'reduce' });
    const { page } = await open(context, 'as=2&lang=en&played=2');
    await tab(page, 'results');
    await page.waitForSelector('.animated-board');
    expect(await page.locator('.animated-board').getAttribute('data-animating')).toBeNull();
    const shifted = await page
      .locator('.animated-board .units > .unit')
      .evaluateAll((els) => els.filter((e) => (e as SVGGElement).style.translate !== '').length);
    expect(shifted).toBe(0);
    await context.close();
  });

  it('steps through the history with the slider and exports the game as text and JSON', async () => {
    const context = await browser.newContext(PHONE);
    const { page, errors } = await open(context, 'as=2&lang=es&played=6');
    await tab(page, 'history');
    const phase = () => page.locator('[data-history-phase]').getAttribute('data-history-phase');
    const slider = page.locator('.history-controls input[type="range"]');
    const max = Number(await slider.getAttribute('max'));
    expect(max).toBeGreaterThanOrEqual(5);
    const last = await phase();
    await page.click('[data-action="history-prev"]');
    const previous = await phase();
    expect(previous).not.toBe(last);
    await slider.focus();
    await page.keyboard.press('Home');
    await expect.poll(phase).toBe('1901-spring-movement');
    expect(await page.locator('.history-tab .phase').innerText()).toContain(SCREEN_STRINGS.es.phaseOf(1, max + 1));
    await page.keyboard.press('ArrowRight');
    await expect.poll(phase).toBe('1901-fall-movement');
    await page.click('[data-action="history-next"]');
    await page.click('[data-action="history-prev"]');
    await expect.poll(phase).toBe('1901-fall-movement');
    await slider.focus();
    await page.keyboard.press('End');
    await expect.poll(phase).toBe(last);
    expect(await page.locator('.orders-given [data-power]').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'screens-history-es.png'), fullPage: true });

    // The text export holds the orders of the phase shown, in the Spanish notation.
    const shown = await page.locator('.orders-given [data-power="france"] .order-text').innerText();
    const exported = await page.evaluate(async () => (await fetch(document.querySelector<HTMLAnchorElement>('[data-export="text"]')!.href)).text());
    for (const order of shown.split('; ')) expect(exported).toContain(`  ${order}\n`);
    expect(exported).toContain('Primavera 1901, movimientos');
    expect(await page.locator('[data-export="text"]').getAttribute('download')).toMatch(/^pacto-[0-9a-f]{8}\.txt$/);
    const json = await page.evaluate(
      async () =>
        JSON.parse(await (await fetch(document.querySelector<HTMLAnchorElement>('[data-export="json"]')!.href)).text()) as { phases: { phase: string }[] },
    );
    expect(json.phases).toHaveLength(max + 1);
    expect(json.phases[0]!.phase).toBe('1901-spring-movement');
    await page.locator('.export-preview summary').click();
    expect(await page.locator('.export-preview pre').textContent()).toBe(exported);

    // Practice from the phase shown: a private sandbox with that phase's units, adjudicated locally.
    await slider.focus();
    await page.keyboard.press('Home');
    await expect.poll(phase).toBe('1901-spring-movement');
    const logBefore = await page.evaluate(() => document.querySelectorAll('[data-history-phase]').length);
    await page.locator('[data-action="practice-open"]').first().click();
    const sandbox = page.locator('.practice-from');
    await expect.poll(() => sandbox.locator('[data-action="adjudicate"]').count()).toBe(1);
    expect(await sandbox.locator('h4').innerText()).toBe(SCREEN_STRINGS.es.practiceTitle);
    await sandbox.locator('[data-action="adjudicate"]').click();
    await expect.poll(() => sandbox.locator('[data-action="next-phase"]').count()).toBe(1);
    await page.click('[data-action="practice-close"]');
    await expect.poll(() => page.locator('.practice-from').count()).toBe(0);
    expect(await page.evaluate(() => document.querySelectorAll('[data-history-phase]').length)).toBe(logBefore);
    await expect.poll(phase).toBe('1901-spring-movement');
    expect(await missingStrings(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps draw votes sealed with the orders, ends in a draw, and shows the result with the centre chart', async () => {
    const context = await browser.newContext(LAPTOP);
    const { page, errors } = await open(context, 'as=2&lang=en&played=4&solo');
    await tab(page, 'game');
    // The last resolved movement phase's opened votes: the bots voted no. Counted by people: three
    // players, whatever powers they hold.
    expect(await page.locator('[data-draw-yes]').getAttribute('data-draw-yes')).toBe('0');
    expect(await page.locator('[data-draw-yes]').getAttribute('data-draw-of')).toBe('3');
    expect(await text(page, '[data-draw-yes]')).toContain(SCREEN_STRINGS.en.drawCommitted(0, 3));
    // The bots (every power but France) re-seal their orders with a yes vote. A vote is a re-seal:
    // it shows nowhere until the phase's orders open, and they cannot open while France has not
    // sealed (protocol v2: once every power has sealed, the FINALs go out and orders are fixed, so
    // France's seal comes last here).
    await page.click('[data-dev="bots-draw"]');
    await page.waitForTimeout(500);
    expect(await page.locator('[data-draw-yes]').getAttribute('data-draw-yes')).toBe('0');
    expect(await page.locator('[data-action="draw-yes"]').count()).toBe(1);
    // Concession asks first, and cancelling changes nothing.
    await page.click('[data-action="concede"]');
    expect(await text(page, '[role="alertdialog"]')).toContain('France');
    await page.getByRole('button', { name: SCREEN_STRINGS.en.cancel }).click();
    expect(await page.locator('[role="alertdialog"]').count()).toBe(0);
    // France votes yes by sealing: the phase's orders open with seven yes votes.
    await page.click('[data-action="draw-yes"]');
    await expect.poll(() => page.locator('.game-result').getAttribute('data-result'), { timeout: 60_000 }).toBe('draw');
    expect(await text(page, '.game-result')).toContain('Austria, England, France, Germany, Italy, Russia, Turkey');
    const rows = await page.locator('.chart-table tbody tr').count();
    expect(rows).toBe(7);
    expect(await page.locator('.centre-chart polyline').count()).toBe(7);
    expect(await missingStrings(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'screens-draw-laptop-en.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  it('renders every section in both languages without a missing string, gunboat hides press', async () => {
    for (const lang of ['es', 'en'] as const) {
      for (const size of [PHONE, LAPTOP]) {
        const context = await browser.newContext(size);
        const { page, errors } = await open(context, `as=2&lang=${lang}&played=3`);
        const ids = await page.locator('[data-tab]').evaluateAll((els) => els.map((e) => e.getAttribute('data-tab')!));
        expect(ids).toEqual(['board', 'results', 'history', 'press', 'game']);
        for (const id of ids) {
          await tab(page, id);
          expect(await missingStrings(page), `${lang} ${id}`).toEqual([]);
          expect(await page.locator(`[data-tab="${id}"]`).innerText()).toContain(SCREEN_STRINGS[lang].tabs[id as 'board']);
          await page.screenshot({ path: join(SCREENSHOTS, `screens-${id}-${lang}-${size.viewport.width}.png`), fullPage: true });
        }
        expect(errors).toEqual([]);
        await context.close();
      }
    }
    const context = await browser.newContext(PHONE);
    const { page } = await open(context, 'as=2&lang=es&gunboat');
    expect(await page.locator('[data-tab="press"]').count()).toBe(0);
    await context.close();
  });
});

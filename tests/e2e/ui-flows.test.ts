// The turn's flows a phone player meets, end to end in real Chromium at 390×844 with touch:
// the centres a Fall changed hands, winter counts and a build beyond the count (practice board), Yorkshire to Norway via convoy
// (practice board), the status line naming people and saying when you are last (screens harness,
// two players in two tabs), and a lot game's lobby on every phone (who draws, "you", the lot then
// starting the game by itself and the deal named by people; the app, two browser profiles over
// WebRTC), with the invite going through the share sheet.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { STARTING_POSITION, adjudicate, formatOrder, type Order } from '../../src/rules';
import { SCREEN_STRINGS } from '../../src/ui/game/screens/strings';
import { APP_STRINGS } from '../../src/ui/lobby/strings';
import { ORDER_STRINGS } from '../../src/ui/orders/strings';
import { checkLayout } from './layout';
import { startScreensPage, type ScreensPage } from './pages/screens/serve';
import { SCREENSHOTS, missingStrings, newProfile, serveApp, tapOnMap, type Served } from '../ui/browser-app';
import { ACTION_TIMEOUT_MS } from './browser';

let served: Served;
let site: ScreensPage;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  served = await serveApp();
  site = await startScreensPage();
  mkdirSync(join(SCREENSHOTS, 'screens'), { recursive: true });
}, 240_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await served?.close();
  await site?.stop();
});

const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `flow-${name}.png`), fullPage: true });
const orderText = (page: Page, province: string) => page.locator(`li[data-order="${province}"] .order-text`).textContent();
const targetsShown = (page: Page) => page.locator('.province.target').evaluateAll((els) => els.map((e) => e.getAttribute('data-province')).sort());

/** The home screen's practice board in English, at phone size. */
async function practice(): Promise<Page> {
  const context = await served.browser.newContext({ locale: 'en-GB', ...PHONE });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(served.base);
  await page.waitForSelector('[data-province="par"]');
  return page;
}

async function typeOrders(page: Page, text: string): Promise<void> {
  if (!(await page.getByLabel('Order text').isVisible())) await page.getByText('Type orders').click();
  await page.getByLabel('Order text').fill(text);
  await page.getByRole('button', { name: 'Add orders' }).click();
  await expect.poll(() => page.locator('.errors li').count()).toBe(0);
}

async function nextPhase(page: Page, expected: string): Promise<void> {
  await page.getByRole('button', { name: 'Adjudicate' }).click();
  await page.locator('[data-action="next-phase"]').click();
  await expect.poll(() => page.locator('.phase').getAttribute('data-phase')).toBe(expected);
}

describe('winter and convoys on the practice board', { timeout: 90_000 }, () => {
  it('names the centres a Fall changed hands, says how many builds each power has, lights the free centres, and explains a build beyond the count', async () => {
    const page = await practice();
    const o = ORDER_STRINGS.en;
    // Austria takes Serbia and moves Vienna's army out: one build, Vienna and Budapest free.
    await typeOrders(page, 'Austria: A Bud - Ser; A Vie - Gal');
    await page.getByRole('button', { name: 'Adjudicate' }).click();
    await page.waitForSelector('[data-action="next-phase"]');
    expect(await page.locator('.centre-changes').count()).toBe(0); // a Spring moves no centre
    await page.locator('[data-action="next-phase"]').click();
    await expect.poll(() => page.locator('.phase').getAttribute('data-phase')).toBe('fall-1901-movement');
    // The Fall's results say which centres changed hands: Serbia, from nobody to Austria.
    await page.getByRole('button', { name: 'Adjudicate' }).click();
    const changes = page.locator('.centre-changes li');
    await expect.poll(() => changes.count()).toBe(1);
    expect(await changes.getAttribute('data-centre')).toBe('ser');
    expect(await changes.textContent()).toBe(`Serbia: ${o.unownedCentre} → Austria`);
    expect(await page.locator('.centre-changes h4').textContent()).toBe(o.centresChanged);
    await shot(page, 'fall-centres-changed-en');
    await page.locator('[data-action="next-phase"]').click();
    await expect.poll(() => page.locator('.phase').getAttribute('data-phase')).toBe('winter-1901-adjustment');
    const austria = page.locator('.adjustments li[data-power="austria"]');
    await expect.poll(() => austria.getAttribute('data-delta')).toBe('1');
    expect(await austria.textContent()).toContain(`Austria: ${o.builds(1, 'Budapest, Vienna')}`);
    expect(await page.locator('.adjustments li').count()).toBe(1);
    expect(await targetsShown(page)).toEqual(['bud', 'vie']);
    await page.locator('svg.board-svg').scrollIntoViewIfNeeded();
    await tapOnMap(page, 'vie');
    await expect.poll(() => orderText(page, 'vie')).toBe(formatOrder({ kind: 'build', power: 'austria', unit: { type: 'A', loc: 'vie' } }, 'en'));
    expect(await austria.textContent()).toContain(o.ordered(1, 1));
    expect(await targetsShown(page)).toEqual([]);
    // A second build: nothing is added, and the screen says why.
    await tapOnMap(page, 'bud');
    await expect.poll(() => page.locator('.entry-notice').getAttribute('data-notice')).toBe('no-more-builds');
    expect(await page.locator('.entry-notice').textContent()).toBe(o.noMoreBuilds('Austria', 1, 'Budapest'));
    expect(await page.locator('li[data-order="bud"]').count()).toBe(0);
    expect(await missingStrings(page)).toEqual([]);
    await shot(page, 'winter-build-beyond-en');
  });

  it('moves Yorkshire to Norway via convoy: every reachable destination lights, and the tap on Norway gives the order', async () => {
    const page = await practice();
    const spring: Order[] = [
      { kind: 'move', power: 'england', unit: { type: 'F', loc: 'lon' }, to: 'nth' },
      { kind: 'move', power: 'england', unit: { type: 'A', loc: 'lvp' }, to: 'yor' },
    ];
    await typeOrders(page, 'England: F Lon - Nth; A Lvp - Yor');
    await nextPhase(page, 'fall-1901-movement');
    const fall = adjudicate(STARTING_POSITION, spring).next;
    await page.locator('svg.board-svg').scrollIntoViewIfNeeded();
    await tapOnMap(page, 'yor');
    await expect.poll(() => page.locator('[data-selected]').getAttribute('data-selected')).toBe('yor');
    await page.getByRole('button', { name: 'Move via convoy' }).click();
    // Every coast of the North Sea but Yorkshire's own: where the fleet there can carry the army.
    expect(fall.units).toContainEqual({ type: 'F', power: 'england', loc: 'nth' });
    expect(await targetsShown(page)).toEqual(['bel', 'den', 'edi', 'hol', 'lon', 'nwy']);
    await shot(page, 'convoy-targets-en');
    await tapOnMap(page, 'nwy');
    const army: Order = { kind: 'move', power: 'england', unit: { type: 'A', loc: 'yor' }, to: 'nwy' };
    await expect.poll(() => orderText(page, 'yor')).toBe(formatOrder(army, 'en'));
    // The North Sea fleet convoys it, and the adjudicator lands it in Norway.
    await tapOnMap(page, 'nth');
    await page.getByRole('button', { name: 'Convoy', exact: true }).click();
    await tapOnMap(page, 'yor');
    await tapOnMap(page, 'nwy');
    const fleet: Order = { kind: 'convoy', power: 'england', unit: { type: 'F', loc: 'nth' }, army: 'yor', to: 'nwy' };
    await expect.poll(() => orderText(page, 'nth')).toBe(formatOrder(fleet, 'en'));
    await page.getByRole('button', { name: 'Adjudicate' }).click();
    await expect.poll(() => page.locator('.results li.ok').allTextContents()).toContainEqual(expect.stringContaining(formatOrder(army, 'en')));
    await shot(page, 'convoy-result-en');
  });
});

describe('the status line', { timeout: 90_000 }, () => {
  it('names people, this player included, and says so at the top when this player is the last', async () => {
    const context = await served.browser.newContext(PHONE);
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    contexts.push(context);
    const open = async (query: string): Promise<Page> => {
      const page = await context.newPage();
      await page.goto(`${site.base}?${query}`);
      await page.waitForSelector('.game-screen');
      return page;
    };
    // France (Carmen, Spanish) drives the bots; England (Bruno, English) is another tab.
    const france = await open('as=2&lang=es');
    const england = await open('as=1&lang=en&bots=0');
    const es = SCREEN_STRINGS.es;
    const line = france.locator('.waiting-for');
    expect(await line.textContent()).toBe(es.waitingPeople('Bruno (Inglaterra)', 'Francia'));
    expect(await england.locator('.waiting-for').textContent()).toBe(SCREEN_STRINGS.en.waitingPeople('Carmen (France)', 'England'));
    await england.click('[data-action="seal"]');
    await england.click('[data-action="confirm-seal"]');
    await expect.poll(() => line.getAttribute('data-last')).toBe('yes');
    expect(await line.textContent()).toBe(es.youAreLast('Francia'));
    // At the top, without scrolling, and on every tab.
    for (const id of ['board', 'press', 'game']) {
      await france.click(`[data-tab="${id}"]`);
      await france.evaluate(() => window.scrollTo(0, 0));
      const box = (await line.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThan(844 / 2);
    }
    await france.click('[data-tab="board"]');
    await shot(france, 'you-are-last-es');
    expect(await england.locator('.waiting-for').textContent()).toBe(SCREEN_STRINGS.en.waitingPeople('Carmen (France)', ''));
  });
});

describe('the lobby of a lot game', { timeout: 120_000 }, () => {
  it('shows every phone who draws the lot and that the game then starts by itself, marks "you", names the deal by people, and shares the invite through the share sheet', async () => {
    const host = await newProfile(served, contexts, 'es-ES', 'phone');
    const guest = await newProfile(served, contexts, 'en-GB', 'phone');
    // The guest's browser has a share sheet (most phones do); the host's has none (most laptops).
    await guest.context().addInitScript(() => {
      const shared: unknown[] = [];
      (window as unknown as { shared: unknown[] }).shared = shared;
      Object.defineProperty(navigator, 'share', { value: (data: unknown) => (shared.push(data), Promise.resolve()), configurable: true });
    });
    await host.goto(`${served.base}#/new`);
    await host.locator('input[name="name"]').fill('Pilar');
    await host.locator('select[name="seats"]').selectOption('2');
    await host.locator('[data-action="create-game"]').click();
    const link = await host.locator('input.invite-link').inputValue();
    expect(await host.locator('[data-action="share-invite"]').count()).toBe(0);
    expect(await host.locator('[data-action="copy-invite"]').count()).toBe(1);
    await guest.goto(link);
    await guest.locator('input[name="player-name"]').fill('Quentin');
    await guest.locator('[data-action="join-game"]').click();
    // Before the lot, the guest is told who draws it.
    await expect.poll(() => guest.locator('.lot-card [data-who-starts]').textContent(), { timeout: 30_000 }).toBe(APP_STRINGS.en.lobby.lotBy('Pilar'));
    expect(await checkLayout(guest)).toEqual([]);
    await guest.screenshot({ path: join(SCREENSHOTS, 'screens', 'lobby-guest-en-phone.png'), fullPage: true });
    await guest.locator('[data-action="share-invite"]').click();
    await expect.poll(() => guest.evaluate(() => (window as unknown as { shared: { url: string }[] }).shared.map((d) => d.url))).toEqual([link]);
    await expect.poll(() => host.locator('.seats').getAttribute('data-players'), { timeout: 30_000 }).toBe('2');
    // Where the game stands comes first on both phones: the creator's button, the guest's line.
    expect(await host.locator('.lot-card').getAttribute('data-lot')).toBe('open');
    expect(await host.locator('.lot-card p').first().textContent()).toBe(APP_STRINGS.es.lobby.lotCreatorHint);
    expect(await guest.locator('[data-action="draw-lots"]').count()).toBe(0);
    for (const [page, me] of [
      [host, 'Pilar'],
      [guest, 'Quentin'],
    ] as const) {
      // "You" marks this phone's own player, and only it.
      expect(await page.locator('.players li.you').count()).toBe(1);
      expect(await page.locator('.players li.you').getAttribute('data-player')).toBe(me);
      // Above the fold.
      await page.evaluate(() => window.scrollTo(0, 0));
      const box = (await page.locator('.lot-card').boundingBox())!;
      expect(box.y + box.height).toBeLessThan(844);
      // The relay line comes after where the game stands, and is on screen too.
      const relay = (await page.locator('.relay-line .net.relay').boundingBox())!;
      expect(relay.y).toBeGreaterThanOrEqual(box.y + box.height);
      expect(relay.y + relay.height).toBeLessThan(844);
      expect(await missingStrings(page)).toEqual([]);
      expect(await checkLayout(page)).toEqual([]);
    }
    await host.screenshot({ path: join(SCREENSHOTS, 'screens', 'lobby-lot-es-phone.png'), fullPage: true });
    // Protocol v2: the lot is a sealed ballot that runs by itself once the creator names who takes
    // part; nobody's number shows before it opens, and the game starts when the lot closes.
    await host.locator('[data-action="draw-lots"]').click();
    for (const p of [host, guest])
      await expect.poll(() => p.locator('#game-phase').getAttribute('data-phase'), { timeout: 30_000 }).toBe('1914-spring-movement');
    // The deal, by people, on every phone: each is waited for with its own seat, and waits for the other player's.
    const seat = async (p: Page, attr: 'data-mine' | 'data-waiting') => (await p.locator('.waiting-for').getAttribute(attr)) ?? '';
    await expect.poll(() => seat(host, 'data-mine')).not.toBe('');
    await expect.poll(() => seat(guest, 'data-mine')).not.toBe('');
    expect(await seat(host, 'data-waiting')).toBe(await seat(guest, 'data-mine'));
    expect(await seat(guest, 'data-waiting')).toBe(await seat(host, 'data-mine'));
    expect(await seat(host, 'data-mine')).not.toBe(await seat(guest, 'data-mine'));
    expect(await host.locator('.waiting-for').textContent()).toContain('Quentin');
    expect(await guest.locator('.waiting-for').textContent()).toContain('Pilar');
    // The real app's game screen, relay line in its header (the harness has no relay): fits a finger and the screen.
    for (const p of [host, guest]) {
      await expect.poll(() => p.locator('.game-header .net.relay').isVisible()).toBe(true);
      await p.evaluate(() => window.scrollTo(0, 0));
      expect(await checkLayout(p)).toEqual([]);
      expect(await missingStrings(p)).toEqual([]);
    }
  });
});

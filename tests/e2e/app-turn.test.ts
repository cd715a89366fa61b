// The whole app in real Chromium, three players in three browser profiles talking over WebRTC
// through the signaling server that serves the app: create a game, join by the invite link, claim
// powers, start; then orders entered by tapping the map and sealed, phase after phase, until a
// unit is dislodged and retreats and a power builds. Finally one profile goes offline, reloads
// and steps through the game's history from IndexedDB. Screenshots go to test-output/.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { formatOrder, type Order } from '../../src/rules';
import { SCREENSHOTS, missingStrings, newProfile, serveApp, tapOnMap, type Served } from '../ui/browser-app';

let served: Served;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  served = await serveApp();
}, 180_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await served?.close();
});

const profile = (locale: string, size: 'phone' | 'laptop'): Promise<Page> => newProfile(served, contexts, locale, size);

const phaseOf = (page: Page) => page.locator('#game-phase').getAttribute('data-phase');
const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `app-${name}.png`), fullPage: true });

async function waitPhase(pages: readonly Page[], phase: string | RegExp): Promise<void> {
  for (const p of pages) {
    await expect.poll(() => phaseOf(p), { timeout: 60_000, interval: 250 }).toMatch(phase);
  }
}

async function board(page: Page): Promise<void> {
  await page.locator('[data-tab="board"]').click();
}

async function seal(page: Page): Promise<void> {
  await board(page);
  await page.locator('[data-action="seal"]').click();
  await page.locator('[data-action="confirm-seal"]').click();
  // Sealing stores the key, the draft and the commit (strict IndexedDB writes) before the dialog
  // closes: on a loaded machine that takes more than the default second.
  await expect.poll(() => page.locator('[data-action="confirm-seal"]').count(), { timeout: 20_000 }).toBe(0);
}

/** The board's label for a province: "Kiel: Fleet, Germany" and the like. */
const label = (page: Page, province: string) => page.locator(`.board-svg [data-province="${province}"]`).first().getAttribute('aria-label');

let gameId = '';

describe('a game played in three browsers', () => {
  it('creates, joins by invite, starts, and plays moves, a dislodgement, a retreat and a build', async () => {
    const ana = await profile('es-ES', 'phone');
    const bea = await profile('en-GB', 'phone');
    const carl = await profile('en-GB', 'laptop');

    // Ana creates a three-player classic game (seed 002's split: Austria + England + Germany,
    // France + Turkey, Italy + Russia) in which seats are chosen, and claims France's seat.
    await ana.goto(`${served.base}#/new`);
    await ana.locator('input[name="name"]').fill('Ana');
    await ana.locator('select[name="seats"]').selectOption('3');
    await ana.locator('input[name="assignment"][value="choice"]').check();
    expect(await ana.locator('select[name="variant"]').inputValue()).toBe('three-players');
    await ana.locator('select[name="claim"]').selectOption('france');
    expect(await missingStrings(ana)).toEqual([]);
    await shot(ana, 'new-game');
    await ana.locator('[data-action="create-game"]').click();
    const link = await ana.locator('input.invite-link').inputValue();
    expect(link).toMatch(/#v=1&g=/);
    gameId = /[#&]g=([^&]+)/.exec(link)![1]!;
    await expect.poll(() => ana.locator('.qr svg').count()).toBe(1);
    await shot(ana, 'invite');

    // Bea and Carl open the link; the game arrives over WebRTC and they join claiming a seat
    // (named by its first power): Bea Austria + England + Germany, Carl Italy + Russia.
    for (const [page, name, power] of [
      [bea, 'Bea', 'austria'],
      [carl, 'Carl', 'italy'],
    ] as const) {
      await page.goto(link);
      await expect.poll(() => page.url(), { timeout: 10_000 }).toContain(`#/game/${gameId}`);
      await page.locator('input[name="player-name"]').fill(name);
      await page.locator('select[name="claim"]').selectOption(power);
      await page.locator('[data-action="join-game"]').click();
    }
    // The seats fill up live on the creator's screen.
    await expect.poll(() => ana.locator('.seats').getAttribute('data-players'), { timeout: 60_000 }).toBe('3');
    await expect.poll(() => ana.locator('select[name="holder-austria-england-germany"] option:checked').textContent()).toContain('Bea');
    await expect.poll(() => ana.locator('select[name="holder-italy-russia"] option:checked').textContent()).toContain('Carl');
    expect(await missingStrings(bea)).toEqual([]);
    await shot(ana, 'lobby-full');
    await ana.locator('[data-action="start-game"]').click();

    // Every phone accepts the roster on its own and the first phase opens.
    await waitPhase([ana, bea, carl], '1901-spring-movement');
    await shot(carl, 'laptop-spring-1901');

    // Spring 1901: A Par-Pic, A Mun-Bur, by tapping the map; everyone seals.
    await tapOnMap(ana, 'par');
    await tapOnMap(ana, 'pic');
    await tapOnMap(bea, 'mun');
    await tapOnMap(bea, 'bur');
    await expect
      .poll(() => ana.locator('li[data-order="par"] .order-text').textContent())
      .toBe(formatOrder({ kind: 'move', power: 'france', unit: { type: 'A', loc: 'par' }, to: 'pic' } satisfies Order, 'es'));
    await expect
      .poll(() => bea.locator('li[data-order="mun"] .order-text').textContent())
      .toBe(formatOrder({ kind: 'move', power: 'germany', unit: { type: 'A', loc: 'mun' }, to: 'bur' } satisfies Order, 'en'));
    await shot(ana, 'spring-orders-es');
    // Carl seals and goes back to his home screen: his phone still reveals for him there.
    await seal(carl);
    await carl.goto(`${served.base}#/`);
    await carl.waitForSelector(`li[data-game="${gameId}"]`);
    await carl.waitForTimeout(2_500); // longer than a closed game screen lingers (live.ts)
    for (const p of [ana, bea]) await seal(p);
    await waitPhase([ana, bea], '1901-fall-movement');
    await carl.goto(`${served.base}#/game/${gameId}`);
    await waitPhase([carl], '1901-fall-movement');
    await expect.poll(() => label(carl, 'bur')).toMatch(/Army, Germany/);
    await expect.poll(() => label(carl, 'pic')).toMatch(/Army, France/);
    await shot(bea, 'spring-results-en');

    // Fall 1901: A Mar-Bur supported by A Pic dislodges the German army; F Kie-Den takes a centre.
    await board(ana);
    await tapOnMap(ana, 'mar');
    await tapOnMap(ana, 'bur');
    await tapOnMap(ana, 'pic');
    await ana.getByRole('button', { name: 'Apoyar' }).click();
    await tapOnMap(ana, 'mar');
    await tapOnMap(ana, 'bur');
    await expect
      .poll(() => ana.locator('li[data-order="pic"] .order-text').textContent())
      .toBe(
        formatOrder(
          { kind: 'support', power: 'france', unit: { type: 'A', loc: 'pic' }, supported: { type: 'A', loc: 'mar' }, to: 'bur' } satisfies Order,
          'es',
        ),
      );
    await board(bea);
    await tapOnMap(bea, 'kie');
    await tapOnMap(bea, 'den');
    // Ana is done: she seals and marks her orders final; her FINALs are signed at once, before the
    // others have sealed (the early FINAL), and her orders can no longer change.
    await seal(ana);
    await ana.locator('[data-action="mark-final"]').click();
    await expect.poll(() => ana.locator('[data-final="yes"]').count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => ana.locator('[data-action="seal"]').count()).toBe(0);
    for (const p of [bea, carl]) await seal(p);

    // The retreat phase is Germany's alone: the others wait.
    await waitPhase([ana, bea, carl], '1901-fall-retreat');
    await board(carl);
    await expect.poll(() => carl.locator('.waiting-for').getAttribute('data-waiting')).toBe('germany');
    await shot(carl, 'laptop-waiting-retreat');
    await board(bea);
    await tapOnMap(bea, 'bur');
    await tapOnMap(bea, 'mun');
    await shot(bea, 'retreat-en');
    await seal(bea);

    // Winter: Germany has Denmark and builds a fleet in Kiel.
    await waitPhase([ana, bea, carl], /^1901-winter-adjustment$/);
    await board(bea);
    await tapOnMap(bea, 'kie');
    const fleet = bea.locator('.options button', { hasText: /fleet/i });
    await fleet.first().click();
    await shot(bea, 'build-en');
    await seal(bea);
    await waitPhase([ana, bea, carl], '1902-spring-movement');
    await board(carl);
    await expect.poll(() => label(carl, 'kie')).toMatch(/Germany/);
    await expect.poll(() => label(carl, 'mun')).toMatch(/Army, Germany/);
    await expect.poll(() => label(carl, 'den')).toMatch(/Fleet, Germany/);
    await expect.poll(() => label(carl, 'bur')).toMatch(/Army, France/);
    expect(await missingStrings(carl)).toEqual([]);
    await shot(carl, 'laptop-spring-1902');

    // Home lists the game with its phase and what Ana owes.
    await ana.goto(`${served.base}#/`);
    await expect.poll(() => ana.locator(`li[data-game="${gameId}"] .game-phase`).textContent()).toContain('1902');
    await expect.poll(() => ana.locator(`li[data-game="${gameId}"] .home-badge.owes`).count()).toBe(1);
    await shot(ana, 'home-es');
  }, 300_000);

  it('opens the game offline after a reload and steps through its history', async () => {
    expect(gameId).not.toBe('');
    const page = (await contexts[0]!.pages())[0]!;
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await contexts[0]!.setOffline(true);
    await page.goto(`${served.base}#/game/${gameId}`);
    await page.reload();
    await expect.poll(() => phaseOf(page), { timeout: 20_000 }).toBe('1902-spring-movement');
    await page.locator('[data-tab="history"]').click();
    const shown = () => page.locator('[data-history-phase]').getAttribute('data-history-phase');
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const phase = await shown();
      if (phase !== null) seen.add(phase);
      const prev = page.locator('[data-action="history-prev"]');
      if (await prev.isDisabled()) break;
      await prev.click();
    }
    expect([...seen].sort()).toEqual(['1901-fall-movement', '1901-fall-retreat', '1901-spring-movement', '1901-winter-adjustment']);
    await shot(page, 'offline-history');
    await contexts[0]!.setOffline(false);
  }, 120_000);
});

// Variants in real Chromium, two browser profiles over the signaling server that serves the app:
// a classic two-player game (Italy neutral and impassable until the toss) created, joined and
// started, and a "1914" three-player game without Italy, whose lobby shows its three seats, Italy
// as neutral, and will not start with fewer players than seats. Screenshots go to test-output/.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { variantById } from '../../src/rules';
import { SCREENSHOTS, missingStrings, newProfile, serveApp, type Served } from '../ui/browser-app';

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

const shot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `app-variants-${name}.png`), fullPage: true });
const seatsShown = (page: Page) => page.locator('.lobby-seats li[data-seat]').evaluateAll((els) => els.map((e) => e.getAttribute('data-seat')));
const neutralShown = (page: Page) => page.locator('.lobby-seats li[data-neutral]').evaluateAll((els) => els.map((e) => e.getAttribute('data-neutral')));

/** The creator fills the form: players, rule set, split, seats by choice with a claim. */
async function createGame(
  page: Page,
  o: { players: string; ruleSet: 'classic' | '1914'; variant: string; claim: string },
): Promise<{ link: string; neutral: string | null }> {
  await page.goto(`${served.base}#/new`);
  await page.locator('input[name="name"]').fill('Ana');
  await page.locator('select[name="seats"]').selectOption(o.players);
  await page.locator(`input[name="ruleSet"][value="${o.ruleSet}"]`).check();
  await page.locator('select[name="variant"]').selectOption(o.variant);
  await page.locator('input[name="assignment"][value="choice"]').check();
  await page.locator('select[name="claim"]').selectOption(o.claim);
  await expect.poll(() => page.locator('#variant-summary').getAttribute('data-variant')).toBe(o.variant);
  const neutral = await page
    .locator('#variant-summary .variant-neutral')
    .getAttribute('data-neutral', { timeout: 2_000 })
    .catch(() => null);
  expect(await missingStrings(page)).toEqual([]);
  await shot(page, `new-${o.variant}`);
  await page.locator('[data-action="create-game"]').click();
  return { link: await page.locator('input.invite-link').inputValue(), neutral };
}

async function joinGame(page: Page, link: string, name: string, claim: string): Promise<void> {
  await page.goto(link);
  await page.locator('input[name="player-name"]').fill(name);
  await page.locator('select[name="claim"]').selectOption(claim);
  await page.locator('[data-action="join-game"]').click();
}

describe('variants in the browser', () => {
  it('two players: both sides are seats of three powers, Italy neutral and impassable; the game starts in Spring 1914', async () => {
    const variant = variantById('two-players')!;
    const ana = await profile('es-ES', 'phone');
    const bea = await profile('en-GB', 'laptop');
    const { link, neutral } = await createGame(ana, { players: '2', ruleSet: 'classic', variant: 'two-players', claim: 'austria' });
    expect(neutral).toBe('italy');
    await joinGame(bea, link, 'Bea', 'england');

    for (const page of [ana, bea]) {
      await expect.poll(() => seatsShown(page), { timeout: 60_000 }).toEqual(variant.seats.map((s) => s.id));
      expect(await neutralShown(page)).toEqual(['italy']);
      expect(await page.locator('.lobby-variant .impassable').getAttribute('data-impassable')).toBe('apu,nap,pie,rom,tus,ven');
      // The claim offers whole seats, not powers.
      expect(await page.locator('select[name="claim"] option').count()).toBe(variant.seats.length + 1);
      expect(await missingStrings(page)).toEqual([]);
    }
    await expect.poll(() => bea.locator('.lobby-seats li[data-seat="england-france-russia"]').textContent()).toContain('Bea');
    await expect.poll(() => ana.locator('select[name="holder-england-france-russia"] option:checked').textContent(), { timeout: 60_000 }).toContain('Bea');
    expect(await ana.locator('select[name="holder-austria-germany-turkey"] option:checked').textContent()).toContain('Ana');
    await shot(ana, 'lobby-two-players-es');
    await shot(bea, 'lobby-two-players-en');
    await ana.locator('[data-action="start-game"]').click();

    for (const page of [ana, bea]) {
      await expect.poll(() => page.locator('#game-phase').getAttribute('data-phase'), { timeout: 60_000 }).toBe('1914-spring-movement');
    }
    // Home lists the variant and the seat's powers (Italy is nobody's).
    await bea.goto(`${served.base}#/`);
    const item = bea.locator('.game-item').first();
    await expect.poll(() => item.locator('.game-variant').getAttribute('data-variant')).toBe('two-players');
    await expect.poll(() => item.locator('.game-powers').getAttribute('data-powers')).toBe('england,france,russia');
    expect(await item.locator('.game-variant').textContent()).toContain(variant.name.en);
    await shot(bea, 'home-en');
  }, 240_000);

  it('1914 with three players without Italy: three seats, Italy neutral, no impassable note, and no start with two players', async () => {
    const variant = variantById('1914-three-players-no-italy')!;
    const ana = await profile('en-GB', 'laptop');
    const bea = await profile('es-ES', 'phone');
    const { link, neutral } = await createGame(ana, { players: '3', ruleSet: '1914', variant: variant.id, claim: 'austria' });
    expect(neutral).toBe('italy');
    await joinGame(bea, link, 'Bea', 'france');
    for (const page of [ana, bea]) {
      await expect.poll(() => seatsShown(page), { timeout: 60_000 }).toEqual(variant.seats.map((s) => s.id));
      expect(await neutralShown(page)).toEqual(['italy']);
      expect(await page.locator('.lobby-variant .impassable').count()).toBe(0);
      expect(await page.locator('.lobby-variant').getAttribute('data-variant')).toBe(variant.id);
      expect(await missingStrings(page)).toEqual([]);
    }
    await expect.poll(() => ana.locator('.seats').getAttribute('data-players'), { timeout: 60_000 }).toBe('2');
    await expect.poll(() => ana.locator('.lobby-seats li[data-seat="france-turkey"]').textContent()).toContain('Bea');
    // Two players cannot fill three seats in a split game.
    expect(await ana.locator('.deal-problem').getAttribute('data-problem')).toBe('two-seats');
    expect(await ana.locator('[data-action="start-game"]').isDisabled()).toBe(true);
    await shot(ana, 'lobby-1914-three-en');
    await shot(bea, 'lobby-1914-three-es');
  }, 180_000);
});

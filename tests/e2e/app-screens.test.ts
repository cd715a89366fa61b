// The outer screens in real Chromium, in Spanish and English, at phone and laptop size: home,
// new game, join, settings, and the lobby; no missing string or unnamed control on any of them.
// Also: the device identity survives a reload, settings persist, a pasted invite opens the lobby,
// and a game this phone does not have says so.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SCREENSHOTS, missingStrings, serveApp, type Served } from '../ui/browser-app';
import { ACTION_TIMEOUT_MS } from './browser';

let served: Served;

beforeAll(async () => {
  served = await serveApp();
}, 180_000);

afterAll(async () => {
  await served?.close();
});

const sizes = { phone: { width: 390, height: 844 }, laptop: { width: 1280, height: 800 } } as const;

async function visit(page: Page, route: string, ready: string): Promise<void> {
  await page.goto(`${served.base}${route}`);
  await page.waitForSelector(ready);
}

describe('outer screens', () => {
  for (const locale of ['es-ES', 'en-GB'] as const) {
    for (const size of ['phone', 'laptop'] as const) {
      it(`render every string (${locale}, ${size})`, async () => {
        const context = await served.browser.newContext({ locale, viewport: sizes[size] });
        context.setDefaultTimeout(ACTION_TIMEOUT_MS);
        const page = await context.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        const lang = locale.slice(0, 2);
        for (const [route, ready, name] of [
          ['#/', '.home h2', 'home'],
          ['#/new', 'form.form', 'new'],
          ['#/join', '.join textarea', 'join'],
          ['#/settings', '.settings form', 'settings'],
        ] as const) {
          await visit(page, route, ready);
          expect(await missingStrings(page), `${route}`).toEqual([]);
          await page.screenshot({ path: join(SCREENSHOTS, `app-${name}-${lang}-${size}.png`), fullPage: true });
        }
        // A game created here opens its lobby with the invite.
        await visit(page, '#/new', 'form.form');
        await page.locator('input[name="name"]').fill(lang === 'es' ? 'Lucía' : 'Lucy');
        await page.locator('[data-action="create-game"]').click();
        await page.waitForSelector('input.invite-link');
        expect(await missingStrings(page)).toEqual([]);
        await page.screenshot({ path: join(SCREENSHOTS, `app-lobby-${lang}-${size}.png`), fullPage: true });
        expect(errors).toEqual([]);
        await context.close();
      }, 60_000);
    }
  }

  it('keeps the identity, name and language across reloads, and lists games created here', async () => {
    const context = await served.browser.newContext({ locale: 'es-ES', viewport: sizes.phone });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const page = await context.newPage();
    await visit(page, '#/settings', '.settings form');
    const print = await page.locator('.settings code').textContent();
    expect(print).toMatch(/^[0-9a-f]{4}(-[0-9a-f]{4}){3}$/);
    await page.locator('input[name="settings-name"]').fill('Marta');
    await page.locator('select[name="settings-language"]').selectOption('en');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForSelector('.settings [role="status"]');
    await page.reload();
    await page.waitForSelector('.settings form');
    expect(await page.locator('.settings code').textContent()).toBe(print);
    expect(await page.locator('input[name="settings-name"]').inputValue()).toBe('Marta');
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('en');
    // The new-game form starts from the saved name; the game shows up on the home screen.
    await visit(page, '#/new', 'form.form');
    expect(await page.locator('input[name="name"]').inputValue()).toBe('Marta');
    await page.locator('[data-action="create-game"]').click();
    const link = await page.locator('input.invite-link').inputValue();

    // Another phone pastes the link on the join screen and lands in the lobby.
    const other = await served.browser.newContext({ locale: 'en-GB', viewport: sizes.phone });
    other.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const guest = await other.newPage();
    await visit(guest, '#/join', '.join textarea');
    await guest.locator('.join textarea').fill('not a link');
    await guest.locator('[data-action="open-invite"]').click();
    await guest.waitForSelector('.join [role="alert"]');
    await guest.locator('.join textarea').fill(link);
    await guest.locator('[data-action="open-invite"]').click();
    await guest.waitForSelector('input[name="player-name"]');
    expect(await guest.locator('.players li').first().textContent()).toContain('Marta');
    expect(guest.url()).not.toContain('k=');
    await expect.poll(() => page.locator('.seats').getAttribute('data-players'), { timeout: 30_000 }).toBe('1');
    await guest.locator('input[name="player-name"]').fill('Guest');
    await guest.locator('[data-action="join-game"]').click();
    // The creator sees the seat taken live; then the game is on the home screens of both phones.
    await expect.poll(() => page.locator('.seats').getAttribute('data-players'), { timeout: 30_000 }).toBe('2');
    for (const p of [page, guest]) {
      await visit(p, '#/', '.home h2');
      await expect.poll(() => p.locator('.games li').count()).toBe(1);
      expect(await p.locator('.games li').textContent()).toContain('Marta');
    }

    // A game this phone never saw.
    await visit(guest, '#/game/0123456789abcdef0123456789abcdef', '[role="alert"]');
    await other.close();
    await context.close();
  }, 90_000);

  it('draws the powers by lot in a two-player game and starts it', async () => {
    const a = await served.browser.newContext({ locale: 'es-ES', viewport: sizes.phone });
    const b = await served.browser.newContext({ locale: 'en-GB', viewport: sizes.laptop });
    for (const c of [a, b]) c.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const host = await a.newPage();
    const guest = await b.newPage();
    await visit(host, '#/new', 'form.form');
    await host.locator('input[name="name"]').fill('Pilar');
    await host.locator('select[name="seats"]').selectOption('2');
    expect(await host.locator('input[name="assignment"][value="lot"]').isChecked()).toBe(true);
    await host.locator('[data-action="create-game"]').click();
    const link = await host.locator('input.invite-link').inputValue();
    await guest.goto(link);
    await guest.locator('input[name="player-name"]').fill('Quentin');
    expect(await guest.locator('select[name="claim"]').count()).toBe(0);
    await guest.locator('[data-action="join-game"]').click();
    await expect.poll(() => host.locator('.seats').getAttribute('data-players'), { timeout: 30_000 }).toBe('2');
    // The START names who draws; the phones then seal, lock and open their values by themselves.
    await host.locator('[data-action="draw-lots"]').click();
    // Two players means seed 002's two-player game, which starts in Spring 1914 with whole seats dealt.
    for (const p of [host, guest])
      await expect.poll(() => p.locator('#game-phase').getAttribute('data-phase'), { timeout: 30_000 }).toBe('1914-spring-movement');
    expect(await missingStrings(guest)).toEqual([]);
    await guest.screenshot({ path: join(SCREENSHOTS, 'app-lot-started-laptop.png'), fullPage: true });
    await a.close();
    await b.close();
  }, 90_000);
});

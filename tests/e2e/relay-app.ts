// Shared by the relay's browser tests: phones (browser profiles) that open the app one page at a
// time, act, wait until the relay has everything of theirs, and close; and reading a phone's own
// IndexedDB (its admitted entries, its outbox) from the page.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { fromBase64, reduceLog, type GameView } from '../../src/protocol';

export interface PhoneProfile {
  readonly name: string;
  readonly context: BrowserContext;
}

/** The relay part of the page's status line: connected, caught up, and nothing of ours waiting. */
export async function relaySettled(page: Page, quietMs = 2_000, timeout = 60_000): Promise<void> {
  const ok = () =>
    page.evaluate(() => {
      const el = document.querySelector('[data-relay-waiting]');
      return (
        el !== null &&
        el.getAttribute('data-relay-waiting') === '0' &&
        el.getAttribute('data-relays-caught-up') === el.getAttribute('data-relays-connected') &&
        el.getAttribute('data-relays-connected') !== '0'
      );
    });
  const deadline = Date.now() + timeout;
  let since = 0;
  for (;;) {
    if (await ok()) {
      since ||= Date.now();
      if (Date.now() - since >= quietMs) return;
    } else since = 0;
    if (Date.now() > deadline)
      throw new Error(
        `relay never settled: ${await page
          .locator('[data-relay-waiting]')
          .first()
          .evaluate((e) => e.outerHTML)
          .catch(() => 'no status')}`,
      );
    await page.waitForTimeout(200);
  }
}

/** The game's admitted entries as this profile's IndexedDB holds them (the phone's truth). */
export async function storedEntries(page: Page, gameId: string): Promise<Uint8Array[]> {
  const list = await page.evaluate(
    (id) =>
      new Promise<string[]>((resolve, reject) => {
        const req = indexedDB.open('pacto');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          const get = db.transaction('entries', 'readonly').objectStore('entries').index('byGame').getAll(id);
          get.onerror = () => reject(get.error);
          get.onsuccess = () => {
            db.close();
            resolve(
              (get.result as { bytes: Uint8Array }[]).map((r) => {
                let s = '';
                for (const b of r.bytes) s += String.fromCharCode(b);
                return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
              }),
            );
          };
        };
      }),
    gameId,
  );
  return list.map((b) => fromBase64(b)!);
}

/** How many of this profile's updates for the game are still in its outbox. */
export async function outboxSize(page: Page, gameId: string): Promise<number> {
  return page.evaluate(
    (id) =>
      new Promise<number>((resolve, reject) => {
        const req = indexedDB.open('pacto');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          const c = db.transaction('outbox', 'readonly').objectStore('outbox').index('byGame').count(id);
          c.onsuccess = () => {
            db.close();
            resolve(c.result);
          };
          c.onerror = () => reject(c.error);
        };
      }),
    gameId,
  );
}

/**
 * The once-only names this profile reserved for the game (the reservations' own database,
 * src/store/reservations.ts), oldest first: a name reserved whose message never shows in the log
 * is a message this phone will never sign.
 */
export async function reservedOnce(page: Page, gameId: string): Promise<string[]> {
  return page.evaluate(
    (id) =>
      new Promise<string[]>((resolve, reject) => {
        const req = indexedDB.open('pacto-reserved');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          if (!db.objectStoreNames.contains('games')) {
            db.close();
            resolve([]);
            return;
          }
          const get = db.transaction('games', 'readonly').objectStore('games').get(id);
          get.onerror = () => reject(get.error);
          get.onsuccess = () => {
            db.close();
            resolve([...((get.result as { once?: string[] } | undefined)?.once ?? [])]);
          };
        };
      }),
    gameId,
  );
}

export function viewOf(gameId: string, entries: readonly Uint8Array[]): GameView {
  return reduceLog(gameId, [...entries]);
}

/** The phase the game screen shows, or null (lobby, loading): read at once, never waited for. */
export const phaseOf = (page: Page): Promise<string | null> => page.evaluate(() => document.querySelector('#game-phase')?.getAttribute('data-phase') ?? null);

/** Every file under `dir`, concatenated (a relay's LMDB directory, a Redis dump). */
export function filesUnder(dir: string): Buffer {
  const out: Buffer[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(readFileSync(p));
    }
  };
  walk(dir);
  return Buffer.concat(out);
}

/** The needles found in `haystack` (as UTF-8, and as UTF-16LE for good measure). */
export function plaintextFound(haystack: Buffer, needles: readonly string[]): string[] {
  return needles.filter((n) => haystack.includes(Buffer.from(n, 'utf8')) || haystack.includes(Buffer.from(n, 'utf16le')));
}

export async function expectSameState(gameId: string, pages: readonly Page[]): Promise<GameView> {
  const views = await Promise.all(pages.map(async (p) => viewOf(gameId, await storedEntries(p, gameId))));
  for (const v of views.slice(1)) expect(v.stateHash).toBe(views[0]!.stateHash);
  return views[0]!;
}

/** From wherever the press tab is (a conversation open or not), back to its list of conversations. */
async function pressList(page: Page): Promise<void> {
  await page.locator('[data-tab="press"]').click();
  const back = page.locator('[data-action="threads"]');
  if ((await back.count()) > 0) await back.click();
}

/** Sends a press message to every player from the game screen's press tab, and waits until it shows as sent. */
export async function sendPress(page: Page, text: string): Promise<void> {
  await pressList(page);
  const all = page.locator('input[data-recipient="all"]');
  if (!(await all.isChecked())) await all.check();
  await page.locator('.chat-form textarea').fill(text);
  await page.locator('[data-action="send-chat"]').click();
  // Sent, the table's conversation opens with it.
  await expect.poll(() => page.locator('.chat.mine .chat-text').allTextContents(), { timeout: 20_000 }).toContain(text);
}

/** The press messages this phone can read, from its press tab: every conversation opened in turn. */
export async function pressTexts(page: Page): Promise<string[]> {
  await pressList(page);
  const out: string[] = [];
  const threads = await page.locator('[data-thread]').evaluateAll((els) => els.map((e) => e.getAttribute('data-thread')!));
  for (const id of threads) {
    await page.locator(`[data-thread="${id}"]`).click();
    out.push(...(await page.locator('.chat .chat-text').allTextContents()));
    await page.locator('[data-action="threads"]').click();
  }
  return out;
}

/**
 * The creator fills New game (name, seats, the power they choose, and under "Advanced" the
 * signaling address, the relays and the ICE servers) and creates it; the invite link, the game id
 * and the power chosen.
 */
export async function createGameWith(
  page: Page,
  base: string,
  o: {
    readonly name: string;
    readonly seats: number;
    readonly claim: string | { readonly index: number };
    readonly signaling: string;
    readonly relays: string;
    readonly iceServers?: string;
  },
): Promise<{ link: string; gameId: string; claim: string }> {
  await page.goto(`${base}#/new`);
  await page.locator('input[name="name"]').fill(o.name);
  await page.locator('select[name="seats"]').selectOption(String(o.seats));
  await page.locator('input[name="assignment"][value="choice"]').check();
  await page.locator('select[name="claim"]').selectOption(o.claim);
  const claim = await page.locator('select[name="claim"]').inputValue();
  await page.locator('[data-section="advanced"] summary').click();
  await page.locator('input[name="signaling"]').fill(o.signaling);
  await page.locator('textarea[name="relays"]').fill(o.relays);
  if (o.iceServers !== undefined) await page.locator('textarea[name="iceServers"]').fill(o.iceServers);
  await page.locator('[data-action="create-game"]').click();
  const link = await page.locator('input.invite-link').inputValue();
  return { link, gameId: new URLSearchParams(link.split('#')[1]).get('g')!, claim };
}

/**
 * The second player opens the invite on `page`, takes a power other than `takenClaim`, joins under
 * `name`; the creator's page (`creator`) starts the two-player game once both are seated; resolves
 * to the first phase once both pages show it.
 */
export async function joinSecondAndStart(creator: Page, page: Page, link: string, takenClaim: string, name: string): Promise<string> {
  await page.goto(link);
  await page.locator('input[name="player-name"]').waitFor({ timeout: 60_000 });
  await page.locator('input[name="player-name"]').fill(name);
  const options = await page.locator('select[name="claim"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  await page.locator('select[name="claim"]').selectOption(options.find((v) => v !== '' && v !== takenClaim)!);
  await page.locator('[data-action="join-game"]').click();
  await expect.poll(() => creator.locator('.seats').getAttribute('data-players'), { timeout: 60_000 }).toBe('2');
  await creator.locator('[data-action="start-game"]').click();
  // The two-player variant's first phase (not 1901).
  await expect.poll(() => phaseOf(creator), { timeout: 60_000 }).toMatch(/-spring-movement$/);
  const first = (await phaseOf(creator))!;
  await expect.poll(() => phaseOf(page), { timeout: 60_000 }).toBe(first);
  return first;
}

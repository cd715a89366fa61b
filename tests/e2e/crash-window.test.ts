// The attack on "peers' entries are written a moment later" (src/protocol/README.md): a phone
// keeps a peer's entry in memory for up to a quarter of a second (PEER_WRITES) before it writes
// it, so a crash in that wait loses it from the phone's IndexedDB. The claim is that nothing
// honest is lost even so: the entry came from a peer, the peer still holds it and sends it again.
// Here, in the real app in real Chromium over WebRTC: Bea's phone shows Ana's press message,
// and in the same instant (before any timer of hers can run) her page's renderer is crashed, no
// pagehide. Reopened on the same profile, her IndexedDB alone lacks the message (the window is
// real); once the app reconnects to Ana, it holds every entry Ana holds again, the same state.
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ACTION_TIMEOUT_MS } from './browser';
import { joinSecondAndStart, pressTexts, sendPress, storedEntries, viewOf } from './relay-app';
import { serveApp, type Served } from '../ui/browser-app';
import { LOG_KEY } from '../../src/net/log-doc';

let served: Served;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  served = await serveApp();
}, 180_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await served?.close();
});

/** A phone's browser profile. Service workers are kept out, so a page of the app's origin that is
 *  not the app (the probe below) can be served to read the profile's IndexedDB with no app running. */
async function phone(locale: string): Promise<Page> {
  const context = await served.browser.newContext({
    locale,
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    serviceWorkers: 'block',
  });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  contexts.push(context);
  await context.route(PROBE(), (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>probe</title>' }));
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[${locale}] page error:`, e.message));
  return page;
}

/** The blank page of the app's origin (phone() serves it). */
const PROBE = (): string => `${served.base}crash-probe.html`;

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

/** Every entry of the game a profile's IndexedDB holds, as the app would load it on opening: the
 *  admitted entries' store and the log of the Yjs updates' store (read by a blank page of the app's
 *  origin, so no app code runs and nothing reconnects). */
async function reloadableEntries(page: Page, gameId: string): Promise<Set<string>> {
  const raw = await page.evaluate(
    (id) =>
      new Promise<{ entries: number[][]; updates: number[][] }>((resolve, reject) => {
        const req = indexedDB.open('pacto');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          const tx = db.transaction(['entries', 'updates'], 'readonly');
          const e = tx.objectStore('entries').index('byGame').getAll(id);
          const u = tx.objectStore('updates').index('byGame').getAll(id);
          tx.oncomplete = () => {
            db.close();
            resolve({
              entries: (e.result as { bytes: Uint8Array }[]).map((r) => [...r.bytes]),
              updates: (u.result as { update: Uint8Array }[]).map((r) => [...r.update]),
            });
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    gameId,
  );
  const out = new Set(raw.entries.map((e) => b64(Uint8Array.from(e))));
  const doc = new Y.Doc();
  for (const u of raw.updates) Y.applyUpdate(doc, Uint8Array.from(u));
  for (const m of doc.getArray<Uint8Array>(LOG_KEY).toArray()) if (m instanceof Uint8Array) out.add(b64(m));
  doc.destroy();
  return out;
}

const storedSet = async (page: Page, gameId: string): Promise<string[]> => (await storedEntries(page, gameId)).map(b64).sort();

const CHAT = 'Bea, this message comes in the crash window';
const TRIPWIRE = 'pacto-test: chat shown, main thread held';
/** Tries at catching the message in the wait (see the loop). */
const ATTEMPTS = 3;

describe("a phone crashing while peers' entries wait to be written", () => {
  it('loses them from its IndexedDB, and gets every one back from the peer on reconnecting', async () => {
    const ana = await phone('en-GB');
    const bea = await phone('en-GB');

    // A two-player game, seats chosen, started.
    await ana.goto(`${served.base}#/new`);
    await ana.locator('input[name="name"]').fill('Ana');
    await ana.locator('select[name="seats"]').selectOption('2');
    await ana.locator('input[name="assignment"][value="choice"]').check();
    await ana.locator('select[name="claim"]').selectOption({ index: 1 });
    const anaClaim = await ana.locator('select[name="claim"]').inputValue();
    await ana.locator('[data-action="create-game"]').click();
    const link = await ana.locator('input.invite-link').inputValue();
    const gameId = new URLSearchParams(link.split('#')[1]).get('g')!;
    expect(gameId).toBeTruthy();
    await joinSecondAndStart(ana, bea, link, anaClaim, 'Bea');

    // Bea looks at her press tab. The instant her page shows a message of Ana's (so her replica has
    // admitted its entry), her main thread is held in a loop: no timer of hers runs again, so the
    // quarter-second write cannot happen, and her renderer is then crashed (no pagehide, no
    // visibilitychange): a phone whose tab is killed in the wait. The window is hit only if her
    // page shows the message within the wait; on a machine so loaded that it does not, the attempt
    // proves nothing either way and Bea reopens the game for another (at most ATTEMPTS).
    let page = bea;
    let lost: string[] = [];
    let added: string[] = [];
    let chat = CHAT;
    for (let attempt = 1; attempt <= ATTEMPTS && lost.length === 0; attempt++) {
      // Both phones have written everything so far, and Bea's waits are over (longer than the bound
      // PEER_WRITES.maxMs): nothing of hers is pending when Ana's message comes.
      await expect
        .poll(async () => (await storedSet(page, gameId)).join() === (await storedSet(ana, gameId)).join(), { timeout: 90_000, interval: 500 })
        .toBe(true);
      await page.waitForTimeout(3_000);
      const before = new Set(await storedSet(page, gameId));
      expect(before.size).toBeGreaterThan(0);
      chat = `${CHAT} (${attempt})`;
      await page.locator('[data-tab="press"]').click();
      const cdp = await page.context().newCDPSession(page);
      const shown = page;
      const tripped = new Promise<void>((resolve) => shown.on('console', (m) => m.text() === TRIPWIRE && resolve()));
      await page.evaluate(
        ([text, tripwire]) => {
          const observer = new MutationObserver(() => {
            if (!document.body.textContent?.includes(text)) return;
            observer.disconnect();
            console.log(tripwire);
            for (;;) {
              // held until the renderer is crashed
            }
          });
          observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        },
        [chat, TRIPWIRE] as const,
      );
      const crashed = new Promise<void>((resolve) => shown.once('crash', () => resolve()));
      await sendPress(ana, chat);
      await tripped;
      void cdp.send('Page.crash').catch(() => undefined);
      await crashed;

      // Ana wrote her own message at once.
      const anaHolds = new Set(await storedSet(ana, gameId));
      added = [...anaHolds].filter((e) => !before.has(e));
      expect(added.length).toBeGreaterThan(0);

      // Bea reopens on the same profile. (a) From her IndexedDB alone (entries and Yjs updates,
      // read before any app code runs) the message's entries are gone: the window is real.
      await page.close();
      page = await bea.context().newPage();
      page.on('pageerror', (e) => console.error('[bea, reopened] page error:', e.message));
      await page.goto(PROBE());
      const reloadable = await reloadableEntries(page, gameId);
      for (const e of before) expect(reloadable.has(e)).toBe(true);
      lost = added.filter((e) => !reloadable.has(e));
      if (lost.length === 0) {
        console.warn(`[crash-window] attempt ${attempt}: the message was written before the page showed it; again`);
        await page.goto(`${served.base}#/game/${gameId}`);
      }
    }
    expect(lost.length).toBeGreaterThan(0);
    const reopened = page;

    // (b) The app opens the game and reconnects to Ana: Ana sends what Bea lacks, and Bea holds
    // every entry Ana holds again (written to her IndexedDB), the same state, the message shown.
    await reopened.goto(`${served.base}#/game/${gameId}`);
    await expect
      .poll(async () => (await storedSet(reopened, gameId)).join() === (await storedSet(ana, gameId)).join(), { timeout: 90_000, interval: 500 })
      .toBe(true);
    const mine = await storedSet(reopened, gameId);
    for (const e of added) expect(mine).toContain(e);
    const [viewA, viewB] = await Promise.all([storedEntries(ana, gameId), storedEntries(reopened, gameId)].map(async (p) => viewOf(gameId, await p)));
    expect(viewB!.stateHash).toBe(viewA!.stateHash);
    await expect.poll(() => pressTexts(reopened), { timeout: 30_000 }).toContain(chat);
  }, 300_000);
});

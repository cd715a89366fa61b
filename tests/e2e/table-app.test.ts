// Table mode in the app, in real Chromium: three phone profiles load the app once, then the server
// stops and every HTTP request of theirs fails, so the app runs from its service worker cache and the phones
// have nothing but WebRTC between them (host candidates, no STUN, no signaling). They pair the way
// people do: the app shows a QR code, the test screenshots that element and plays it to Chromium's
// fake camera, and the other phone's app reads it through its own camera path (getUserMedia →
// video → canvas → jsqr). Nothing is handed to a page behind the app's back: the only way a code
// reaches a phone is its camera. The fake camera is one file per browser process, read when a
// camera opens, so the file is written before the scanning phone taps "Scan with the camera".
// Then the lobby, the start and Spring 1901; a guest's page closes mid-Fall, pairs again and
// catches up, and Fall 1901 takes two centres; the Winter builds; in Spring 1902 the host seals and
// her page closes, the two guests pair with each other and finish the phase without her the way the
// protocol allows (her sealed orders opened from the escrow shares once the two vote her out after
// the reveal stage's ten minutes, which the guests' clocks are moved through), and the host comes
// back through a guest; finally the server returns and the same game goes on through it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { build } from 'vite';
import { CHROMIUM_FLAGS, chromiumPath, ACTION_TIMEOUT_MS } from './browser';
import { FakeCamera, LocalApp } from './local-app';
import { expectSameState } from './relay-app';
import { tapOnMap } from '../ui/browser-app';

let dir: string;
let outDir: string;
let camera: FakeCamera;
let app: LocalApp;
let browser: Browser;
let helper: Page;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pacto-table-app-'));
  camera = new FakeCamera(join(dir, 'camera.y4m'));
  outDir = join(dir, 'app');
  await build({ logLevel: 'error', build: { outDir, emptyOutDir: true } });
  app = new LocalApp(outDir);
  await app.start();
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_FLAGS, ...camera.flags],
  });
  // The test's own tool (not a phone): turns a screenshot into grey levels for the camera file.
  helper = await (await browser.newContext()).newPage();
}, 180_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await app?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const base = (): string => app.base;

/** A phone: its own profile, the app loaded once online and kept by its service worker. */
async function phone(locale: string): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, permissions: ['camera'] });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`[${locale}] page error:`, e.message));
  page.on('console', (m) => {
    if (
      (m.type() === 'warning' || m.type() === 'error') &&
      !/WebSocket connection|ERR_INTERNET_DISCONNECTED|ERR_CONNECTION_REFUSED|Failed to load resource/.test(m.text())
    )
      console.warn(`[${locale}] ${m.text()}`);
  });
  await page.goto(base());
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 }).toBe(true);
  return page;
}

/** Points the fake camera at a QR code on a phone's screen (a screenshot of that element). */
async function aimCameraAt(qr: Locator): Promise<void> {
  await qr.waitFor({ timeout: 30_000 });
  const png = (await qr.screenshot({ type: 'png' })).toString('base64');
  const { width, height, y } = await helper.evaluate(async (p) => {
    const bytes = Uint8Array.from(atob(p), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    // A white margin, and even sides (4:2:0 halves them).
    const w = bitmap.width + 80 + (bitmap.width % 2);
    const h = bitmap.height + 80 + (bitmap.height % 2);
    const canvas = new OffscreenCanvas(w, h);
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, w, h);
    ctx.drawImage(bitmap, 40, 40);
    const data = ctx.getImageData(0, 0, w, h).data;
    let s = '';
    for (let i = 0; i < data.length; i += 4) s += String.fromCharCode(Math.round(0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!));
    return { width: w, height: h, y: btoa(s) };
  }, png);
  camera.show(width, height, Buffer.from(y, 'base64'));
}

const offerQr = (p: Page): Locator => p.locator('[data-table-qr="offer"] svg');
const answerQr = (p: Page): Locator => p.locator('[data-table-qr="answer"] svg');

async function openPanel(p: Page): Promise<void> {
  const panel = p.locator('details[data-section="table"]');
  await panel.waitFor();
  if ((await panel.getAttribute('open')) === null) await panel.locator('summary').click();
}

/** `host` shows an offer; `guest` scans it (from "Join at the table" when new, else its game's panel). */
async function pair(host: Page, guest: Page, guestIsNew: boolean): Promise<void> {
  await openPanel(host);
  await host.locator('[data-action="table-pair"]').click();
  await aimCameraAt(offerQr(host));
  if (guestIsNew) {
    await guest.locator('[data-action="join-table"]').click();
    await expect.poll(() => guest.locator('[data-app-kept]').getAttribute('data-app-kept'), { timeout: 30_000 }).toBe('true');
  } else {
    await openPanel(guest);
    await guest.locator('[data-action="table-scan-offer"]').click();
  }
  await guest.locator('[data-action="table-camera"]').click();
  await aimCameraAt(answerQr(guest));
  await host.locator('[data-action="table-camera"]').click();
  try {
    await expect.poll(() => host.locator('[data-table-message]').getAttribute('data-table-message'), { timeout: 60_000 }).toBe('ok');
  } catch (e) {
    for (const p of [host, guest]) console.warn(`pairing failed; ${p === host ? 'host' : 'guest'} shows:`, await p.locator('main').innerText());
    throw e;
  }
}

const phaseOf = (page: Page): Promise<string | null> => page.evaluate(() => document.querySelector('#game-phase')?.getAttribute('data-phase') ?? null);

async function waitPhase(pages: readonly Page[], phase: string): Promise<void> {
  for (const p of pages) await expect.poll(() => phaseOf(p), { timeout: 90_000, interval: 250 }).toBe(phase);
}

const board = (page: Page): Promise<void> => page.locator('[data-tab="board"]').click();

/** The board's label for a province: "Kiel: Fleet, Germany" and the like. */
const label = (page: Page, province: string) => page.locator(`.board-svg [data-province="${province}"]`).first().getAttribute('aria-label');

/** A move entered the way a finger does it: the unit, then where it goes. */
async function move(page: Page, from: string, to: string): Promise<void> {
  await board(page);
  await tapOnMap(page, from);
  await tapOnMap(page, to);
  await expect.poll(() => page.locator(`li[data-order="${from}"]`).count()).toBe(1);
}

async function seal(page: Page): Promise<void> {
  await board(page);
  await page.locator('[data-action="seal"]').click();
  await page.locator('[data-action="confirm-seal"]').click();
  await expect.poll(() => page.locator('[data-action="confirm-seal"]').count(), { timeout: 20_000 }).toBe(0);
}

/** Waits until every phone has left `from` for the same phase, then compares their state hashes. */
async function resolvedPast(pages: readonly Page[], from: string): Promise<void> {
  await expect.poll(() => phaseOf(pages[0]!), { timeout: 90_000 }).not.toBe(from);
  const next = (await phaseOf(pages[0]!))!;
  await waitPhase(pages, next);
  await sameStateSoon(pages);
}

/** The phones' stored entries reduce to one state. The screens move on as soon as the entries are
 *  admitted and their IndexedDB writes follow, so this waits for the writes (bounded). */
async function sameStateSoon(pages: readonly Page[]): Promise<void> {
  await expect
    .poll(
      async () => {
        try {
          await expectSameState(gameId, pages);
          return true;
        } catch {
          return false;
        }
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}

/** How many phones a page's table panel lists as linked, and as dropped. */
const linked = (p: Page) => p.locator('.table-phones li[data-linked="true"]').count();
const dropped = (p: Page) => p.locator('.table-phones li[data-linked="false"]').count();

let gameId = '';
let ana: Page;
let bea: Page;
let carl: Page;

describe('a game at the table: no server, no internet, phones paired by their cameras', () => {
  it('three phones pair by QR codes with HTTP offline, fill the lobby, start and resolve Spring 1901', async () => {
    ana = await phone('es-ES');
    bea = await phone('en-GB');
    carl = await phone('en-GB');
    await app.stop();
    // HTTP offline: every request that leaves a phone fails as with no internet, so only the
    // service worker's cache serves the app. (context.setOffline would be the obvious way, but
    // Chromium's offline emulation also blocks WebRTC between pages, measured here: a data channel
    // between two offline profiles never opens, the same pair online opens at once.)
    for (const c of contexts) await c.route('**/*', (r) => r.abort('internetdisconnected'));

    await ana.locator('[data-action="new-game"]').click();
    await ana.locator('input[name="name"]').fill('Ana');
    await ana.locator('select[name="seats"]').selectOption('3');
    await ana.locator('input[name="assignment"][value="choice"]').check();
    await ana.locator('select[name="claim"]').selectOption('france');
    await ana.locator('input[name="kind"][value="offline-table"]').check();
    await expect.poll(() => ana.locator('[data-app-kept]').getAttribute('data-app-kept'), { timeout: 30_000 }).toBe('true');
    await ana.locator('[data-action="create-game"]').click();
    await expect.poll(() => ana.url(), { timeout: 30_000 }).toMatch(/#\/game\//);
    gameId = /#\/game\/(.+)$/.exec(ana.url())![1]!;

    for (const [guest, name, power] of [
      [bea, 'Bea', 'austria'],
      [carl, 'Carl', 'italy'],
    ] as const) {
      await pair(ana, guest, true);
      await expect.poll(() => guest.url(), { timeout: 30_000 }).toContain(`#/game/${gameId}`);
      await guest.locator('input[name="player-name"]').fill(name);
      await guest.locator('select[name="claim"]').selectOption(power);
      await guest.locator('[data-action="join-game"]').click();
    }
    await expect.poll(() => linked(ana), { timeout: 30_000 }).toBe(2);
    // Bea's JOIN reached Carl only through Ana: the host relays between guests.
    for (const p of [ana, bea, carl]) await expect.poll(() => p.locator('.seats').getAttribute('data-players'), { timeout: 60_000 }).toBe('3');
    await ana.locator('[data-action="start-game"]').click();
    await waitPhase([ana, bea, carl], '1901-spring-movement');

    await tapOnMap(ana, 'par');
    await tapOnMap(ana, 'pic');
    await tapOnMap(bea, 'mun');
    await tapOnMap(bea, 'bur');
    for (const p of [ana, bea, carl]) await seal(p);
    await waitPhase([ana, bea, carl], '1901-fall-movement');
    await expect.poll(() => carl.locator('.board-svg [data-province="bur"]').first().getAttribute('aria-label'), { timeout: 30_000 }).toMatch(/Army, Germany/);
    await sameStateSoon([ana, bea, carl]);
  }, 400_000);

  it('a guest whose page closed mid-phase is seen dropped, pairs again in two scans and catches up', async () => {
    expect(gameId).not.toBe('');
    const beaContext = bea.context();
    await bea.close();
    await openPanel(ana);
    await expect.poll(() => dropped(ana), { timeout: 60_000 }).toBe(1);
    // Ana and Carl seal while Bea is away; France takes Belgium.
    await move(ana, 'pic', 'bel');
    await seal(ana);
    await seal(carl);
    bea = await beaContext.newPage();
    await bea.goto(`${base()}#/game/${gameId}`);
    await waitPhase([bea], '1901-fall-movement');
    await pair(ana, bea, false);
    await expect.poll(() => linked(ana), { timeout: 30_000 }).toBe(2);
    // Germany takes Denmark.
    await move(bea, 'kie', 'den');
    await seal(bea);
    await resolvedPast([ana, bea, carl], '1901-fall-movement');
    expect(await phaseOf(carl)).toBe('1901-winter-adjustment');
    await expect.poll(() => label(carl, 'bel'), { timeout: 30_000 }).toMatch(/Army, France/);
    await expect.poll(() => label(carl, 'den'), { timeout: 30_000 }).toMatch(/Fleet, Germany/);
  }, 300_000);

  it('Winter 1901: France and Germany build over the table links; Spring 1902 opens on every phone', async () => {
    await board(ana);
    // Paris is inland: an army is the only build there, so the tap enters it.
    await tapOnMap(ana, 'par');
    await expect.poll(() => ana.locator('li[data-order="par"]').count()).toBe(1);
    await board(bea);
    await tapOnMap(bea, 'kie');
    await bea.locator('.options button', { hasText: /fleet/i }).first().click();
    await expect.poll(() => bea.locator('li[data-order="kie"]').count()).toBe(1);
    // Carl has nothing to adjust: only France's and Germany's holders seal.
    await seal(ana);
    await seal(bea);
    await resolvedPast([ana, bea, carl], '1901-winter-adjustment');
    expect(await phaseOf(carl)).toBe('1902-spring-movement');
    await board(carl);
    await expect.poll(() => label(carl, 'par'), { timeout: 30_000 }).toMatch(/Army, France/);
    await expect.poll(() => label(carl, 'kie'), { timeout: 30_000 }).toMatch(/Fleet, Germany/);
  }, 300_000);

  it('the host seals and leaves: the guests pair with each other and finish the phase without her; she comes back through one of them', async () => {
    const phase = (await phaseOf(ana))!;
    expect(phase).toBe('1902-spring-movement');
    const anaContext = ana.context();
    // Ana orders A Bel-Hol, seals, and her page closes once both guests hold her commit.
    await move(ana, 'bel', 'hol');
    await seal(ana);
    for (const p of [bea, carl]) {
      await board(p);
      await expect.poll(() => p.locator('[data-list="sealed"]').innerText(), { timeout: 60_000 }).toContain('France');
    }
    await ana.close();
    await expect.poll(() => linked(carl), { timeout: 60_000 }).toBe(0);
    // The two guests had no link of their own (each was paired with Ana): they pair now.
    await pair(bea, carl, false);
    for (const p of [bea, carl]) await seal(p);
    // Everyone has sealed but Ana is not there to sign her FINAL, so the automatic steps wait for
    // her. A table game has no orders deadline, but the reveal stage has one (ten minutes after
    // the commits): the guests' clocks go through it, and each is offered the vote against the
    // powers that stalled it, Ana's two.
    for (const p of [bea, carl]) {
      expect(await p.locator('[data-action="vote-timeout"]').count()).toBe(0);
      await p.context().clock.setSystemTime(Date.now() + 11 * 60_000);
    }
    for (const p of [bea, carl]) {
      await board(p);
      const vote = p.locator('[data-action="vote-timeout"]');
      await expect.poll(() => vote.count(), { timeout: 30_000 }).toBe(1);
      expect(await vote.innerText()).toMatch(/France.*Turkey|Turkey.*France/);
      await vote.click();
    }
    // France and Turkey timed out by both others; their sealed commits open from the guests'
    // escrow shares, so Ana's move is played though her phone is gone.
    await resolvedPast([bea, carl], phase);
    expect(await phaseOf(carl)).toBe('1902-fall-movement');
    await board(carl);
    await expect.poll(() => label(carl, 'hol'), { timeout: 30_000 }).toMatch(/Army, France/);
    // Ana returns and pairs with Bea, not with Carl, the first host: everything reaches her.
    ana = await anaContext.newPage();
    await ana.goto(`${base()}#/game/${gameId}`);
    await waitPhase([ana], phase);
    await pair(bea, ana, false);
    await waitPhase([ana], '1902-fall-movement');
    await sameStateSoon([ana, bea, carl]);
  }, 300_000);

  it('the same game then continues online, through the signaling server its invite names', async () => {
    const phase = (await phaseOf(ana))!;
    await app.start();
    for (const c of contexts) await c.unroute('**/*');
    // A reload drops every table link: from now on the phones meet only through the server that
    // served the app, the one the invite Bea and Carl were given at the table names.
    for (const p of [ana, bea, carl]) {
      await p.reload();
      await waitPhase([p], phase);
      expect(await p.locator('.table-phones').getAttribute('data-phones')).toBe('0');
    }
    for (const p of [ana, bea, carl]) await seal(p);
    await resolvedPast([ana, bea, carl], phase);
  }, 300_000);
});

// Duties in the background (issue 13), in real Chromium with the real relay process (LMDB on
// disk) and no WebRTC: three phones create a game and turn its notifications on; Bea and Carlota
// seal Spring 1901 and close the app for good; Ana seals last with her app open. From then on Bea's
// and Carlota's phones act only through their service workers, woken by pushes delivered with the
// DevTools protocol (ServiceWorker.deliverPushMessage) to the registered worker of a profile with
// no page of the app open. The workers sign FINAL, LOCK and REVEAL and the ACK of the result, the
// game reaches Fall 1901 on every phone with one state hash, and each closed phone shows the
// notification of the result in its player's language.
//
// The one test double: the browser's push subscription. Headless Chromium has no push service to
// subscribe to (PushManager.subscribe fails), so PushManager.subscribe/getSubscription are replaced
// in the page by a hand-made subscription (an https endpoint on a name that never resolves, and a
// real P-256 key and auth secret made here); the app registers it with the relay as it would a
// real one. The push itself is delivered by Chromium to the real service worker (empty data, as
// the relay sends when a phone gives no hint: the worker then wakes every game with notifications on).
import { createECDH, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { newProfile, serveApp, type Served } from '../ui/browser-app';
import { startServe, tempDir, type ServeProcess } from '../net/helpers/relay';
import { createGameWith, phaseOf, relaySettled, storedEntries, viewOf } from './relay-app';
import { openLog, type Message } from '../../src/protocol';

let served: Served;
let relay: ServeProcess;
const relayDir = tempDir('pacto-push-sw-');
const contexts: BrowserContext[] = [];
const NAMES = { ana: 'Anastasia', bea: 'Beatriz', carl: 'Carlota' } as const;
type Who = keyof typeof NAMES;
const profiles = {} as Record<Who, BrowserContext>;
const pages = {} as Record<Who, Page>;
let relayUrl = '';
let gameId = '';

/** The hand-made subscription (see above): what PushManager.subscribe resolves to in these profiles. */
function subscriptionDouble(): string {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const p256dh = ecdh.getPublicKey().toString('base64url');
  const auth = randomBytes(16).toString('base64url');
  const endpoint = `https://push.invalid/pacto-test/${randomBytes(8).toString('hex')}`;
  return `(() => {
    const make = (key) => ({ endpoint: ${JSON.stringify(endpoint)}, expirationTime: null, options: { userVisibleOnly: true, applicationServerKey: key },
      toJSON() { return { endpoint: this.endpoint, keys: { p256dh: ${JSON.stringify(p256dh)}, auth: ${JSON.stringify(auth)} } }; },
      async unsubscribe() { self.__pactoSub = null; return true; } });
    if (typeof PushManager === 'undefined') return;
    PushManager.prototype.subscribe = async function (o) { const k = o.applicationServerKey; const buf = (k instanceof ArrayBuffer ? k : k.buffer.slice(k.byteOffset, k.byteOffset + k.byteLength)); self.__pactoSub = make(buf); return self.__pactoSub; };
    PushManager.prototype.getSubscription = async function () { return self.__pactoSub ?? null; };
  })();`;
}

/** A DevTools session on a blank page of the profile (no page of the app) and its worker's registration id. */
async function workerOf(who: Who): Promise<{ cdp: CDPSession; registrationId: string; blank: Page }> {
  const blank = await profiles[who].newPage();
  const cdp = await profiles[who].newCDPSession(blank);
  const regs = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
    for (const r of e.registrations) if (!r.isDeleted && r.scopeURL.startsWith(served.base)) regs.set(r.scopeURL, r.registrationId);
  });
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => regs.size, { timeout: 20_000 }).toBe(1);
  return { cdp, registrationId: [...regs.values()][0]!, blank };
}

async function push(w: { cdp: CDPSession; registrationId: string }, data = ''): Promise<void> {
  await w.cdp.send('ServiceWorker.deliverPushMessage', { origin: served.base.replace(/\/$/, ''), registrationId: w.registrationId, data });
}

/** A page of the app's origin that runs none of the app (the precached icon): reads IndexedDB and the worker's notifications. */
async function probe(who: Who): Promise<Page> {
  const p = await profiles[who].newPage();
  await p.goto(`${served.base}icon.svg`);
  return p;
}

async function notificationsOf(p: Page): Promise<{ title: string; body: string; tag: string; url: string }[]> {
  return p.evaluate(async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    const list = (await reg?.getNotifications()) ?? [];
    return list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: String((n.data as { url?: string } | null)?.url ?? '') }));
  });
}

/** The entries of `all` that `which` picks and `key` signed. All are opened as one log: the app writes compact entries (protocol 6), read with the log's START. */
function authored(all: readonly Uint8Array[], which: (e: Uint8Array) => boolean, key: string): Message[] {
  const opened = openLog(gameId, all);
  return all.flatMap((e, i) => {
    const m = opened[i]!;
    return which(e) && m.ok && m.message.payload.from === key ? [m.message] : [];
  });
}

beforeAll(async () => {
  served = await serveApp();
  // The hand-made subscriptions' endpoints name push.invalid: a push service by this relay's setting.
  relay = await startServe({ PACTO_RELAY_DIR: relayDir.dir, PACTO_PUSH_SERVICES: 'push.invalid' });
  relayUrl = `ws://127.0.0.1:${relay.port}/relay`;
  for (const [who, locale] of [
    ['ana', 'es-ES'],
    ['bea', 'es-ES'],
    ['carl', 'en-GB'],
  ] as const) {
    const page = await newProfile(served, contexts, locale, 'phone');
    profiles[who] = page.context();
    await profiles[who].grantPermissions(['notifications'], { origin: served.base.replace(/\/$/, '') });
    await profiles[who].addInitScript(subscriptionDouble());
    pages[who] = page;
  }
}, 240_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await served?.close();
  await relay?.stop();
  relayDir.remove();
});

async function seal(page: Page): Promise<void> {
  await page.locator('[data-tab="board"]').click();
  await page.locator('[data-action="seal"]').click();
  await page.locator('[data-action="confirm-seal"]').click();
  await expect.poll(() => page.locator('[data-action="confirm-seal"]').count(), { timeout: 20_000 }).toBe(0);
}

async function notificationsOn(page: Page): Promise<void> {
  await page.locator('[data-tab="game"]').click();
  await page.locator('[data-action="notify-on"]').click();
  await expect.poll(() => page.locator('.notify-settings').getAttribute('data-notify'), { timeout: 20_000 }).toBe('on');
}

describe('duties in the background: a push wakes a closed phone', () => {
  it('three phones make a game through the relay and turn its notifications on', async () => {
    const ana = pages.ana;
    const created = await createGameWith(ana, served.base, {
      name: NAMES.ana,
      seats: 3,
      claim: 'france',
      signaling: 'ws://127.0.0.1:9/',
      relays: relayUrl,
      iceServers: 'stun:127.0.0.1:9',
    });
    const link = created.link;
    gameId = created.gameId;
    await ana.goto(`${served.base}#/game/${gameId}`);
    for (const [who, claim] of [
      ['bea', 'austria'],
      ['carl', 'italy'],
    ] as const) {
      const p = pages[who];
      await p.goto(link);
      await p.locator('input[name="player-name"]').waitFor({ timeout: 60_000 });
      await p.locator('input[name="player-name"]').fill(NAMES[who]);
      await p.locator('select[name="claim"]').selectOption(claim);
      await p.locator('[data-action="join-game"]').click();
      await relaySettled(p, 500);
    }
    await expect.poll(() => ana.locator('.seats').getAttribute('data-players'), { timeout: 60_000 }).toBe('3');
    await ana.locator('[data-action="start-game"]').click();
    for (const who of ['ana', 'bea', 'carl'] as const) await expect.poll(() => phaseOf(pages[who]), { timeout: 120_000 }).toBe('1901-spring-movement');
    for (const who of ['ana', 'bea', 'carl'] as const) await notificationsOn(pages[who]);
  }, 420_000);

  it('Bea and Carlota seal and close the app for good; their workers reveal in the background and the game reaches its result', async () => {
    for (const who of ['bea', 'carl'] as const) {
      await seal(pages[who]);
      await relaySettled(pages[who], 500);
      await pages[who].close();
    }
    const workers = { bea: await workerOf('bea'), carl: await workerOf('carl') };
    // What each closed phone holds when it closes: anything it signs later is the worker's.
    const beaProbe = await probe('bea');
    const carlProbe = await probe('carl');
    const b64 = (e: Uint8Array): string => Buffer.from(e).toString('base64');
    const held = { bea: new Set((await storedEntries(beaProbe, gameId)).map(b64)), carl: new Set((await storedEntries(carlProbe, gameId)).map(b64)) };
    // A push that opens under no game of the device (and is not empty) does nothing.
    const before = held.bea.size;
    await push(workers.bea, 'not a sealed hint of any game');
    await pages.ana.waitForTimeout(3_000);
    expect((await storedEntries(beaProbe, gameId)).length).toBe(before);
    expect(await notificationsOf(beaProbe)).toEqual([]);

    await seal(pages.ana);
    // Every step of the ballot waits for the others' previous step: push until the result is in.
    // The first round is a flood: 20 pushes at once to each worker.
    let round = 0;
    const deadline = Date.now() + 240_000;
    while ((await phaseOf(pages.ana)) !== '1901-fall-movement') {
      if (Date.now() > deadline) throw new Error(`no result; Ana is at ${await phaseOf(pages.ana)}`);
      await relaySettled(pages.ana, 300);
      const n = round++ === 0 ? 20 : 1;
      await Promise.all((['bea', 'carl'] as const).flatMap((w) => Array.from({ length: n }, () => push(workers[w]))));
      await pages.ana.waitForTimeout(2_000);
    }
    // Until both workers have fetched the result: their own stores reduce to the next phase. (From
    // protocol 5 a phone's ACK of the result rides in its LOCK of the next phase, which a closed
    // phone does not reach: it owes a seal first. So no ACK entry shows it.)
    const fetched = async (): Promise<number> => {
      const views = [viewOf(gameId, await storedEntries(beaProbe, gameId)), viewOf(gameId, await storedEntries(carlProbe, gameId))];
      return views.filter((v) => v.current?.key === '1901-fall-movement').length;
    };
    while ((await fetched()) < 2) {
      if (Date.now() > deadline) throw new Error('the closed phones never fetched the result');
      await relaySettled(pages.ana, 300);
      for (const w of ['bea', 'carl'] as const) await push(workers[w]);
      await pages.ana.waitForTimeout(2_000);
    }
    // And what they signed reaches Ana.
    await relaySettled(pages.ana, 300);

    const entries = { ana: await storedEntries(pages.ana, gameId), bea: await storedEntries(beaProbe, gameId), carl: await storedEntries(carlProbe, gameId) };
    const views = { ana: viewOf(gameId, entries.ana), bea: viewOf(gameId, entries.bea), carl: viewOf(gameId, entries.carl) };
    expect(views.bea.current?.key).toBe('1901-fall-movement');
    expect(views.carl.current?.key).toBe('1901-fall-movement');
    expect(views.bea.stateHash).toBe(views.ana.stateHash);
    expect(views.carl.stateHash).toBe(views.ana.stateHash);
    expect(views.ana.misconduct).toEqual([]);

    // Honest duties only: what the closed phones signed after closing is FINAL, LOCK and REVEAL,
    // each once (the flood did the work once), never a commit, a vote, a concession, a chat, or an
    // ACK of the result on its own (it is owed in the next phase's LOCK). A REVEAL may be spared when the others' shares opened the commit first,
    // but one closed phone at least must reveal (Carlota's commit needs Bea's share, and Bea's Carlota's).
    let reveals = 0;
    for (const who of ['bea', 'carl'] as const) {
      const key = views.ana.players.find((p) => p.name === NAMES[who])!.key;
      const signedLater = authored(entries.ana, (e) => !held[who].has(b64(e)), key);
      const types = signedLater.map((m) => `${m.payload.type} ${(m.payload as { phase?: string }).phase}`);
      const spring = views.ana.phases[0]!.key;
      const powers = Object.values((views.ana.holders ?? views.ana.roster)!).filter((k) => k === key).length;
      expect(powers).toBeGreaterThan(0);
      expect(types.filter((t) => t === `final ${spring}`)).toHaveLength(powers);
      expect(types.filter((t) => t === `lock ${spring}`)).toHaveLength(1);
      expect(types.filter((t) => t === `ack ${spring}`)).toHaveLength(0);
      const r = types.filter((t) => t === `reveal ${spring}`).length;
      expect(r).toBeLessThanOrEqual(1);
      reveals += r;
      expect(types.filter((t) => !/^(final|lock|reveal) /.test(t))).toEqual([]);
    }
    expect(reveals).toBeGreaterThanOrEqual(1);

    // Each closed phone told its player, in the player's language, and tapping it opens the results.
    const bea = await notificationsOf(beaProbe);
    const carl = await notificationsOf(carlProbe);
    expect(bea).toHaveLength(1);
    expect(carl).toHaveLength(1);
    expect(bea[0]!.tag).toBe(`pacto-game-${gameId}`);
    expect(bea[0]!.body).toContain('Primavera 1901, movimientos: ya están los resultados.');
    expect(bea[0]!.body).toContain('Te toca dar órdenes: Otoño 1901, movimientos');
    expect(carl[0]!.body).toContain('Spring 1901, movement: results are in.');
    expect(carl[0]!.body).toContain('Your orders are due: Fall 1901, movement');
    expect(carl[0]!.url).toBe(`#/game/${gameId}/results`);
  }, 480_000);
});

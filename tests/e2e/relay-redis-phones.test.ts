// Two relay processes (the real `npm run signal`) sharing one real redis-server, and three phones
// (Chromium profiles) with no WebRTC (the invite's signaling address has nothing behind it): Ana's
// phone uses the first process, Bea's and Carl's the second (their invite names it instead). They
// play the lobby and Spring 1901 with their pages open at the same time, so every update crosses
// processes through Redis, live; at the end Redis holds no plaintext.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { newProfile, serveApp, tapOnMap, type Served } from '../ui/browser-app';
import { startRedis, startServe, type RedisServer, type ServeProcess } from '../net/helpers/relay';
import { expectSameState, filesUnder, phaseOf, plaintextFound, relaySettled } from './relay-app';

let served: Served;
let redis: RedisServer;
const relays: ServeProcess[] = [];
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  served = await serveApp();
  redis = await startRedis();
  for (let i = 0; i < 2; i++) relays.push(await startServe({ PACTO_REDIS_URL: redis.url }));
}, 240_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await served?.close();
  for (const r of relays) await r.stop();
  await redis?.stop();
});

const urlOf = (r: ServeProcess): string => `ws://127.0.0.1:${r.port}/relay`;

async function seal(page: Page): Promise<void> {
  await page.locator('[data-tab="board"]').click();
  await page.locator('[data-action="seal"]').click();
  await page.locator('[data-action="confirm-seal"]').click();
  await expect.poll(() => page.locator('[data-action="confirm-seal"]').count(), { timeout: 20_000 }).toBe(0);
}

describe('two relay processes sharing Redis', () => {
  it('phones on different processes play the lobby and a phase through Redis; Redis holds no plaintext', async () => {
    const ana = await newProfile(served, contexts, 'es-ES', 'phone');
    const bea = await newProfile(served, contexts, 'en-GB', 'phone');
    const carl = await newProfile(served, contexts, 'en-GB', 'phone');
    await ana.goto(`${served.base}#/new`);
    await ana.locator('input[name="name"]').fill('Anastasia');
    await ana.locator('select[name="seats"]').selectOption('3');
    await ana.locator('input[name="assignment"][value="choice"]').check();
    await ana.locator('select[name="claim"]').selectOption('france');
    await ana.locator('[data-section="advanced"] summary').click();
    await ana.locator('input[name="signaling"]').fill('ws://127.0.0.1:9/');
    await ana.locator('textarea[name="relays"]').fill(urlOf(relays[0]!));
    await ana.locator('[data-action="create-game"]').click();
    const link = await ana.locator('input.invite-link').inputValue();
    const gameId = /[#&]g=([^&]+)/.exec(link)![1]!;
    await relaySettled(ana);
    // Bea's and Carl's invite names the second process.
    const [base, fragment] = link.split('#') as [string, string];
    const params = new URLSearchParams(fragment);
    params.set('r', urlOf(relays[1]!));
    const other = `${base}#${params.toString()}`;

    for (const [page, name, claim] of [[bea, 'Beatriz', 'austria'], [carl, 'Carlota', 'italy']] as const) {
      await page.goto(other);
      await page.locator('input[name="player-name"]').waitFor({ timeout: 60_000 });
      await page.locator('input[name="player-name"]').fill(name);
      await page.locator('select[name="claim"]').selectOption(claim);
      await page.locator('[data-action="join-game"]').click();
    }
    await expect.poll(() => ana.locator('.seats').getAttribute('data-players'), { timeout: 60_000 }).toBe('3');
    await ana.locator('[data-action="start-game"]').click();
    for (const p of [ana, bea, carl]) await expect.poll(() => phaseOf(p), { timeout: 60_000 }).toBe('1901-spring-movement');

    await tapOnMap(ana, 'par');
    await tapOnMap(ana, 'pic');
    await tapOnMap(bea, 'mun');
    await tapOnMap(bea, 'bur');
    for (const p of [ana, bea, carl]) await seal(p);
    for (const p of [ana, bea, carl]) await expect.poll(() => phaseOf(p), { timeout: 60_000 }).toBe('1901-fall-movement');
    for (const p of [ana, bea, carl]) await relaySettled(p);
    // No WebRTC: every phone shows no peer.
    for (const p of [ana, bea, carl]) expect(await p.locator('.net.online, .net.offline').first().textContent()).toMatch(/\b0 (phones|teléfonos)/);
    const v = await expectSameState(gameId, [ana, bea, carl]);
    expect(v.position!.units.filter((u) => u.power === 'germany').map((u) => u.loc).sort()).toEqual(['bur', 'kie', 'ber'].sort());

    // Redis's contents, written uncompressed so a plaintext would show.
    await redis.cli('CONFIG', 'SET', 'rdbcompression', 'no');
    await redis.cli('SAVE');
    const dump = filesUnder(redis.dir);
    expect(dump.length).toBeGreaterThan(5_000);
    expect(plaintextFound(dump, ['Anastasia', 'Beatriz', 'Carlota', gameId, '"commit"', '"type"', 'france', 'germany', '"pic"', '"bur"'])).toEqual([]);
  }, 300_000);
});

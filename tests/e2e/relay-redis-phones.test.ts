// Two relay processes (the real `npm run signal`) sharing one real redis-server, and three phones
// (Chromium profiles): Ana's phone uses the first process, Bea's and Carl's the second (their invite
// names it instead).
// - With no WebRTC (the invite's signaling address has nothing behind it) they play the lobby and
//   Spring 1901 with their pages open at the same time, so every update crosses processes through
//   the relay's Redis, live; Bea's press message too; at the end Redis holds no plaintext.
// - With each phone's signaling on its own process, Ana's WebRTC peers can only be Bea and Carl,
//   whose signaling server is the other process: the pages connect by WebRTC while open together
//   (signaling crosses processes over Redis pub/sub), the relays stay connected and caught up on
//   both processes, and they play a phase.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { newProfile, serveApp, tapOnMap, type Served } from '../ui/browser-app';
import { startRedis, startServe, type RedisServer, type ServeProcess } from '../net/helpers/relay';
import { createGameWith, expectSameState, filesUnder, phaseOf, plaintextFound, pressTexts, relaySettled, sendPress } from './relay-app';

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

const signalOf = (r: ServeProcess): string => `ws://127.0.0.1:${r.port}/`;

/**
 * Ana creates a three-player game on the first process (relay, and signaling `anaSignal`), Bea and
 * Carl join with an invite naming the second (relay, and signaling `otherSignal`); all three pages
 * stay open until the game is in Spring 1901.
 */
async function playLobby(anaSignal: string, otherSignal: string): Promise<{ ana: Page; bea: Page; carl: Page; gameId: string }> {
  const ana = await newProfile(served, contexts, 'es-ES', 'phone');
  const bea = await newProfile(served, contexts, 'en-GB', 'phone');
  const carl = await newProfile(served, contexts, 'en-GB', 'phone');
  const { link, gameId } = await createGameWith(ana, served.base, {
    name: 'Anastasia',
    seats: 3,
    claim: 'france',
    signaling: anaSignal,
    relays: urlOf(relays[0]!),
  });
  await relaySettled(ana);
  // Bea's and Carl's invite names the second process.
  const [base, fragment] = link.split('#') as [string, string];
  const params = new URLSearchParams(fragment);
  params.set('r', urlOf(relays[1]!));
  params.set('s', otherSignal);
  const other = `${base}#${params.toString()}`;

  for (const [page, name, claim] of [
    [bea, 'Beatriz', 'austria'],
    [carl, 'Carlota', 'italy'],
  ] as const) {
    await page.goto(other);
    await page.locator('input[name="player-name"]').waitFor({ timeout: 60_000 });
    await page.locator('input[name="player-name"]').fill(name);
    await page.locator('select[name="claim"]').selectOption(claim);
    await page.locator('[data-action="join-game"]').click();
  }
  await expect.poll(() => ana.locator('.seats').getAttribute('data-players'), { timeout: 60_000 }).toBe('3');
  await ana.locator('[data-action="start-game"]').click();
  for (const p of [ana, bea, carl]) await expect.poll(() => phaseOf(p), { timeout: 60_000 }).toBe('1901-spring-movement');
  return { ana, bea, carl, gameId };
}

/** WebRTC peers the game screen shows. */
const peersOf = async (page: Page): Promise<number> => Number(await page.locator('.net[data-peers]').first().getAttribute('data-peers'));

async function seal(page: Page): Promise<void> {
  await page.locator('[data-tab="board"]').click();
  await page.locator('[data-action="seal"]').click();
  await page.locator('[data-action="confirm-seal"]').click();
  await expect.poll(() => page.locator('[data-action="confirm-seal"]').count(), { timeout: 20_000 }).toBe(0);
}

describe('two relay processes sharing Redis', () => {
  it('phones on different processes play the lobby and a phase through Redis; Redis holds no plaintext', async () => {
    const { ana, bea, carl, gameId } = await playLobby('ws://127.0.0.1:9/', 'ws://127.0.0.1:9/');
    const CHAT = 'Propongo paz en Tirol hasta 1903, Beatriz';
    await sendPress(bea, CHAT);
    await bea.locator('[data-tab="board"]').click();

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
    expect(
      v
        .position!.units.filter((u) => u.power === 'germany')
        .map((u) => u.loc)
        .sort(),
    ).toEqual(['bur', 'kie', 'ber'].sort());
    // Bea's press message crossed processes through the relay alone.
    for (const p of [ana, carl]) await expect.poll(() => pressTexts(p), { timeout: 30_000 }).toContain(CHAT);

    // Redis's contents, written uncompressed so a plaintext would show.
    await redis.cli('CONFIG', 'SET', 'rdbcompression', 'no');
    await redis.cli('SAVE');
    const dump = filesUnder(redis.dir);
    expect(dump.length).toBeGreaterThan(5_000);
    expect(
      plaintextFound(dump, ['Anastasia', 'Beatriz', 'Carlota', gameId, '"commit"', '"type"', 'france', 'germany', '"pic"', '"bur"', CHAT, 'Tirol']),
    ).toEqual([]);
    for (const p of [ana, bea, carl]) await p.context().close();
  }, 300_000);

  it('phones whose signaling servers are different processes connect by WebRTC through Redis, and play a phase', async () => {
    // Ana signals on the first process, Bea and Carl on the second: every WebRTC peer Ana has came
    // through signaling that crossed processes.
    const { ana, bea, carl, gameId } = await playLobby(signalOf(relays[0]!), signalOf(relays[1]!));
    await expect.poll(() => peersOf(ana), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    for (const p of [bea, carl]) await expect.poll(() => peersOf(p), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    await tapOnMap(ana, 'par');
    await tapOnMap(ana, 'pic');
    await tapOnMap(bea, 'mun');
    await tapOnMap(bea, 'bur');
    for (const p of [ana, bea, carl]) await seal(p);
    for (const p of [ana, bea, carl]) await expect.poll(() => phaseOf(p), { timeout: 60_000 }).toBe('1901-fall-movement');
    // The relay's view of the same moment: every phone's relay (one per process) connected, caught
    // up, nothing waiting; and the pages still connected to each other.
    for (const p of [ana, bea, carl]) await relaySettled(p);
    expect(await peersOf(ana)).toBeGreaterThanOrEqual(1);
    const v = await expectSameState(gameId, [ana, bea, carl]);
    expect(
      v
        .position!.units.filter((u) => u.power === 'germany')
        .map((u) => u.loc)
        .sort(),
    ).toEqual(['ber', 'bur', 'kie']);
  }, 300_000);
});

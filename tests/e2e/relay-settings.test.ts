// A game's relays and STUN/TURN servers changed after it started, from the game's own settings
// (Game tab), in real Chromium with real relays on 127.0.0.1 and no WebRTC (the invite's signaling
// address has nothing behind it): a bad address gets a clear error and changes nothing; a good list
// is stored in the game's record and the open page switches to it without a reload: the new relay
// gets the game's whole state, and what the phone does next reaches it.
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { httpFetch } from '../../src/net/relay/client';
import { relayKeysFor } from '../../src/net/relay/keys';
import { reduceLog } from '../../src/protocol';
import { newProfile, serveApp, type Served } from '../ui/browser-app';
import { startRelay, type LocalRelay } from '../net/helpers/relay';
import { createGameWith, joinSecondAndStart, pressTexts, relaySettled, sendPress } from './relay-app';

let served: Served;
let relayA: LocalRelay;
let relayB: LocalRelay;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  served = await serveApp();
  relayA = await startRelay();
  relayB = await startRelay();
}, 240_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await served?.close();
  await relayA?.stop();
  await relayB?.stop();
});

/** The game's record in this profile's IndexedDB: its relays and ICE servers. */
async function storedNetwork(page: Page, gameId: string): Promise<{ relays?: string[]; iceServers?: unknown[] }> {
  return page.evaluate(
    (id) =>
      new Promise<{ relays?: string[]; iceServers?: unknown[] }>((resolve, reject) => {
        const req = indexedDB.open('pacto');
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          const db = req.result;
          const get = db.transaction('games', 'readonly').objectStore('games').get(id);
          get.onerror = () => reject(get.error);
          get.onsuccess = () => {
            db.close();
            const r = get.result as { relays?: string[]; iceServers?: unknown[] };
            resolve({ ...(r.relays ? { relays: r.relays } : {}), ...(r.iceServers ? { iceServers: r.iceServers } : {}) });
          };
        };
      }),
    gameId,
  );
}

/** What a relay holds for the game, opened with the invite's keys: the entries and the chat count. */
async function onRelay(relay: LocalRelay, gameId: string, password: string): Promise<{ entries: Uint8Array[]; blobs: number }> {
  const keys = relayKeysFor(gameId, password);
  const doc = new Y.Doc();
  let after = '';
  let blobs = 0;
  for (;;) {
    const page = await httpFetch(relay.url, keys, after);
    expect(page.bad).toEqual([]);
    for (const u of page.updates) Y.applyUpdate(doc, u);
    blobs += page.updates.length;
    after = page.next;
    if (!page.more) break;
  }
  return { entries: doc.getArray<Uint8Array>('log').toArray(), blobs };
}

describe("a game's relays and ICE servers, changed in its settings", () => {
  it('refuses a bad address with a clear error, stores a good list, and the open game uses it without a reload', async () => {
    const ana = await newProfile(served, contexts, 'es-ES', 'phone');
    const bea = await newProfile(served, contexts, 'en-GB', 'phone');
    const { link, claim: anaClaim } = await createGameWith(ana, served.base, {
      name: 'Anastasia',
      seats: 2,
      claim: { index: 1 },
      signaling: 'ws://127.0.0.1:9/',
      relays: relayA.url,
    });
    const params = new URLSearchParams(link.split('#')[1]);
    const gameId = params.get('g')!;
    const password = params.get('k')!;
    await relaySettled(ana);

    const first = await joinSecondAndStart(ana, bea, link, anaClaim, 'Beatriz');
    await relaySettled(ana);
    // Relay B has never heard of the game.
    expect((await onRelay(relayB, gameId, password)).blobs).toBe(0);

    // A page that reloads loses this mark.
    await ana.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await ana.locator('[data-tab="game"]').click();
    const relays = ana.locator('textarea[name="game-relays"]');
    const ice = ana.locator('textarea[name="game-ice"]');
    await expect.poll(() => relays.inputValue()).toBe(relayA.url);
    expect(await ice.inputValue()).toBe('');

    // Bad input: a clear error, nothing stored, nothing changed.
    await relays.fill(`${relayA.url}\nhttp://relay.example/relay`);
    await ana.locator('[data-action="save-network"]').click();
    await expect.poll(() => ana.locator('.game-network [role="alert"]').textContent()).toContain('Un relé no es válido');
    expect(await ana.locator('.game-network [role="alert"]').textContent()).toContain('http://relay.example/relay');
    await relays.fill(relayA.url);
    await ice.fill('turn:127.0.0.1:3478 onlyauser');
    await ana.locator('[data-action="save-network"]').click();
    await expect.poll(() => ana.locator('.game-network [role="alert"]').textContent()).toContain('servidor STUN/TURN no es válido');
    await relays.fill([1, 2, 3, 4, 5].map((n) => `ws://127.0.0.${n}:1/relay`).join('\n'));
    await ice.fill('');
    await ana.locator('[data-action="save-network"]').click();
    await expect.poll(() => ana.locator('.game-network [role="alert"]').textContent()).toContain('Un relé no es válido');
    expect(await storedNetwork(ana, gameId)).toEqual({ relays: [relayA.url] });
    expect(await ana.locator('[data-relay-waiting]').first().getAttribute('data-relays-connected')).toBe('1');

    // A good list: stored, and the game switches to it at once.
    await relays.fill(`${relayA.url}\n${relayB.url}`);
    await ice.fill('stun:127.0.0.1:9');
    await ana.locator('[data-action="save-network"]').click();
    await ana.locator('[data-network-saved]').waitFor({ timeout: 10_000 });
    expect(await ana.locator('.game-network [role="alert"]').count()).toBe(0);
    expect(await storedNetwork(ana, gameId)).toEqual({ relays: [relayA.url, relayB.url], iceServers: [{ urls: ['stun:127.0.0.1:9'] }] });
    await expect.poll(() => ana.locator('[data-relay-waiting]').first().getAttribute('data-relays-connected'), { timeout: 30_000 }).toBe('2');
    await relaySettled(ana);
    // Relay B now holds the whole game (the state Ana had when she named it), sealed.
    const onB = await onRelay(relayB, gameId, password);
    expect(reduceLog(gameId, onB.entries).current?.key).toBe(first);

    // What Ana does next goes to both relays: Bea (on relay A only) reads it, and relay B has it.
    const before = onB.blobs;
    await sendPress(ana, 'Hola Beatriz, ahora también por el relé B');
    await relaySettled(ana);
    await expect.poll(() => pressTexts(bea), { timeout: 30_000 }).toContain('Hola Beatriz, ahora también por el relé B');
    expect((await onRelay(relayB, gameId, password)).blobs).toBeGreaterThan(before);
    expect(await ana.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

    // Reopened later, the game still uses what was stored, and the settings show it.
    await ana.reload();
    await ana.locator('[data-tab="game"]').click();
    await expect.poll(() => ana.locator('textarea[name="game-relays"]').inputValue(), { timeout: 30_000 }).toBe(`${relayA.url}\n${relayB.url}`);
    expect(await ana.locator('textarea[name="game-ice"]').inputValue()).toBe('stun:127.0.0.1:9');
    await expect.poll(() => ana.locator('[data-relay-waiting]').first().getAttribute('data-relays-connected'), { timeout: 30_000 }).toBe('2');
  }, 300_000);
});

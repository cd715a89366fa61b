// Three separate browser profiles join one game by its invite link and sync over real WebRTC
// through our signaling server on 127.0.0.1; one goes offline while the other two play a phase,
// comes back and catches up; after a reload every profile still has the whole log from IndexedDB.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { formatInvite, newRoomPassword } from '../../src/net';
import { launchChromium } from './browser';
import { startNetPage, type NetPage } from './pages/net/serve';

interface NetApi {
  restored: number;
  count(): number;
  digest(): Promise<string>;
  append(count: number, size: number, tag: string): number;
  flush(): Promise<void>;
  status(): { webrtcPeers: number; synced: boolean; signalingConnected: boolean };
  notified(): { webrtcPeers: number; synced: boolean; signalingConnected: boolean };
  disconnect(): void;
  connect(): void;
}
type W = { net: NetApi };

let site: NetPage;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [site, browser] = await Promise.all([startNetPage(), launchChromium()]);
}, 120_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await site?.stop();
});

async function open(context: BrowserContext, link: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(link);
  await page.waitForFunction(() => (window as unknown as Partial<W>).net !== undefined, undefined, { timeout: 30_000 });
  return page;
}

const count = (p: Page) => p.evaluate(() => (window as unknown as W).net.count());
const digest = (p: Page) => p.evaluate(() => (window as unknown as W).net.digest());
const append = (p: Page, n: number, size: number, tag: string) =>
  p.evaluate(([n, size, tag]) => (window as unknown as W).net.append(n, size, tag), [n, size, tag] as const);

async function converged(pages: readonly Page[], n: number, timeout = 30_000): Promise<void> {
  await expect
    .poll(
      async () => {
        const ds = await Promise.all(pages.map(digest));
        return ds.every((d) => d === ds[0]) && ds[0]!.startsWith(`${n}/`);
      },
      { timeout, interval: 250 },
    )
    .toBe(true);
}

describe('sync between browsers over WebRTC', () => {
  it('three profiles join by invite, one drops out and catches up, all reload from IndexedDB', async () => {
    const link = formatInvite(site.base, { gameId: 'e2e-net-game-0001', password: newRoomPassword(), signaling: [] });
    for (let i = 0; i < 3; i++) contexts.push(await browser.newContext());
    // All at once, as phones do: three pages announce in the same instant, and each pair connects
    // at the first attempt because only one of its two ends starts the connection (one-initiator.ts).
    const [a, b, c] = await Promise.all(contexts.map((ctx) => open(ctx, link)));
    const pages = [a!, b!, c!];
    for (const p of pages) expect(await p.evaluate(() => (window as unknown as W).net.restored)).toBe(0);
    // Separate profiles share no BroadcastChannel: every link is WebRTC.
    await expect
      .poll(async () => (await Promise.all(pages.map((p) => p.evaluate(() => (window as unknown as W).net.status())))).map((s) => s.webrtcPeers), {
        timeout: 45_000,
      })
      .toEqual([2, 2, 2]);

    // The UI hears of it without asking.
    await expect
      .poll(async () => Promise.all(pages.map((p) => p.evaluate(() => (window as unknown as W).net.notified()))), { timeout: 30_000 })
      .toEqual(Array(3).fill(expect.objectContaining({ webrtcPeers: 2, synced: true, signalingConnected: true })));

    await append(a!, 3, 400, 'lobby-a');
    await append(b!, 2, 400, 'lobby-b');
    await converged(pages, 5);

    // C goes offline: its provider stops and the browser loses the network.
    await c!.evaluate(() => (window as unknown as W).net.disconnect());
    await contexts[2]!.setOffline(true);
    await expect.poll(() => a!.evaluate(() => (window as unknown as W).net.status().webrtcPeers), { timeout: 30_000 }).toBe(1);

    // A and B play a phase: four and three sealed commits, then the reveals.
    await append(a!, 4, 1200, 'commit-a');
    await append(b!, 3, 1200, 'commit-b');
    await append(a!, 4, 900, 'reveal-a');
    await append(b!, 3, 900, 'reveal-b');
    await converged([a!, b!], 19);
    expect(await count(c!)).toBe(5);

    await contexts[2]!.setOffline(false);
    await c!.evaluate(() => (window as unknown as W).net.connect());
    await converged(pages, 19);

    // Everything is durable before the reload: the store's flush says so.
    await Promise.all(pages.map((p) => p.evaluate(() => (window as unknown as W).net.flush())));
    const before = await digest(a!);
    for (const p of pages) {
      await p.reload();
      await p.waitForFunction(() => (window as unknown as Partial<W>).net !== undefined, undefined, { timeout: 30_000 });
      expect(await p.evaluate(() => (window as unknown as W).net.restored)).toBe(19);
      expect(await digest(p)).toBe(before);
    }
  }, 85_000);

  it('a late joiner catches up a log larger than a data channel message (256 KiB)', async () => {
    const link = formatInvite(site.base, { gameId: 'e2e-net-game-0002', password: newRoomPassword(), signaling: [] });
    const first = await browser.newContext();
    contexts.push(first);
    const a = await open(first, link);
    await append(a, 300, 1500, 'history');
    const late = await browser.newContext();
    contexts.push(late);
    const b = await open(late, link);
    await converged([a, b], 300);
    expect(await b.evaluate(() => (window as unknown as W).net.restored)).toBe(0); // it came over the network
  }, 60_000);

  it('tabs of one browser sync over BroadcastChannel with no signaling server', async () => {
    // Port 9 (discard) on loopback: the signaling address refuses every connection.
    const link = formatInvite(site.base, { gameId: 'e2e-net-game-0003', password: newRoomPassword(), signaling: ['ws://127.0.0.1:9/'] });
    const ctx = await browser.newContext();
    contexts.push(ctx);
    const [one, two] = [await open(ctx, link), await open(ctx, link)];
    await append(one, 2, 100, 'tab-one');
    await append(two, 3, 100, 'tab-two');
    await converged([one, two], 5, 20_000);
    const status = await two.evaluate(() => (window as unknown as W).net.status());
    expect(status).toMatchObject({ signalingConnected: false, webrtcPeers: 0 });
  }, 60_000);
});

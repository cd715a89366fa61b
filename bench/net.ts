// Sync speed over loopback WebRTC in Chromium: seven pages (separate profiles) in one game; in each
// phase every page appends its sealed message; we time from the last append of the phase to the
// moment the last page has every message, and count the data-channel bytes each page sent.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { formatInvite, newRoomPassword } from '../src/net';
import { launchChromium } from '../tests/e2e/browser';
import { startNetPage } from '../tests/e2e/pages/net/serve';
import { report, summarise } from './report';

const PAGES = 7;
const PHASES = 10;
/** About what a sealed commit with its ciphertext weighs. */
const MESSAGE_BYTES = 1200;
/** Issue 17: bytes sent per phone per phase at most twice the phase's payload. */
const BYTES_TARGET_RATIO = 2;

interface NetApi {
  count(): number;
  append(count: number, size: number, tag: string): number;
  status(): { webrtcPeers: number };
  reachedAt(count: number): number | null;
  bytesSent(): Promise<number>;
}
type W = { net: NetApi };

async function until<T>(what: string, probe: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function benchNet(): Promise<void> {
  const site = await startNetPage();
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  try {
    browser = await launchChromium();
    // A long resync period, so the figures are those of the update broadcast itself.
    const link = formatInvite(`${site.base}?resync=60000`, { gameId: 'bench-net-game-01', password: newRoomPassword(), signaling: [] });
    const pages: Page[] = [];
    for (let i = 0; i < PAGES; i++) {
      const ctx = await browser.newContext();
      contexts.push(ctx);
      const page = await ctx.newPage();
      await page.goto(link);
      await page.waitForFunction(() => (window as unknown as Partial<W>).net !== undefined);
      pages.push(page);
    }
    await until(
      'every page to connect to every other',
      () => Promise.all(pages.map((p) => p.evaluate(() => (window as unknown as W).net.status().webrtcPeers))),
      (ns) => ns.every((n) => n === PAGES - 1),
    );

    const latencies: number[] = [];
    const bytesPerPage: number[] = [];
    for (let phase = 0; phase < PHASES; phase++) {
      const target = (phase + 1) * PAGES;
      const sentBefore = await Promise.all(pages.map((p) => p.evaluate(() => (window as unknown as W).net.bytesSent())));
      const appendedAt = await Promise.all(
        pages.map((p, i) =>
          p.evaluate(([size, tag]) => (window as unknown as W).net.append(1, size, tag), [MESSAGE_BYTES, `phase-${phase}-power-${i}`] as const),
        ),
      );
      const arrivedAt = await until(
        `phase ${phase} to reach every page`,
        () => Promise.all(pages.map((p) => p.evaluate((n) => (window as unknown as W).net.reachedAt(n), target))),
        (ts) => ts.every((t) => t !== null),
      );
      latencies.push(Math.max(...(arrivedAt as number[])) - Math.max(...appendedAt));
      // Let the last acknowledgements leave before counting bytes.
      await new Promise((r) => setTimeout(r, 200));
      const sentAfter = await Promise.all(pages.map((p) => p.evaluate(() => (window as unknown as W).net.bytesSent())));
      bytesPerPage.push(sentAfter.reduce((sum, b, i) => sum + b - sentBefore[i]!, 0) / PAGES);
    }
    const lat = summarise(latencies);
    const bytes = summarise(bytesPerPage);
    report(`net: ${PAGES} Chromium pages over loopback WebRTC, ${PHASES} phases of ${PAGES} messages x ${MESSAGE_BYTES} B`, [
      ['last append -> all pages have it, median', `${lat.median} ms`],
      ['  p95 / mean', `${lat.p95} ms / ${lat.mean.toFixed(1)} ms`],
      ['data-channel bytes sent per page per phase, median', `${Math.round(bytes.median)} B`],
      ['  ratio to the phase payload', (bytes.median / (PAGES * MESSAGE_BYTES)).toFixed(2)],
      ['  target ratio', `<= ${BYTES_TARGET_RATIO}`],
    ]);
  } finally {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await site.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchNet();

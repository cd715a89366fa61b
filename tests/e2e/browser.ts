// Real Chromium from Debian driven by playwright-core (a downloaded browser cannot be fetched here).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** How long one page action or wait may take before it fails. Loaded 2-core CI machines made a page
 *  take more than 5 s to draw the board after goto (ui-orders, twice in two fresh-clone runs side by
 *  side), so no test bets on less; a missing element still fails within the test's own timeout. */
export const ACTION_TIMEOUT_MS = 30_000;

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
  if (!found) throw new Error('Chromium not found: npm test installs it in its pretest step (scripts/ensure-chromium.mjs)');
  return found;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS, headless: true });
}

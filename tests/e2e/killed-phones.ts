// Phones as a phone's operating system treats them: one persistent browser profile per phone (its
// own user-data-dir on disk: IndexedDB, the service worker, everything), launched as a whole
// Chromium process for each visit and ended with SIGKILL, never closed (no pagehide, no
// visibilitychange, no unload: nothing of the app runs after the kill). Never two open at once.
// And what a test reads from a phone's own storage after the fact (its once-only reservations).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ACTION_TIMEOUT_MS, CHROMIUM_FLAGS, chromiumPath } from './browser';
import { prng } from '../../src/util/prng';

export interface KilledPhone {
  readonly name: string;
  readonly locale: string;
  /** The profile: Chromium's user-data-dir, kept across visits. */
  readonly dir: string;
}

/** One visit: the whole browser process (its process group), its profile's context and the page. */
export interface PhoneVisit {
  readonly phone: KilledPhone;
  readonly context: BrowserContext;
  readonly page: Page;
  /** The browser's main process, leader of its process group (playwright starts it detached). */
  readonly pid: number;
}

/** A fresh profile directory for a phone; remove() when the test is done. */
export function newPhone(name: string, locale: string): KilledPhone & { remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `pacto-phone-${name.toLowerCase()}-`));
  return { name, locale, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A small seeded generator (the project's mulberry32): the same seed, the same kill moments. */
export const seeded = prng;

interface ProcInfo {
  readonly pid: number;
  readonly state: string;
  readonly pgrp: number;
  readonly args: string[];
}

function proc(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return { pid, state: f[0]!, pgrp: Number(f[2]), args };
  } catch {
    return null;
  }
}

function processes(): ProcInfo[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .map((p) => proc(Number(p)))
    .filter((p): p is ProcInfo => p !== null);
}

/** The browser's main process for a profile: the one with its user-data-dir and no --type. */
function browserPid(dir: string): number {
  const found = processes().filter((p) => p.args.includes(`--user-data-dir=${dir}`) && !p.args.some((a) => a.startsWith('--type=')) && p.state !== 'Z');
  if (found.length !== 1) throw new Error(`expected one browser process for ${dir}, found ${found.length}`);
  return found[0]!.pid;
}

/** Processes of the profile still alive (not zombies): its browser, zygotes, renderers, storage service… */
export function aliveFor(dir: string): number[] {
  return processes()
    .filter((p) => p.state !== 'Z' && p.args.some((a) => a === `--user-data-dir=${dir}`))
    .map((p) => p.pid);
}

let openNow = 0;
let maxOpen = 0;
/** How many phones were ever open at the same time (must stay 1). */
export const mostOpenAtOnce = (): number => maxOpen;

/** Launches the phone's browser on its profile (as tapping the app's icon does after the OS killed it). */
export async function launchPhone(phone: KilledPhone, onError: (message: string) => void): Promise<PhoneVisit> {
  if (aliveFor(phone.dir).length > 0) throw new Error(`${phone.name}'s browser is still running`);
  openNow++;
  maxOpen = Math.max(maxOpen, openNow);
  try {
    const context = await chromium.launchPersistentContext(phone.dir, {
      executablePath: chromiumPath(),
      args: CHROMIUM_FLAGS,
      headless: true,
      timeout: 60_000,
      locale: phone.locale,
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
      deviceScaleFactor: 2,
    });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    const pid = browserPid(phone.dir);
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => onError(`[${phone.name}] page error: ${e.message}`));
    return { phone, context, page, pid };
  } catch (e) {
    openNow--;
    throw e;
  }
}

/**
 * Ends the visit as the OS ends an app: SIGKILL to the browser's whole process group (the storage
 * service with IndexedDB's files included), then waits until none of its processes runs.
 */
export async function killPhone(v: PhoneVisit): Promise<void> {
  const closed = new Promise<void>((resolve) => v.context.once('close', () => resolve()));
  try {
    process.kill(-v.pid, 'SIGKILL');
  } catch {
    process.kill(v.pid, 'SIGKILL');
  }
  const deadline = Date.now() + 15_000;
  await Promise.race([closed, new Promise((r) => setTimeout(r, 15_000))]);
  while (aliveFor(v.phone.dir).length > 0) {
    if (Date.now() > deadline) throw new Error(`${v.phone.name}'s browser survived SIGKILL: ${aliveFor(v.phone.dir).join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  openNow--;
}

/** The once-only names and the names with kept entries in this phone's reservations for the game (whatever their shape). */
export async function reservationsOf(page: Page, gameId: string): Promise<unknown> {
  return page.evaluate(
    (id) =>
      new Promise<unknown>((resolve) => {
        const req = indexedDB.open('pacto-reserved');
        req.onerror = () => resolve(`cannot open: ${String(req.error)}`);
        req.onsuccess = () => {
          const db = req.result;
          if (!db.objectStoreNames.contains('games')) {
            db.close();
            resolve(`stores: ${[...db.objectStoreNames].join(',')}`);
            return;
          }
          const get = db.transaction('games', 'readonly').objectStore('games').get(id);
          get.onerror = () => resolve(`cannot read: ${String(get.error)}`);
          get.onsuccess = () => {
            db.close();
            const r = get.result as Record<string, unknown> | undefined;
            if (r === undefined) return resolve(null);
            const out: Record<string, unknown> = {};
            for (const [k, v] of Object.entries(r)) {
              if (k === 'kept' && Array.isArray(v))
                out.kept = v.map((e: { name?: unknown; entries?: unknown[] }) => `${String(e.name)} (${e.entries?.length ?? 0} entries)`);
              else out[k] = v;
            }
            resolve(out);
          };
        };
      }),
    gameId,
  );
}

// Hosting for friends as docs/hosting.md sets it up, tested (issue 30): Debian's Caddy with `tls
// internal` in front of the real server process (scripts/serve.ts, PACTO_TRUST_PROXY=1), all on
// 127.0.0.1. Two phones (separate Chromium profiles) open the app at Caddy's https address only,
// create a game, join it by the invite link, start it and play one phase: the app's signaling
// (wss://…/) and relay (wss://…/relay) go through Caddy, and both phones end the phase with the
// same state. Chromium trusts nothing but Caddy's own certificate authority (its root and
// intermediate keys), as a phone that installed Caddy's root would.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, createPublicKey } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { ACTION_TIMEOUT_MS, CHROMIUM_FLAGS, chromiumPath } from './browser';
import { expectSameState, joinSecondAndStart, phaseOf, relaySettled } from './relay-app';
import { buildApp } from '../ui/browser-app';
import { freePort, startServe, tempDir, type ServeProcess } from '../net/helpers/relay';

const CADDY = '/usr/bin/caddy';

let built: { dir: string; remove(): void } | undefined;
let scratch: { dir: string; remove(): void } | undefined;
let server: ServeProcess | undefined;
let caddy: { child: ChildProcess; output: () => string; stop(): Promise<void> } | undefined;
let browser: Browser | undefined;
let base = '';
let caddyDir = '';
const contexts: BrowserContext[] = [];

/** The Caddyfile of docs/hosting/Caddyfile for a site on 127.0.0.1 with Caddy's own CA, nothing
 *  outside the temp dir: no admin endpoint, no port 80 redirect, no HTTP/3 (UDP on every
 *  interface), its certificates in `data`, and an access log we read afterwards. */
function caddyfile(port: number, upstream: number, dir: string): string {
  return `{
	admin off
	auto_https disable_redirects
	skip_install_trust
	storage file_system ${join(dir, 'data')}
	servers {
		protocols h1 h2
	}
}
https://127.0.0.1:${port} {
	bind 127.0.0.1
	tls internal
	log {
		output file ${join(dir, 'access.log')}
		format json
	}
	encode zstd gzip
	@operator path /metrics /metrics/*
	respond @operator 404
	reverse_proxy 127.0.0.1:${upstream}
}
`;
}

/** GET over https through Caddy, verifying its certificate against Caddy's root (and the name 127.0.0.1). */
function httpsGet(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, timeout: 5_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}

async function startCaddy(port: number, upstream: number, dir: string): Promise<NonNullable<typeof caddy>> {
  const config = join(dir, 'Caddyfile');
  writeFileSync(config, caddyfile(port, upstream, dir));
  // Caddy writes its state under HOME / XDG dirs: all of them in the temp dir.
  const child = spawn(CADDY, ['run', '--config', config, '--adapter', 'caddyfile'], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(dir, 'home'), XDG_DATA_HOME: join(dir, 'xdg-data'), XDG_CONFIG_HOME: join(dir, 'xdg-config') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    child,
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** The base64 SHA-256 of a PEM certificate's public key, as Chromium's --ignore-certificate-errors-spki-list takes it. */
function spkiHash(pemFile: string): string {
  const der = createPublicKey(readFileSync(pemFile)).export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64');
}

/** The server's /metrics, read directly (not through Caddy), as name → value. */
async function metrics(): Promise<Map<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${server!.port}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^(pacto_[a-z_]+) ([0-9.e+-]+)$/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

beforeAll(async () => {
  expect(existsSync(CADDY), 'Debian caddy: npm test installs it in its pretest step (scripts/ensure-servers.mjs)').toBe(true);
  scratch = tempDir('pacto-caddy-');
  caddyDir = scratch.dir;
  built = await buildApp();
  server = await startServe({
    SIGNAL_ONLY: '0',
    DIST: built.dir,
    PACTO_TRUST_PROXY: '1',
    PACTO_RELAY_DIR: join(caddyDir, 'relay'),
  });
  const port = await freePort();
  base = `https://127.0.0.1:${port}/`;
  caddy = await startCaddy(port, server.port, caddyDir);
  const root = join(caddyDir, 'data', 'pki', 'authorities', 'local', 'root.crt');
  // Caddy answers over TLS with a certificate its own root vouches for: Node checks the chain and the name.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const health = existsSync(root) ? await httpsGet(`${base}healthz`, readFileSync(root, 'utf8')).catch((e: Error) => e) : new Error('no root yet');
    if (!(health instanceof Error) && health.status === 200) break;
    if (caddy.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`Caddy did not answer on ${base}: ${health instanceof Error ? health.message : health.status}\n${caddy.output()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  // /metrics is the operator's: not served through Caddy, served on the machine.
  expect((await httpsGet(`${base}metrics`, readFileSync(root, 'utf8'))).status).toBe(404);
  expect((await fetch(`http://127.0.0.1:${server.port}/metrics`)).status).toBe(200);
  const intermediate = join(caddyDir, 'data', 'pki', 'authorities', 'local', 'intermediate.crt');
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...CHROMIUM_FLAGS, `--ignore-certificate-errors-spki-list=${[spkiHash(root), spkiHash(intermediate)].join(',')}`],
    headless: true,
  });
}, 180_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
  await caddy?.stop();
  await server?.stop();
  built?.remove();
  scratch?.remove();
});

interface Seen {
  readonly requests: string[];
  readonly sockets: string[];
}

/** A phone's profile at 390×844; every request and WebSocket its pages open is written down. */
async function phone(locale: string, seen: Seen): Promise<Page> {
  const context = await browser!.newContext({ locale, viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  contexts.push(context);
  context.on('request', (r) => seen.requests.push(r.url()));
  const page = await context.newPage();
  page.on('websocket', (ws) => seen.sockets.push(ws.url()));
  page.on('pageerror', (e) => console.error(`[${locale}] page error:`, e.message));
  return page;
}

async function seal(page: Page): Promise<void> {
  await page.locator('[data-tab="board"]').click();
  await page.locator('[data-action="seal"]').click();
  await page.locator('[data-action="confirm-seal"]').click();
  await expect.poll(() => page.locator('[data-action="confirm-seal"]').count(), { timeout: 20_000 }).toBe(0);
}

describe('behind Caddy with tls internal', () => {
  it('two phones play a phase over https and wss through Caddy', async () => {
    const before = await metrics();
    const seen: Seen = { requests: [], sockets: [] };
    const ana = await phone('en-GB', seen);
    const bea = await phone('es-ES', seen);

    // A two-player game with the network settings left empty: the app's own server, from the
    // https address it was opened at.
    await ana.goto(`${base}#/new`);
    expect(await ana.evaluate(() => [location.protocol, window.isSecureContext])).toEqual(['https:', true]);
    await ana.locator('input[name="name"]').fill('Ana');
    await ana.locator('select[name="seats"]').selectOption('2');
    await ana.locator('input[name="assignment"][value="choice"]').check();
    await ana.locator('select[name="claim"]').selectOption({ index: 1 });
    const anaClaim = await ana.locator('select[name="claim"]').inputValue();
    await ana.locator('[data-action="create-game"]').click();
    const link = await ana.locator('input.invite-link').inputValue();
    expect(link.startsWith(base)).toBe(true);
    const gameId = new URLSearchParams(link.split('#')[1]).get('g')!;
    expect(gameId).toBeTruthy();

    const first = await joinSecondAndStart(ana, bea, link, anaClaim, 'Bea');
    // Both reach the relay (through Caddy) and have nothing of theirs waiting.
    await Promise.all([relaySettled(ana), relaySettled(bea)]);

    // Both seal (no orders: everything holds); the phase resolves on both, to the same state.
    for (const p of [ana, bea]) await seal(p);
    for (const p of [ana, bea]) await expect.poll(() => phaseOf(p), { timeout: 60_000 }).not.toBe(first);
    const next = await phaseOf(ana);
    expect(next).toMatch(/-fall-movement$/);
    await expect.poll(() => phaseOf(bea), { timeout: 30_000 }).toBe(next);
    await Promise.all([relaySettled(ana), relaySettled(bea)]);
    const view = await expectSameState(gameId, [ana, bea]);
    expect(view.current?.key).toBe(next);

    // Everything the pages fetched was Caddy's https origin; their WebSockets were wss through it:
    // signaling at / and the relay at /relay. Nothing reached the server's own port directly.
    const wss = base.replace('https:', 'wss:');
    expect(seen.requests.filter((u) => /^(https?|wss?):/.test(u) && !u.startsWith(base))).toEqual([]);
    expect(seen.sockets.length).toBeGreaterThan(0);
    expect(seen.sockets.filter((u) => !u.startsWith(wss))).toEqual([]);
    expect(seen.sockets.some((u) => new URL(u).pathname === '/')).toBe(true);
    expect(seen.sockets.some((u) => new URL(u).pathname === '/relay')).toBe(true);

    // The server saw them: open WebSockets, signaling messages and relay appends moved, and its
    // access log has the app's requests, all from Caddy's loopback address.
    const after = await metrics();
    expect(after.get('pacto_connections')).toBeGreaterThanOrEqual(2);
    expect(after.get('pacto_signaling_messages_in')!).toBeGreaterThan(before.get('pacto_signaling_messages_in') ?? 0);
    expect(after.get('pacto_relay_appends')!).toBeGreaterThan(before.get('pacto_relay_appends') ?? 0);
    const access = server!
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { ip: string; method: string; path: string; status: number });
    expect(access.some((a) => a.method === 'GET' && a.path === '/' && a.status === 200)).toBe(true);
    expect(new Set(access.map((a) => a.ip))).toEqual(new Set(['127.0.0.1']));

    // Caddy's own access log: the pages' WebSocket upgrades for / and /relay went through it
    // (logged once they close).
    for (const c of contexts) await c.close();
    const upgrades = async (): Promise<string[]> => {
      const file = join(caddyDir, 'access.log');
      if (!existsSync(file)) return [];
      return readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { request: { uri: string; proto: string; headers: Record<string, string[]> }; status: number })
        .filter((e) => e.status === 101 || (e.request.headers.Upgrade ?? []).includes('websocket'))
        .map((e) => new URL(e.request.uri, base).pathname);
    };
    await expect.poll(async () => [...new Set(await upgrades())].sort(), { timeout: 15_000 }).toEqual(['/', '/relay']);
  }, 180_000);
});

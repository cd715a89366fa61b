// Issue 30: a real game continues on a restored copy of the relay's embedded store. The server is
// its own process (`npm start`'s scripts/serve.ts: the built app, and the relay on LMDB), the
// phones are two Chromium profiles, each its own browser process, with no WebRTC (the invite's
// signaling address has nothing behind it), so everything between them crosses the relay.
//
// 1. Ana creates a two-player game, Bea joins, the game starts; Ana seals the first phase.
// 2. While the server runs, the operator's backup command copies the store (its own process).
// 3. The game goes on past the copy: Bea seals, the phase resolves on both phones; Bea's browser is
//    killed (SIGKILL); Ana seals the second phase, and the relay acknowledges it.
// 4. The server is killed, the copy restored with the restore command, and the server started
//    again on the restored store, on the same port (the phones' relay address). Read from its files,
//    the restored store really lacks everything after the copy: the phase's resolution, Bea's
//    seal and Ana's second one.
// 5. Ana's page (open all along) reconnects; Bea's browser is launched again. Both phones are ahead
//    of the restored relay and carry what it lost back to it: Bea gets Ana's second seal (which only
//    the relay could bring her), seals, and the phase resolves on both phones with one state hash.
//    At the end the relay again holds the whole game: a reader starting from nothing gets every
//    entry both phones hold.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openLog, reduceLog, type GameView } from '../../src/protocol';
import { openBlob } from '../../src/net/relay/blob';
import { httpFetch } from '../../src/net/relay/client';
import { relayKeysFor, type RelayKeys } from '../../src/net/relay/keys';
import { LmdbStore } from '../../src/net/relay/server/lmdb-store';
import { LocalBus } from '../../src/net/signal/bus';
import { buildApp } from '../ui/browser-app';
import { SERVER_COMMAND, startServe, tempDir, type ServeProcess } from '../net/helpers/relay';
import { killPhone, launchPhone, newPhone, type KilledPhone, type PhoneVisit } from './killed-phones';
import { createGameWith, expectSameState, joinSecondAndStart, outboxSize, phaseOf, relaySettled, storedEntries, viewOf } from './relay-app';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
const scratch = tempDir('pacto-backup-game-');
const storeDir = join(scratch.dir, 'relay');
const copyDir = join(scratch.dir, 'copy');
const phones: (KilledPhone & { remove(): void })[] = [];
const visits = new Set<PhoneVisit>();
const pageErrors: string[] = [];
let built: { readonly dir: string; remove(): void } | undefined;
let server: ServeProcess | undefined;

/**
 * The operator's backup or restore command on the server's store, run as its own process, as an
 * operator runs `npm run backup -- DIR` / `npm run restore -- DIR` (`pacto-server backup|restore`, the compiled server).
 */
function storeCommand(command: 'backup' | 'restore', dir: string): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [SERVER_COMMAND, command, dir], {
    cwd: ROOT,
    env: { ...process.env, PACTO_RELAY_DIR: storeDir },
    timeout: 60_000,
  });
}

/** The whole server (`npm start`: the built app, signaling and the relay) on the store, on `port` (0: any). */
function startServer(port = 0): Promise<ServeProcess> {
  return startServe({ SIGNAL_ONLY: '0', DIST: built!.dir, PACTO_RELAY_DIR: storeDir, PACTO_PUSH: '0', PORT: String(port) });
}

async function open(phone: KilledPhone): Promise<Page> {
  const v = await launchPhone(phone, (m) => pageErrors.push(m));
  visits.add(v);
  return v.page;
}

/** Kills a phone's whole browser (SIGKILL to its process group), as the OS kills an app. */
async function kill(page: Page): Promise<void> {
  const v = [...visits].find((x) => x.page === page)!;
  visits.delete(v);
  await killPhone(v);
}

beforeAll(async () => {
  built = await buildApp();
  server = await startServer();
  for (const [name, locale] of [
    ['Ana', 'es-ES'],
    ['Bea', 'en-GB'],
  ] as const)
    phones.push(newPhone(name, locale));
}, 240_000);

afterAll(async () => {
  for (const v of visits) await killPhone(v).catch(() => undefined);
  await server?.stop();
  for (const p of phones) p.remove();
  built?.remove();
  scratch.remove();
});

interface Held {
  /** Blobs (stored updates) in the game's room. */
  readonly blobs: number;
  /** Ids of the entries they hold. */
  readonly ids: Set<string>;
  readonly view: GameView;
}

/** The entries a list of relay updates holds (applied in order to a fresh doc, as a phone would). */
function held(gameId: string, updates: readonly Uint8Array[]): Held {
  const doc = new Y.Doc();
  for (const u of updates) Y.applyUpdate(doc, u);
  const entries = doc.getArray<Uint8Array>('log').toArray();
  const ids = new Set(openLog(gameId, entries).flatMap((o) => (o.ok ? [o.message.id] : [])));
  return { blobs: updates.length, ids, view: reduceLog(gameId, entries) };
}

/** What the running relay serves for the game, read from nothing with the invite's keys (HTTP API). */
async function onRelay(gameId: string, keys: RelayKeys): Promise<Held> {
  const updates: Uint8Array[] = [];
  for (let after = ''; ;) {
    const page = await httpFetch(`ws://127.0.0.1:${server!.port}/relay`, keys, after);
    expect(page.bad).toEqual([]);
    updates.push(...page.updates);
    after = page.next;
    if (!page.more) break;
  }
  return held(gameId, updates);
}

/** What the store's files hold for the game, read with no server running (the relay's own store code). */
async function onDisk(gameId: string, keys: RelayKeys): Promise<Held> {
  const store = new LmdbStore({ dir: storeDir, bus: new LocalBus(), maxRoomBlobs: 1e9, maxRoomBytes: 1e12, roomIdleMs: 1e12 });
  const updates: Uint8Array[] = [];
  try {
    for (let after = ''; ;) {
      const page = await store.fetch(keys.room, after, 256, 1 << 20);
      expect(page.damaged).toEqual([]);
      for (const it of page.items) {
        const opened = openBlob(keys.key, it.blob);
        if (!opened.ok) throw new Error(`a blob of the room does not open: ${opened.problem}`);
        updates.push(opened.update);
      }
      after = page.next;
      if (!page.more) break;
    }
  } finally {
    await store.close();
  }
  return held(gameId, updates);
}

const viewOn = async (page: Page, gameId: string): Promise<GameView> => viewOf(gameId, await storedEntries(page, gameId));
const committed = (v: GameView): string[] => [...(v.current?.committed ?? [])].sort();

async function seal(page: Page): Promise<void> {
  await page.locator('[data-tab="board"]').click();
  await page.locator('[data-action="seal"]').click();
  await page.locator('[data-action="confirm-seal"]').click();
  await expect.poll(() => page.locator('[data-action="confirm-seal"]').count(), { timeout: 20_000 }).toBe(0);
}

describe('backup and restore of the relay store under a real game', () => {
  it('the game continues on a restored copy: the phones carry back what the restore lost, and both reach the next phase', async () => {
    const base = `http://127.0.0.1:${server!.port}/`;
    const relayUrl = `ws://127.0.0.1:${server!.port}/relay`;
    const anaPhone = phones[0]!;
    const beaPhone = phones[1]!;

    // 1. The game, through the relay alone; Ana seals the first phase.
    const ana = await open(anaPhone);
    const { link, gameId, claim } = await createGameWith(ana, base, {
      name: 'Anastasia',
      seats: 2,
      claim: { index: 1 },
      signaling: 'ws://127.0.0.1:9/',
      relays: relayUrl,
      iceServers: 'stun:127.0.0.1:9',
    });
    const keys = relayKeysFor(gameId, new URLSearchParams(link.split('#')[1]).get('k')!);
    await relaySettled(ana, 1_000);
    let bea = await open(beaPhone);
    const first = await joinSecondAndStart(ana, bea, link, claim, 'Beatriz');
    await seal(ana);
    await relaySettled(ana, 1_000);
    await expect.poll(async () => committed(await viewOn(bea, gameId))).toEqual(committed(await viewOn(ana, gameId)));
    const anaPowers = committed(await viewOn(ana, gameId));
    expect(anaPowers.length).toBeGreaterThan(0);

    // 2. The copy, while the server runs.
    const { stdout } = await storeCommand('backup', copyDir);
    expect(stdout).toContain('1 room(s)');
    expect(existsSync(join(copyDir, 'data.mdb'))).toBe(true);

    // 3. The game goes past the copy: Bea seals, the first phase resolves on both phones.
    await seal(bea);
    await expect.poll(() => phaseOf(ana), { timeout: 60_000 }).not.toBe(first);
    const second = (await phaseOf(ana))!;
    await expect.poll(() => phaseOf(bea), { timeout: 60_000 }).toBe(second);
    for (const p of [ana, bea]) await relaySettled(p, 1_000);
    // Bea's phone is killed; Ana seals the second phase, and the relay has it (nothing waits on her phone).
    await kill(bea);
    await seal(ana);
    await relaySettled(ana, 1_000);
    expect(await outboxSize(ana, gameId)).toBe(0);
    const anaAtKill = await viewOn(ana, gameId);
    expect(anaAtKill.current?.key).toBe(second);
    expect(committed(anaAtKill)).toEqual(anaPowers);
    const live = await onRelay(gameId, keys);
    expect(live.view.current?.key).toBe(second);
    expect(committed(live.view)).toEqual(anaPowers);

    // 4. The server is killed, the copy restored, the server started again on the same port.
    const port = server!.port;
    await server!.kill9();
    const { stdout: restored } = await storeCommand('restore', copyDir);
    expect(restored).toContain('1 room(s) restored');
    expect(readdirSync(scratch.dir).some((f) => f.startsWith('relay.before-restore-'))).toBe(true);
    // What the restored store holds, from its files: the game as it was at the copy, the first
    // phase open with Ana's seal only; everything after it is gone.
    const atCopy = await onDisk(gameId, keys);
    expect(atCopy.view.current?.key).toBe(first);
    expect(committed(atCopy.view)).toEqual(anaPowers);
    expect(atCopy.view.phases).toEqual([]);
    expect(atCopy.blobs).toBeLessThan(live.blobs);
    expect([...atCopy.ids].every((id) => live.ids.has(id))).toBe(true);
    const lost = [...live.ids].filter((id) => !atCopy.ids.has(id));
    expect(lost.length).toBeGreaterThan(0);
    server = await startServer(port);
    expect(server.port).toBe(port);

    // 5. Ana's page reconnects by itself; Bea's browser is launched again.
    bea = await open(beaPhone);
    await bea.goto(`${base}#/game/${gameId}`);
    await expect.poll(() => phaseOf(bea), { timeout: 60_000 }).toBe(second);
    // Ana's second seal reaches Bea: only the relay can bring it, and the restore had lost it.
    await expect.poll(async () => committed(await viewOn(bea, gameId)), { timeout: 90_000 }).toEqual(anaPowers);
    await seal(bea);
    await expect.poll(() => phaseOf(ana), { timeout: 90_000 }).not.toBe(second);
    const third = (await phaseOf(ana))!;
    await expect.poll(() => phaseOf(bea), { timeout: 60_000 }).toBe(third);
    for (const p of [ana, bea]) await relaySettled(p, 1_000);
    const end = await expectSameState(gameId, [ana, bea]);
    expect(end.current?.key).toBe(third);
    expect(end.phases.map((p) => p.key)).toEqual([first, second]);
    expect(end.misconduct).toEqual([]);
    // No WebRTC all along: everything crossed the relay.
    for (const p of [ana, bea]) expect(await p.locator('.net[data-peers]').first().getAttribute('data-peers')).toBe('0');

    // Nothing lost: the relay holds again every entry the phones hold, those the restore dropped included.
    const now = await onRelay(gameId, keys);
    const phoneIds = new Set(openLog(gameId, await storedEntries(ana, gameId)).flatMap((o) => (o.ok ? [o.message.id] : [])));
    expect([...phoneIds].filter((id) => !now.ids.has(id))).toEqual([]);
    expect(lost.every((id) => now.ids.has(id))).toBe(true);
    expect(now.view.stateHash).toBe(end.stateHash);
    expect(pageErrors).toEqual([]);
  }, 240_000);
});

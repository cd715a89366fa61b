// The service worker's work on a push (or a periodic sync), with no page open: for the game the
// push is about (the sealed hint opens under that game's key; a push no game of this device opens
// does nothing), open the game from IndexedDB exactly as the app does (../game/core.ts: the same
// replica, store binding and runner, so the same automatic duties: FINAL, LOCK, REVEAL, the lot's
// steps, the START acceptance, ACKs), fetch what is new from the game's relays over HTTP through
// the same gate, let the runner do what is due, upload this phone's outbox over HTTP, ask the
// relays to wake the others if it appended something they must act on, and say what the player
// should know (notification.ts). The worker never seals, votes, concedes or sends press: those are
// the runner's player actions, which nothing here calls.
//
// One run per game at a time (a Web Lock per game, and a flag here): pushes that arrive while a run
// is under way make one more run after it, never one each, so a flood of pushes does the work once.
// Every duty is idempotent anyway: the runner reserves a FINAL, LOCK or REVEAL once per device
// (outbox.ts send, in the reservations' database the pages share), and a relay stores an append
// once (its keyed id).
import * as Y from 'yjs';
import { connectOptionsFor } from '../../net/invite';
import { httpAppend, httpFetch, openPushHint } from '../../net/relay/client';
import { relayKeysFor } from '../../net/relay/keys';
import { MAX_UPDATE_BYTES } from '../../net/relay/protocol';
import { splitUpdate } from '../../net/split-update';
import { relayStorage } from '../../store';
import type { PactoStore } from '../../store/open';
import { defaultLang, type Lang } from '../i18n';
import { openGameCore, type GameCore } from '../game/core';
import { openDevice, type Device } from '../game/device';
import { asAppRecord, type AppGameRecord } from '../game/records';
import type { GameRunner } from '../game/runner';
import { notifyRoom, wakesOthers } from '../game/wake-others';
import { composeNotification, inQuietHours, type GameGlance, type GameNotification } from './notification';

export interface WakeOptions {
  readonly store: PactoStore;
  /** The push's data (the sealed hint); empty or null: every game with notifications on. */
  readonly payload: Uint8Array | null;
  /** The app's own address (the default relay when a game names none). */
  readonly location?: { readonly protocol: string; readonly host: string };
  readonly fetch?: typeof fetch;
  /** The languages of the platform (the player's setting, in IndexedDB, comes first). */
  readonly languages?: readonly string[];
  /** Shows a notification (the worker: registration.showNotification). */
  readonly show?: (n: GameNotification) => Promise<void>;
  readonly now?: () => Date;
}

export interface GameWake {
  readonly gameId: string;
  /** Message types this run signed and uploaded (duties only). */
  readonly appended: readonly string[];
  readonly fetched: number;
  readonly uploaded: number;
  readonly notification: GameNotification | null;
  readonly errors: readonly string[];
}

/** The origin of updates fetched from a relay (not this phone's: not uploaded again). */
const RELAY_ORIGIN = Symbol('pacto-background-relay');

const running = new Map<string, { again: boolean; done: Promise<GameWake> }>();

type LockManager = { request<T>(name: string, f: () => Promise<T>): Promise<T> };

function withLock<T>(name: string, f: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  return locks === undefined ? f() : locks.request(name, f);
}

/** Runs `f` for a game, one run at a time; calls during a run make exactly one more run after it. */
function serialized(gameId: string, f: () => Promise<GameWake>): Promise<GameWake> {
  const cur = running.get(gameId);
  if (cur !== undefined) {
    cur.again = true;
    return cur.done;
  }
  const entry: { again: boolean; done: Promise<GameWake> } = { again: false, done: Promise.resolve(null as never) };
  entry.done = (async () => {
    try {
      let r: GameWake;
      do {
        entry.again = false;
        r = await withLock(`pacto-wake-${gameId}`, f);
      } while (entry.again);
      return r;
    } finally {
      running.delete(gameId);
    }
  })();
  running.set(gameId, entry);
  return entry.done;
}

/** The games a push is for: the one whose key opens its hint, or (empty push) those with notifications on. */
export function gamesForPush(games: readonly AppGameRecord[], payload: Uint8Array | null): AppGameRecord[] {
  if (payload === null || payload.length === 0) return games.filter((g) => g.notify?.on === true);
  return games.filter((g) => openPushHint(relayKeysFor(g.id, g.password), payload) !== null);
}

export async function wake(o: WakeOptions): Promise<GameWake[]> {
  const device = await openDevice(o.store);
  const all = (await o.store.listGames()).map(asAppRecord).filter((g): g is AppGameRecord => g !== undefined);
  const targets = gamesForPush(all, o.payload);
  const out: GameWake[] = [];
  for (const g of targets) out.push(await serialized(g.id, () => wakeGame(device, g.id, o)));
  return out;
}

function glance(runner: GameRunner): GameGlance {
  const s = runner.current;
  return {
    view: s.view,
    powers: s.me.powers,
    incoming: s.chats.filter((c) => c.from !== s.me.key).map((c) => ({ id: c.id, ...(c.fromPower === undefined ? {} : { fromPower: c.fromPower }) })),
  };
}

/** Waits until the runner has nothing left to do (its duties may append, which schedules more). */
async function settle(runner: GameRunner): Promise<void> {
  for (let i = 0; i < 50; i++) {
    await new Promise((r) => setTimeout(r, 0));
    const w = runner.idle();
    await w;
    await new Promise((r) => setTimeout(r, 0));
    if (runner.idle() === w) return;
  }
}

async function wakeGame(device: Device, gameId: string, o: WakeOptions): Promise<GameWake> {
  const undo: (() => void)[] = [];
  const errors: string[] = [];
  const appended: { type: string; phase?: string }[] = [];
  const fetchImpl = o.fetch ?? fetch;
  const settings = await device.store.getSettings().catch((e: { partial?: Record<string, unknown> }) => e.partial ?? {});
  const lang: Lang = settings.language === 'es' || settings.language === 'en' ? settings.language : defaultLang(o.languages ?? ['es']);
  let fetched = 0;
  let uploaded = 0;
  try {
    const core: GameCore | null = await openGameCore(device, gameId, undo, () => false, {
      onAppended: (m) => appended.push(m),
      lang: () => lang,
      onError: (e) => errors.push(String(e)),
    });
    if (core === null) return { gameId, appended: [], fetched: 0, uploaded: 0, notification: null, errors: ['no such game'] };
    const { record, replica, persisted, runner } = core;
    await settle(runner);
    const before = glance(runner);
    const { relays } = connectOptionsFor(
      { gameId, password: record.password, signaling: record.signaling, ...((record.relays ?? []).length > 0 ? { relays: record.relays } : {}) },
      { relays: (settings.relays as string[] | undefined) ?? [] },
      o.location,
    );
    const keys = relayKeysFor(gameId, record.password);
    const storage = relayStorage(device.store, gameId);
    await storage.begin(relays, () => Y.encodeStateAsUpdate(core.doc));
    // What is new on each relay, through the gate, stored before the cursor moves.
    for (const relay of relays) {
      try {
        let cursor = (await storage.loadCursor(relay)) ?? '';
        for (;;) {
          const page = await httpFetch(relay, keys, cursor, fetchImpl);
          for (const u of page.updates) replica.receive(u, { name: `relay ${relay}`, origin: RELAY_ORIGIN });
          fetched += page.updates.length;
          await replica.flush();
          await persisted.flush();
          if (page.next !== '' && page.next !== cursor) await storage.saveCursor(relay, page.next);
          if (!page.more || page.next === cursor) break;
          cursor = page.next;
        }
      } catch (e) {
        errors.push(`fetch ${relay}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    runner.refresh();
    await settle(runner);
    // This phone's outbox (what the duties just signed, and anything older) to every relay.
    await replica.flush();
    await persisted.flush();
    for (const item of await storage.pending(relays)) {
      for (const relay of relays) {
        if (item.acked.includes(relay)) continue;
        try {
          const pieces = item.update.length > MAX_UPDATE_BYTES ? splitUpdate(item.update, MAX_UPDATE_BYTES) : [item.update];
          for (const p of pieces) await httpAppend(relay, keys, p, fetchImpl);
          await storage.acknowledged(item.seq, relay, relays);
          uploaded++;
        } catch (e) {
          errors.push(`append ${relay}: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    }
    if (appended.some(wakesOthers)) await notifyRoom(relays, keys, record.notify?.endpoint, fetchImpl);
    const fresh = asAppRecord(await device.store.getGame(gameId)) ?? record;
    const after = glance(runner);
    let notification = composeNotification(gameId, before, after, lang);
    if (notification !== null && (fresh.notify?.on !== true || inQuietHours(fresh.notify, (o.now ?? (() => new Date()))()))) notification = null;
    if (notification !== null && o.show !== undefined) await o.show(notification);
    return { gameId, appended: appended.map((m) => m.type), fetched, uploaded, notification, errors };
  } finally {
    for (const f of undo.reverse()) {
      try {
        f();
      } catch {
        // closing
      }
    }
  }
}

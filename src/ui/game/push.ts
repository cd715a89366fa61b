// Notifications for one game on this device (the page side of Web Push): permission, asked only
// from the player's tap; the browser's push subscription, made with the relay's VAPID key; its
// registration with the game's relays under the room token; and the setting in the game's record
// (IndexedDB), where the service worker reads it. The worker's side is src/ui/background.
import { fromBase64 } from '../../protocol';
import { httpPushKey, httpPushRegister, httpPushUnregister, pushSubscriptionKeys } from '../../net/relay/client';
import { relayKeysFor } from '../../net/relay/keys';
import type { Device } from './device';
import { asAppRecord, type GameNotifySettings } from './records';

export type NotifyProblem = 'unsupported' | 'denied' | 'no-relay' | 'subscribe-failed';

export class NotifyError extends Error {
  constructor(
    readonly problem: NotifyProblem,
    detail = '',
  ) {
    super(`${problem}${detail === '' ? '' : `: ${detail}`}`);
    this.name = 'NotifyError';
  }
}

/** iOS gives Web Push only to an app installed to the home screen (opened standalone). */
export function iosNeedsInstall(
  nav: { userAgent: string; standalone?: boolean } = navigator as never,
  standalone = typeof matchMedia === 'function' && matchMedia('(display-mode: standalone)').matches,
): boolean {
  const ios = /iPad|iPhone|iPod/.test(nav.userAgent) || (/Macintosh/.test(nav.userAgent) && (navigator.maxTouchPoints ?? 0) > 1);
  return ios && nav.standalone !== true && !standalone;
}

export function pushSupported(): boolean {
  return typeof Notification !== 'undefined' && typeof navigator !== 'undefined' && 'serviceWorker' in navigator && typeof PushManager !== 'undefined';
}

export async function loadNotifySettings(device: Device, gameId: string): Promise<GameNotifySettings> {
  return asAppRecord(await device.store.getGame(gameId))?.notify ?? { on: false };
}

/** Keys of a base64url VAPID key as PushManager takes them. */
function serverKey(key: string): Uint8Array {
  const bytes = fromBase64(key);
  if (bytes === null) throw new NotifyError('subscribe-failed', 'the relay sent a bad key');
  return new Uint8Array(bytes);
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (a === null || a === undefined) return false;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

/**
 * Turns the game's notifications on: must be called from the player's tap (permission is asked
 * first, before anything else is awaited). A device has one push subscription, tied to one relay
 * key: it is made with the key of the game's first relay that answers, and registered with every
 * relay of the game that has that same key (the others are named in `skipped`).
 */
export async function enableNotifications(
  device: Device,
  gameId: string,
  relays: readonly string[],
  quiet?: GameNotifySettings['quiet'],
): Promise<{ settings: GameNotifySettings; registered: string[]; skipped: string[] }> {
  if (!pushSupported()) throw new NotifyError('unsupported');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new NotifyError('denied');
  const record = asAppRecord(await device.store.getGame(gameId));
  if (record === undefined) throw new Error('the game is not on this device');
  if (relays.length === 0) throw new NotifyError('no-relay');
  const reg = await navigator.serviceWorker.ready;
  const keys = new Map<string, Uint8Array>();
  for (const r of relays) {
    try {
      keys.set(r, serverKey(await httpPushKey(r)));
    } catch {
      // a relay without push (PACTO_PUSH=0) or out of reach
    }
  }
  if (keys.size === 0) throw new NotifyError('no-relay');
  let sub = await reg.pushManager.getSubscription();
  const existing = sub?.options.applicationServerKey;
  let key = [...keys.values()].find((k) => sameKey(existing, k));
  if (sub === null || key === undefined) {
    // A subscription under another relay's key serves other games: it is replaced (they are
    // registered again when their notifications are next turned on; their relays drop the old one when it is gone).
    key = [...keys.values()][0]!;
    try {
      if (sub !== null) await sub.unsubscribe();
      sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key as Uint8Array<ArrayBuffer> });
    } catch (e) {
      throw new NotifyError('subscribe-failed', e instanceof Error ? e.message : String(e));
    }
  }
  const subKeys = pushSubscriptionKeys(sub.toJSON());
  const room = relayKeysFor(gameId, record.password);
  const registered: string[] = [];
  const skipped: string[] = [];
  for (const r of relays) {
    const k = keys.get(r);
    if (k === undefined || !sameKey(k.buffer as ArrayBuffer, key)) {
      skipped.push(r);
      continue;
    }
    try {
      await httpPushRegister(r, room, subKeys);
      registered.push(r);
    } catch {
      skipped.push(r);
    }
  }
  if (registered.length === 0) throw new NotifyError('no-relay');
  const settings: GameNotifySettings = { on: true, ...(quiet === undefined ? {} : { quiet }), endpoint: subKeys.endpoint };
  await device.store.updateGame(gameId, { notify: settings });
  // Where the browser offers it, a periodic wake as well (the worker's 'periodicsync').
  const periodic = (reg as unknown as { periodicSync?: { register(tag: string, o: { minInterval: number }): Promise<void> } }).periodicSync;
  await periodic?.register('pacto-duties', { minInterval: 6 * 3600_000 }).catch(() => undefined);
  return { settings, registered, skipped };
}

/** Turns them off: the relays forget this device for the game (the browser's subscription stays, for other games). */
export async function disableNotifications(device: Device, gameId: string, relays: readonly string[]): Promise<GameNotifySettings> {
  const record = asAppRecord(await device.store.getGame(gameId));
  if (record === undefined) throw new Error('the game is not on this device');
  const endpoint = record.notify?.endpoint;
  if (endpoint !== undefined) {
    const room = relayKeysFor(gameId, record.password);
    await Promise.all(relays.map((r) => httpPushUnregister(r, room, endpoint).catch(() => false)));
  }
  const settings: GameNotifySettings = { on: false, ...(record.notify?.quiet === undefined ? {} : { quiet: record.notify.quiet }) };
  await device.store.updateGame(gameId, { notify: settings });
  return settings;
}

/** Quiet hours only (notifications stay as they are). */
export async function setQuietHours(device: Device, gameId: string, quiet: GameNotifySettings['quiet'] | undefined): Promise<GameNotifySettings> {
  const current = await loadNotifySettings(device, gameId);
  const { quiet: _old, ...rest } = current;
  const settings: GameNotifySettings = { ...rest, ...(quiet === undefined ? {} : { quiet }) };
  await device.store.updateGame(gameId, { notify: settings });
  return settings;
}

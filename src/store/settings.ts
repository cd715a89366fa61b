// Device settings, one record per name so that changing one never rewrites (or loses) another.
import { isRecord } from './check';
import { StoreDataError, type BadRecord } from './errors';
import type { PactoDB } from './schema';
import { DURABLE } from './updates';

export interface IceServerSetting {
  readonly urls: string | readonly string[];
  readonly username?: string;
  readonly credential?: string;
}

export interface DeviceSettings {
  readonly language?: 'es' | 'en';
  /** The player's display name. */
  readonly name?: string;
  /** Signaling server addresses (ws:// or wss://) used for new games. */
  readonly signaling?: readonly string[];
  readonly iceServers?: readonly IceServerSetting[];
  /** Relay addresses (ws[s]://host/relay) this device adds to every game. */
  readonly relays?: readonly string[];
  readonly [extra: string]: unknown;
}

const checks: Record<string, (v: unknown) => string | null> = {
  language: (v) => (v === 'es' || v === 'en' ? null : 'language is not es or en'),
  name: (v) => (typeof v === 'string' ? null : 'name is not a string'),
  signaling: (v) => (Array.isArray(v) && v.every((s) => typeof s === 'string') ? null : 'signaling is not a list of addresses'),
  relays: (v) => (Array.isArray(v) && v.every((s) => typeof s === 'string') ? null : 'relays is not a list of addresses'),
  iceServers: (v) =>
    Array.isArray(v) && v.every((s) => isRecord(s) && (typeof s.urls === 'string' || (Array.isArray(s.urls) && s.urls.every((u) => typeof u === 'string'))))
      ? null
      : 'iceServers is not a list of {urls}',
};

function check(name: string, value: unknown): string | null {
  return checks[name]?.(value) ?? null;
}

export async function getSettings(db: PactoDB): Promise<DeviceSettings> {
  const tx = db.transaction('settings', 'readonly');
  const [values, keys] = await Promise.all([tx.store.getAll(), tx.store.getAllKeys(), tx.done]);
  const settings: Record<string, unknown> = {};
  const bad: BadRecord[] = [];
  keys.forEach((key, i) => {
    const problem = check(key, values[i]);
    if (problem === null) settings[key] = values[i];
    else bad.push({ store: 'settings', key, problem });
  });
  if (bad.length > 0) throw new StoreDataError(bad, settings);
  return settings;
}

/** Sets the named settings (undefined removes one) in one transaction. */
export async function updateSettings(db: PactoDB, patch: Partial<DeviceSettings>): Promise<void> {
  const names = Object.keys(patch).sort();
  for (const name of names) {
    const value = patch[name];
    const problem = value === undefined ? null : check(name, value);
    if (problem !== null) throw new TypeError(`updateSettings: ${problem}`);
  }
  const tx = db.transaction('settings', 'readwrite', DURABLE);
  const writes = names.map((name) => (patch[name] === undefined ? tx.store.delete(name) : tx.store.put(patch[name], name)));
  await Promise.all([...writes, tx.done]);
}

// This device: its store and its identity, made on first run. The secret seeds stay in the store;
// only the derived Identity lives in memory. One per page, shared by every screen.
import nacl from 'tweetnacl';
import { createIdentity, type Identity } from '../../protocol';
// The store's open module, not its index: the index also binds Y.Docs (Yjs).
import type { PactoStore } from '../../store/open';
import { pageStore } from './page-store';
import type { DeviceSettings } from '../../store/settings';
import type { NameMemory } from './session';

export interface Device {
  readonly store: PactoStore;
  readonly identity: Identity;
  readonly settings: DeviceSettings;
}

export async function openDevice(store: PactoStore, random: (n: number) => Uint8Array = nacl.randomBytes, now = Date.now()): Promise<Device> {
  const keys = await store.ensureIdentityKeys(random, now);
  const identity = createIdentity(keys.signSeed, keys.boxSecret);
  let settings: DeviceSettings;
  try {
    settings = await store.getSettings();
  } catch (e) {
    // Bad records are reported by the store with the good part kept.
    settings = ((e as { partial?: DeviceSettings }).partial ?? {}) as DeviceSettings;
  }
  return { store, identity, settings };
}

let device: Promise<Device> | null = null;

/** The page's device, opened once. */
export function pageDevice(): Promise<Device> {
  device ??= pageStore().then((s) => openDevice(s));
  return device;
}

const names = new WeakMap<Device, NameMemory>();

/** The device's remembered name (one object per device, so hooks can depend on it). */
export function deviceNames(device: Device): NameMemory {
  let memory = names.get(device);
  if (memory === undefined) {
    memory = {
      initial: device.settings.name ?? '',
      async load() {
        try {
          return (await device.store.getSettings()).name ?? '';
        } catch {
          return device.settings.name ?? '';
        }
      },
      remember(name: string) {
        const n = name.trim();
        return n === ''
          ? Promise.resolve()
          : device.store.updateSettings({ name: n }).then(
              () => undefined,
              () => undefined,
            );
      },
    };
    names.set(device, memory);
  }
  return memory;
}

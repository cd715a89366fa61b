// The player's name, remembered in the device settings: typed once (new game, joining, settings),
// offered again on every form, also later in the same visit (the page's device record is read
// when the page opens, so the forms ask the store, not that snapshot).
import { useEffect, useRef, useState } from 'react';
import type { Device } from '../game/device';

export async function rememberedName(device: Device): Promise<string> {
  try {
    return (await device.store.getSettings()).name ?? '';
  } catch {
    return device.settings.name ?? '';
  }
}

export function rememberName(device: Device, name: string): Promise<void> {
  const n = name.trim();
  return n === '' ? Promise.resolve() : device.store.updateSettings({ name: n }).catch(() => undefined);
}

/** A name field's state, starting from the remembered name (until the player types). */
export function useRememberedName(device: Device, initial?: string): [string, (name: string) => void] {
  const [name, setName] = useState(initial ?? device.settings.name ?? '');
  const typed = useRef(false);
  useEffect(() => {
    if (initial !== undefined && initial !== '') return;
    let live = true;
    void rememberedName(device).then((n) => {
      if (live && !typed.current && n !== '') setName(n);
    });
    return () => {
      live = false;
    };
  }, [device, initial]);
  return [
    name,
    (n: string) => {
      typed.current = true;
      setName(n);
    },
  ];
}

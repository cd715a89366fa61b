// While the app is open, every unfinished game on this device stays open (live.ts): the phone
// reveals, acknowledges and relays messages for its games even while it shows the home screen.
import { useEffect } from 'react';
import type { Device } from '../game/device';
import { asAppRecord } from '../game/records';

const RESCAN_MS = 30_000;

export function useBackgroundGames(device: Device | null, routeKey: string): void {
  useEffect(() => {
    if (device === null) return;
    let live = true;
    const held = new Map<string, () => void>();
    const scan = async (): Promise<void> => {
      const records = (await device.store.listGames().catch(() => [])).map(asAppRecord);
      if (!live) return;
      // Loaded only once there is a game to keep: the home screen of a new phone stays small.
      const wanted = records.filter((r) => r !== undefined && r.status !== 'finished').map((r) => r!.id);
      if (wanted.length === 0) return;
      const { acquireGame } = await import('../game/live');
      if (!live) return;
      for (const id of wanted) if (!held.has(id)) held.set(id, acquireGame(device, id).release);
    };
    void scan();
    const timer = setInterval(() => void scan(), RESCAN_MS);
    return () => {
      live = false;
      clearInterval(timer);
      for (const release of held.values()) release();
    };
  }, [device, routeKey]);
}

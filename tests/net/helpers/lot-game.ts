// An honest three-player lot game (standard variant) as its phones carry it: the lobby, the lot
// ballot that deals the seats (its LOCKs and REVEALs are of phase 'lot'), then spring 1901 played
// through. Entries after the START are in the compact wire form (protocol 6), as the app signs them.
import { randomOrders, type Order, type Power } from '../../../src/rules';
import { acceptStart, compactEntry, createGame, joinGame, parseEntry, startKeys, startLot, type GameView } from '../../../src/protocol';
import { escrowOf, identity, rng, settings as baseSettings, T0 } from '../../protocol/helpers';
import { Device, playHonest, post, settle, type Table } from '../../protocol/sealed-adapter';

export interface CarriedEntry {
  readonly bytes: Uint8Array;
  /** Index of the player (phone) that signed it. */
  readonly author: number;
  readonly type: string;
  readonly phase: string | undefined;
}

function ordersFor(v: GameView, pick: (n: number) => number): Partial<Record<Power, Order[]>> {
  const c = v.current!;
  return Object.fromEntries(c.required.map((p) => [p, randomOrders(c.position, p, pick)]));
}

export function lotGame(seed: number, players = 3): { gameId: string; keys: string[]; entries: CarriedEntry[] } {
  const r = rng(seed);
  const devices = Array.from({ length: players }, (_, i) => new Device(identity(i), rng(seed * 131 + i), `p${i}`));
  const creator = devices[0]!;
  const s = baseSettings({ assignment: 'lot' });
  const { gameId, message } = createGame(creator.me, r.bytes(16), s, creator.stamp(T0));
  const t: Table = { gameId, createId: message.id, startId: '', devices, spares: [], roster: {} as Record<Power, string>, settings: s, log: [message.bytes] };
  for (const d of devices) post(t, [joinGame(d.me, gameId, d.name, null, d.stamp(T0 + 1))]);
  const start = startLot(creator.me, gameId, devices.map((d) => d.key).sort(), escrowOf(devices.map((d) => d.me)), creator.stamp(T0 + 2));
  t.startId = start.id;
  post(t, [start]);
  for (const d of devices.slice(1)) post(t, [acceptStart(d.me, gameId, start, d.stamp(T0 + 3))]);
  const v = settle(t, devices, T0 + 5);
  if (v.status !== 'playing') throw new Error(`lot game did not start: ${v.status}`);
  playHonest(t, ordersFor(v, r.int), T0 + 100);
  const keys = devices.map((d) => d.key);
  let places: string[] | null = null;
  const entries = t.log.map((bytes) => {
    const p = parseEntry(bytes, { game: gameId, keyLists: [] });
    if (!p.ok) throw new Error(`unreadable entry: ${p.reason}`);
    const payload = p.entry.payload;
    const carried = places === null ? bytes : compactEntry(bytes, places);
    if (payload.type === 'start') places = startKeys(payload);
    return { bytes: carried, author: keys.indexOf(payload.from), type: payload.type, phase: 'phase' in payload ? String(payload.phase) : undefined };
  });
  return { gameId, keys, entries };
}

// The games this page keeps open: one Y.Doc, store binding, runner and room connection per game,
// shared by whoever asks (the game screen, and the home screen's background duty). A phone that
// shows its home screen still reveals, acknowledges and relays for its games, so it never holds
// the others up; and y-webrtc allows only one doc per room in a page anyway.
// Direct imports, not the net index: the index also carries table mode (camera, QR reader), which
// the game screens do not need on their first load.
import { connectOptionsFor } from '../../net/invite';
import { checkIceServer, checkRelayUrl, type IceServer } from '../../net/settings';
import { connectGame, type GameConnection } from '../../net/provider';
import { GameRelay } from '../../net/relay/phone';
import { relayStorage } from '../../store';
import { openGameCore } from './core';
import { gameInvite, inviteLink } from './invite';
import { asAppRecord } from './records';
import { notifyRoom, RoomWaker } from './wake-others';
import { relayKeysFor } from '../../net/relay/keys';
import type { GameRunner } from './runner';
import type { Device } from './device';
import type { GameInvite, GameNetwork, NetStatus } from './session';
import { TableRoom } from './table';

export interface LiveGame {
  readonly gameId: string;
  readonly runner: GameRunner;
  net(): NetStatus;
  onNet(listener: () => void): () => void;
  /** The relays the game uses now (its own, else the device's, else the app's host). */
  relays(): readonly string[];
  /** The game's own relays and ICE servers (its record: from the invite, or set in its settings). */
  network(): GameNetwork;
  /** Stores them in the game's record and switches the open game to them, without a reload. */
  setNetwork(relays: readonly string[], iceServers: readonly IceServer[]): Promise<void>;
  /** The game's invite with its network now (the same object until the link changes). */
  invite(): GameInvite;
  /** The game's links to phones at the table (no server): pairing by QR code, which phone dropped. */
  readonly table: TableRoom;
}

interface Entry {
  readonly ready: Promise<LiveGame | null>;
  refs: number;
  closeTimer: ReturnType<typeof setTimeout> | null;
  close(): void;
}

const games = new Map<string, Entry>();

/** How long a released game stays open, so a quick re-open (StrictMode, navigation) reuses it. */
const LINGER_MS = 2_000;

function online(): boolean {
  return typeof navigator === 'undefined' ? true : navigator.onLine;
}

function open(device: Device, gameId: string): Entry {
  const undo: (() => void)[] = [];
  let closed = false;
  const close = (): void => {
    closed = true;
    undo.reverse().forEach((f) => f());
    undo.length = 0;
  };
  // This phone's appends that the others must act on make the relays push to them (wake-others.ts).
  const wake = new RoomWaker();
  undo.push(() => wake.detach());
  const ready = (async (): Promise<LiveGame | null> => {
    const core = await openGameCore(device, gameId, undo, () => closed, { onAppended: (m) => wake.appended(m) });
    if (core === null) {
      close();
      return null;
    }
    const { record, replica, persisted, runner } = core;
    const listeners = new Set<() => void>();
    let conn: GameConnection | null = null;
    let relay: GameRelay | null = null;
    let network: GameNetwork = { relays: record.relays ?? [], iceServers: record.iceServers ?? [] };
    /** Undoes the relays connect() started, so a settings change can start them again. */
    const relayUndo: (() => void)[] = [];
    const stopRelay = (): void => {
      for (const f of relayUndo.splice(0).reverse()) f();
      relay = null;
    };
    undo.push(stopRelay);
    /** Closes the WebRTC room connect() opened (for new ICE servers). */
    let stopRoom: (() => void) | null = null;
    /** Opens the game's relays, and its WebRTC room if `room`. */
    const connect = (room: boolean): void => {
      try {
        const options = connectOptionsFor(
          {
            gameId,
            password: record.password,
            signaling: record.signaling,
            ...(network.iceServers.length > 0 ? { iceServers: network.iceServers } : {}),
            ...(network.relays.length > 0 ? { relays: network.relays } : {}),
          },
          { signaling: device.settings.signaling ?? [], iceServers: device.settings.iceServers ?? [], relays: device.settings.relays ?? [] },
          typeof location === 'undefined' ? undefined : location,
        );
        // The relays first: the game goes on through them even where WebRTC never connects.
        try {
          const r = new GameRelay({
            gameId,
            password: record.password,
            relays: options.relays,
            gate: replica,
            storage: relayStorage(device.store, gameId),
            persisted,
          });
          relay = r;
          relayUndo.push(() => r.destroy());
          relayUndo.push(r.onStatus(() => listeners.forEach((l) => l())));
          const keys = relayKeysFor(gameId, record.password);
          wake.attach(
            async () => notifyRoom(r.relays, keys, asAppRecord(await device.store.getGame(gameId))?.notify?.endpoint),
            () => r.status().waiting,
          );
          relayUndo.push(r.onStatus(() => wake.check()));
          r.ready.catch((e) => console.warn('pacto: the relays cannot start', e));
        } catch (e) {
          console.warn('pacto: bad relay address', e);
        }
        if (room) {
          const c = connectGame(replica, options);
          conn = c;
          const off = c.onStatus(() => listeners.forEach((l) => l()));
          stopRoom = () => {
            off();
            c.destroy();
            conn = null;
          };
          undo.push(() => stopRoom?.());
        }
      } catch (e) {
        console.warn('pacto: cannot connect', e);
      }
    };
    connect(true);
    // Table mode: links made by QR codes, with no server; they carry the same replica, so what
    // comes in by one way goes out by the others (a table game can go online and back).
    // The invite follows the game's network: a settings change makes a new link.
    let invite: GameInvite | null = null;
    const currentInvite = (): GameInvite => {
      const link = inviteLink(gameId, record, network);
      if (invite?.link !== link) invite = gameInvite(link);
      return invite;
    };
    const table = new TableRoom(replica, gameId, device.identity.id, () => currentInvite().link);
    undo.push(() => table.destroy());
    undo.push(table.onChange(() => listeners.forEach((l) => l())));
    undo.push(table.provider.onStatus(() => listeners.forEach((l) => l())));
    const onOnline = (): void => listeners.forEach((l) => l());
    if (typeof window !== 'undefined') {
      window.addEventListener('online', onOnline);
      window.addEventListener('offline', onOnline);
      undo.push(() => {
        window.removeEventListener('online', onOnline);
        window.removeEventListener('offline', onOnline);
      });
    }
    return {
      gameId,
      runner,
      net: () => {
        const s = conn?.status();
        const r = relay?.status();
        const t = table.provider.status;
        return {
          peers: (s?.webrtcPeers ?? 0) + t.peers,
          synced: (s?.synced ?? false) || t.synced > 0,
          online: online(),
          ...(r !== undefined && r.relays.length > 0
            ? {
                relays: {
                  total: r.relays.length,
                  connected: r.relays.filter((x) => x.connected).length,
                  caughtUp: r.relays.filter((x) => x.caughtUp).length,
                  waiting: r.waiting,
                  misbehaving: r.relays.filter((x) => x.misbehaving === true).length,
                },
              }
            : {}),
        };
      },
      onNet: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      network: () => network,
      invite: currentInvite,
      table,
      relays: () => relay?.relays ?? [],
      setNetwork: async (relays, iceServers) => {
        // Checked by the caller's parser; checked again here, so a bad address never reaches the record.
        const next = { relays: relays.map(checkRelayUrl), iceServers: iceServers.map(checkIceServer) };
        await device.store.updateGame(gameId, { relays: next.relays, iceServers: next.iceServers });
        if (closed) return;
        const iceChanged = JSON.stringify(next.iceServers) !== JSON.stringify(network.iceServers);
        network = next;
        // The relays start again on the new list (a relay new to the game gets its whole state);
        // the WebRTC room only when its ICE servers changed.
        stopRelay();
        if (iceChanged) {
          stopRoom?.();
          stopRoom = null;
        }
        connect(iceChanged || conn === null);
        listeners.forEach((l) => l());
      },
    };
  })();
  ready.catch(() => close());
  return { ready, refs: 0, closeTimer: null, close };
}

/** Opens (or shares) a game; call release() when done. Resolves to null if the game is not on this device. */
export function acquireGame(device: Device, gameId: string): { ready: Promise<LiveGame | null>; release(): void } {
  let entry = games.get(gameId);
  if (entry === undefined) {
    entry = open(device, gameId);
    games.set(gameId, entry);
  }
  const e = entry;
  e.refs++;
  if (e.closeTimer !== null) {
    clearTimeout(e.closeTimer);
    e.closeTimer = null;
  }
  let released = false;
  return {
    ready: e.ready,
    release: () => {
      if (released) return;
      released = true;
      if (--e.refs > 0) return;
      e.closeTimer = setTimeout(() => {
        if (e.refs > 0) return;
        games.delete(gameId);
        e.close();
      }, LINGER_MS);
    },
  };
}

/** Games open in this page (for tests and diagnostics). */
export function liveGames(): string[] {
  return [...games.keys()].sort();
}

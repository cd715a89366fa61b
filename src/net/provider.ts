// Connects a game's Y.Doc to its peers with y-webrtc: over WebRTC through a signaling server, and
// between tabs of one browser over BroadcastChannel. Adds what y-webrtc lacks for a long game:
// large catch-ups cut into pieces, the sync handshake re-run on every reconnect and on a timer
// (after a reconnect y-webrtc's sync can go one way: yjs/y-webrtc#24), one side of each pair
// starting the connection (two peers announcing at once would otherwise glare and never connect:
// one-initiator.ts), one provider per room.
// Everything a peer sends passes a gate first (y-webrtc-hooks.ts): the game's GameReplica, which
// admits entries and applies only clean updates, and also compares entry sets with each peer
// (anti-entropy); a bare Y.Doc gets the structural gate only.
import * as Y from 'yjs';
import { WebrtcProvider } from 'y-webrtc';
import { Awareness } from 'y-protocols/awareness';
import { forgetRoom, hookSignaling, registerRoom } from './one-initiator';
import { structuralGate, type UpdateGate } from './gate';
import { UPDATE_BUDGET_BYTES } from './log-doc';
import { roomNameFor } from './room';
import { checkIceServer, checkSignalingUrl, type IceServer } from './settings';
import { syncStep1Message } from './sync-messages';
import { announceNeighbors, limitForwarding } from './forwarding';
import { gateBroadcastChannel, instrumentPeers, peerCounts, sendDigests, sendToConnected, signalingConnected } from './y-webrtc-hooks';

export interface ConnectOptions {
  readonly gameId: string;
  /** The room password from the invite: signaling messages are encrypted with it. */
  readonly password: string;
  /** Signaling server addresses; an empty list finds peers over BroadcastChannel only. */
  readonly signaling: readonly string[];
  readonly iceServers?: readonly IceServer[];
  /** A WebRTC implementation where the platform has none (Node: @roamhq/wrtc). */
  readonly wrtc?: unknown;
  /** How often to re-run the sync handshake with every peer. */
  readonly resyncIntervalMs?: number;
  /** Largest message put on a data channel. */
  readonly maxMessageBytes?: number;
}

export interface SyncStatus {
  /** Looking for peers (false after disconnect()). */
  readonly active: boolean;
  readonly signalingConnected: boolean;
  /** Open WebRTC connections, and how many of them have completed a sync handshake. */
  readonly webrtcPeers: number;
  readonly syncedPeers: number;
  /** Every open WebRTC connection has sent us its state at least once. Tabs of this browser
   * also sync over BroadcastChannel, which y-webrtc does not count (filterBcConns is off). */
  readonly synced: boolean;
}

export interface GameConnection {
  readonly gameId: string;
  readonly roomName: string;
  readonly doc: Y.Doc;
  status(): SyncStatus;
  /** Called on every change of status; returns the unsubscribe. */
  onStatus(listener: (status: SyncStatus) => void): () => void;
  /** Asks every connected peer for what we lack (and so, by their own timers, they ask us). */
  resync(): number;
  /** Stops looking for peers and closes connections; the doc keeps working offline. */
  disconnect(): void;
  connect(): void;
  /** Releases this handle; the provider closes when the last handle of the room is released. */
  destroy(): void;
}

export class NetError extends Error {}

export const DEFAULT_RESYNC_INTERVAL_MS = 20_000;

interface Shared {
  readonly doc: Y.Doc;
  readonly provider: WebrtcProvider;
  resync(): number;
  readonly listeners: Set<(s: SyncStatus) => void>;
  handles: number;
  close(): void;
}

/** y-webrtc allows one provider per room name in a page and throws asynchronously otherwise. */
const rooms = new Map<string, Shared>();

export function openRooms(): string[] {
  return [...rooms.keys()].sort();
}

function statusOf(provider: WebrtcProvider): SyncStatus {
  const peers = peerCounts(provider);
  return {
    active: provider.shouldConnect,
    signalingConnected: signalingConnected(provider),
    webrtcPeers: peers.webrtc,
    syncedPeers: peers.webrtcSynced,
    synced: peers.webrtc > 0 && peers.webrtc === peers.webrtcSynced,
  };
}

function open(gate: UpdateGate, roomName: string, options: ConnectOptions): Shared {
  const doc = gate.doc;
  const maxBytes = options.maxMessageBytes ?? UPDATE_BUDGET_BYTES;
  const signaling = options.signaling.map(checkSignalingUrl);
  const iceServers = (options.iceServers ?? []).map(checkIceServer);
  // Ours, so that closing the provider also stops the awareness timer y-webrtc would leave running.
  // We use no awareness: with no local state y-webrtc sends none.
  const awareness = new Awareness(doc);
  awareness.setLocalState(null);
  const provider = new WebrtcProvider(roomName, doc, {
    signaling,
    awareness,
    password: options.password,
    // Tabs of one browser sync over BroadcastChannel and also over WebRTC: a tab that loses the
    // channel still has the other path.
    filterBcConns: false,
    // An explicit list, so simple-peer's default public STUN servers are never contacted.
    peerOpts: { config: { iceServers }, ...(options.wrtc === undefined ? {} : { wrtc: options.wrtc }) },
  });
  registerRoom(provider);
  const listeners = new Set<(s: SyncStatus) => void>();
  let last = '';
  const notify = (): void => {
    const s = statusOf(provider);
    const key = JSON.stringify(s);
    if (key === last) return;
    last = key;
    for (const l of [...listeners]) l(s);
  };
  /** The sync handshake (Yjs ids) and anti-entropy (entry ids) with every open connection. */
  const resync = (): number => {
    const sent = sendToConnected(provider, syncStep1Message(doc));
    sendDigests(provider);
    announceNeighbors(provider);
    return sent;
  };

  // Deferred, so that y-webrtc's own handlers of the same event have run first.
  // A link opened or closed: the status changes, and the peers learn whom this phone reaches.
  const peerChanged = (): void =>
    void Promise.resolve().then(() => {
      announceNeighbors(provider);
      notify();
    });
  provider.on('peers', () => {
    instrumentPeers(provider, maxBytes, gate, peerChanged);
    notify();
  });
  provider.on('synced', notify);
  // The first 'status' comes right after y-webrtc opens the room and subscribes its BroadcastChannel.
  provider.on('status', () => {
    gateBroadcastChannel(provider, gate);
    limitForwarding(provider);
    notify();
  });

  // Signaling sockets are shared between providers of a page and replaced on connect(): watch
  // whichever are current. A socket that comes back means we may have missed updates.
  const watched = new Set<{ on(e: string, f: () => void): void; off(e: string, f: () => void): void }>();
  const onSignalingConnect = (): void => {
    resync();
    notify();
  };
  const watchSignaling = (): void => {
    for (const c of provider.signalingConns as { on(e: string, f: () => void): void; off(e: string, f: () => void): void }[]) {
      if (watched.has(c)) continue;
      watched.add(c);
      c.on('connect', onSignalingConnect);
      c.on('disconnect', notify);
    }
  };
  const unwatchSignaling = (): void => {
    for (const c of watched) {
      c.off('connect', onSignalingConnect);
      c.off('disconnect', notify);
    }
    watched.clear();
  };
  watchSignaling();

  const timer = setInterval(() => {
    instrumentPeers(provider, maxBytes, gate, peerChanged);
    resync();
    notify();
  }, options.resyncIntervalMs ?? DEFAULT_RESYNC_INTERVAL_MS);
  const onOnline = (): void => {
    resync();
    notify();
  };
  const win = typeof window === 'undefined' ? undefined : window;
  win?.addEventListener('online', onOnline);

  const shared: Shared = {
    doc,
    provider,
    resync,
    listeners,
    handles: 0,
    close: () => {
      clearInterval(timer);
      win?.removeEventListener('online', onOnline);
      unwatchSignaling();
      forgetRoom(provider);
      listeners.clear();
      // destroy() alone leaves the page's signaling sockets open and reconnecting for ever.
      if (provider.shouldConnect) provider.disconnect();
      provider.destroy();
      awareness.destroy();
    },
  };
  // connect()/disconnect() of a handle must re-watch the new sockets.
  const connect = provider.connect.bind(provider);
  provider.connect = () => {
    connect();
    hookSignaling(provider);
    watchSignaling();
    notify();
  };
  const disconnect = provider.disconnect.bind(provider);
  provider.disconnect = () => {
    unwatchSignaling();
    disconnect();
    notify();
  };
  return shared;
}

/**
 * Connects a game's replica (or, for transport tests, a bare doc) to the game's room. Asking again
 * for a room already open in this page with the same doc shares the provider; with another doc it
 * throws NetError (two docs in one room would each see only part of the game).
 */
export function connectGame(target: UpdateGate | Y.Doc, options: ConnectOptions): GameConnection {
  if (options.gameId === '') throw new NetError('a game id is needed to connect');
  const gate = target instanceof Y.Doc ? structuralGate(target) : target;
  const doc = gate.doc;
  const roomName = roomNameFor(options.gameId, options.password);
  let shared = rooms.get(roomName);
  if (shared && shared.doc !== doc) throw new NetError(`game ${options.gameId} is already connected in this page with another document`);
  if (!shared) {
    shared = open(gate, roomName, options);
    rooms.set(roomName, shared);
  }
  const s = shared;
  s.handles++;
  const mine = new Set<(st: SyncStatus) => void>();
  let released = false;
  return {
    gameId: options.gameId,
    roomName,
    doc,
    status: () => statusOf(s.provider),
    onStatus: (listener) => {
      s.listeners.add(listener);
      mine.add(listener);
      return () => {
        s.listeners.delete(listener);
        mine.delete(listener);
      };
    },
    resync: () => s.resync(),
    disconnect: () => {
      if (s.provider.shouldConnect) s.provider.disconnect();
    },
    connect: () => {
      if (!released && !s.provider.shouldConnect) s.provider.connect();
    },
    destroy: () => {
      if (released) return;
      released = true;
      for (const l of mine) s.listeners.delete(l);
      if (--s.handles > 0) return;
      rooms.delete(roomName);
      s.close();
    },
  };
}

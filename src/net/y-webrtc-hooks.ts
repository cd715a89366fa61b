// Where we reach inside y-webrtc (pinned at 10.3.0): the room's connection map, each connection's
// simple-peer (whose `send` we wrap so nothing over the frame budget goes out, and whose `emit` we
// wrap so that every incoming message passes the gate before y-webrtc's own listener, attached in
// WebrtcConn's constructor, sees it), and the room's BroadcastChannel subscriber.
// tests/net/multiprocess.test.ts, tests/net/attacks-webrtc.test.ts and tests/e2e/net-sync.test.ts
// fail if a y-webrtc upgrade moves them.
//
// What reaches y-webrtc from a peer: a well-formed sync step 1 (it answers with a step 2), and in
// place of a step 2 an empty step 2 (so it counts the peer as synced) once the gate has applied
// what was clean. Updates are applied by the gate alone. Anti-entropy messages go to the link's
// AntiEntropyLink. Awareness (unused), anything unknown, and any frame over 64 KiB are dropped,
// without closing the link.
import type { WebrtcProvider } from 'y-webrtc';
import * as bc from 'lib0/broadcastchannel';
import { decryptMessage } from './one-initiator';
import { AntiEntropyLink, MESSAGE_ANTI_ENTROPY, type EntrySource } from './anti-entropy';
import { MESSAGE_NEIGHBORS, receiveNeighbors } from './forwarding';
import { FRAME_LIMIT_BYTES, type PeerRef, type UpdateGate } from './gate';
import { splitSyncMessage } from './sync-messages';
import { EMPTY_UPDATE, MESSAGE_SYNC, messageType, parseStateVector, parseSyncMessage, SYNC_STEP_1, SYNC_STEP_2, syncMessage } from './yjs-update';

interface HookedPeer {
  send(data: Uint8Array): void;
  emit(event: string, ...args: unknown[]): boolean;
  on(event: 'connect' | 'close', listener: () => void): void;
  readonly connected?: boolean;
  readonly destroyed?: boolean;
}

interface Conn {
  readonly peer?: unknown;
  readonly remotePeerId?: string;
  readonly connected: boolean;
  readonly closed: boolean;
}

const wrapped = new WeakSet<object>();
/** Peers that have sent us a sync step 2. y-webrtc's own `synced` flag is set only for peers that
 * answer while the room as a whole is not yet synced, so a later peer would never count. */
const answered = new WeakSet<object>();
const links = new WeakMap<object, AntiEntropyLink>();
const EMPTY_STEP_2 = syncMessage(SYNC_STEP_2, EMPTY_UPDATE);
const MESSAGE_AWARENESS = 1;
const MESSAGE_QUERY_AWARENESS = 3;

export function isEntrySource(x: unknown): x is EntrySource & UpdateGate {
  return typeof x === 'object' && x !== null && typeof (x as EntrySource).digest === 'function' && typeof (x as EntrySource).receiveEntries === 'function';
}

function asBytes(data: unknown): Uint8Array | null {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return null;
}

export interface Incoming {
  /** What to hand on to y-webrtc, or null. */
  readonly pass: Uint8Array | null;
  /** A step 2 arrived (the peer has sent us its state). */
  readonly step2: boolean;
}

/**
 * The gate's decision about one message from a peer (data channel or BroadcastChannel). Applies
 * updates through the gate, hands anti-entropy to `link`. Never throws.
 */
export function filterIncoming(data: unknown, gate: UpdateGate, peer: PeerRef, link: AntiEntropyLink | undefined): Incoming {
  const none = { pass: null, step2: false };
  try {
    const bytes = asBytes(data);
    if (bytes === null) {
      gate.report({ kind: 'message-refused', peer: peer.name, reason: 'not-binary' });
      return none;
    }
    if (bytes.length > FRAME_LIMIT_BYTES) {
      gate.report({ kind: 'frame-too-large', peer: peer.name, reason: `${bytes.length} bytes` });
      return none;
    }
    const type = messageType(bytes);
    if (type === MESSAGE_ANTI_ENTROPY) {
      link?.receive(bytes);
      return none;
    }
    if (type === MESSAGE_NEIGHBORS) {
      if (typeof peer.origin !== 'object' || peer.origin === null || !receiveNeighbors(peer.origin, bytes))
        gate.report({ kind: 'message-refused', peer: peer.name, reason: 'bad-neighbors' });
      return none;
    }
    if (type === MESSAGE_AWARENESS || type === MESSAGE_QUERY_AWARENESS) return none;
    if (type !== MESSAGE_SYNC) {
      gate.report({ kind: 'message-refused', peer: peer.name, reason: `unknown-type-${type ?? 'malformed'}` });
      return none;
    }
    const m = parseSyncMessage(bytes);
    if (m === null) {
      gate.report({ kind: 'message-refused', peer: peer.name, reason: 'bad-sync-message' });
      return none;
    }
    if (m.syncType === SYNC_STEP_1) {
      if (parseStateVector(m.payload) === null) {
        gate.report({ kind: 'message-refused', peer: peer.name, reason: 'bad-state-vector' });
        return none;
      }
      return { pass: bytes, step2: false };
    }
    gate.receive(m.payload, peer);
    return m.syncType === SYNC_STEP_2 ? { pass: EMPTY_STEP_2, step2: true } : none;
  } catch (e) {
    gate.report({ kind: 'internal-error', peer: peer.name, reason: e instanceof Error ? e.message : String(e) });
    return none;
  }
}

/**
 * What to wait for before `filterIncoming` handles this message: the gate checking the update's
 * signatures with the platform's Ed25519, asynchronously. Null when there is nothing to wait for.
 */
export function prepareIncoming(data: unknown, gate: UpdateGate): Promise<void> | null {
  if (gate.prepare === undefined) return null;
  try {
    const bytes = asBytes(data);
    if (bytes === null || bytes.length > FRAME_LIMIT_BYTES || messageType(bytes) !== MESSAGE_SYNC) return null;
    const m = parseSyncMessage(bytes);
    if (m === null || m.syncType === SYNC_STEP_1) return null;
    return gate.prepare(m.payload);
  } catch {
    return null;
  }
}

/** Wraps every peer of the room not yet wrapped. Called on every 'peers' event, which y-webrtc
 * emits right after it creates a connection and before that connection can open. */
export function instrumentPeers(provider: WebrtcProvider, maxBytes: number, gate: UpdateGate, onChange?: () => void): void {
  for (const conn of (provider.room?.webrtcConns.values() ?? []) as Iterable<Conn>) {
    const peer = conn.peer as HookedPeer | undefined;
    if (!peer || wrapped.has(peer)) continue;
    wrapped.add(peer);
    const ref: PeerRef = { name: `webrtc:${conn.remotePeerId ?? '?'}`, origin: conn };
    const send = peer.send.bind(peer);
    peer.send = (data: Uint8Array) => {
      for (const part of splitSyncMessage(data, maxBytes)) {
        // Only a single struct larger than the budget could still be over it: an entry never is.
        if (part.length > maxBytes) gate.report({ kind: 'frame-too-large', peer: ref.name, reason: `not sent: ${part.length} bytes` });
        else send(part);
      }
    };
    const link = isEntrySource(gate)
      ? new AntiEntropyLink(gate, ref, (m) => {
          if (peer.connected === true && peer.destroyed !== true) peer.send(m);
        })
      : undefined;
    if (link !== undefined) links.set(peer, link);
    const emit = peer.emit.bind(peer);
    const handle = (data: unknown): boolean => {
      const incoming = filterIncoming(data, gate, ref, link);
      if (incoming.step2) {
        if (!answered.has(peer)) {
          answered.add(peer);
          onChange?.();
        }
        // The handshake is done: compare entries too (data channels are ordered, so our step 2
        // reached the peer before this digest).
        link?.sendDigest();
      }
      return incoming.pass === null ? false : emit('data', incoming.pass);
    };
    // Messages are handled in arrival order: once one waits for its signatures to be checked
    // (asynchronously, natively), the ones after it wait behind it.
    let queue: Promise<void> | null = null;
    peer.emit = (event: string, ...args: unknown[]): boolean => {
      if (event !== 'data') return emit(event, ...args);
      const data = args[0];
      if (queue === null) {
        const ready = prepareIncoming(data, gate);
        if (ready === null) return handle(data);
        queue = ready;
      } else {
        queue = queue.then(() => prepareIncoming(data, gate) ?? undefined);
      }
      const mine: Promise<void> = queue.then(() => {
        try {
          handle(data);
        } catch (e) {
          gate.report({ kind: 'internal-error', peer: ref.name, reason: e instanceof Error ? e.message : String(e) });
        }
        if (queue === mine) queue = null;
      });
      queue = mine;
      return true;
    };
    if (onChange) {
      peer.on('connect', onChange);
      peer.on('close', onChange);
    }
  }
}

/** Sends our anti-entropy digest on every open connection (the resync timer calls it). */
export function sendDigests(provider: WebrtcProvider): void {
  for (const conn of (provider.room?.webrtcConns.values() ?? []) as Iterable<Conn>) {
    if (!conn.connected || conn.closed) continue;
    links.get(conn.peer as object)?.sendDigest();
  }
}

/** Sends to every open WebRTC connection of the room; returns how many it reached. */
export function sendToConnected(provider: WebrtcProvider, message: Uint8Array): number {
  let sent = 0;
  for (const conn of (provider.room?.webrtcConns.values() ?? []) as Iterable<Conn>) {
    if (!conn.connected || conn.closed) continue;
    try {
      (conn.peer as HookedPeer).send(message);
      sent++;
    } catch {
      // A channel closing under us: its 'close' event removes it from the room.
    }
  }
  return sent;
}

export interface PeerCounts {
  readonly webrtc: number;
  readonly webrtcSynced: number;
}

export function peerCounts(provider: WebrtcProvider): PeerCounts {
  const room = provider.room;
  if (!room) return { webrtc: 0, webrtcSynced: 0 };
  let webrtc = 0;
  let webrtcSynced = 0;
  for (const conn of room.webrtcConns.values() as Iterable<Conn>) {
    if (!conn.connected) continue;
    webrtc++;
    if (answered.has(conn.peer as object)) webrtcSynced++;
  }
  return { webrtc, webrtcSynced };
}

/** Whether any of the provider's signaling sockets is open. */
export function signalingConnected(provider: WebrtcProvider): boolean {
  return (provider.signalingConns as { connected?: boolean }[]).some((c) => c.connected === true);
}

interface BcRoom {
  readonly name: string;
  readonly key: CryptoKey | null;
  bcconnected: boolean;
  _bcSubscriber: (data: ArrayBuffer, origin: unknown) => unknown;
}

const gatedRooms = new WeakSet<object>();

/**
 * Puts the gate in front of the room's BroadcastChannel (other tabs of this browser): updates are
 * applied by the gate, a step 1 and tab announcements go on to y-webrtc, the rest is dropped.
 * Call once the room exists (after the provider's first 'status' event).
 */
export function gateBroadcastChannel(provider: WebrtcProvider, gate: UpdateGate): void {
  const room = provider.room as unknown as BcRoom | null;
  if (room === null || gatedRooms.has(room)) return;
  gatedRooms.add(room);
  const original = room._bcSubscriber;
  const peer: PeerRef = { name: 'broadcast-channel', origin: room };
  const gated = (data: ArrayBuffer, origin: unknown): void => {
    // lib0 hands this tab's own posts back to it at once (origin null); another tab's come from
    // the channel's message event. Ours are already in the doc.
    if (origin !== 'broadcastchannel') return;
    void decryptMessage(new Uint8Array(data), room.key).then(
      (plain) => {
        const type = messageType(plain);
        if (type === MESSAGE_SYNC) {
          const incoming = filterIncoming(plain, gate, peer, undefined);
          // Only a step 1 is handed on (y-webrtc answers it); updates were applied by the gate.
          if (incoming.pass !== null && !incoming.step2) original(data, origin);
        } else if (type === 4) {
          original(data, origin); // another tab's announcement, read by y-webrtc with lib0
        }
      },
      () => gate.report({ kind: 'message-refused', peer: peer.name, reason: 'undecryptable' }),
    );
  };
  room._bcSubscriber = gated;
  if (room.bcconnected) {
    bc.unsubscribe(room.name, original as (data: unknown, origin: unknown) => void);
    bc.subscribe(room.name, gated as (data: unknown, origin: unknown) => void);
  }
}

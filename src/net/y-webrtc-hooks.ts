// Where we reach inside y-webrtc (pinned at 10.3.0): the room's connection map, and each
// connection's simple-peer, whose `send` we wrap so large sync messages go out in pieces and whose
// incoming data we watch to know which peers have answered a sync. tests/net/multiprocess.test.ts
// and tests/e2e/net-sync.test.ts fail if a y-webrtc upgrade moves them.
import type { WebrtcProvider } from 'y-webrtc';
import { splitSyncMessage } from './sync-messages';

interface SendingPeer {
  send(data: Uint8Array): void;
  on(event: 'connect' | 'close', listener: () => void): void;
  on(event: 'data', listener: (data: Uint8Array) => void): void;
}

const wrapped = new WeakSet<object>();
/** Peers that have sent us a sync step 2. y-webrtc's own `synced` flag is set only for peers that
 * answer while the room as a whole is not yet synced, so a later peer would never count. */
const answered = new WeakSet<object>();
const MESSAGE_SYNC = 0;
const SYNC_STEP_2 = 1;

/** Wraps `send` of every peer of the room not yet wrapped, and watches what it receives (see
 * `answered`). Called on every 'peers' event, which y-webrtc emits right after it creates a
 * connection and before that connection can open. */
export function instrumentPeers(provider: WebrtcProvider, maxBytes: number, onChange?: () => void): void {
  for (const conn of provider.room?.webrtcConns.values() ?? []) {
    const peer = conn.peer as SendingPeer | undefined;
    if (!peer || wrapped.has(peer)) continue;
    wrapped.add(peer);
    const send = peer.send.bind(peer);
    peer.send = (data: Uint8Array) => {
      for (const part of splitSyncMessage(data, maxBytes)) send(part);
    };
    // Message and sync types are varuints below 128: one byte each.
    peer.on('data', (data) => {
      if (answered.has(peer) || data[0] !== MESSAGE_SYNC || data[1] !== SYNC_STEP_2) return;
      answered.add(peer);
      onChange?.();
    });
    if (onChange) {
      peer.on('connect', onChange);
      peer.on('close', onChange);
    }
  }
}

/** Sends to every open WebRTC connection of the room; returns how many it reached. */
export function sendToConnected(provider: WebrtcProvider, message: Uint8Array): number {
  let sent = 0;
  for (const conn of provider.room?.webrtcConns.values() ?? []) {
    if (!conn.connected || conn.closed) continue;
    try {
      (conn.peer as SendingPeer).send(message);
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
  for (const conn of room.webrtcConns.values()) {
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

// One side of each pair of peers starts the WebRTC connection: the one whose room peer id sorts
// first. y-webrtc starts a connection, as initiator, to every peer whose announce it reads. When
// two peers announce at the same moment (two phones opening a game together, a signaling socket
// coming back on both) each reads the other's announce and both send an offer: glare. y-webrtc
// lets the peer with the smaller glare token answer the other's offer on its own initiator
// connection, which a WebRTC without implicit rollback (@roamhq/wrtc; older browsers) refuses:
// that side's connection fails and is replaced by one waiting for an offer, the other waits for an
// answer that never comes, and both then ignore each other's announces because they already hold
// a connection. The pair never syncs.
//
// Here every signaling message of our rooms passes through `decide` before y-webrtc sees it. An
// announce from a peer we hold no connection with reaches y-webrtc (which starts a connection) only
// if our peer id sorts first; otherwise it is dropped and we answer with an announce addressed to
// that peer alone (`to`), so that it starts the connection even if it never read our own announce
// (it joined after we did). Only the first of two ids ever starts, so two offers never cross. A
// peer id is a random uuid per room (y-webrtc's Room.peerId), the same on both sides of the
// comparison; an announce from ourselves, one addressed to someone else, or one from a peer we
// already hold a connection with goes on unchanged (y-webrtc ignores it).
//
// Where we reach inside y-webrtc (pinned at 10.3.0): the SignalingConn's `emit` of lib0's
// WebsocketClient (wrapped per socket), the Room's peerId, key, webrtcConns, bcConns, and the
// message format of its src/y-webrtc.js and src/crypto.js (in node_modules/y-webrtc). tests/net/multiprocess.test.ts (glare
// forced by a lockstep proxy) fails if an upgrade moves them.
import type { WebrtcProvider } from 'y-webrtc';
import * as buffer from 'lib0/buffer';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';

interface SignalingSocket {
  emit(name: string, args: unknown[]): void;
  send(message: unknown): void;
  readonly connected: boolean;
}

interface SignalRoom {
  readonly peerId: string;
  readonly name: string;
  readonly key: CryptoKey | null;
  readonly webrtcConns: Map<string, unknown>;
  readonly bcConns: Set<string>;
  readonly provider: { readonly maxConns: number };
}

/** y-webrtc's encryption of signaling and BroadcastChannel messages (src/crypto.js):
 * varstring 'AES-GCM', var iv, var cipher. No key: the bytes as they are. */
export async function decryptMessage(data: Uint8Array, key: CryptoKey | null): Promise<Uint8Array> {
  if (key === null) return data;
  const d = decoding.createDecoder(data);
  if (decoding.readVarString(d) !== 'AES-GCM') throw new Error('unknown encryption');
  const iv = decoding.readVarUint8Array(d);
  const cipher = decoding.readVarUint8Array(d);
  return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: iv as BufferSource }, key, cipher as BufferSource));
}

async function encryptMessage(data: Uint8Array, key: CryptoKey): Promise<Uint8Array> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, data as BufferSource));
  const e = encoding.createEncoder();
  encoding.writeVarString(e, 'AES-GCM');
  encoding.writeVarUint8Array(e, iv);
  encoding.writeVarUint8Array(e, cipher);
  return encoding.toUint8Array(e);
}

/** What y-webrtc publishes on a room's topic: lib0's `any` encoding, encrypted, base64. */
async function readSignal(data: unknown, key: CryptoKey | null): Promise<unknown> {
  if (key === null) return data;
  if (typeof data !== 'string') return null;
  return decoding.readAny(decoding.createDecoder(await decryptMessage(buffer.fromBase64(data), key)));
}

async function publish(socket: SignalingSocket, room: SignalRoom, data: Record<string, string>): Promise<void> {
  const payload = room.key === null ? data : buffer.toBase64(await encryptMessage(encodeAny(data), room.key));
  if (socket.connected) socket.send({ type: 'publish', topic: room.name, data: payload });
}

function encodeAny(data: unknown): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeAny(e, data as never);
  return encoding.toUint8Array(e);
}

export type AnnounceDecision = 'pass' | 'answer';

/**
 * What to do with an announce `from` a peer, read by the peer `own`: hand it to y-webrtc (which
 * starts a connection to it, or ignores it), or drop it and answer with an announce addressed to
 * that peer (which then starts the connection). Pure: the whole rule.
 */
export function announceDecision(own: string, from: string, to: string | undefined, connected: boolean): AnnounceDecision {
  if (from === own || (to !== undefined && to !== own) || connected) return 'pass';
  return own < from ? 'pass' : 'answer';
}

const providers = new Map<string, WebrtcProvider>();
const hooked = new WeakSet<object>();

/** Puts the one-initiator rule in front of this provider's room (until `forgetRoom`). */
export function registerRoom(provider: WebrtcProvider): void {
  providers.set(provider.roomName, provider);
  hookSignaling(provider);
}

export function forgetRoom(provider: WebrtcProvider): void {
  if (providers.get(provider.roomName) === provider) providers.delete(provider.roomName);
}

/** Whether y-webrtc may read this signaling message; sends our answer where the rule says so. */
async function decide(socket: SignalingSocket, topic: string, data: unknown): Promise<boolean> {
  const room = providers.get(topic)?.room as SignalRoom | null | undefined;
  if (room === null || room === undefined) return true;
  const m = (await readSignal(data, room.key)) as { type?: unknown; from?: unknown; to?: unknown } | null;
  if (m === null || typeof m !== 'object' || m.type !== 'announce' || typeof m.from !== 'string') return true;
  const to = typeof m.to === 'string' ? m.to : undefined;
  const connected = room.webrtcConns.has(m.from) || room.bcConns.has(m.from);
  if (announceDecision(room.peerId, m.from, to, connected) === 'pass') return true;
  // y-webrtc's own bound on connections, which its announce handler checks too.
  if (room.webrtcConns.size < room.provider.maxConns) await publish(socket, room, { type: 'announce', from: room.peerId, to: m.from });
  return false;
}

/**
 * Wraps `emit` of every signaling socket of the provider not yet wrapped (sockets are shared by the
 * rooms of a page and replaced on connect(): call again after connect()). A publish on one of our
 * rooms' topics is held until `decide` has read it; they stay in order, one queue per socket.
 */
export function hookSignaling(provider: WebrtcProvider): void {
  for (const socket of provider.signalingConns as unknown as SignalingSocket[]) {
    if (hooked.has(socket)) continue;
    hooked.add(socket);
    const emit = socket.emit.bind(socket);
    let queue: Promise<void> = Promise.resolve();
    socket.emit = (name: string, args: unknown[]): void => {
      const m = args[0] as { type?: unknown; topic?: unknown; data?: unknown } | null | undefined;
      if (name !== 'message' || m === null || typeof m !== 'object' || m.type !== 'publish' || typeof m.topic !== 'string' || !providers.has(m.topic)) {
        emit(name, args);
        return;
      }
      const topic = m.topic;
      queue = queue
        .then(() => decide(socket, topic, m.data))
        // Unreadable: y-webrtc reads it as it always did (and drops it).
        .catch(() => true)
        .then((pass) => {
          if (pass) emit(name, args);
        })
        // y-webrtc's handler threw on a peer's message (an answer from a peer it holds no
        // connection with does): the queue goes on with the next one.
        .catch(() => {});
    };
  }
}

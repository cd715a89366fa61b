// One peer of the multi-process tests: a Node process with its own Y.Doc and one y-webrtc provider
// over @roamhq/wrtc, driven by its parent through IPC. Run with `node --import tsx`. With
// REPLICA=1 the doc is a game's GameReplica (the gate, the entry set, anti-entropy), as in the app.
import { createHash } from 'node:crypto';
import wrtc from '@roamhq/wrtc';
import WebSocket from 'ws';
import { appendMessages, connectGame, createGameDoc, GameReplica, readLog, type Report } from '../../../src/net';
import { nodeVerifier } from '../../native-ed25519';

// lib0's WebSocket client expects the browser global; Node 20 has none.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

export type Command =
  | { type: 'append'; count: number; size: number; tag: string }
  | { type: 'state' }
  | { type: 'disconnect' }
  | { type: 'connect' }
  /** Lose every outgoing data-channel message while on: sync goes one way. */
  | { type: 'drop'; on: boolean }
  /** Replica mode: this phone's own entries (hex), admitted, stored and published. */
  | { type: 'publish'; entries: string[] }
  /** Sends these bytes (hex), or `size` bytes of `fill`, as one message on every open data channel, below y-webrtc. */
  | { type: 'raw'; hex?: string; size?: number; fill?: number }
  /** Runs the sync handshake and anti-entropy with every peer now. */
  | { type: 'resync' }
  | { type: 'exit' };

export interface State {
  type: 'state';
  count: number;
  digest: string;
  webrtcPeers: number;
  /** RTCPeerConnections made, ever (one per attempt to connect to a peer). */
  peerConnections: number;
  /** Data channels that reached the open state, ever. */
  channelsOpened: number;
  /** Largest data-channel message this process received. */
  largestReceived: number;
  /** Largest data-channel message this process sent (the app's sends; `raw` frames are not counted). */
  largestSent: number;
  received: number;
  /** Data channels that closed, ever. */
  channelsClosed: number;
  /** Replica mode: admitted entry ids, sorted, and what the gate reported. */
  ids: string[];
  reports: Report[];
  synced: boolean;
  /** Data-channel messages received. */
  messages: number;
  /** Sync step 1s (someone asking for what it lacks) and step 2s (answers) received. */
  step1Received: number;
  step2Received: number;
}

const { SIGNALING, GAME_ID, PASSWORD, MAX_BYTES, RESYNC_MS, REPLICA, SELF } = process.env;
let largestReceived = 0;
let largestSent = 0;
let received = 0;
let dropping = false;
let channelsOpened = 0;
let peerConnections = 0;
let channelsClosed = 0;
let messages = 0;
let step1Received = 0;
let step2Received = 0;
const channels = new Set<Channel>();

/** Measures what actually crosses the data channels, below simple-peer and y-webrtc. */
interface Channel {
  addEventListener(type: 'message', f: (e: { data: ArrayBuffer | string }) => void): void;
  addEventListener(type: 'open' | 'close', f: () => void): void;
  send(data: unknown): void;
  readyState: string;
  rawSend?: (data: unknown) => void;
}

function watch(channel: Channel): void {
  if (channel.readyState === 'open') channelsOpened++;
  else channel.addEventListener('open', () => channelsOpened++);
  channel.addEventListener('close', () => channelsClosed++);
  channels.add(channel);
  const send = channel.send.bind(channel);
  channel.rawSend = send;
  channel.send = (data) => {
    const size = typeof data === 'string' ? data.length : ArrayBuffer.isView(data) || data instanceof ArrayBuffer ? data.byteLength : 0;
    largestSent = Math.max(largestSent, size);
    if (!dropping) send(data);
  };
  channel.addEventListener('message', (e) => {
    const size = typeof e.data === 'string' ? e.data.length : e.data.byteLength;
    largestReceived = Math.max(largestReceived, size);
    received += size;
    messages++;
    if (typeof e.data !== 'string' && e.data.byteLength >= 2) {
      const head = new Uint8Array(e.data, 0, 2);
      if (head[0] === 0 && head[1] === 0) step1Received++;
      if (head[0] === 0 && head[1] === 1) step2Received++;
    }
  });
}

function MeasuredPeerConnection(config: unknown): unknown {
  peerConnections++;
  const pc = new wrtc.RTCPeerConnection(config as RTCConfiguration) as unknown as {
    addEventListener(type: 'datachannel', f: (e: { channel: never }) => void): void;
    createDataChannel(label: string, options?: unknown): never;
  };
  pc.addEventListener('datachannel', (e) => watch(e.channel));
  const create = pc.createDataChannel.bind(pc);
  pc.createDataChannel = (label, options) => {
    const channel = create(label, options);
    watch(channel);
    return channel;
  };
  return pc;
}

const doc = createGameDoc();
// SELF: the key of the player using this phone (its own entries always count, as in the app).
const replica =
  REPLICA === '1' ? await GameReplica.open({ gameId: GAME_ID!, doc, verifier: nodeVerifier(), carryDelayMs: 200, ...(SELF ? { self: SELF } : {}) }) : null;
const connection = connectGame(replica ?? doc, {
  gameId: GAME_ID!,
  password: PASSWORD!,
  signaling: [SIGNALING!],
  wrtc: { ...wrtc, RTCPeerConnection: MeasuredPeerConnection },
  resyncIntervalMs: Number(RESYNC_MS ?? 2000),
  ...(MAX_BYTES ? { maxMessageBytes: Number(MAX_BYTES) } : {}),
});

function digest(log: readonly Uint8Array[]): string {
  const h = createHash('sha256');
  for (const m of log) h.update(`${m.length}:`).update(m);
  return h.digest('hex');
}

function message(tag: string, i: number, size: number): Uint8Array {
  const head = new TextEncoder().encode(`${tag}:${i}:`);
  const out = new Uint8Array(Math.max(size, head.length));
  out.set(head);
  for (let j = head.length; j < out.length; j++) out[j] = (i * 31 + j) & 0xff;
  return out;
}

process.on('message', (cmd: Command) => {
  switch (cmd.type) {
    case 'append':
      appendMessages(
        doc,
        Array.from({ length: cmd.count }, (_, i) => message(cmd.tag, i, cmd.size)),
      );
      process.send!({ type: 'appended' });
      break;
    case 'state': {
      const log = replica === null ? readLog(doc) : [...replica.entries()];
      const ids = replica === null ? [] : replica.admission.ids();
      const status = connection.status();
      const s: State = {
        type: 'state',
        count: log.length,
        digest: replica === null ? digest(log) : createHash('sha256').update(ids.join()).digest('hex'),
        webrtcPeers: status.webrtcPeers,
        synced: status.synced,
        largestReceived,
        largestSent,
        received,
        peerConnections,
        channelsOpened,
        channelsClosed,
        messages,
        step1Received,
        step2Received,
        ids,
        reports: replica === null ? [] : [...replica.reports()],
      };
      process.send!(s);
      break;
    }
    case 'publish':
      void replica!.publish(cmd.entries.map((h) => Uint8Array.from(Buffer.from(h, 'hex')))).then(
        () => process.send!({ type: 'published' }),
        (e: unknown) => process.send!({ type: 'published', error: String(e) }),
      );
      break;
    case 'raw': {
      const bytes = cmd.hex !== undefined ? Uint8Array.from(Buffer.from(cmd.hex, 'hex')) : new Uint8Array(cmd.size ?? 0).fill(cmd.fill ?? 0);
      let sent = 0;
      let errors = 0;
      for (const c of channels) {
        if (c.readyState !== 'open') continue;
        try {
          c.rawSend!(bytes);
          sent++;
        } catch {
          errors++;
        }
      }
      process.send!({ type: 'rawSent', sent, errors });
      break;
    }
    case 'resync':
      connection.resync();
      process.send!({ type: 'resynced' });
      break;
    case 'disconnect':
      connection.disconnect();
      process.send!({ type: 'disconnected' });
      break;
    case 'connect':
      connection.connect();
      process.send!({ type: 'connected' });
      break;
    case 'drop':
      dropping = cmd.on;
      process.send!({ type: 'dropped' });
      break;
    case 'exit':
      connection.destroy();
      doc.destroy();
      setTimeout(() => process.exit(0), 50);
      break;
  }
});
// An orphan (its test runner gone) exits instead of lingering.
process.on('disconnect', () => process.exit(0));
process.send!({ type: 'ready' });

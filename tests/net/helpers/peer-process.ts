// One peer of the multi-process test: a Node process with its own Y.Doc and one y-webrtc provider
// over @roamhq/wrtc, driven by its parent through IPC. Run with `node --import tsx`.
import { createHash } from 'node:crypto';
import wrtc from '@roamhq/wrtc';
import WebSocket from 'ws';
import { appendMessages, connectGame, createGameDoc, readLog } from '../../../src/net';

// lib0's WebSocket client expects the browser global; Node 20 has none.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

export type Command =
  | { type: 'append'; count: number; size: number; tag: string }
  | { type: 'state' }
  | { type: 'disconnect' }
  | { type: 'connect' }
  /** Lose every outgoing data-channel message while on: sync goes one way. */
  | { type: 'drop'; on: boolean }
  | { type: 'exit' };

export interface State {
  type: 'state';
  count: number;
  digest: string;
  webrtcPeers: number;
  /** Data channels that reached the open state, ever. */
  channelsOpened: number;
  /** Largest data-channel message this process received. */
  largestReceived: number;
  received: number;
}

const { SIGNALING, GAME_ID, PASSWORD, MAX_BYTES, RESYNC_MS } = process.env;
let largestReceived = 0;
let received = 0;
let dropping = false;
let channelsOpened = 0;

/** Measures what actually crosses the data channels, below simple-peer and y-webrtc. */
interface Channel {
  addEventListener(type: 'message', f: (e: { data: ArrayBuffer | string }) => void): void;
  addEventListener(type: 'open', f: () => void): void;
  send(data: unknown): void;
  readyState: string;
}

function watch(channel: Channel): void {
  if (channel.readyState === 'open') channelsOpened++;
  else channel.addEventListener('open', () => channelsOpened++);
  const send = channel.send.bind(channel);
  channel.send = (data) => {
    if (!dropping) send(data);
  };
  channel.addEventListener('message', (e) => {
    const size = typeof e.data === 'string' ? e.data.length : e.data.byteLength;
    largestReceived = Math.max(largestReceived, size);
    received += size;
  });
}

function MeasuredPeerConnection(config: unknown): unknown {
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
const connection = connectGame(doc, {
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
      appendMessages(doc, Array.from({ length: cmd.count }, (_, i) => message(cmd.tag, i, cmd.size)));
      process.send!({ type: 'appended' });
      break;
    case 'state': {
      const log = readLog(doc);
      const s: State = { type: 'state', count: log.length, digest: digest(log), webrtcPeers: connection.status().webrtcPeers, largestReceived, received, channelsOpened };
      process.send!(s);
      break;
    }
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

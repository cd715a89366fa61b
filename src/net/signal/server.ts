// A signaling server speaking y-webrtc's protocol (subscribe / unsubscribe / publish / ping), with
// limits so a stranger cannot flood it. It keeps no game data: rooms are topic names (y-webrtc
// derives them from the invite) and payloads are encrypted by the room password before they get here.
//
// Limits: frame size, topics per connection, subscribers per topic, messages per second and a byte
// budget per connection, connections per source address and in all (guard.ts), and a send buffer
// per connection past which a client that does not read is cut off. With a Redis bus (PACTO_REDIS_URL)
// a publish reaches the topic's subscribers on every server process.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import { LocalBus, signalingChannel, type Bus, type BusSubscription } from './bus';
import { ConnectionGuard, type ConnectionLimits } from './guard';

export interface SignalingLimits extends ConnectionLimits {
  /** Largest accepted frame; y-webrtc's SDP offers are a few KiB. */
  readonly maxMessageBytes: number;
  /** Topics (rooms) one connection may subscribe to. */
  readonly maxTopicsPerConnection: number;
  /** Connections subscribed to one topic (on this process); a game has at most 7 players. */
  readonly maxSubscribersPerTopic: number;
  /** Messages one connection may send per second before it is closed. */
  readonly maxMessagesPerSecond: number;
}

export const DEFAULT_LIMITS: Omit<SignalingLimits, keyof ConnectionLimits> = {
  maxMessageBytes: 64 * 1024,
  maxTopicsPerConnection: 16,
  maxSubscribersPerTopic: 32,
  maxMessagesPerSecond: 200,
};

export interface SignalingStats {
  connections: number;
  topics: number;
  messagesIn: number;
  messagesOut: number;
  rejected: number;
  /** Connections closed because their send buffer passed `maxBufferedBytes`. */
  slowClosed: number;
  /** Connections closed for going over their byte budget or message rate. */
  overBudget: number;
}

export interface SignalingServer {
  readonly stats: SignalingStats;
  /** Handles an upgrade already admitted by the guard (for servers that route several endpoints). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Serves a WebSocket another server upgraded (admitted by the guard; its frames up to any
   *  size that server allows: one over maxMessageBytes closes the connection, 1009). */
  accept(ws: WebSocket, req: IncomingMessage): void;
  close(): Promise<void>;
}

export interface SignalingOptions {
  /** Shared with the relay so the per-address limit counts both endpoints. */
  readonly guard?: ConnectionGuard;
  /** Default: one process. */
  readonly bus?: Bus;
  /** Default true: take every upgrade on the HTTP server. False: the caller routes upgrades to `handleUpgrade`. */
  readonly listen?: boolean;
}

const PING_INTERVAL_MS = 30_000;

/** Attach to an HTTP server: every WebSocket upgrade on it becomes a signaling connection. */
export function attachSignaling(http: Server, limits: Partial<SignalingLimits> = {}, options: SignalingOptions = {}): SignalingServer {
  const guard = options.guard ?? new ConnectionGuard(limits);
  const lim: SignalingLimits = { ...DEFAULT_LIMITS, ...guard.limits, ...limits };
  const bus = options.bus ?? new LocalBus();
  const wss = new WebSocketServer({ noServer: true, maxPayload: lim.maxMessageBytes });
  /** Local subscribers per topic, and this process's subscription to the topic's channel. */
  const topics = new Map<string, { subs: Set<WebSocket>; channel: BusSubscription }>();
  const stats: SignalingStats = { connections: 0, topics: 0, messagesIn: 0, messagesOut: 0, rejected: 0, slowClosed: 0, overBudget: 0 };

  const send = (ws: WebSocket, data: string): void => {
    const before = guard.stats.slowClosed;
    if (guard.send(ws, data)) stats.messagesOut++;
    else if (guard.stats.slowClosed > before) stats.slowClosed++;
  };

  /** A publish from the bus: the sender's own text (a JSON object, checked on receipt) plus this
   *  process's member count, serialized once for all local members. */
  const deliver = (topic: string, raw: string): void => {
    const t = topics.get(topic);
    if (!t) return;
    const out = `${raw.slice(0, raw.lastIndexOf('}'))},"clients":${t.subs.size}}`;
    for (const peer of [...t.subs]) send(peer, out);
  };

  const handleUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (!guard.admit(req, socket)) {
      stats.rejected++;
      return;
    }
    handleUpgrade(req, socket, head);
  };
  if (options.listen !== false) http.on('upgrade', onUpgrade);

  /** Every connection this server serves, whoever upgraded it (close() ends them). */
  const live = new Set<WebSocket>();
  const accept = (ws: WebSocket): void => {
    stats.connections++;
    live.add(ws);
    const mine = new Set<string>();
    const budget = guard.budget();
    let alive = true;
    let windowStart = Date.now();
    let inWindow = 0;
    let inRoomAt = Date.now();
    const pinger = setInterval(
      () => {
        if (!alive) return ws.terminate();
        // In no topic for guard.limits.roomlessMs: closed (an idle socket would hold a slot for ever).
        if (mine.size > 0) inRoomAt = Date.now();
        else if (Date.now() - inRoomAt >= guard.limits.roomlessMs) return ws.close(1008, 'no topic');
        alive = false;
        ws.ping();
      },
      Math.min(PING_INTERVAL_MS, Math.max(1_000, Math.floor(guard.limits.roomlessMs / 2))),
    );
    ws.on('pong', () => (alive = true));
    // Oversized or malformed frames make ws emit 'error' and close the socket: count it, never crash.
    ws.on('error', () => stats.rejected++);

    const leave = (topic: string): void => {
      const t = topics.get(topic);
      if (!t || !t.subs.delete(ws)) return;
      if (t.subs.size === 0) {
        topics.delete(topic);
        t.channel.unsubscribe();
      }
      mine.delete(topic);
    };

    ws.on('close', () => {
      clearInterval(pinger);
      live.delete(ws);
      for (const t of [...mine]) leave(t);
      stats.connections--;
      stats.topics = topics.size;
    });

    ws.on('message', (data: RawData) => {
      stats.messagesIn++;
      const now = Date.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        inWindow = 0;
      }
      const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer | ArrayBuffer).byteLength;
      if (size > lim.maxMessageBytes) {
        // Only with a WebSocket server shared with the relay, whose frames may be larger.
        stats.rejected++;
        ws.close(1009, 'message too large');
        ws.removeAllListeners('message');
        return;
      }
      if (++inWindow > lim.maxMessagesPerSecond || !budget.take(size, now)) {
        stats.rejected++;
        stats.overBudget++;
        ws.close(1008, inWindow > lim.maxMessagesPerSecond ? 'rate limit' : 'byte budget');
        ws.removeAllListeners('message');
        return;
      }
      const text = data.toString();
      let msg: unknown;
      try {
        msg = JSON.parse(text);
      } catch {
        stats.rejected++;
        return;
      }
      if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return;
      const m = msg as { type?: unknown; topics?: unknown; topic?: unknown };
      switch (m.type) {
        case 'subscribe':
          for (const t of Array.isArray(m.topics) ? m.topics : []) {
            if (typeof t !== 'string' || t.length > 512 || mine.has(t)) continue;
            const existing = topics.get(t);
            if (mine.size >= lim.maxTopicsPerConnection || (existing && existing.subs.size >= lim.maxSubscribersPerTopic)) {
              stats.rejected++;
              continue;
            }
            if (existing) existing.subs.add(ws);
            else topics.set(t, { subs: new Set([ws]), channel: bus.subscribe(signalingChannel(t), (raw) => deliver(t, raw.toString())) });
            mine.add(t);
          }
          stats.topics = topics.size;
          break;
        case 'unsubscribe':
          for (const t of Array.isArray(m.topics) ? m.topics : []) if (typeof t === 'string') leave(t);
          stats.topics = topics.size;
          break;
        case 'publish':
          // Only members of a room may publish to it: no probing or injecting into others' rooms.
          if (typeof m.topic !== 'string' || !mine.has(m.topic)) {
            stats.rejected++;
            return;
          }
          bus.publish(signalingChannel(m.topic), data as Buffer);
          break;
        case 'ping':
          send(ws, '{"type":"pong"}');
          break;
        default:
          stats.rejected++;
      }
    });
  };
  wss.on('connection', accept);

  return {
    stats,
    handleUpgrade,
    accept,
    close: () =>
      new Promise<void>((resolve) => {
        if (options.listen !== false) http.off('upgrade', onUpgrade);
        for (const ws of live) ws.terminate();
        for (const t of topics.values()) t.channel.unsubscribe();
        topics.clear();
        wss.close(() => resolve());
      }),
  };
}

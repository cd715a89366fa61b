// A signaling server speaking y-webrtc's protocol (subscribe / unsubscribe / publish / ping), with
// limits so a stranger cannot flood it. It keeps no game data: rooms are topic names (y-webrtc
// derives them from the invite) and payloads are encrypted by the room password before they get here.
import type { IncomingMessage, Server } from 'node:http';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';

export interface SignalingLimits {
  /** Largest accepted frame; y-webrtc's SDP offers are a few KiB. */
  readonly maxMessageBytes: number;
  /** Topics (rooms) one connection may subscribe to. */
  readonly maxTopicsPerConnection: number;
  /** Messages one connection may send per second before it is closed. */
  readonly maxMessagesPerSecond: number;
  /** Total connections. */
  readonly maxConnections: number;
}

export const DEFAULT_LIMITS: SignalingLimits = {
  maxMessageBytes: 64 * 1024,
  maxTopicsPerConnection: 16,
  maxMessagesPerSecond: 200,
  maxConnections: 2000,
};

export interface SignalingStats {
  connections: number;
  topics: number;
  messagesIn: number;
  messagesOut: number;
  rejected: number;
}

export interface SignalingServer {
  readonly stats: SignalingStats;
  close(): Promise<void>;
}

const OPEN = 1;
const PING_INTERVAL_MS = 30_000;

/** Attach to an HTTP server: every WebSocket upgrade on it becomes a signaling connection. */
export function attachSignaling(http: Server, limits: Partial<SignalingLimits> = {}): SignalingServer {
  const lim: SignalingLimits = { ...DEFAULT_LIMITS, ...limits };
  const wss = new WebSocketServer({ noServer: true, maxPayload: lim.maxMessageBytes });
  const topics = new Map<string, Set<WebSocket>>();
  const stats: SignalingStats = { connections: 0, topics: 0, messagesIn: 0, messagesOut: 0, rejected: 0 };

  const send = (ws: WebSocket, msg: unknown): void => {
    if (ws.readyState !== OPEN) return;
    ws.send(JSON.stringify(msg));
    stats.messagesOut++;
  };

  http.on('upgrade', (req: IncomingMessage, socket, head) => {
    if (stats.connections >= lim.maxConnections) {
      stats.rejected++;
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  wss.on('connection', (ws: WebSocket) => {
    stats.connections++;
    const mine = new Set<string>();
    let alive = true;
    let windowStart = Date.now();
    let inWindow = 0;
    const pinger = setInterval(() => {
      if (!alive) return ws.terminate();
      alive = false;
      ws.ping();
    }, PING_INTERVAL_MS);
    ws.on('pong', () => (alive = true));
    // Oversized or malformed frames make ws emit 'error' and close the socket: count it, never crash.
    ws.on('error', () => stats.rejected++);

    const leave = (topic: string): void => {
      const subs = topics.get(topic);
      if (!subs) return;
      subs.delete(ws);
      if (subs.size === 0) topics.delete(topic);
      mine.delete(topic);
    };

    ws.on('close', () => {
      clearInterval(pinger);
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
      if (++inWindow > lim.maxMessagesPerSecond) {
        stats.rejected++;
        ws.close(1008, 'rate limit');
        return;
      }
      let msg: unknown;
      try {
        msg = JSON.parse(data.toString());
      } catch {
        stats.rejected++;
        return;
      }
      if (typeof msg !== 'object' || msg === null) return;
      const m = msg as { type?: unknown; topics?: unknown; topic?: unknown };
      switch (m.type) {
        case 'subscribe':
          for (const t of Array.isArray(m.topics) ? m.topics : []) {
            if (typeof t !== 'string' || t.length > 512) continue;
            if (!mine.has(t) && mine.size >= lim.maxTopicsPerConnection) {
              stats.rejected++;
              continue;
            }
            let subs = topics.get(t);
            if (!subs) topics.set(t, (subs = new Set()));
            subs.add(ws);
            mine.add(t);
          }
          stats.topics = topics.size;
          break;
        case 'unsubscribe':
          for (const t of Array.isArray(m.topics) ? m.topics : []) if (typeof t === 'string') leave(t);
          stats.topics = topics.size;
          break;
        case 'publish': {
          // Only members of a room may publish to it: no probing or injecting into others' rooms.
          if (typeof m.topic !== 'string' || !mine.has(m.topic)) {
            stats.rejected++;
            return;
          }
          const subs = topics.get(m.topic);
          if (!subs) return;
          const out = { ...(msg as object), clients: subs.size };
          for (const peer of subs) send(peer, out);
          break;
        }
        case 'ping':
          send(ws, { type: 'pong' });
          break;
        default:
          stats.rejected++;
      }
    });
  });

  return {
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve());
      }),
  };
}

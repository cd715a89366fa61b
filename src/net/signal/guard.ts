// Limits shared by every WebSocket endpoint of the server (signaling on "/", the relay on
// "/relay"): connections per source address, a byte budget per connection, and sends that never
// queue without bound behind a client that does not read. Node only.
import type { IncomingMessage } from 'node:http';
import { isIP, isIPv6 } from 'node:net';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

export interface ConnectionLimits {
  /** Connections, all addresses together. */
  readonly maxConnections: number;
  /** Connections from one source address (IPv6: one /64), so one client cannot take every slot. */
  readonly maxConnectionsPerAddress: number;
  /** Bytes one connection may send per second, on average... */
  readonly maxBytesPerSecond: number;
  /** ...and at once (the bucket's size). */
  readonly burstBytes: number;
  /** A client whose unsent data passes this is closed: it is not reading. */
  readonly maxBufferedBytes: number;
  /** Behind proxies you run: how many of them (true: one). The client's address is then the entry
   *  that many from the right of X-Forwarded-For (each proxy appends the address it was reached
   *  from, so the entries further left are whatever the client wrote). */
  readonly trustProxy: boolean | number;
  /** New WebSocket connections one address may open per second, on average, and at once. */
  readonly maxNewConnectionsPerSecond: number;
  readonly burstNewConnections: number;
  /** A WebSocket that has been in no room (signaling topic, relay room) for this long is closed:
   *  an idle socket that answers pings would otherwise hold a slot for ever. */
  readonly roomlessMs: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: 2000,
  maxConnectionsPerAddress: 64,
  maxNewConnectionsPerSecond: 5,
  burstNewConnections: 40,
  roomlessMs: 60_000,
  maxBytesPerSecond: 256 * 1024,
  burstBytes: 1024 * 1024,
  maxBufferedBytes: 1024 * 1024,
  trustProxy: false,
};

/** The address a limit counts against: IPv4 as it is, IPv6 by its /64 (one host's share). */
export function addressKey(req: IncomingMessage, trustProxy: boolean | number = false): string {
  let address = req.socket.remoteAddress ?? 'unknown';
  const hops = trustProxy === true ? 1 : trustProxy === false ? 0 : Math.max(0, Math.floor(trustProxy));
  if (hops > 0) {
    const forwarded = req.headers['x-forwarded-for'];
    const entries = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')).split(',').map((e) => e.trim());
    // Fewer entries than trusted proxies: the request did not come through them all; the nearest
    // entry a trusted proxy wrote is the best there is.
    const chosen = entries[Math.max(0, entries.length - hops)];
    if (chosen !== undefined && isIP(chosen) !== 0) address = chosen;
  }
  if (address.startsWith('::ffff:') && address.includes('.')) return address.slice(7);
  if (!isIPv6(address)) return address;
  const groups = expandIPv6(address);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : address;
}

function expandIPv6(address: string): string[] | null {
  const [head, tail] = address.split('::') as [string, string | undefined];
  const a = head === '' ? [] : head.split(':');
  const b = tail === undefined || tail === '' ? [] : tail.split(':');
  if (tail === undefined && a.length !== 8) return null;
  const fill = Array.from({ length: 8 - a.length - b.length }, () => '0');
  return [...a, ...fill, ...b].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''));
}

export interface GuardStats {
  connections: number;
  /** Upgrades refused: server full or address over its limit. */
  refused: number;
  /** Connections closed because they did not read what they were sent. */
  slowClosed: number;
}

/**
 * Counts connections per address across endpoints. `admit` is called before the WebSocket
 * handshake; the slot is given back when the TCP socket closes, however the connection ends.
 */
export class ConnectionGuard {
  readonly limits: ConnectionLimits;
  readonly stats: GuardStats = { connections: 0, refused: 0, slowClosed: 0 };
  private readonly perAddress = new Map<string, number>();
  /** New connections per address: a budget refilled at maxNewConnectionsPerSecond. */
  private readonly opening = new Map<string, { budget: ByteBudget; last: number }>();
  private lastSweep = Date.now();

  constructor(limits: Partial<ConnectionLimits> = {}) {
    this.limits = { ...DEFAULT_CONNECTION_LIMITS, ...limits };
  }

  /** Whether `key` may open one more connection now (spends it). */
  private mayOpen(key: string, now: number): boolean {
    if (now - this.lastSweep > 60_000) {
      // A budget untouched for a while is full again: forget it.
      const full = (this.limits.burstNewConnections / this.limits.maxNewConnectionsPerSecond) * 1000;
      for (const [k, o] of this.opening) if (now - o.last > full) this.opening.delete(k);
      this.lastSweep = now;
    }
    let o = this.opening.get(key);
    if (!o) this.opening.set(key, (o = { budget: new ByteBudget(this.limits.maxNewConnectionsPerSecond, this.limits.burstNewConnections), last: now }));
    o.last = now;
    return o.budget.take(1, now);
  }

  /** Admits the upgrade or answers it with an HTTP error and destroys the socket. */
  admit(req: IncomingMessage, socket: Duplex): boolean {
    const refusal = this.enter(req, socket);
    if (refusal === null) return true;
    socket.on('error', () => undefined);
    socket.end(`HTTP/1.1 ${refusal} ${refusal === 503 ? 'Service Unavailable' : 'Too Many Requests'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    setTimeout(() => socket.destroy(), 1000).unref();
    return false;
  }

  /**
   * Takes a connection slot for the upgrade on `socket` (given back when the socket closes) and
   * returns null, or returns the HTTP status to refuse it with (503 the server is full, 429 the
   * address holds its share or opens connections too fast) and takes nothing: the caller answers.
   */
  enter(req: IncomingMessage, socket: Duplex): 429 | 503 | null {
    const key = addressKey(req, this.limits.trustProxy);
    const mine = this.perAddress.get(key) ?? 0;
    const full = this.stats.connections >= this.limits.maxConnections;
    if (full || mine >= this.limits.maxConnectionsPerAddress || !this.mayOpen(key, Date.now())) {
      this.stats.refused++;
      return full ? 503 : 429;
    }
    this.perAddress.set(key, mine + 1);
    this.stats.connections++;
    socket.once('close', () => {
      this.stats.connections--;
      const n = (this.perAddress.get(key) ?? 1) - 1;
      if (n <= 0) this.perAddress.delete(key);
      else this.perAddress.set(key, n);
    });
    return null;
  }

  /**
   * Sends unless the client has stopped reading: if what is already queued for it plus this frame
   * passes `maxBufferedBytes`, the connection is cut instead, so nothing queues without bound.
   * Returns whether the frame was sent.
   */
  send(ws: WebSocket, data: string | Uint8Array, maxBufferedBytes = this.limits.maxBufferedBytes): boolean {
    if (ws.readyState !== 1) return false;
    const size = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
    if (ws.bufferedAmount + size > maxBufferedBytes) {
      this.stats.slowClosed++;
      ws.terminate();
      return false;
    }
    ws.send(data);
    return true;
  }

  budget(): ByteBudget {
    return new ByteBudget(this.limits.maxBytesPerSecond, this.limits.burstBytes);
  }
}

/** A token bucket of bytes: `take` says whether the connection is still within its budget. */
export class ByteBudget {
  private tokens: number;
  private last = Date.now();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  take(bytes: number, now = Date.now()): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    this.tokens -= bytes;
    return this.tokens >= 0;
  }
}

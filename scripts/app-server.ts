// The HTTP server behind `npm start` and `npm run signal`: the built PWA from a folder, signaling
// on WebSocket upgrades of "/", and the relay on "/relay" (WebSocket) and "/relay/v1" (HTTP), all
// on the same host and port, so an invite made on the page works with no other setting.
// Without PACTO_REDIS_URL everything lives in this process (the relay's blobs on disk, in an LMDB
// directory); with it, the process is stateless: blobs in Redis Streams, fan-out over pub/sub.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { attachRelay, isRelayUpgrade, type RelayServer } from '../src/net/relay/server';
import { LmdbStore } from '../src/net/relay/server/lmdb-store';
import { newVapidKeys, parseVapidKeys, type PushOptions } from '../src/net/relay/server/push';
import { RedisStore } from '../src/net/relay/server/redis-store';
import type { RelayStore } from '../src/net/relay/server/store';
import { DEFAULT_RELAY_LIMITS, type RelayLimits } from '../src/net/relay/protocol';
import { LocalBus, type Bus } from '../src/net/signal/bus';
import { addressKey, ConnectionGuard } from '../src/net/signal/guard';
import { RedisBus } from '../src/net/signal/redis-bus';
import { attachSignaling, type SignalingLimits, type SignalingServer } from '../src/net/signal/server';
import { accessLog, createOperator, type Operator } from './operator';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.md': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The decoded path of a request target, or null if it is not one a browser sends (a lone `%`, bad
 * UTF-8, a NUL): never throws, whatever the target (`new URL` throws on `//`, decodeURIComponent on `%`).
 */
export function requestPath(target: string | undefined): string | null {
  const raw = (target ?? '/').split(/[?#]/, 1)[0]!;
  if (!raw.startsWith('/')) return null;
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return path.includes('\0') ? null : path;
}

async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = requestPath(req.url);
  if (path === null) {
    res.writeHead(400, { 'content-type': 'text/plain' });
    res.end('bad request');
    return;
  }
  const rel = normalize(path).replace(/^[/\\]+/, '');
  let file = rel.startsWith('..') ? join(root, 'index.html') : join(root, rel);
  try {
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
  } catch {
    file = join(root, 'index.html'); // single-page app: unknown paths load the app
  }
  try {
    const body = await readFile(file);
    const headers: Record<string, string> = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' };
    // The page and the service worker revalidate so that updates reach installed apps.
    if (file.endsWith('sw.js') || file.endsWith('index.html')) headers['cache-control'] = 'no-cache';
    res.writeHead(200, headers);
    res.end(body);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }
}

/** Plain HTTP's own limits (WebSocket connections are the guard's, `limits`). */
export interface HttpLimits {
  /** Sockets one address (IPv6: its /64) holds open at once; not applied behind a trusted proxy
   *  (every socket comes from the proxy: the total and the timeouts still hold). */
  readonly maxHttpConnectionsPerAddress: number;
  /** Sockets the server holds open at once. */
  readonly maxHttpConnections: number;
  /** A request whose headers are not all in by then is closed (a slowloris). */
  readonly headersTimeoutMs: number;
  /** A request not wholly received by then is closed. */
  readonly requestTimeoutMs: number;
  /** An idle kept-alive socket is closed after this long. */
  readonly keepAliveTimeoutMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  maxHttpConnectionsPerAddress: 128,
  maxHttpConnections: 4096,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

export interface AppServerOptions {
  /** The relay: where the embedded store keeps its files (ignored with `redisUrl`), its limits, and
   *  which origins may use its HTTP API. Left out: no relay (tests of other parts). */
  readonly relay?: {
    readonly dir?: string;
    readonly limits?: Partial<RelayLimits>;
    readonly allowOrigins?: readonly string[] | '*';
    readonly sweepIntervalMs?: number;
    /** Web Push: on unless false (its VAPID keys are made on first start and kept in the store). */
    readonly push?: PushOptions | false;
  };
  /** redis://... : blobs in Redis Streams and fan-out over Redis pub/sub. */
  readonly redisUrl?: string;
  /** Signaling and connection limits (per address, byte budget, send buffer). */
  readonly limits?: Partial<SignalingLimits>;
  /** Plain HTTP's limits (DEFAULT_HTTP_LIMITS). */
  readonly http?: Partial<HttpLimits>;
  readonly log?: (line: string) => void;
  /** One JSON line per HTTP request (scripts/operator.ts accessLog); left out: none (`npm start`
   *  writes them to standard output, optionsFromEnv). */
  readonly accessLog?: false | ((line: string) => void);
}

export interface AppServer {
  readonly http: Server;
  readonly signaling: SignalingServer;
  readonly relay: RelayServer | null;
  readonly guard: ConnectionGuard;
  /** /healthz, /metrics and the refusal counts. */
  readonly operator: Operator;
  /** Resolves once the store and the bus are connected (at once without Redis). */
  readonly ready: Promise<void>;
  /** Closes the relay, signaling, the store and the bus (not the HTTP listener). */
  close(): Promise<void>;
  /** close(), then cuts every open HTTP connection and closes the listener: the server is gone at
   *  once, as a phone sees a server vanish (tests and benches end with it). */
  stop(): Promise<void>;
}

/** `root` undefined: no app, only signaling and the relay (`npm run signal`). */
export function createAppServer(root?: string, options: AppServerOptions = {}): AppServer {
  const dir = root === undefined ? undefined : resolve(root);
  const log = options.log ?? ((line: string) => console.warn(line));
  const guard = new ConnectionGuard(options.limits ?? {});
  const redis = options.redisUrl ? new RedisBus(options.redisUrl, log) : null;
  const bus: Bus = redis ?? new LocalBus();
  let store: RelayStore | null = null;
  if (options.relay) {
    const limits = { ...DEFAULT_RELAY_LIMITS, ...options.relay.limits };
    store = redis ? new RedisStore({ ...limits, bus: redis, log }) : new LmdbStore({ ...limits, dir: resolve(options.relay.dir ?? '.pacto/relay'), bus, log });
  }
  const relay = store
    ? attachRelay({
        store,
        bus,
        guard,
        log,
        ...(options.relay?.limits ? { limits: options.relay.limits } : {}),
        ...(options.relay?.allowOrigins ? { allowOrigins: options.relay.allowOrigins } : {}),
        ...(options.relay?.sweepIntervalMs ? { sweepIntervalMs: options.relay.sweepIntervalMs } : {}),
        ...(options.relay?.push !== false ? { push: options.relay?.push ?? {} } : {}),
      })
    : null;
  // Nothing a client sends may throw out of a handler: an uncaught error would end the process,
  // and with it every game on the server. A handler that throws answers 400 (or closes the socket).
  const writeAccess = options.accessLog === false || options.accessLog === undefined ? null : options.accessLog;
  let operator: Operator | null = null;
  const refuse = (res: ServerResponse, e: unknown) => {
    log(`http: refused a request: ${(e as Error)?.message ?? String(e)}`);
    operator?.refused('handler-error');
    if (res.headersSent) res.destroy();
    else {
      res.writeHead(400, { 'content-type': 'text/plain', connection: 'close' });
      res.end('bad request');
    }
  };
  const hl: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...options.http };
  const timeouts = {
    headersTimeout: hl.headersTimeoutMs,
    requestTimeout: hl.requestTimeoutMs,
    keepAliveTimeout: hl.keepAliveTimeoutMs,
    // How often Node checks those timeouts (its default, 30 s, lets a slowloris hold that long).
    connectionsCheckingInterval: Math.max(250, Math.min(1_000, Math.floor(hl.headersTimeoutMs / 4))),
  };
  const http = createServer(timeouts, (req, res) => {
    try {
      const path = requestPath(req.url);
      if (writeAccess) accessLog(req, res, path, writeAccess);
      if (path === null) {
        operator?.refused('bad-target');
        res.writeHead(400, { 'content-type': 'text/plain', connection: 'close' });
        res.end('bad request');
        return;
      }
      if (operator?.handle(path, req, res)) return;
      if (relay?.handleRequest(req, res)) return;
      if (dir === undefined) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(relay ? 'pacto signaling server and relay' : 'pacto signaling server');
        return;
      }
      serveStatic(dir, req, res).catch((e: unknown) => refuse(res, e));
    } catch (e) {
      refuse(res, e);
    }
  });
  // Plain HTTP: timeouts, and sockets per address and in all (a slowloris of half-sent requests
  // used to hold the app from everyone). Counted from the socket's opening to its closing, so a
  // WebSocket counts here too while it lives.
  const behindProxy = guard.limits.trustProxy !== false && guard.limits.trustProxy !== 0;
  const socketsOf = new Map<string, number>();
  let sockets = 0;
  http.on('connection', (socket: Socket) => {
    const key = addressKey({ socket, headers: {} } as IncomingMessage);
    const mine = socketsOf.get(key) ?? 0;
    if (sockets >= hl.maxHttpConnections || (!behindProxy && mine >= hl.maxHttpConnectionsPerAddress)) {
      operator?.refused(sockets >= hl.maxHttpConnections ? 'http-server-full' : 'http-address-full');
      socket.destroy();
      return;
    }
    sockets++;
    socketsOf.set(key, mine + 1);
    socket.once('close', () => {
      sockets--;
      const left = (socketsOf.get(key) ?? 1) - 1;
      if (left <= 0) socketsOf.delete(key);
      else socketsOf.set(key, left);
    });
  });
  const signaling = attachSignaling(http, options.limits ?? {}, { guard, bus, listen: false });
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      if (!guard.admit(req, socket)) {
        signaling.stats.rejected++;
        operator?.refused('connection-limit');
        writeAccess?.(
          JSON.stringify({ t: new Date().toISOString(), ip: req.socket.remoteAddress ?? '', method: 'UPGRADE', status: 'refused', reason: 'connection-limit' }),
        );
        return;
      }
      if (!isRelayUpgrade(req)) signaling.handleUpgrade(req, socket, head);
      else if (relay) relay.handleUpgrade(req, socket, head);
      else socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    } catch (e) {
      log(`http: refused an upgrade: ${(e as Error)?.message ?? String(e)}`);
      socket.destroy();
    }
  });
  const ready = (redis ? redis.ready : Promise.resolve()).then(() =>
    relay?.pushKey().then(
      () => undefined,
      (e) => log(`relay: no VAPID keys yet: ${(e as Error).message}`),
    ),
  );
  operator = createOperator({ signaling, relay, store, guard, ready });
  const close = async (): Promise<void> => {
    await relay?.close();
    await signaling.close();
    await store?.close();
    await bus.close();
  };
  return {
    http,
    signaling,
    relay,
    guard,
    operator,
    // The VAPID keys are made (or read) at start, so the first subscriber does not wait for them.
    ready,
    close,
    stop: async () => {
      await close().catch(() => undefined);
      http.closeAllConnections();
      if (http.listening) await new Promise<void>((r) => http.close(() => r()));
    },
  };
}

/**
 * The VAPID keys kept apart from the relay's store: PACTO_VAPID_KEYS (the JSON itself), or the file
 * PACTO_VAPID_FILE, made on first start readable by the server's user alone (0600). Either way a
 * copy of the store alone holds no private key. Neither set: undefined (the store keeps them).
 */
export function vapidFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  if (env.PACTO_VAPID_KEYS) {
    if (!parseVapidKeys(env.PACTO_VAPID_KEYS)) throw new Error('PACTO_VAPID_KEYS is not a VAPID key pair (JSON with publicKey and privateKey)');
    return env.PACTO_VAPID_KEYS;
  }
  const file = env.PACTO_VAPID_FILE;
  if (!file) return undefined;
  if (!existsSync(file)) writeFileSync(file, newVapidKeys(), { mode: 0o600, flag: 'wx' });
  const text = readFileSync(file, 'utf8');
  if (!parseVapidKeys(text)) throw new Error(`${file} is not a VAPID key pair`);
  return text;
}

const num = (v: string | undefined): number | undefined => (v === undefined || v === '' || !Number.isFinite(Number(v)) ? undefined : Number(v));

/**
 * Options from the environment (`npm start`, `npm run signal`):
 * PACTO_REDIS_URL, PACTO_RELAY=0 (no relay), PACTO_RELAY_DIR (default .pacto/relay),
 * PACTO_RELAY_ORIGINS (comma-separated; default any), PACTO_ROOM_IDLE_DAYS,
 * PACTO_MAX_CONNECTIONS_PER_ADDRESS, PACTO_TRUST_PROXY=N (N proxies you run in front), and PACTO_LIMITS: a JSON object of any
 * signaling, connection or relay limit by name (see src/net/relay/README.md). Web Push:
 * PACTO_PUSH=0 (off), PACTO_PUSH_SUBJECT (mailto: or https: contact for push services),
 * PACTO_PUSH_ALLOW_HOSTS (comma-separated hosts exempt from the public-address rule: tests only),
 * PACTO_ACCESS_LOG=0 (no access log on standard output), PACTO_VAPID_KEYS or PACTO_VAPID_FILE (the
 * VAPID keys kept apart from the store),
 * PACTO_PUSH_SERVICES (comma-separated push service hosts besides the browsers' own; `.domain` for every name under it),
 * PACTO_PUSH_CA_FILE (a PEM file of extra CAs for push services: tests only).
 */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): AppServerOptions {
  const json = env.PACTO_LIMITS ? (JSON.parse(env.PACTO_LIMITS) as Record<string, unknown>) : {};
  const pick = (keys: readonly string[]): Record<string, number | boolean> => {
    const out: Record<string, number | boolean> = {};
    for (const k of keys) if (typeof json[k] === 'number' || typeof json[k] === 'boolean') out[k] = json[k] as number | boolean;
    return out;
  };
  const relayKeys = Object.keys(DEFAULT_RELAY_LIMITS);
  const idleDays = num(env.PACTO_ROOM_IDLE_DAYS);
  const perAddress = num(env.PACTO_MAX_CONNECTIONS_PER_ADDRESS);
  const limits: Record<string, number | boolean> = pick([
    'maxConnections',
    'maxConnectionsPerAddress',
    'maxBytesPerSecond',
    'burstBytes',
    'maxBufferedBytes',
    'trustProxy',
    'maxMessageBytes',
    'maxTopicsPerConnection',
    'maxSubscribersPerTopic',
    'maxMessagesPerSecond',
    'maxNewConnectionsPerSecond',
    'burstNewConnections',
    'roomlessMs',
  ]);
  if (perAddress !== undefined) limits.maxConnectionsPerAddress = perAddress;
  // The number of proxies in front of the server that append to X-Forwarded-For (1: Caddy alone).
  const hops = num(env.PACTO_TRUST_PROXY);
  if (hops !== undefined && hops >= 1) limits.trustProxy = Math.floor(hops);
  const httpLimits = pick(Object.keys(DEFAULT_HTTP_LIMITS));
  const relayLimits: Record<string, number | boolean> = pick(relayKeys);
  if (idleDays !== undefined) relayLimits.roomIdleMs = idleDays * 24 * 3600 * 1000;
  const origins = env.PACTO_RELAY_ORIGINS?.split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  const allowHosts =
    env.PACTO_PUSH_ALLOW_HOSTS?.split(',')
      .map((h) => h.trim())
      .filter((h) => h !== '') ?? [];
  const services =
    env.PACTO_PUSH_SERVICES?.split(',')
      .map((h) => h.trim())
      .filter((h) => h !== '') ?? [];
  const vapid = vapidFromEnv(env);
  const push: PushOptions | false =
    env.PACTO_PUSH === '0'
      ? false
      : {
          ...(env.PACTO_PUSH_SUBJECT ? { subject: env.PACTO_PUSH_SUBJECT } : {}),
          ...(allowHosts.length > 0 ? { allowHosts } : {}),
          ...(services.length > 0 ? { services } : {}),
          ...(vapid !== undefined ? { vapid } : {}),
          ...(env.PACTO_PUSH_CA_FILE ? { ca: [readFileSync(env.PACTO_PUSH_CA_FILE, 'utf8')] } : {}),
        };
  return {
    accessLog: env.PACTO_ACCESS_LOG === '0' ? false : (line: string) => console.log(line),
    ...(env.PACTO_REDIS_URL ? { redisUrl: env.PACTO_REDIS_URL } : {}),
    limits: limits as Partial<SignalingLimits>,
    http: httpLimits as Partial<HttpLimits>,
    ...(env.PACTO_RELAY === '0'
      ? {}
      : {
          relay: {
            dir: env.PACTO_RELAY_DIR ?? '.pacto/relay',
            limits: relayLimits as Partial<RelayLimits>,
            push,
            ...(origins && origins.length > 0 ? { allowOrigins: origins } : {}),
          },
        }),
  };
}

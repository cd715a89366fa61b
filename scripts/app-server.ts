// The HTTP server behind `npm start` and `npm run signal`: the built PWA from a folder, signaling
// on WebSocket upgrades of "/", and the relay on "/relay" (WebSocket) and "/relay/v1" (HTTP), all
// on the same host and port, so an invite made on the page works with no other setting.
// Without PACTO_REDIS_URL everything lives in this process (the relay's blobs on disk, in an LMDB
// directory); with it, the process is stateless: blobs in Redis Streams, fan-out over pub/sub.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import { attachRelay, isRelayUpgrade, type RelayServer } from '../src/net/relay/server';
import { LmdbStore } from '../src/net/relay/server/lmdb-store';
import type { PushOptions } from '../src/net/relay/server/push';
import { RedisStore } from '../src/net/relay/server/redis-store';
import type { RelayStore } from '../src/net/relay/server/store';
import { DEFAULT_RELAY_LIMITS, type RelayLimits } from '../src/net/relay/protocol';
import { LocalBus, type Bus } from '../src/net/signal/bus';
import { ConnectionGuard } from '../src/net/signal/guard';
import { RedisBus } from '../src/net/signal/redis-bus';
import { attachSignaling, type SignalingLimits, type SignalingServer } from '../src/net/signal/server';

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
  readonly log?: (line: string) => void;
}

export interface AppServer {
  readonly http: Server;
  readonly signaling: SignalingServer;
  readonly relay: RelayServer | null;
  readonly guard: ConnectionGuard;
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
  const refuse = (res: ServerResponse, e: unknown) => {
    log(`http: refused a request: ${(e as Error)?.message ?? String(e)}`);
    if (res.headersSent) res.destroy();
    else {
      res.writeHead(400, { 'content-type': 'text/plain', connection: 'close' });
      res.end('bad request');
    }
  };
  const http = createServer((req, res) => {
    try {
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
  const signaling = attachSignaling(http, options.limits ?? {}, { guard, bus, listen: false });
  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      if (!guard.admit(req, socket)) {
        signaling.stats.rejected++;
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
    // The VAPID keys are made (or read) at start, so the first subscriber does not wait for them.
    ready: (redis ? redis.ready : Promise.resolve()).then(() =>
      relay?.pushKey().then(
        () => undefined,
        (e) => log(`relay: no VAPID keys yet: ${(e as Error).message}`),
      ),
    ),
    close,
    stop: async () => {
      await close().catch(() => undefined);
      http.closeAllConnections();
      if (http.listening) await new Promise<void>((r) => http.close(() => r()));
    },
  };
}

const num = (v: string | undefined): number | undefined => (v === undefined || v === '' || !Number.isFinite(Number(v)) ? undefined : Number(v));

/**
 * Options from the environment (`npm start`, `npm run signal`):
 * PACTO_REDIS_URL, PACTO_RELAY=0 (no relay), PACTO_RELAY_DIR (default .pacto/relay),
 * PACTO_RELAY_ORIGINS (comma-separated; default any), PACTO_ROOM_IDLE_DAYS,
 * PACTO_MAX_CONNECTIONS_PER_ADDRESS, PACTO_TRUST_PROXY=1, and PACTO_LIMITS: a JSON object of any
 * signaling, connection or relay limit by name (see src/net/relay/README.md). Web Push:
 * PACTO_PUSH=0 (off), PACTO_PUSH_SUBJECT (mailto: or https: contact for push services),
 * PACTO_PUSH_ALLOW_HOSTS (comma-separated hosts exempt from the public-address rule: tests only),
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
  ]);
  if (perAddress !== undefined) limits.maxConnectionsPerAddress = perAddress;
  if (env.PACTO_TRUST_PROXY === '1') limits.trustProxy = true;
  const relayLimits: Record<string, number | boolean> = pick(relayKeys);
  if (idleDays !== undefined) relayLimits.roomIdleMs = idleDays * 24 * 3600 * 1000;
  const origins = env.PACTO_RELAY_ORIGINS?.split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  const allowHosts =
    env.PACTO_PUSH_ALLOW_HOSTS?.split(',')
      .map((h) => h.trim())
      .filter((h) => h !== '') ?? [];
  const push: PushOptions | false =
    env.PACTO_PUSH === '0'
      ? false
      : {
          ...(env.PACTO_PUSH_SUBJECT ? { subject: env.PACTO_PUSH_SUBJECT } : {}),
          ...(allowHosts.length > 0 ? { allowHosts } : {}),
          ...(env.PACTO_PUSH_CA_FILE ? { ca: [readFileSync(env.PACTO_PUSH_CA_FILE, 'utf8')] } : {}),
        };
  return {
    ...(env.PACTO_REDIS_URL ? { redisUrl: env.PACTO_REDIS_URL } : {}),
    limits: limits as Partial<SignalingLimits>,
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

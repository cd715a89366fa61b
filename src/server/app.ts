// The Pacto server: the built PWA from a folder, signaling on WebSocket upgrades of any path but the
// relay's, and the relay on "/relay" (WebSocket) and "/relay/v1" (HTTP), all on one host and port,
// so an invite made on the page works with no other setting. `/healthz` and `/metrics` for the
// operator.
//
// Requests are parsed and routed by Fastify, static files served by @fastify/static, upgrades by
// @fastify/websocket (through the same router and hooks as plain requests), per-address request
// rates by @fastify/rate-limit and security headers by @fastify/helmet: well-kept libraries that
// the open internet has already tried, instead of our own URL parsing (one `%` used to end the
// process). Our own code keeps what is ours: the connection guard (WebSocket slots per address,
// new connections per second), the socket caps of plain HTTP, and the relay's and signaling's
// protocols. Nothing a client sends may throw out of a handler: Fastify answers a handler's error
// with a 500 and a bad target with a 400; the access log and /metrics count both.
//
// Without PACTO_REDIS_URL everything lives in this process (the relay's blobs on disk, in an LMDB
// directory); with it, the process is stateless: blobs in Redis Streams, fan-out over pub/sub.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import { attachRelay, type RelayServer } from '../net/relay/server';
import { LmdbStore } from '../net/relay/server/lmdb-store';
import type { PushOptions } from '../net/relay/server/push';
import { RedisStore } from '../net/relay/server/redis-store';
import type { RelayStore } from '../net/relay/server/store';
import { DEFAULT_RELAY_LIMITS, RELAY_HTTP_PATH, RELAY_PATH, type RelayLimits } from '../net/relay/protocol';
import { LocalBus, type Bus } from '../net/signal/bus';
import { addressKey, ConnectionGuard } from '../net/signal/guard';
import { RedisBus } from '../net/signal/redis-bus';
import { attachSignaling, DEFAULT_LIMITS as DEFAULT_SIGNALING_LIMITS, type SignalingLimits, type SignalingServer } from '../net/signal/server';
import { accessLog, createOperator, HEALTH_PATH, METRICS_PATH, type Operator } from './operator';

/**
 * The decoded path of a request target, or null if it is not one a browser sends (a lone `%`, bad
 * UTF-8, a NUL): never throws, whatever the target. Only the access log reads it (the router
 * decodes for itself).
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
  /** Requests (and upgrades) one address (IPv6: its /64; behind a trusted proxy, the client's)
   *  makes per minute; over it, 429. A phone loading the app and its offline copy makes about 70. */
  readonly maxRequestsPerMinute: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  maxHttpConnectionsPerAddress: 128,
  maxHttpConnections: 4096,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerMinute: 1_800,
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
  /** One JSON line per HTTP request (operator.ts accessLog); left out: none (`npm start` writes
   *  them to standard output, optionsFromEnv). */
  readonly accessLog?: false | ((line: string) => void);
}

export interface AppServer {
  readonly http: Server;
  /** The Fastify instance that routes every request and upgrade. */
  readonly app: FastifyInstance;
  readonly signaling: SignalingServer;
  readonly relay: RelayServer | null;
  readonly guard: ConnectionGuard;
  /** /healthz, /metrics and the refusal counts. */
  readonly operator: Operator;
  /** Resolves once the routes are in place and the store and the bus connected. */
  readonly ready: Promise<void>;
  /** Listens on host:port (0: a free port) once ready; resolves with the port. */
  listen(port: number, host: string): Promise<number>;
  /** Closes the relay, signaling, the store and the bus (not the HTTP listener). */
  close(): Promise<void>;
  /** close(), then cuts every open HTTP connection and closes the listener: the server is gone at
   *  once, as a phone sees a server vanish (tests and benches end with it). */
  stop(): Promise<void>;
}

/** The page and the service worker revalidate so that updates reach installed apps; the rest of
 *  the build has hashed names. */
const REVALIDATE = /(^|[\\/])(sw\.js|index\.html|registerSW\.js|manifest\.webmanifest)$/;

/**
 * The content security policy of the app: its own scripts only, no plugins, no framing, and
 * connections to any WebSocket or https host, because a game's invite names its own signaling
 * servers and relays, and to the page's own blob: and data: URLs (an exported game is a blob:
 * URL). Inline styles stay allowed (React's style attributes). No
 * upgrade-insecure-requests: friends on a LAN use plain http.
 */
const CSP = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    connectSrc: ["'self'", 'ws:', 'wss:', 'http:', 'https:', 'blob:', 'data:'],
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    mediaSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route serves WebSocket upgrades (any other refuses them before the handshake). */
    upgrades?: boolean;
  }
}

/** `root` undefined: no app, only signaling and the relay (`npm run signal`). */
export function createAppServer(root?: string, options: AppServerOptions = {}): AppServer {
  const dir = root === undefined ? undefined : resolve(root);
  const log = options.log ?? ((line: string) => console.warn(line));
  const guard = new ConnectionGuard(options.limits ?? {});
  const redis = options.redisUrl ? new RedisBus(options.redisUrl, log) : null;
  const bus: Bus = redis ?? new LocalBus();
  const relayLimits: RelayLimits = { ...DEFAULT_RELAY_LIMITS, ...options.relay?.limits };
  let store: RelayStore | null = null;
  if (options.relay) {
    store = redis
      ? new RedisStore({ ...relayLimits, bus: redis, log })
      : new LmdbStore({ ...relayLimits, dir: resolve(options.relay.dir ?? '.pacto/relay'), bus, log });
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
  const writeAccess = options.accessLog === false || options.accessLog === undefined ? null : options.accessLog;
  const hl: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...options.http };
  const trustProxy = guard.limits.trustProxy;
  const behindProxy = trustProxy !== false && trustProxy !== 0;

  // The HTTP server is ours, so its timeouts and socket caps hold before Fastify sees a byte.
  // Requests that arrive before the routes are in place wait for them.
  let routed = false;
  let whenRouted: Promise<void> = Promise.resolve();
  const socketsOf = new Map<string, number>();
  let sockets = 0;
  let operator: Operator | null = null;
  const serverFactory = (handler: (req: IncomingMessage, res: import('node:http').ServerResponse) => void): Server => {
    const server = createServer(
      {
        headersTimeout: hl.headersTimeoutMs,
        requestTimeout: hl.requestTimeoutMs,
        keepAliveTimeout: hl.keepAliveTimeoutMs,
        // How often Node checks those timeouts (its default, 30 s, lets a slowloris hold that long).
        connectionsCheckingInterval: Math.max(250, Math.min(1_000, Math.floor(hl.headersTimeoutMs / 4))),
      },
      (req, res) => {
        if (routed) handler(req, res);
        else
          void whenRouted.then(
            () => handler(req, res),
            () => {
              res.statusCode = 503;
              res.end();
            },
          );
      },
    );
    // Sockets per address and in all (a slowloris of half-sent requests used to hold the app from
    // everyone), counted from the socket's opening to its closing, so a WebSocket counts here too
    // while it lives.
    server.on('connection', (socket: Socket) => {
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
    return server;
  };

  const app = Fastify({
    serverFactory,
    logger: false,
    // The bodies Fastify parses itself are small; the relay reads its own, to its own cap.
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 512 },
    // Addresses are ours (addressKey): IPv6 by its /64, and PACTO_TRUST_PROXY's hops.
    trustProxy: false,
    // A target the router cannot read (`%`, bad UTF-8) is the client's fault: 400, counted.
    frameworkErrors: (_error, req, reply) => {
      operator?.refused('bad-target');
      if (writeAccess) accessLog(req.raw, reply.raw, null, writeAccess);
      void (reply as FastifyReply).code(400).header('connection', 'close').type('text/plain').send('bad request');
    },
  });
  const http = app.server;
  const signalingLimits: SignalingLimits = { ...DEFAULT_SIGNALING_LIMITS, ...guard.limits, ...options.limits };
  const signaling = attachSignaling(http, options.limits ?? {}, { guard, bus, listen: false });

  const ready = (async () => {
    // No HSTS here: TLS is the proxy's (docs/hosting.md), and friends on a LAN use plain http.
    // Resources may be read cross-origin: the relay's API serves phones of any origin (its CORS
    // headers say which), and the app's files are public.
    await app.register(fastifyHelmet, { contentSecurityPolicy: CSP, hsts: false, crossOriginResourcePolicy: { policy: 'cross-origin' } });
    await app.register(fastifyRateLimit, {
      max: hl.maxRequestsPerMinute,
      timeWindow: 60_000,
      keyGenerator: (req) => addressKey(req.raw, trustProxy),
      // The memory it holds is bounded: at most this many addresses are remembered.
      cache: 20_000,
      onExceeded: () => operator?.refused('rate-limit'),
    });
    await app.register(fastifyWebsocket, {
      // One WebSocket server for both endpoints: the larger of their frame caps (each endpoint
      // checks its own on every message).
      options: { maxPayload: Math.max(signalingLimits.maxMessageBytes, 2 * relayLimits.maxFrameBytes) },
      // A frame no honest client sends (ws names it WS_ERR_...) or a socket reset is the client's;
      // anything else thrown by an endpoint is ours: logged and counted like a failed handler.
      errorHandler: (error, socket) => {
        const code = (error as { code?: unknown }).code;
        if (!(typeof code === 'string' && (code.startsWith('WS_ERR_') || code.startsWith('E')))) {
          log(`http: a WebSocket handler failed: ${error instanceof Error ? error.message : String(error)}`);
          operator?.refused('handler-error');
        }
        socket.terminate();
      },
    });
    if (dir !== undefined) await app.register(fastifyStatic, { root: dir, serve: false, cacheControl: false, etag: true, lastModified: true });

    app.addHook('onRequest', (request, reply, done) => {
      if (!request.ws) {
        if (writeAccess) accessLog(request.raw, reply.raw, requestPath(request.raw.url), writeAccess);
        return done();
      }
      // An upgrade where no WebSocket is served is refused before the handshake.
      if (request.routeOptions.config.upgrades === true) return done();
      operator?.refused('no-websocket-here');
      void reply.code(404).header('connection', 'close').send();
    });

    /** An upgrade is admitted by the guard before the handshake (slots per address, new
     *  connections per second); a refused one is answered here and counted. */
    const admitUpgrade = (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
      if (!request.ws) return done();
      const refusal = guard.enter(request.raw, request.raw.socket);
      if (refusal === null) return done();
      signaling.stats.rejected++;
      operator?.refused('connection-limit');
      writeAccess?.(
        JSON.stringify({
          t: new Date().toISOString(),
          ip: request.raw.socket.remoteAddress ?? '',
          method: 'UPGRADE',
          status: refusal,
          reason: 'connection-limit',
        }),
      );
      void reply.code(refusal).header('connection', 'close').send();
    };

    for (const path of [HEALTH_PATH, METRICS_PATH])
      app.all(path, async (request, reply) => {
        if (request.method !== 'GET' && request.method !== 'HEAD')
          return reply.code(405).header('allow', 'GET, HEAD').type('text/plain').send('method not allowed');
        reply.header('cache-control', 'no-store');
        if (path === METRICS_PATH) return reply.type(operator!.registry.contentType).send(await operator!.metrics());
        const h = await operator!.health();
        return reply.code(h.ok ? 200 : 503).send(h);
      });

    if (relay) {
      app.get(RELAY_PATH, { websocket: true, config: { upgrades: true }, onRequest: admitUpgrade }, (socket, request) => relay.accept(socket, request.raw));
      // The relay's HTTP API reads its own body (to its own cap, with its own errors) and answers
      // with its own CORS headers: the request is handed over before Fastify parses anything.
      app.route({
        method: ['POST', 'OPTIONS', 'GET', 'PUT', 'DELETE', 'PATCH'],
        url: RELAY_HTTP_PATH,
        onRequest: (request, reply, done) => {
          reply.hijack();
          relay.handleRequest(request.raw, reply.raw);
          done();
        },
        handler: () => undefined,
      });
    }

    // Any other path: the app (a single-page app: an unknown path loads it), and signaling on an
    // upgrade.
    const serveApp = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
      if (dir === undefined) return reply.type('text/plain').send(relay ? 'pacto signaling server and relay' : 'pacto signaling server');
      const wanted = (request.params as { '*'?: string })['*'] ?? '';
      // A file of the build, or the app itself (a single-page app: an unknown path loads it).
      // Decided here rather than by the plugin's not-found path, which runs every hook again.
      const full = resolve(dir, wanted);
      const inside = full.startsWith(dir + sep) && !wanted.includes('\0');
      const file =
        inside &&
        (await stat(full).then(
          (s) => s.isFile(),
          () => false,
        ))
          ? wanted
          : 'index.html';
      if (REVALIDATE.test(file)) reply.header('cache-control', 'no-cache');
      return reply.sendFile(file);
    };
    app.route({
      method: ['GET', 'HEAD'],
      url: '/*',
      config: { upgrades: true },
      onRequest: admitUpgrade,
      handler: serveApp,
      wsHandler: (socket, request) => signaling.accept(socket, request.raw),
    });
    app.setNotFoundHandler((request, reply) => {
      if (dir === undefined || (request.method !== 'GET' && request.method !== 'HEAD') || request.ws)
        return reply.code(404).type('text/plain').send('not found');
      reply.header('cache-control', 'no-cache');
      return reply.sendFile('index.html');
    });
    app.setErrorHandler((error, _request, reply) => {
      const status = (error as { statusCode?: number }).statusCode;
      const code = typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
      if (code >= 500) log(`http: a handler failed: ${error instanceof Error ? error.message : String(error)}`);
      operator?.refused(code === 429 ? 'rate-limit' : code >= 500 ? 'handler-error' : 'bad-request');
      return reply
        .code(code)
        .type('text/plain')
        .send(code === 429 ? 'too many requests' : code >= 500 ? 'server error' : 'bad request');
    });
    await app.ready();
    routed = true;
    if (redis) await redis.ready;
    // The VAPID keys are made (or read) at start, so the first subscriber does not wait for them.
    await relay?.pushKey().then(
      () => undefined,
      (e) => log(`relay: no VAPID keys yet: ${(e as Error).message}`),
    );
  })();
  whenRouted = ready;
  operator = createOperator({ signaling, relay, store, guard, ready });
  const close = async (): Promise<void> => {
    await relay?.close();
    await signaling.close();
    await store?.close();
    await bus.close();
  };
  return {
    http,
    app,
    signaling,
    relay,
    guard,
    operator,
    ready,
    listen: async (port, host) => {
      await ready;
      await new Promise<void>((resolveListen, reject) => {
        http.once('error', reject);
        http.listen(port, host, () => {
          http.off('error', reject);
          resolveListen();
        });
      });
      const address = http.address();
      return typeof address === 'object' && address ? address.port : port;
    },
    close,
    stop: async () => {
      await close().catch(() => undefined);
      http.closeAllConnections();
      if (http.listening) await new Promise<void>((r) => http.close(() => r()));
    },
  };
}

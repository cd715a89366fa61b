// The server's settings from the environment (`npm start`, `pacto-server`): every limit has a
// default (docs/hosting.md's table lists them all) and PACTO_LIMITS sets any of them by name.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { newVapidKeys, parseVapidKeys, type PushOptions } from '../net/relay/server/push';
import { DEFAULT_RELAY_LIMITS, type RelayLimits } from '../net/relay/protocol';
import type { SignalingLimits } from '../net/signal/server';
import { DEFAULT_HTTP_LIMITS, type AppServerOptions, type HttpLimits } from './app';

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

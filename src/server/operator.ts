// What an operator hosting Pacto for friends sees of the server: `/healthz` (the process ready and
// the relay's store answering), `/metrics` in Prometheus's text format (through prom-client, the
// Prometheus client most Node servers use, so the format and the process metrics are not
// hand-written), and one JSON access-log line per HTTP request or refused upgrade, with no query
// string, token, endpoint or body in it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { RelayServer } from '../net/relay/server';
import type { RelayStore } from '../net/relay/server/store';
import type { ConnectionGuard } from '../net/signal/guard';
import type { SignalingServer } from '../net/signal/server';

export const HEALTH_PATH = '/healthz';
export const METRICS_PATH = '/metrics';

/** A room id no phone uses: the health check reads it to see that the store answers. */
const PROBE_ROOM = 'healthz-probe';
/** A store that has not answered within this long is unhealthy. */
const HEALTH_TIMEOUT_MS = 2_000;

export interface OperatorParts {
  readonly signaling: SignalingServer;
  readonly relay: RelayServer | null;
  readonly store: RelayStore | null;
  readonly guard: ConnectionGuard;
  /** Resolved once the store and the bus are connected. */
  readonly ready: Promise<void>;
}

export interface Operator {
  /** /healthz: the process ready and the store answering (503 with the problem otherwise). */
  health(): Promise<{ ok: boolean; problem?: string }>;
  /** /metrics, in Prometheus's text format. */
  metrics(): Promise<string>;
  /** Counts a refused request or upgrade by its reason (shown in /metrics and the access log). */
  refused(reason: string): void;
  readonly registry: Registry;
}

export function createOperator(parts: OperatorParts): Operator {
  let ready = false;
  void parts.ready.then(
    () => (ready = true),
    () => undefined,
  );
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'pacto_' });
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  const relay = parts.relay?.stats;
  const signaling = parts.signaling.stats;
  gauge('pacto_connections', 'Open WebSocket connections (signaling and relay).', () => parts.guard.stats.connections);
  gauge('pacto_signaling_topics', 'Signaling topics (game rooms) open on this process.', () => signaling.topics);
  gauge('pacto_signaling_messages_in', 'Signaling messages received since start.', () => signaling.messagesIn);
  gauge('pacto_signaling_messages_out', 'Signaling messages sent since start.', () => signaling.messagesOut);
  gauge('pacto_upgrades_refused', 'WebSocket upgrades refused (server full or address over its limit) since start.', () => parts.guard.stats.refused);
  gauge('pacto_slow_closed', 'Connections closed because they did not read what they were sent, since start.', () => parts.guard.stats.slowClosed);
  if (relay) {
    gauge('pacto_relay_subscribers', 'Live relay subscribers.', () => relay.subscribers);
    gauge('pacto_relay_appends', 'Blobs stored by the relay since start.', () => relay.appends);
    gauge('pacto_relay_fetches', 'Relay fetches answered since start.', () => relay.fetches);
    gauge('pacto_relay_blobs_served', 'Blobs served by fetches since start.', () => relay.blobsServed);
    gauge('pacto_relay_notifies', 'Notifies accepted since start.', () => relay.notifies);
    gauge('pacto_pushes_sent', 'Web pushes a push service accepted, since start.', () => relay.pushesSent);
    gauge('pacto_pushes_failed', 'Web pushes that failed, since start.', () => relay.pushesFailed);
    gauge('pacto_pushes_gone', 'Push subscriptions removed as gone, since start.', () => relay.pushesGone);
    const errors = new Gauge({
      name: 'pacto_relay_refusals',
      help: 'Relay requests refused, by reason, since start.',
      labelNames: ['reason'],
      registers: [registry],
      collect() {
        for (const [reason, n] of Object.entries(relay.errors)) this.set({ reason }, n ?? 0);
      },
    });
    void errors;
  }
  const refusals = new Counter({
    name: 'pacto_http_refusals',
    help: 'HTTP requests and upgrades refused, by reason.',
    labelNames: ['reason'],
    registers: [registry],
  });

  const health = async (): Promise<{ ok: boolean; problem?: string }> => {
    if (!ready) return { ok: false, problem: 'starting' };
    if (parts.store === null) return { ok: true };
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        parts.store.fetch(PROBE_ROOM, '', 1, 1),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('the store did not answer')), HEALTH_TIMEOUT_MS))),
      ]);
      return { ok: true };
    } catch (e) {
      return { ok: false, problem: (e as Error).message };
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    registry,
    refused: (reason) => refusals.inc({ reason }),
    health,
    metrics: () => registry.metrics(),
  };
}

/**
 * One access-log line per HTTP request, written when its answer is finished (or the connection
 * closes first): time, client address, method, path without its query string, status and
 * milliseconds. No query string (a relay token could be there), no header, no body.
 */
export function accessLog(req: IncomingMessage, res: ServerResponse, path: string | null, write: (line: string) => void): void {
  const t0 = process.hrtime.bigint();
  let done = false;
  const line = (status: number) => {
    if (done) return;
    done = true;
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    write(
      JSON.stringify({
        t: new Date().toISOString(),
        ip: req.socket.remoteAddress ?? '',
        method: (req.method ?? '').slice(0, 16),
        path: path === null ? '(unreadable)' : path.slice(0, 200),
        status,
        ms: Math.round(ms * 10) / 10,
      }),
    );
  };
  res.once('finish', () => line(res.statusCode));
  res.once('close', () => line(res.writableFinished ? res.statusCode : 0));
}

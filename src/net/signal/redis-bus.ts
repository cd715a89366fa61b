// The bus over Redis pub/sub (PACTO_REDIS_URL): every server process subscribes to the channels
// of the rooms it has members in, so a publish on one process reaches members on all of them.
// One connection publishes (and runs commands), one subscribes; node-redis re-subscribes after a
// reconnect, and the gap in between is reported to `onGap` handlers. Node only.
import { createClient } from '@redis/client';
import type { Bus, BusSubscription } from './bus';

export type RedisClient = ReturnType<typeof createClient>;

export class RedisBus implements Bus {
  readonly client: RedisClient;
  private readonly sub: RedisClient;
  /** Resolves once both connections are up. */
  readonly ready: Promise<void>;
  private readonly channels = new Map<string, { handlers: Set<(m: Buffer) => void>; ready: Promise<void>; listener: (m: Buffer) => void }>();
  private readonly gapHandlers = new Set<() => void>();
  private connectedOnce = false;

  constructor(url: string, log: (line: string) => void = (l) => console.warn(l)) {
    const reconnectStrategy = (retries: number): number => Math.min(100 * 2 ** retries, 5000);
    this.client = createClient({ url, socket: { reconnectStrategy } });
    this.sub = this.client.duplicate();
    let lastError = '';
    for (const c of [this.client, this.sub]) {
      c.on('error', (e: Error) => {
        if (e.message !== lastError) log(`redis: ${e.message}`);
        lastError = e.message;
      });
    }
    this.sub.on('ready', () => {
      if (this.connectedOnce) for (const h of [...this.gapHandlers]) h();
      this.connectedOnce = true;
    });
    this.ready = Promise.all([this.client.connect(), this.sub.connect()]).then(() => undefined);
    this.ready.catch(() => undefined);
  }

  publish(channel: string, message: Buffer): void {
    this.client.sendCommand(['PUBLISH', channel, message]).catch(() => undefined);
  }

  subscribe(channel: string, handler: (message: Buffer) => void): BusSubscription {
    let entry = this.channels.get(channel);
    if (!entry) {
      const handlers = new Set<(m: Buffer) => void>();
      const listener = (m: Buffer): void => {
        for (const h of [...handlers]) h(m);
      };
      const ready = this.sub.subscribe(channel, listener, true);
      ready.catch(() => undefined);
      entry = { handlers, ready, listener };
      this.channels.set(channel, entry);
    }
    const e = entry;
    const mine = (m: Buffer): void => handler(m);
    e.handlers.add(mine);
    return {
      ready: e.ready,
      unsubscribe: () => {
        e.handlers.delete(mine);
        if (e.handlers.size === 0 && this.channels.get(channel) === e) {
          this.channels.delete(channel);
          this.sub.unsubscribe(channel, e.listener, true).catch(() => undefined);
        }
      },
    };
  }

  onGap(handler: () => void): () => void {
    this.gapHandlers.add(handler);
    return () => this.gapHandlers.delete(handler);
  }

  async close(): Promise<void> {
    this.channels.clear();
    await Promise.all([this.client, this.sub].map((c) => (c.isOpen ? c.close() : undefined)));
  }
}

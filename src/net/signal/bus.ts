// Fan-out between the connections of a room. In one process it is a map of handlers; with
// PACTO_REDIS_URL it is Redis pub/sub (redis-bus.ts), so a publish reaches the room's members on
// every server process. Node only.

export interface BusSubscription {
  /** Resolves once messages published from now on are delivered (Redis confirms the subscribe). */
  readonly ready: Promise<void>;
  unsubscribe(): void;
}

export interface Bus {
  publish(channel: string, message: Buffer): void;
  subscribe(channel: string, handler: (message: Buffer) => void): BusSubscription;
  /** Called when messages may have been lost (the Redis connection dropped and came back): whoever
   *  relies on seeing every message must catch up another way. */
  onGap(handler: () => void): () => void;
  close(): Promise<void>;
}

/** One process: delivery is synchronous, inside `publish`, and never has gaps. */
export class LocalBus implements Bus {
  private readonly channels = new Map<string, Set<(message: Buffer) => void>>();

  publish(channel: string, message: Buffer): void {
    const handlers = this.channels.get(channel);
    if (!handlers) return;
    for (const h of [...handlers]) h(message);
  }

  onGap(): () => void {
    return () => undefined;
  }

  subscribe(channel: string, handler: (message: Buffer) => void): BusSubscription {
    let handlers = this.channels.get(channel);
    if (!handlers) this.channels.set(channel, (handlers = new Set()));
    const mine = (m: Buffer): void => handler(m);
    handlers.add(mine);
    return {
      ready: Promise.resolve(),
      unsubscribe: () => {
        handlers.delete(mine);
        if (handlers.size === 0 && this.channels.get(channel) === handlers) this.channels.delete(channel);
      },
    };
  }

  async close(): Promise<void> {
    this.channels.clear();
  }
}

/** Channel names, one per kind, so a signaling topic and a relay room never share a channel. */
export const signalingChannel = (topic: string): string => `pacto:sig:${topic}`;
export const relayChannel = (room: string): string => `pacto:relay:${room}`;

// The relay's phone side: one game's link to its relays, on top of the game's replica (the gate).
//
// - Every update this phone makes (the replica's own origins: its signed entries, and the carrier
//   publishing admitted entries again) enters a durable outbox in the transaction that stores it
//   (persistDoc with `own`; IndexedDB on the phone), before it is sent, and stays there until every
//   relay of the game has acknowledged it: an update made offline, or just before the app was
//   killed, is uploaded on the next connection. If the app dies before that transaction, neither
//   the doc's store nor the outbox has the update, but the entry set does (it is stored before the
//   doc is touched): the replica's carrier publishes the entry again, and that goes to the outbox.
// - The first time a game uses a relay, the game's whole state goes into the outbox for that relay
//   (RelayStorage.begin), so a game created before the relay was named still reaches it.
// - Each relay's cursor is kept per game; blobs are fetched after it on open, on 'online', on a
//   timer, and come live while the game is open (RelayClient).
// - What a relay hands over goes through the same gate as a peer's update (GameReplica.receive:
//   strict reading, admission, only clean parts applied), and is durable before the cursor moves.
//   Blobs that do not open are reported (never thrown), and so are appends a relay refuses.
import * as Y from 'yjs';
import type { Report, UpdateGate } from '../gate';
import { checkRelayUrl } from '../settings';
import { RelayClient, type BadBlob, type RelayLinkStatus, type WebSocketConstructor } from './client';

/** Where a game's outbox and relay cursors live (the store implements it: relayStorage). */
export interface RelayStorage {
  /**
   * Records relays the game had not used yet and puts `state()` in the outbox for them; returns them.
   * Relays in `again` count as new even if the game used them (they lost what they had stored).
   */
  begin(relays: readonly string[], state: () => Uint8Array, again?: readonly string[]): Promise<readonly string[]>;
  /** Items some relay of `relays` has not acknowledged yet, oldest first. */
  pending(relays: readonly string[]): Promise<readonly { readonly seq: number; readonly update: Uint8Array; readonly acked: readonly string[] }[]>;
  /** `relay` stored item `seq`; it leaves the outbox once all of `relays` have. */
  acknowledged(seq: number, relay: string, relays: readonly string[]): Promise<void>;
  loadCursor(relay: string): Promise<string | undefined>;
  saveCursor(relay: string, cursor: string): Promise<void>;
}

/** The replica's side that the relay needs (GameReplica). */
export interface RelayGate extends UpdateGate {
  isOwnOrigin(origin: unknown): boolean;
  /** Resolves once what was admitted so far is stored; rejects if a write failed. */
  flush(): Promise<void>;
}

export interface GameRelayOptions {
  readonly gameId: string;
  readonly password: string;
  /** ws[s]://host/relay addresses; checked, duplicates dropped. */
  readonly relays: readonly string[];
  readonly gate: RelayGate;
  readonly storage: RelayStorage;
  /** The doc's store binding: it fills the outbox and says so; awaited, with the gate's, before a cursor moves. */
  readonly persisted: { flush(): Promise<void>; onOutbox(listener: (added: number) => void): () => void; ownQueued(): number };
  /** How often to fetch besides live blobs (default 60 s). */
  readonly syncIntervalMs?: number;
  readonly WebSocket?: WebSocketConstructor;
  readonly reconnect?: { readonly minMs: number; readonly maxMs: number };
  /** Default true: subscribe for live blobs besides fetching (false: only open, 'online' and the timer fetch). */
  readonly live?: boolean;
  /** Where the 'online' event comes from (default: the window, or nothing in Node). */
  readonly events?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
}

export interface GameRelayStatus {
  readonly relays: readonly RelayLinkStatus[];
  /** Updates of this phone some relay has not acknowledged. */
  readonly waiting: number;
  /** Blobs received that did not open or were damaged, and appends refused for good. */
  readonly bad: number;
}

export const DEFAULT_RELAY_SYNC_MS = 60_000;

/** The origin of updates a relay handed over (so they are not uploaded again). */
const RELAY_ORIGIN = Symbol('pacto-relay');

export class GameRelay {
  readonly relays: readonly string[];
  private client: RelayClient | null = null;
  private readonly listeners = new Set<() => void>();
  private waiting = 0;
  /** Outbox reads started: only the latest one's count is kept (reads and writes are ordered by IndexedDB). */
  private reads = 0;
  private bad = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private closed = false;
  private unwatch: (() => void) | null = null;
  private readonly onOnline = (): void => void this.sync();
  /** Resolves once the outbox is read and the relays are connecting. */
  readonly ready: Promise<void>;

  constructor(private readonly o: GameRelayOptions) {
    this.relays = [...new Set(o.relays.map(checkRelayUrl))];
    this.ready = this.relays.length === 0 ? Promise.resolve() : this.start();
  }

  private async start(): Promise<void> {
    const doc = this.o.gate.doc;
    // Own updates stored from now on are sent at once; the state taken by begin() covers the rest.
    const unwatch = this.o.persisted.onOutbox((added) => {
      // Counted at once, and reads already under way are stale; the read that follows sets the exact number.
      this.reads++;
      this.waiting += added;
      this.changed();
      void this.flushOutbox();
    });
    // An own update is waiting from the moment it exists (status().waiting counts it).
    const onUpdate = (_u: Uint8Array, origin: unknown): void => {
      if (this.o.gate.isOwnOrigin(origin)) this.changed();
    };
    doc.on('update', onUpdate);
    this.unwatch = () => {
      unwatch();
      doc.off('update', onUpdate);
    };
    await this.o.storage.begin(this.relays, () => Y.encodeStateAsUpdate(doc));
    if (this.closed) return;
    this.client = new RelayClient({
      gameId: this.o.gameId,
      password: this.o.password,
      relays: this.relays,
      ...(this.o.WebSocket ? { WebSocket: this.o.WebSocket } : {}),
      ...(this.o.reconnect ? { reconnect: this.o.reconnect } : {}),
      ...(this.o.live === false ? { live: false } : {}),
      onUpdates: (updates, from) => this.receive(updates, from.relay),
      onBadBlob: (b) => this.badBlob(b),
      onRefused: (relay, code, message) => {
        this.bad++;
        this.report({ kind: 'relay-refused', peer: `relay ${relay}`, reason: `${code}: ${message}` });
      },
      onStatus: () => this.changed(),
      // A relay that lost what it had stored (a restored backup, an evicted room) gets the whole
      // game again, as a relay the game never used; its cursor starts over in the same transaction.
      onLost: async (relay) => {
        await this.o.storage.begin(this.relays, () => Y.encodeStateAsUpdate(doc), [relay]);
        await this.countWaiting();
      },
      cursors: { loadCursor: (r) => this.o.storage.loadCursor(r), saveCursor: (r, c) => this.o.storage.saveCursor(r, c) },
      outbox: {
        pending: async () => {
          const n = ++this.reads;
          const items = await this.o.storage.pending(this.relays);
          if (n === this.reads) this.setWaiting(items.length);
          return items.map((i) => ({ key: String(i.seq), update: i.update, acked: i.acked }));
        },
        acknowledged: async (key, relay) => {
          await this.o.storage.acknowledged(Number(key), relay, this.relays);
          await this.countWaiting();
        },
      },
    });
    this.timer = setInterval(() => void this.sync(), this.o.syncIntervalMs ?? DEFAULT_RELAY_SYNC_MS);
    this.events()?.addEventListener('online', this.onOnline);
    // Each relay's connection sends the outbox when it opens (RelayClient.flushOutbox).
    await this.countWaiting();
  }

  private events(): Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | undefined {
    if (this.o.events) return this.o.events;
    return typeof globalThis.addEventListener === 'function' ? globalThis : undefined;
  }

  private async countWaiting(): Promise<void> {
    const n = ++this.reads;
    const items = await this.o.storage.pending(this.relays);
    if (n === this.reads) this.setWaiting(items.length);
  }

  /** Sends what the outbox holds to the relays that lack it (each relay ignores a resend). */
  private async flushOutbox(): Promise<void> {
    if (this.closed) return;
    await this.ready.catch(() => undefined);
    await this.client?.flushOutbox().catch((e) => this.report({ kind: 'internal-error', peer: 'relay outbox', reason: errorText(e) }));
  }

  private setWaiting(n: number): void {
    if (n === this.waiting) return;
    this.waiting = n;
    this.changed();
  }

  /** Through the gate, like a peer's update; stored before the relay's cursor moves past it. */
  private async receive(updates: readonly Uint8Array[], relay: string): Promise<void> {
    const peer = { name: `relay ${relay}`, origin: RELAY_ORIGIN };
    // The signatures of all of them are checked ahead, together (natively where the platform can).
    await Promise.all(updates.map((u) => this.o.gate.prepare?.(u)));
    for (const u of updates) this.o.gate.receive(u, peer);
    await this.o.gate.flush();
    await this.o.persisted?.flush();
  }

  private badBlob(b: BadBlob): void {
    this.bad++;
    this.report({ kind: 'relay-blob-refused', peer: `relay ${b.relay}`, reason: `${b.problem} at ${b.cursor}` });
    this.changed();
  }

  private report(r: Report): void {
    try {
      this.o.gate.report(r);
    } catch {
      // A listener's failure is not the relay's.
    }
  }

  /** Fetches from every relay now and sends the outbox again (on 'online', on the timer, on demand). */
  async sync(): Promise<void> {
    if (this.closed || this.client === null) return;
    await Promise.all([this.client.sync(), this.flushOutbox()]);
  }

  status(): GameRelayStatus {
    return {
      relays: this.client?.status() ?? this.relays.map((relay) => ({ relay, connected: false, caughtUp: false, live: false, cursor: '', unacknowledged: 0 })),
      waiting: this.waiting + this.o.persisted.ownQueued(),
      bad: this.bad,
    };
  }

  onStatus(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of [...this.listeners]) {
      try {
        l();
      } catch {
        // its own failure
      }
    }
  }

  destroy(): void {
    if (this.closed) return;
    this.closed = true;
    this.unwatch?.();
    if (this.timer !== null) clearInterval(this.timer);
    this.events()?.removeEventListener('online', this.onOnline);
    this.client?.close();
    this.listeners.clear();
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

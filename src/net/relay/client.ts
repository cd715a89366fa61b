// The relay client library: runs in browsers, service workers and Node. It connects to one or
// several relays for one game, seals every update it appends (blob.ts) and resends it until each
// relay acknowledges it (the append id makes a resend idempotent), fetches what was stored since
// its cursor on each relay, and subscribes to new blobs. What it receives it opens and hands to
// `onUpdates`; a blob that does not open is reported to `onBadBlob` and never handed on. It keeps
// nothing itself: cursors and the outbox are the caller's, through the interfaces below (the
// phone keeps them in IndexedDB).
import { fromBase64, toBase64 } from '../../protocol';
import { splitUpdate } from '../split-update';
import { openBlob, sealBlob, type BlobProblem } from './blob';
import { appendIdFor, pushHintKeyFor, relayKeysFor, type RelayKeys } from './keys';
import {
  compareCursors,
  DEFAULT_RELAY_LIMITS,
  MAX_UPDATE_BYTES,
  parseServerFrame,
  RELAY_HTTP_PATH,
  RELAY_PATH,
  type ClientFrame,
  type ErrorCode,
  type PushSubscriptionKeys,
  type ServerFrame,
} from './protocol';

/** Where the caller keeps each relay's cursor for this game. */
export interface CursorStore {
  loadCursor(relay: string): Promise<string | undefined>;
  /** Called only after `onUpdates` has taken every update up to `cursor`. */
  saveCursor(relay: string, cursor: string): Promise<void>;
}

/** Updates waiting to reach a relay, kept by the caller across restarts. */
export interface OutboxItem {
  /** The caller's name for it, handed back in `acknowledged`. */
  readonly key: string;
  readonly update: Uint8Array;
  /** Relays that already acknowledged it: it is not sent to them again. */
  readonly acked?: readonly string[];
}

export interface Outbox {
  /** Every update not yet acknowledged (the caller decides by how many relays), oldest first. */
  pending(): Promise<readonly OutboxItem[]>;
  /** `relay` stored the item durably (every piece of it, if it had to be split). */
  acknowledged(key: string, relay: string): Promise<void>;
}

export interface BadBlob {
  readonly relay: string;
  readonly cursor: string;
  /** Why it was not handed on: it does not open under the game's key, it is not base64, or the
   *  relay itself found its record damaged. */
  readonly problem: BlobProblem | 'not-base64' | 'damaged-on-relay';
}

export interface RelayLinkStatus {
  readonly relay: string;
  readonly connected: boolean;
  /** Connected, and everything the relay held when this connection opened has been handed on. */
  readonly caughtUp: boolean;
  /** Subscribed and caught up: from now on every blob appended to the relay comes as it is
   *  appended (always false with `live: false`). */
  readonly live: boolean;
  readonly cursor: string;
  /** Appends sent or waiting, not yet acknowledged by this relay. */
  readonly unacknowledged: number;
  readonly lastError?: { readonly code: ErrorCode | 'closed' | 'misbehaving'; readonly message: string };
  /** The relay sent what no honest relay sends (a page that does not move the cursor, a frame
   *  over MAX_RELAY_FRAME_CHARS): it is backed off from, and the game goes on without it. */
  readonly misbehaving?: boolean;
}

/**
 * The longest frame a phone reads from a relay: eight times an honest page at the default limits
 * (maxFetchBytes 512 KiB of blobs, base64 and JSON around them). A longer one is dropped unread and
 * the connection with it.
 */
export const MAX_RELAY_FRAME_CHARS = 4 * 1024 * 1024;

/** How long a phone waits before asking a misbehaving relay again (doubling up to the maximum). */
export const MISBEHAVING_BACKOFF = { minMs: 30_000, maxMs: 30 * 60_000 } as const;

export interface Delivery {
  readonly relay: string;
  /** The cursor of the last blob in this batch. */
  readonly cursor: string;
}

interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error', listener: () => void): void;
  addEventListener(type: 'message', listener: (e: { data: unknown }) => void): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface RelayClientOptions {
  /** The game's invite secret (or keys already derived from it). */
  readonly gameId?: string;
  readonly password?: string;
  readonly keys?: RelayKeys;
  /** ws:// or wss:// addresses of the relays (".../relay"). */
  readonly relays: readonly string[];
  /** Opened updates, in each relay's order; awaited before the cursor moves past them. */
  onUpdates(updates: readonly Uint8Array[], from: Delivery): void | Promise<void>;
  onBadBlob?(report: BadBlob): void;
  /** An append a relay refused for good (too large, room full, forbidden). */
  onRefused?(relay: string, code: ErrorCode, message: string): void;
  onStatus?(status: readonly RelayLinkStatus[]): void;
  readonly cursors?: CursorStore;
  readonly outbox?: Outbox;
  /**
   * A relay no longer holds the blob at this game's cursor: it lost what it had stored (restored
   * from an older backup, its room evicted or expired). What this phone holds of the game may exist
   * nowhere else the other phones can reach, and no outbox item is left for what the relay had
   * acknowledged, so the caller puts the game's whole state back in the outbox for this relay
   * (resolving once it is there); the cursor then starts over from "".
   */
  onLost?(relay: string): void | Promise<void>;
  /** Default: the global WebSocket (browsers, service workers, Node 22). */
  readonly WebSocket?: WebSocketConstructor;
  /** Default true: subscribe for live blobs besides fetching. */
  readonly live?: boolean;
  readonly random?: (n: number) => Uint8Array;
  readonly reconnect?: { readonly minMs: number; readonly maxMs: number };
  /** A request with no answer after this long drops the connection (and it is retried). */
  readonly requestTimeoutMs?: number;
}

export class RelayRefused extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Errors worth retrying later; any other refusal of an append is final for that relay. */
const TRANSIENT: ReadonlySet<ErrorCode> = new Set([
  'rate-limited',
  'unavailable',
  'resubscribe',
  'too-many-rooms',
  'too-many-subscribers',
  'relay-full',
  'too-many-pushes',
]);

const SEEN_LIMIT = 20_000;

interface AppendWaiter {
  readonly onAck: (relay: string) => void;
  readonly onRefused: (relay: string, code: ErrorCode, message: string) => void;
}

interface PendingAppend {
  readonly id: string;
  readonly frameText: (rid: string) => string;
  /** Everyone who appended this same update and waits for this relay's answer. */
  readonly waiters: AppendWaiter[];
  sent: boolean;
}

export class RelayClient {
  readonly keys: RelayKeys;
  private readonly links: RelayLink[];
  /** Ids of updates handed on or appended by us: one update arriving from two relays is handed on once. */
  private readonly seen = new Set<string>();
  private closed = false;

  constructor(readonly options: RelayClientOptions) {
    if (options.keys) this.keys = options.keys;
    else if (options.gameId !== undefined && options.password !== undefined) this.keys = relayKeysFor(options.gameId, options.password);
    else throw new Error('a relay client needs the game id and room password, or keys');
    const WS = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!WS) throw new Error('no WebSocket implementation: pass options.WebSocket');
    const cursors = options.cursors ?? memoryCursors();
    this.links = [...new Set(options.relays)].map((url) => new RelayLink(this, url, WS, cursors));
    for (const l of this.links) l.connect();
  }

  /**
   * Seals `update` and sends it to every relay. Resolves once one relay has it durably; rejects
   * with RelayRefused if every relay refused it for good. Each relay keeps retrying (across
   * reconnects) until it acknowledges or refuses; `outboxKey` reports each acknowledgement to the
   * outbox.
   */
  append(update: Uint8Array, outboxKey?: string, skip: readonly string[] = []): Promise<void> {
    if (this.closed) return Promise.reject(new Error('relay client closed'));
    if (this.links.length === 0) return Promise.reject(new Error('no relay to append to'));
    const links = this.links.filter((l) => !skip.includes(l.url));
    if (links.length === 0) return Promise.resolve();
    let pieces: Uint8Array[];
    try {
      pieces = update.length > MAX_UPDATE_BYTES ? splitUpdate(update, MAX_UPDATE_BYTES) : [update];
    } catch {
      pieces = [update];
    }
    if (pieces.some((p) => p.length > MAX_UPDATE_BYTES))
      return Promise.reject(new RelayRefused('too-large', `an update (or a piece of it) is over ${MAX_UPDATE_BYTES} bytes`));
    return new Promise<void>((resolve, reject) => {
      const ackedBy = new Map<string, number>();
      const refusedBy = new Set<string>();
      let settled = false;
      const relays = links.length;
      for (const piece of pieces) {
        const id = appendIdFor(this.keys.key, piece);
        this.remember(id);
        const blob = sealBlob(this.keys.key, piece, this.options.random);
        const b64 = toBase64(blob);
        const { room, token } = this.keys;
        const frameText = (rid: string): string => JSON.stringify({ t: 'append', rid, room, token, id, blob: b64 });
        const waiter: AppendWaiter = {
          onAck: (relay) => {
            const n = (ackedBy.get(relay) ?? 0) + 1;
            ackedBy.set(relay, n);
            if (n === pieces.length) {
              if (outboxKey !== undefined) this.options.outbox?.acknowledged(outboxKey, relay).catch(() => undefined);
              if (!settled) {
                settled = true;
                resolve();
              }
            }
          },
          onRefused: (relay, code, message) => {
            refusedBy.add(relay);
            this.options.onRefused?.(relay, code, message);
            if (!settled && refusedBy.size === relays) {
              settled = true;
              reject(new RelayRefused(code, message));
            }
          },
        };
        for (const l of links) l.enqueue(id, frameText, waiter);
      }
    });
  }

  /** Appends everything the outbox holds (each relay skips what it already has). */
  async flushOutbox(): Promise<void> {
    const outbox = this.options.outbox;
    if (!outbox || this.closed) return;
    for (const item of await outbox.pending()) this.append(item.update, item.key, item.acked).catch(() => undefined);
  }

  /** Fetches now from every connected relay (on open, on 'online', on a timer); reconnects the others. */
  async sync(): Promise<void> {
    await Promise.all(this.links.map((l) => l.syncNow()));
  }

  status(): RelayLinkStatus[] {
    return this.links.map((l) => l.status());
  }

  close(): void {
    this.closed = true;
    for (const l of this.links) l.close();
  }

  /** @internal */
  isClosed(): boolean {
    return this.closed;
  }

  /** @internal Opens blobs and hands on the ones not seen yet; reports the rest. */
  async deliver(relay: string, blobs: readonly { cursor: string; blob: string }[], damaged: readonly string[]): Promise<void> {
    for (const cursor of damaged) this.options.onBadBlob?.({ relay, cursor, problem: 'damaged-on-relay' });
    const updates: Uint8Array[] = [];
    const ids: string[] = [];
    for (const { cursor, blob } of blobs) {
      const bytes = fromBase64(blob);
      if (bytes === null) {
        this.options.onBadBlob?.({ relay, cursor, problem: 'not-base64' });
        continue;
      }
      const opened = openBlob(this.keys.key, bytes);
      if (!opened.ok) {
        this.options.onBadBlob?.({ relay, cursor, problem: opened.problem });
        continue;
      }
      const id = appendIdFor(this.keys.key, opened.update);
      if (this.seen.has(id) || ids.includes(id)) continue;
      ids.push(id);
      updates.push(opened.update);
    }
    const last = blobs[blobs.length - 1]?.cursor ?? damaged[damaged.length - 1];
    if (updates.length > 0 && last !== undefined) await this.options.onUpdates(updates, { relay, cursor: last });
    for (const id of ids) this.remember(id);
  }

  /** @internal The relay lost what it had stored (RelayClientOptions.onLost). */
  async relayLost(relay: string): Promise<void> {
    await this.options.onLost?.(relay);
  }

  /** @internal */
  statusChanged(): void {
    this.options.onStatus?.(this.status());
  }

  private remember(id: string): void {
    this.seen.add(id);
    if (this.seen.size > SEEN_LIMIT) {
      const first = this.seen.values().next().value;
      if (first !== undefined) this.seen.delete(first);
    }
  }
}

/** One relay: a WebSocket, reconnected with backoff; its cursor; its unacknowledged appends. */
class RelayLink {
  private ws: WebSocketLike | null = null;
  private connected = false;
  private cursor = '';
  private cursorLoaded = false;
  private nextRid = 1;
  private readonly requests = new Map<string, { resolve: (f: ServerFrame) => void; timer: ReturnType<typeof setTimeout> }>();
  private readonly appends = new Map<string, PendingAppend>();
  /** rid -> append id, for the answers of appends. */
  private readonly appendRids = new Map<string, string>();
  private catchingUp: Promise<void> | null = null;
  /** Live blobs move the cursor only once a catch-up on this connection has finished: before
   *  that, blobs older than them may not have been fetched yet. */
  private caughtUp = false;
  /** The relay confirmed our subscription on this connection. */
  private subscribed = false;
  private catchUpAgain = false;
  private readonly liveBuffer: { cursor: string; blob: string }[] = [];
  /** Deliveries run one at a time, in cursor order. */
  private chain: Promise<void> = Promise.resolve();
  private backoff: number;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private pinger: ReturnType<typeof setInterval> | null = null;
  private lastError: RelayLinkStatus['lastError'];
  private misbehaving = false;
  /** The last wait after misbehaviour (0: none yet). */
  private misbehaviour = 0;
  private closed = false;

  constructor(
    private readonly client: RelayClient,
    readonly url: string,
    private readonly WS: WebSocketConstructor,
    private readonly cursors: CursorStore,
  ) {
    this.backoff = client.options.reconnect?.minMs ?? 500;
  }

  status(): RelayLinkStatus {
    const live = this.connected && this.subscribed && this.caughtUp && this.catchingUp === null;
    return {
      relay: this.url,
      connected: this.connected,
      caughtUp: this.connected && this.caughtUp,
      live,
      cursor: this.cursor,
      unacknowledged: this.appends.size,
      ...(this.lastError ? { lastError: this.lastError } : {}),
      ...(this.misbehaving ? { misbehaving: true } : {}),
    };
  }

  connect(): void {
    if (this.closed || this.ws) return;
    if (this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = null;
    }
    let ws: WebSocketLike;
    try {
      ws = new this.WS(this.url);
    } catch (e) {
      this.lastError = { code: 'closed', message: (e as Error).message };
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener('open', () => {
      if (this.ws !== ws) return;
      this.connected = true;
      this.backoff = this.client.options.reconnect?.minMs ?? 500;
      this.client.statusChanged();
      this.pinger = setInterval(() => void this.request({ t: 'ping', rid: '' }), 25_000);
      void this.onOpen();
    });
    ws.addEventListener('message', (e) => {
      if (this.ws !== ws || typeof e.data !== 'string') return;
      if (e.data.length > MAX_RELAY_FRAME_CHARS) {
        this.misbehaved(`a frame of ${e.data.length} characters (at most ${MAX_RELAY_FRAME_CHARS})`);
        return;
      }
      const frame = parseServerFrame(e.data);
      if (frame) this.onFrame(frame);
    });
    const down = (): void => {
      if (this.ws !== ws) return;
      this.dropped('the connection closed');
    };
    ws.addEventListener('close', down);
    ws.addEventListener('error', down);
  }

  /** Forget the socket, fail what waits on it, and try again later. */
  private dropped(message: string): void {
    const ws = this.ws;
    this.ws = null;
    this.connected = false;
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = null;
    try {
      ws?.close();
    } catch {
      // already closed
    }
    this.lastError = { code: 'closed', message };
    for (const [, r] of this.requests) {
      clearTimeout(r.timer);
      r.resolve({ t: 'error', code: 'unavailable', message });
    }
    this.requests.clear();
    this.appendRids.clear();
    for (const a of this.appends.values()) a.sent = false;
    this.liveBuffer.length = 0;
    this.caughtUp = false;
    this.subscribed = false;
    this.client.statusChanged();
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.client.isClosed() || this.reconnectTimer) return;
    const max = this.client.options.reconnect?.maxMs ?? 30_000;
    const delay = this.backoff * (0.5 + Math.random() / 2);
    this.backoff = Math.min(max, this.backoff * 2);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  private async onOpen(): Promise<void> {
    if (!this.cursorLoaded) {
      this.cursor = (await this.cursors.loadCursor(this.url).catch(() => undefined)) ?? '';
      this.cursorLoaded = true;
    }
    this.sendAppends();
    void this.client.flushOutbox();
    if (this.cursor !== '') await this.checkCursor();
    if (this.client.options.live !== false) await this.subscribeLive();
    await this.catchUp();
  }

  /**
   * Asks the relay for the blob at our cursor (one item after the cursor just before it). A relay
   * that has it is where we left it; one that does not lost what it had stored (a restored backup,
   * an evicted or expired room): the caller gives it the game's whole state again (onLost), and the
   * cursor starts over, so this phone fetches whatever the relay holds now. A refused or unanswered
   * probe changes nothing (the next connection asks again).
   */
  private async checkCursor(): Promise<void> {
    const ws = this.ws;
    const at = this.cursor;
    const page = await this.request({ t: 'fetch', rid: '', room: this.client.keys.room, token: this.client.keys.token, after: cursorBefore(at), limit: 1 });
    if (this.ws !== ws || !this.connected || page.t !== 'page') return;
    const first = [...page.items.map((i) => i.cursor), ...page.damaged].sort(compareCursors)[0];
    if (first === at) return;
    const step = this.chain.then(async () => {
      if (this.cursor !== at) return;
      await this.client.relayLost(this.url);
      this.cursor = '';
      await this.cursors.saveCursor(this.url, '');
    });
    this.chain = step.catch(() => undefined);
    await step.catch((e) => {
      this.lastError = { code: 'closed', message: `the relay lost what it had stored, and the game could not be queued for it again: ${(e as Error).message}` };
    });
    void this.client.flushOutbox();
  }

  /** Subscribes; a transient refusal (the relay's store unreachable, too many subscribers) is
   *  retried after the relay's hint, and then fetched past: else this connection would never see
   *  a new blob until it reconnects. */
  private async subscribeLive(): Promise<void> {
    const ws = this.ws;
    const r = await this.request({ t: 'subscribe', rid: '', room: this.client.keys.room, token: this.client.keys.token });
    if (this.ws !== ws || !this.connected) return;
    if (r.t === 'subscribed') {
      this.subscribed = true;
      this.client.statusChanged();
      return;
    }
    if (r.t !== 'error') return;
    this.noteError(r);
    if (!TRANSIENT.has(r.code)) return;
    setTimeout(() => {
      if (this.ws !== ws || !this.connected || this.closed || this.subscribed) return;
      void this.subscribeLive().then(() => (this.subscribed ? this.catchUp() : undefined));
    }, r.retryAfterMs ?? 2000);
  }

  enqueue(id: string, frameText: (rid: string) => string, waiter: AppendWaiter): void {
    const existing = this.appends.get(id);
    if (existing) {
      existing.waiters.push(waiter); // already on its way to this relay
      return;
    }
    this.appends.set(id, { id, frameText, waiters: [waiter], sent: false });
    this.sendAppends();
  }

  private sendAppends(): void {
    if (!this.connected || !this.ws) return;
    for (const a of this.appends.values()) {
      if (a.sent) continue;
      a.sent = true;
      const rid = this.rid();
      this.appendRids.set(rid, a.id);
      void this.request(null, rid, a.frameText(rid)).then((f) => this.onAppendAnswer(a, f));
    }
  }

  private onAppendAnswer(a: PendingAppend, f: ServerFrame): void {
    if (this.appends.get(a.id) !== a) return;
    if (f.t === 'ack') {
      this.appends.delete(a.id);
      for (const w of a.waiters) w.onAck(this.url);
      this.client.statusChanged();
      return;
    }
    if (f.t !== 'error') return;
    this.noteError(f);
    if (TRANSIENT.has(f.code)) {
      // Resent after the relay's hint (or on the next connection).
      setTimeout(() => {
        a.sent = false;
        this.sendAppends();
      }, f.retryAfterMs ?? 1000);
      return;
    }
    this.appends.delete(a.id);
    for (const w of a.waiters) w.onRefused(this.url, f.code, f.message);
    this.client.statusChanged();
  }

  /** Fetches pages after the cursor until the relay has no more, then hands on what came live meanwhile. */
  private catchUp(): Promise<void> {
    if (this.catchingUp) {
      this.catchUpAgain = true;
      return this.catchingUp;
    }
    const run = async (): Promise<void> => {
      do {
        this.catchUpAgain = false;
        for (;;) {
          if (!this.connected) return;
          const page = await this.request({ t: 'fetch', rid: '', room: this.client.keys.room, token: this.client.keys.token, after: this.cursor });
          if (page.t !== 'page') {
            if (page.t === 'error') {
              this.noteError(page);
              this.retryCatchUp(page.retryAfterMs ?? 2000);
            }
            return;
          }
          // A relay that says there is more without moving the cursor would be asked forever.
          if (page.more && compareCursors(page.next, this.cursor) <= 0) {
            this.misbehaved('a page that says there is more without moving the cursor');
            return;
          }
          if (page.items.length > 0 || page.damaged.length > 0) await this.handOn(page.items, page.damaged, page.next);
          if (!page.more) break;
        }
        // Blobs that came live while fetching: those past the cursor, in order.
        while (this.liveBuffer.length > 0) {
          const live = this.liveBuffer.splice(0).filter((b) => compareCursors(b.cursor, this.cursor) > 0);
          live.sort((x, y) => compareCursors(x.cursor, y.cursor));
          if (live.length > 0) await this.handOn(live, [], live[live.length - 1]!.cursor);
        }
      } while (this.catchUpAgain && this.connected);
      // Nothing can arrive between this line and the end of the catch-up (no event runs in between).
      this.caughtUp = this.connected;
      if (this.caughtUp) {
        this.misbehaving = false;
        this.misbehaviour = 0;
      }
      this.client.statusChanged();
    };
    this.catchingUp = run()
      .catch(() => this.retryCatchUp(2000))
      .finally(() => {
        this.catchingUp = null;
        this.client.statusChanged();
      });
    return this.catchingUp;
  }

  private retryCatchUp(ms: number): void {
    const ws = this.ws;
    setTimeout(() => {
      if (this.ws === ws && this.connected && !this.closed) void this.catchUp();
    }, ms);
  }

  /** Delivers, then moves and saves the cursor; a failing `onUpdates` leaves the cursor where it was. */
  private handOn(items: readonly { cursor: string; blob: string }[], damaged: readonly string[], next: string): Promise<void> {
    const step = this.chain.then(async () => {
      if (compareCursors(next, this.cursor) <= 0) return;
      await this.client.deliver(this.url, items, damaged);
      this.cursor = next;
      await this.cursors.saveCursor(this.url, next);
    });
    this.chain = step.catch(() => undefined);
    return step.catch((e) => {
      this.lastError = { code: 'closed', message: `onUpdates failed: ${(e as Error).message}` };
      throw e;
    });
  }

  private onFrame(f: ServerFrame): void {
    if (f.t === 'blob') {
      if (f.room !== this.client.keys.room) return;
      if (this.catchingUp || !this.caughtUp) {
        // Bounded: past this the blobs are dropped, and the next catch-up fetches them.
        if (this.liveBuffer.length < 10_000) this.liveBuffer.push({ cursor: f.cursor, blob: f.blob });
      } else if (compareCursors(f.cursor, this.cursor) > 0) void this.handOn([{ cursor: f.cursor, blob: f.blob }], [], f.cursor).catch(() => undefined);
      return;
    }
    if (f.t === 'error' && f.rid === undefined) {
      this.noteError(f);
      if (f.code === 'resubscribe' && this.connected) {
        this.caughtUp = false;
        this.subscribed = false;
        void this.onOpen();
      }
      return;
    }
    const rid = 'rid' in f ? f.rid : undefined;
    if (rid === undefined) return;
    const waiting = this.requests.get(rid);
    if (!waiting) return;
    this.requests.delete(rid);
    this.appendRids.delete(rid);
    clearTimeout(waiting.timer);
    waiting.resolve(f);
  }

  /** Sends a frame and resolves with its answer (an error frame if the connection drops). */
  private request(frame: ClientFrame | null, rid = this.rid(), text?: string): Promise<ServerFrame> {
    return new Promise((resolve) => {
      const ws = this.ws;
      if (!ws || !this.connected) {
        resolve({ t: 'error', code: 'unavailable', message: 'not connected' });
        return;
      }
      const timeout = this.client.options.requestTimeoutMs ?? 30_000;
      const timer = setTimeout(() => {
        this.requests.delete(rid);
        resolve({ t: 'error', code: 'unavailable', message: 'no answer' });
        if (this.ws === ws) this.dropped('a request had no answer');
      }, timeout);
      this.requests.set(rid, { resolve, timer });
      try {
        ws.send(text ?? JSON.stringify({ ...frame, rid }));
      } catch {
        this.dropped('send failed');
      }
    });
  }

  private rid(): string {
    return String(this.nextRid++);
  }

  /**
   * The relay sent what no honest one sends: marked, the connection dropped, and the next one only
   * after MISBEHAVING_BACKOFF (doubling each time, reset by a catch-up that ends well). Nothing it
   * sent is handed on.
   */
  private misbehaved(message: string): void {
    this.misbehaving = true;
    this.misbehaviour = Math.min(Math.max(this.misbehaviour * 2, MISBEHAVING_BACKOFF.minMs), MISBEHAVING_BACKOFF.maxMs);
    this.backoff = this.misbehaviour;
    const ws = this.ws;
    this.dropped(message);
    this.lastError = { code: 'misbehaving', message };
    try {
      ws?.close();
    } catch {
      // Closed already.
    }
    this.client.statusChanged();
  }

  private noteError(f: Extract<ServerFrame, { t: 'error' }>): void {
    this.lastError = { code: f.code, message: f.message };
    this.client.statusChanged();
  }

  async syncNow(): Promise<void> {
    if (!this.connected) {
      this.backoff = this.client.options.reconnect?.minMs ?? 500;
      this.connect();
      return;
    }
    await this.catchUp();
  }

  close(): void {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pinger) clearInterval(this.pinger);
    for (const [, r] of this.requests) {
      clearTimeout(r.timer);
      r.resolve({ t: 'error', code: 'unavailable', message: 'closed' });
    }
    this.requests.clear();
    const ws = this.ws;
    this.ws = null;
    this.connected = false;
    try {
      ws?.close();
    } catch {
      // already closed
    }
  }
}

/** The cursor just before `cursor` on a relay (cursors are `<ms>-<n>`, as Redis stream ids): fetching after it starts at `cursor`. */
export function cursorBefore(cursor: string): string {
  const [ms = '0', n = '0'] = cursor.split('-');
  if (BigInt(n) > 0n) return `${ms}-${BigInt(n) - 1n}`;
  if (BigInt(ms) > 0n) return `${BigInt(ms) - 1n}-999999999999999`;
  return '';
}

/** Cursors kept in memory only (tests; a phone passes its IndexedDB store). */
export function memoryCursors(initial: Record<string, string> = {}): CursorStore & { readonly saved: Map<string, string> } {
  const saved = new Map(Object.entries(initial));
  return {
    saved,
    loadCursor: async (relay) => saved.get(relay),
    saveCursor: async (relay, cursor) => void saved.set(relay, cursor),
  };
}

// --- HTTP API (service workers) ----------------------------------------------------------------

/** The HTTP API address of a relay given by its WebSocket address: ws://h/relay -> http://h/relay/v1. */
export function relayHttpUrl(relay: string): string {
  const u = new URL(relay);
  u.protocol = u.protocol === 'wss:' ? 'https:' : u.protocol === 'ws:' ? 'http:' : u.protocol;
  u.pathname = u.pathname.replace(/\/+$/, '').replace(new RegExp(`${RELAY_PATH}$`), '') + RELAY_HTTP_PATH;
  return u.href;
}

async function post(relay: string, frame: ClientFrame, fetchImpl: typeof fetch): Promise<ServerFrame> {
  const res = await fetchImpl(relayHttpUrl(relay), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(frame) });
  const parsed = parseServerFrame(await res.text());
  return parsed ?? { t: 'error', code: 'unavailable', message: `the relay answered ${res.status} with no frame` };
}

/** Appends one update over HTTP; resolves with its cursor, or rejects with RelayRefused. */
export async function httpAppend(
  relay: string,
  keys: RelayKeys,
  update: Uint8Array,
  fetchImpl: typeof fetch = fetch,
): Promise<{ cursor: string; dup: boolean }> {
  if (update.length > MAX_UPDATE_BYTES) throw new RelayRefused('too-large', `an update is at most ${MAX_UPDATE_BYTES} bytes over HTTP`);
  const f = await post(
    relay,
    { t: 'append', rid: 'http', room: keys.room, token: keys.token, id: appendIdFor(keys.key, update), blob: toBase64(sealBlob(keys.key, update)) },
    fetchImpl,
  );
  if (f.t === 'ack') return { cursor: f.cursor, dup: f.dup };
  throw new RelayRefused(f.t === 'error' ? f.code : 'unavailable', f.t === 'error' ? f.message : 'unexpected answer');
}

/** One page over HTTP: opened updates, the blobs that did not open, and where to go on from. */
export async function httpFetch(
  relay: string,
  keys: RelayKeys,
  after: string,
  fetchImpl: typeof fetch = fetch,
): Promise<{ updates: Uint8Array[]; bad: BadBlob[]; next: string; more: boolean }> {
  const f = await post(relay, { t: 'fetch', rid: 'http', room: keys.room, token: keys.token, after }, fetchImpl);
  if (f.t !== 'page') throw new RelayRefused(f.t === 'error' ? f.code : 'unavailable', f.t === 'error' ? f.message : 'unexpected answer');
  const updates: Uint8Array[] = [];
  const bad: BadBlob[] = f.damaged.map((cursor) => ({ relay, cursor, problem: 'damaged-on-relay' }));
  for (const it of f.items) {
    const bytes = fromBase64(it.blob);
    const opened = bytes === null ? null : openBlob(keys.key, bytes);
    if (opened?.ok) updates.push(opened.update);
    else bad.push({ relay, cursor: it.cursor, problem: opened ? opened.problem : 'not-base64' });
  }
  return { updates, bad, next: f.next, more: f.more };
}

// --- Web Push (pages and service workers) --------------------------------------------------------

function refusedBy(f: ServerFrame): RelayRefused {
  return new RelayRefused(f.t === 'error' ? f.code : 'unavailable', f.t === 'error' ? f.message : 'unexpected answer');
}

/** The relay's VAPID public key (base64url): `applicationServerKey` for PushManager.subscribe. */
export async function httpPushKey(relay: string, fetchImpl: typeof fetch = fetch): Promise<string> {
  const f = await post(relay, { t: 'push-key', rid: 'http' }, fetchImpl);
  if (f.t === 'push-key') return f.key;
  throw refusedBy(f);
}

/** What a relay needs of a browser's PushSubscription (`subscription.toJSON()`). */
export function pushSubscriptionKeys(json: { endpoint?: string | null; keys?: Record<string, string> | null }): PushSubscriptionKeys {
  const { endpoint } = json;
  const p256dh = json.keys?.p256dh;
  const auth = json.keys?.auth;
  if (!endpoint || !p256dh || !auth) throw new RelayRefused('bad-frame', 'a push subscription needs an endpoint and its p256dh and auth keys');
  // Browsers may give the keys in padded base64url; the relay takes it unpadded.
  return { endpoint, p256dh: p256dh.replace(/=+$/, ''), auth: auth.replace(/=+$/, '') };
}

/** Registers this device's push subscription for the game's room (the room token authorizes it).
 *  Registering the same endpoint again replaces its keys. */
export async function httpPushRegister(relay: string, keys: RelayKeys, sub: PushSubscriptionKeys, fetchImpl: typeof fetch = fetch): Promise<void> {
  const f = await post(
    relay,
    { t: 'push-register', rid: 'http', room: keys.room, token: keys.token, endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth },
    fetchImpl,
  );
  if (f.t !== 'push-registered') throw refusedBy(f);
}

/** Removes this device's subscription from the game's room; resolves with whether it was there. */
export async function httpPushUnregister(relay: string, keys: RelayKeys, endpoint: string, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  const f = await post(relay, { t: 'push-unregister', rid: 'http', room: keys.room, token: keys.token, endpoint }, fetchImpl);
  if (f.t === 'push-unregistered') return f.removed;
  throw refusedBy(f);
}

/** Largest hint `sealPushHint` takes: sealed and padded it stays within the relay's default
 *  payload limit (maxPushPayloadBytes). */
export const MAX_PUSH_HINT_BYTES = 512;

/** Seals a push's hint under the game's hint key (keys.ts): the relay and the push service see
 *  only its padded length. */
export function sealPushHint(keys: RelayKeys, hint: Uint8Array, random?: (n: number) => Uint8Array): Uint8Array {
  if (hint.length > MAX_PUSH_HINT_BYTES) throw new RelayRefused('too-large', `a push hint is at most ${MAX_PUSH_HINT_BYTES} bytes`);
  const sealed = sealBlob(pushHintKeyFor(keys.key), hint, random);
  if (sealed.length > DEFAULT_RELAY_LIMITS.maxPushPayloadBytes) throw new RelayRefused('too-large', 'a sealed push hint is over the relay payload limit');
  return sealed;
}

/** A push's payload opened with a game's keys: the hint, or null if it is not this game's. */
export function openPushHint(keys: RelayKeys, payload: Uint8Array): Uint8Array | null {
  const opened = openBlob(pushHintKeyFor(keys.key), payload);
  return opened.ok ? opened.update : null;
}

/**
 * Asks the relay to push to the game's other devices: every subscription of the room but
 * `except` (this device's own endpoint). `hint` is sealed here (`sealPushHint`); null sends an
 * empty push. Resolves with how many devices the relay is pushing to; rejects with RelayRefused
 * (rate-limited, or too-many-pushes when the room's pushes of the window are spent: retry after
 * its hint, or not at all — pushes collapse per game on each device).
 */
export async function httpNotify(relay: string, keys: RelayKeys, hint: Uint8Array | null, except?: string, fetchImpl: typeof fetch = fetch): Promise<number> {
  const payload = hint === null ? '' : toBase64(sealPushHint(keys, hint));
  const f = await post(
    relay,
    { t: 'notify', rid: 'http', room: keys.room, token: keys.token, payload, ...(except !== undefined ? { except } : {}) },
    fetchImpl,
  );
  if (f.t === 'notified') return f.devices;
  throw refusedBy(f);
}

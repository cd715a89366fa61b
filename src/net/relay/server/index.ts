// The relay's server side: a WebSocket endpoint on "/relay" (append, fetch, subscribe, push) and
// `POST /relay/v1` (append, fetch, push) for service workers, in front of a RelayStore. It checks every
// frame completely, proves each request's token against its room, enforces the limits in
// ../protocol.ts, and answers every refusal with an error frame; nothing is stored then. It never
// sees a game in clear. Node only. The protocol is written down in ../README.md.
import { randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RawData, WebSocket } from 'ws';
import { fromBase64, toBase64 } from '../../../protocol';
import { relayChannel, type Bus, type BusSubscription } from '../../signal/bus';
import { addressKey, ByteBudget, type ConnectionGuard } from '../../signal/guard';
import { roomIdForToken } from '../keys';
import { DEFAULT_RELAY_LIMITS, httpStatusFor, parseClientFrame, type ClientFrame, type ErrorCode, type RelayLimits, type ServerFrame } from '../protocol';
import { checkEndpoint, isP256Point, newVapidKeys, parseVapidKeys, pushSender, type PushOptions, type PushSender, type VapidKeys } from './push';
import { openPush, sealedEndpointId, sealPush } from './push-seal';
import { decodeLive, type RelayStore } from './store';

export interface RelayServerOptions {
  readonly store: RelayStore;
  readonly bus: Bus;
  readonly guard: ConnectionGuard;
  readonly limits?: Partial<RelayLimits>;
  /** Origins allowed to call the HTTP API from a page or service worker; default any ("*"):
   *  requests carry their token, never a cookie, so a foreign page gains nothing. */
  readonly allowOrigins?: readonly string[] | '*';
  readonly sweepIntervalMs?: number;
  /** Web Push (VAPID keys made on first use and kept in the store); left out: no push frames. */
  readonly push?: PushOptions;
  readonly log?: (line: string) => void;
}

export interface RelayStats {
  connections: number;
  appends: number;
  duplicates: number;
  fetches: number;
  blobsServed: number;
  liveSent: number;
  subscribers: number;
  notifies: number;
  pushesSent: number;
  pushesFailed: number;
  /** Subscriptions removed because the push service said they are gone (404, 410). */
  pushesGone: number;
  errors: Partial<Record<ErrorCode, number>>;
}

export interface RelayServer {
  readonly stats: RelayStats;
  readonly limits: RelayLimits;
  /** Serves a WebSocket another server upgraded on RELAY_PATH (admitted by the guard). */
  accept(ws: WebSocket, req: IncomingMessage): void;
  /** Serves `req` as a request of the HTTP API, whatever its path (a router already chose it). */
  serveHttp(req: IncomingMessage, res: ServerResponse): void;
  /** The VAPID public key, made and stored on first use; null without push. */
  pushKey(): Promise<string | null>;
  /** Resolves once every push already started has been answered (tests, shutdown). */
  pushesSettled(): Promise<void>;
  close(): Promise<void>;
}

/** Who a request comes from: one WebSocket, or one address over HTTP. */
interface Caller {
  /** The client's address (IPv6: its /64), for limits shared by its connections. */
  readonly address: string;
  readonly rooms: Set<string>;
  readonly requests: ByteBudget;
  readonly bytes: ByteBudget;
  inFlight: number;
  lastSeen: number;
}

type ErrorFrame = Extract<ServerFrame, { t: 'error' }>;

class Refusal extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/**
 * At most `n` of `items`: all of them if they are that few, else `n` chosen at random, so that a
 * room holding more subscriptions than one notify may push to (stored under a larger limit) has
 * each of its devices reached by some notifies, not the same few every time.
 */
function pickAtMost<T>(items: readonly T[], n: number): T[] {
  const out = [...items];
  if (out.length <= n) return out;
  for (let i = 0; i < n; i++) {
    const j = randomInt(i, out.length);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out.slice(0, n);
}

export function attachRelay(options: RelayServerOptions): RelayServer {
  const lim: RelayLimits = { ...DEFAULT_RELAY_LIMITS, ...options.limits };
  const { store, bus, guard } = options;
  const log = options.log ?? ((line: string) => console.warn(line));
  const stats: RelayStats = {
    connections: 0,
    appends: 0,
    duplicates: 0,
    fetches: 0,
    blobsServed: 0,
    liveSent: 0,
    subscribers: 0,
    notifies: 0,
    pushesSent: 0,
    pushesFailed: 0,
    pushesGone: 0,
    errors: {},
  };
  /** Live subscribers per room on this process, and this process's subscription to the room's feed. */
  const rooms = new Map<string, { subs: Set<WebSocket>; channel: BusSubscription }>();
  const httpCallers = new Map<string, Caller>();

  const newCaller = (address: string): Caller => ({
    address,
    rooms: new Set(),
    requests: new ByteBudget(lim.maxRequestsPerSecond, lim.burstRequests),
    bytes: guard.budget(),
    inFlight: 0,
    lastSeen: Date.now(),
  });

  const refused = (code: ErrorCode): void => {
    stats.errors[code] = (stats.errors[code] ?? 0) + 1;
  };

  const errorFrame = (code: ErrorCode, message: string, rid?: string, room?: string, retryAfterMs?: number): ErrorFrame => {
    refused(code);
    return {
      t: 'error',
      code,
      message,
      ...(rid !== undefined ? { rid } : {}),
      ...(room !== undefined ? { room } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : code === 'rate-limited' || code === 'unavailable' ? { retryAfterMs: 1000 } : {}),
    };
  };

  /** Everything a request must pass before the store sees it; returns a refusal or null. */
  const admit = (caller: Caller, size: number): ErrorFrame | null => {
    const now = Date.now();
    caller.lastSeen = now;
    if (size > lim.maxFrameBytes) return errorFrame('too-large', `a frame is at most ${lim.maxFrameBytes} bytes`);
    if (!caller.requests.take(1, now)) return errorFrame('rate-limited', `at most ${lim.maxRequestsPerSecond} requests a second`);
    if (!caller.bytes.take(size, now)) return errorFrame('rate-limited', `at most ${guard.limits.maxBytesPerSecond} bytes a second`);
    if (caller.inFlight >= lim.maxInFlight) return errorFrame('rate-limited', `at most ${lim.maxInFlight} requests waiting at once`);
    return null;
  };

  /**
   * What each client address (IPv6: its /64) stored in the last hour on this process: blob bytes
   * (an allowance refilled at maxBytesPerAddressPerHour an hour) and the rooms it appended to
   * since `since`. Shared by all its connections and HTTP requests, so a new connection brings no
   * new allowance (issue 30: 264 MiB into 375 rooms in 20 s from one address).
   */
  const writers = new Map<string, { bytes: number; last: number; rooms: Set<string>; since: number }>();
  const HOUR = 3600 * 1000;
  const writerOf = (address: string, now: number) => {
    let w = writers.get(address);
    if (!w) writers.set(address, (w = { bytes: lim.maxBytesPerAddressPerHour, last: now, rooms: new Set(), since: now }));
    w.bytes = Math.min(lim.maxBytesPerAddressPerHour, w.bytes + ((now - w.last) / HOUR) * lim.maxBytesPerAddressPerHour);
    w.last = now;
    if (now - w.since >= HOUR) {
      w.rooms.clear();
      w.since = now;
    }
    return w;
  };
  /** Refuses an append its address has no allowance for (nothing is spent by a refusal). */
  const admitWrite = (caller: Caller, room: string, size: number): void => {
    const now = Date.now();
    const w = writerOf(caller.address, now);
    if (!w.rooms.has(room) && w.rooms.size >= lim.maxRoomsPerAddressPerHour)
      throw new Refusal('too-many-rooms', `at most ${lim.maxRoomsPerAddressPerHour} rooms an hour from one address`, Math.max(1000, HOUR - (now - w.since)));
    if (w.bytes < size)
      throw new Refusal(
        'rate-limited',
        `at most ${lim.maxBytesPerAddressPerHour} bytes stored an hour from one address`,
        Math.ceil(((size - w.bytes) / lim.maxBytesPerAddressPerHour) * HOUR),
      );
  };
  const spendWrite = (caller: Caller, room: string, size: number): void => {
    const w = writerOf(caller.address, Date.now());
    w.bytes -= size;
    w.rooms.add(room);
  };

  const authorize = (caller: Caller, room: string, token: string): void => {
    if (roomIdForToken(token) !== room) throw new Refusal('forbidden', 'the token does not open this room');
    if (!caller.rooms.has(room)) {
      if (caller.rooms.size >= lim.maxRoomsPerConnection) throw new Refusal('too-many-rooms', `at most ${lim.maxRoomsPerConnection} rooms per connection`);
      caller.rooms.add(room);
    }
  };

  // --- Web Push --------------------------------------------------------------------------------

  const push = options.push;
  const allowHosts = (push?.allowHosts ?? []).map((h) => h.toLowerCase());
  const services = push?.services ?? [];
  let vapid: Promise<VapidKeys> | null = null;
  /** The relay's VAPID keys: made once and kept in the store, so every process (and every
   *  restart) signs with the same key the browsers subscribed with. */
  const vapidKeys = (): Promise<VapidKeys> => {
    if (!vapid) {
      const p = (push?.vapid !== undefined ? Promise.resolve(push.vapid) : store.sharedValue('vapid', newVapidKeys)).then((text) => {
        const keys = parseVapidKeys(text);
        if (!keys) throw new Error('the stored VAPID keys are damaged (pushes stay off rather than make new keys every subscription would have to renew)');
        return keys;
      });
      vapid = p;
      p.catch(() => {
        if (vapid === p) vapid = null; // asked again next time
      });
    }
    return vapid;
  };
  let sender: Promise<PushSender> | null = null;
  const getSender = (): Promise<PushSender> => (sender ??= vapidKeys().then((k) => pushSender(k, push)));
  const notifyBudgets = new Map<string, { budget: ByteBudget; last: number }>();
  const inFlightPushes = new Set<Promise<void>>();
  const MAX_PUSHES_IN_FLIGHT = 2000;

  const sendPushes = async (
    room: string,
    payload: Uint8Array | null,
    targets: readonly { readonly sub: { endpoint: string; p256dh: string; auth: string }; readonly stored: string }[],
  ): Promise<void> => {
    const s = await getSender();
    await Promise.all(
      targets.map(async ({ sub, stored }) => {
        const r = await s.send(sub, payload, room, Math.max(0, Math.floor(lim.pushTtlSeconds)));
        if (r.outcome === 'sent') stats.pushesSent++;
        else if (r.outcome === 'failed') {
          stats.pushesFailed++;
          log(`relay: a push in room ${room} failed: ${r.detail ?? ''}`);
        } else {
          stats.pushesGone++;
          await store.removePush(room, stored).catch((e) => log(`relay: could not remove a gone push subscription: ${(e as Error).message}`));
        }
      }),
    );
  };

  const servePush = async (frame: ClientFrame & { t: 'push-key' | 'push-register' | 'push-unregister' | 'notify' }, caller: Caller): Promise<ServerFrame> => {
    if (!push) throw new Refusal('no-push', 'this relay does not send pushes');
    if (frame.t === 'push-key') return { t: 'push-key', rid: frame.rid, key: (await vapidKeys()).publicKey };
    authorize(caller, frame.room, frame.token);
    switch (frame.t) {
      case 'push-register': {
        const checked = checkEndpoint(frame.endpoint, allowHosts, services);
        if (!checked.ok) throw new Refusal('endpoint-refused', checked.reason);
        if (!isP256Point(frame.p256dh)) throw new Refusal('bad-frame', 'p256dh is not a point on P-256');
        // Sealed under the room's token (push-seal.ts): the disk alone links no two rooms to one device.
        const sub = { endpoint: checked.endpoint, p256dh: frame.p256dh, auth: frame.auth };
        await store.removePush(frame.room, checked.endpoint); // its record from before sealing, if any
        const r = await store.addPush(frame.room, sealPush(frame.token, sub), lim.maxPushSubscriptionsPerRoom);
        if (!r.ok) throw new Refusal(r.code, r.message);
        return { t: 'push-registered', rid: frame.rid, room: frame.room };
      }
      case 'push-unregister': {
        const checked = checkEndpoint(frame.endpoint, allowHosts, services);
        const plain = checked.ok ? checked.endpoint : frame.endpoint;
        const sealed = await store.removePush(frame.room, sealedEndpointId(frame.token, plain));
        const removed = (await store.removePush(frame.room, plain)) || sealed;
        return { t: 'push-unregistered', rid: frame.rid, room: frame.room, removed };
      }
      case 'notify': {
        const payload = frame.payload === '' ? null : fromBase64(frame.payload);
        if (payload && payload.length > lim.maxPushPayloadBytes) throw new Refusal('too-large', `a push payload is at most ${lim.maxPushPayloadBytes} bytes`);
        const now = Date.now();
        let b = notifyBudgets.get(caller.address);
        if (!b)
          notifyBudgets.set(
            caller.address,
            (b = { budget: new ByteBudget(lim.maxNotifiesPerAddress / (lim.pushWindowMs / 1000), lim.maxNotifiesPerAddress), last: now }),
          );
        b.last = now;
        if (!b.budget.take(1, now)) {
          throw new Refusal(
            'rate-limited',
            `at most ${lim.maxNotifiesPerAddress} notifies per ${lim.pushWindowMs / 1000} s from one address`,
            Math.ceil(lim.pushWindowMs / lim.maxNotifiesPerAddress),
          );
        }
        if (inFlightPushes.size >= MAX_PUSHES_IN_FLIGHT) throw new Refusal('rate-limited', 'the relay is sending too many pushes; retry later');
        const { count, resetMs } = await store.countNotify(frame.room, lim.pushWindowMs);
        if (count > lim.maxNotifiesPerRoom)
          throw new Refusal('rate-limited', `at most ${lim.maxNotifiesPerRoom} notifies per room per ${lim.pushWindowMs / 1000} s`, Math.max(1000, resetMs));
        const except = frame.except === undefined ? null : checkEndpoint(frame.except, allowHosts, services);
        const all = (await store.listPush(frame.room)).flatMap((stored) => {
          const sub = openPush(frame.token, stored);
          return sub === null || (except?.ok && sub.endpoint === except.endpoint) ? [] : [{ sub, stored: stored.endpoint }];
        });
        let targets = pickAtMost(all, Math.max(0, Math.floor(lim.maxPushesPerNotify)));
        if (targets.length > 0) {
          // The room's pushes in the window, shared by every process of the store: a room someone
          // notifies from many addresses still makes a bounded number of POSTs per window.
          const { granted, resetMs } = await store.reservePushes(frame.room, lim.pushWindowMs, targets.length, lim.maxPushesPerRoom);
          if (granted === 0)
            throw new Refusal('too-many-pushes', `at most ${lim.maxPushesPerRoom} pushes per room per ${lim.pushWindowMs / 1000} s`, Math.max(1000, resetMs));
          targets = pickAtMost(targets, granted);
        }
        await getSender(); // the keys are there before we say the pushes are on their way
        stats.notifies++;
        if (targets.length > 0) {
          const job = sendPushes(frame.room, payload, targets).catch((e) => log(`relay: pushes in room ${frame.room} failed: ${(e as Error).message}`));
          inFlightPushes.add(job);
          void job.finally(() => inFlightPushes.delete(job));
        }
        return { t: 'notified', rid: frame.rid, room: frame.room, devices: targets.length };
      }
    }
  };

  /** Everything but ping and the live feed, the same over WebSocket and HTTP. */
  const serve = async (
    frame: ClientFrame & { t: 'append' | 'fetch' | 'push-key' | 'push-register' | 'push-unregister' | 'notify' },
    caller: Caller,
  ): Promise<ServerFrame> => {
    if (frame.t !== 'append' && frame.t !== 'fetch') return servePush(frame, caller);
    authorize(caller, frame.room, frame.token);
    if (frame.t === 'append') {
      const blob = fromBase64(frame.blob);
      if (blob === null) throw new Refusal('bad-frame', 'blob must be base64url');
      if (blob.length > lim.maxBlobBytes) throw new Refusal('too-large', `a blob is at most ${lim.maxBlobBytes} bytes`);
      admitWrite(caller, frame.room, blob.length);
      const r = await store.append(frame.room, frame.id, blob);
      if (!r.ok) throw new Refusal(r.code, r.message);
      if (r.dup) stats.duplicates++;
      else {
        stats.appends++;
        spendWrite(caller, frame.room, blob.length);
      }
      return { t: 'ack', rid: frame.rid, room: frame.room, cursor: r.cursor, dup: r.dup };
    }
    const limit = Math.min(frame.limit ?? lim.maxFetchItems, lim.maxFetchItems);
    const page = await store.fetch(frame.room, frame.after, limit, lim.maxFetchBytes);
    stats.fetches++;
    stats.blobsServed += page.items.length;
    return {
      t: 'page',
      rid: frame.rid,
      room: frame.room,
      items: page.items.map((it) => ({ cursor: it.cursor, blob: toBase64(it.blob) })),
      next: page.next,
      more: page.more,
      damaged: page.damaged,
    };
  };

  const refusalFrame = (e: unknown, rid: string, room?: string): ErrorFrame => {
    if (e instanceof Refusal) return errorFrame(e.code, e.message, rid, room, e.retryAfterMs);
    log(`relay: store error: ${(e as Error).message}`);
    return errorFrame('unavailable', 'the relay cannot reach its store; retry later', rid, room);
  };

  // --- live feed -----------------------------------------------------------------------------

  const deliver = (room: string, message: Buffer): void => {
    const r = rooms.get(room);
    const live = decodeLive(message);
    if (!r || !live) return;
    const text = JSON.stringify({ t: 'blob', room, cursor: live.cursor, blob: toBase64(live.blob) });
    for (const ws of [...r.subs]) if (guard.send(ws, text, lim.maxBufferedBytes)) stats.liveSent++;
  };

  const unsubscribe = (ws: WebSocket, room: string): boolean => {
    const r = rooms.get(room);
    if (!r || !r.subs.delete(ws)) return false;
    stats.subscribers--;
    if (r.subs.size === 0) {
      rooms.delete(room);
      r.channel.unsubscribe();
    }
    return true;
  };

  // The bus lost messages (Redis reconnected): every subscriber must fetch what it may have missed.
  const stopGap = bus.onGap(() => {
    for (const [room, r] of [...rooms]) {
      const text = JSON.stringify(errorFrame('resubscribe', 'the live feed had a gap: subscribe again and fetch since your cursor', undefined, room));
      for (const ws of [...r.subs]) {
        guard.send(ws, text, lim.maxBufferedBytes);
        unsubscribe(ws, room);
      }
    }
  });

  // --- WebSocket ----------------------------------------------------------------------------

  /** Every connection this relay serves, whoever upgraded it (close() ends them). */
  const live = new Set<WebSocket>();
  const accept = (ws: WebSocket, req: IncomingMessage): void => {
    stats.connections++;
    live.add(ws);
    const caller = newCaller(addressKey(req, guard.limits.trustProxy));
    const mine = new Set<string>();
    let strikes = 0;
    let alive = true;
    let inRoomAt = Date.now();
    const pinger = setInterval(
      () => {
        if (!alive) return ws.terminate();
        // Used no room for guard.limits.roomlessMs: closed (an idle socket would hold a slot for ever).
        if (caller.rooms.size > 0) inRoomAt = Date.now();
        else if (Date.now() - inRoomAt >= guard.limits.roomlessMs) return ws.close(1008, 'no room');
        alive = false;
        ws.ping();
      },
      Math.min(30_000, Math.max(1_000, Math.floor(guard.limits.roomlessMs / 2))),
    );
    ws.on('pong', () => (alive = true));
    // ws closes the connection on a frame over its cap or one no client sends: counted by which.
    ws.on('error', (e) => refused((e as { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? 'too-large' : 'bad-frame'));
    ws.on('close', () => {
      clearInterval(pinger);
      live.delete(ws);
      for (const room of [...mine]) unsubscribe(ws, room);
      stats.connections--;
    });
    const reply = (frame: ServerFrame): void => {
      if (frame.t === 'error' && frame.code === 'rate-limited') {
        // A client that keeps going past its limits is cut off rather than answered forever.
        if (++strikes > 2 * lim.burstRequests) ws.close(1008, 'rate limit');
      } else strikes = 0;
      guard.send(ws, JSON.stringify(frame), lim.maxBufferedBytes);
    };

    ws.on('message', (data: RawData, isBinary: boolean) => {
      const buf = data as Buffer;
      if (buf.length > 2 * lim.maxFrameBytes) {
        // Over twice the limit: closed, as the relay's own WebSocket server does by itself (a
        // server shared with signaling may take larger frames).
        refused('too-large');
        ws.close(1009, 'frame too large');
        ws.removeAllListeners('message');
        return;
      }
      const early = admit(caller, buf.length);
      if (early) {
        const rid = (/"rid"\s*:\s*"([A-Za-z0-9_.:-]{1,64})"/.exec(buf.subarray(0, 512).toString('latin1')) ?? [])[1];
        return reply(rid !== undefined ? { ...early, rid } : early);
      }
      if (isBinary) return reply(errorFrame('bad-frame', 'frames are JSON text'));
      const parsed = parseClientFrame(buf.toString());
      if (!parsed.ok) return reply(errorFrame('bad-frame', parsed.message, parsed.rid));
      const frame = parsed.frame;
      switch (frame.t) {
        case 'ping':
          return reply({ t: 'pong', rid: frame.rid });
        case 'unsubscribe':
          unsubscribe(ws, frame.room);
          mine.delete(frame.room);
          return reply({ t: 'unsubscribed', rid: frame.rid, room: frame.room });
        case 'subscribe': {
          try {
            authorize(caller, frame.room, frame.token);
          } catch (e) {
            return reply(refusalFrame(e, frame.rid, frame.room));
          }
          if (rooms.get(frame.room)?.subs.has(ws)) return reply({ t: 'subscribed', rid: frame.rid, room: frame.room });
          let r = rooms.get(frame.room);
          if (r && r.subs.size >= lim.maxSubscribersPerRoom) {
            return reply(errorFrame('too-many-subscribers', `at most ${lim.maxSubscribersPerRoom} subscribers per room`, frame.rid, frame.room));
          }
          if (!r) {
            const room = frame.room;
            r = { subs: new Set(), channel: bus.subscribe(relayChannel(room), (m) => deliver(room, m)) };
            rooms.set(room, r);
          }
          r.subs.add(ws);
          mine.add(frame.room);
          stats.subscribers++;
          caller.inFlight++;
          // "subscribed" only once the feed is live: whatever is appended after it reaches this client.
          void r.channel.ready
            .then(
              () => reply({ t: 'subscribed', rid: frame.rid, room: frame.room }),
              (e) => {
                unsubscribe(ws, frame.room);
                mine.delete(frame.room);
                reply(refusalFrame(e, frame.rid, frame.room));
              },
            )
            .finally(() => caller.inFlight--);
          return;
        }
        default: {
          caller.inFlight++;
          void serve(frame, caller)
            .then(reply, (e) => reply(refusalFrame(e, frame.rid, 'room' in frame ? frame.room : undefined)))
            .finally(() => caller.inFlight--);
        }
      }
    });
  };

  // --- HTTP ---------------------------------------------------------------------------------

  const allowed = (origin: string | undefined): string | null => {
    if (options.allowOrigins === undefined || options.allowOrigins === '*') return '*';
    return origin !== undefined && options.allowOrigins.includes(origin) ? origin : null;
  };

  const respond = (req: IncomingMessage, res: ServerResponse, status: number, body: ServerFrame | null): void => {
    const origin = allowed(req.headers.origin);
    const headers: Record<string, string> = { 'cache-control': 'no-store', vary: 'Origin' };
    if (origin !== null) {
      headers['access-control-allow-origin'] = origin;
      headers['access-control-allow-methods'] = 'POST, OPTIONS';
      headers['access-control-allow-headers'] = 'content-type';
      headers['access-control-max-age'] = '600';
    }
    if (body === null) {
      res.writeHead(status, headers);
      res.end();
      return;
    }
    headers['content-type'] = 'application/json';
    res.writeHead(status, headers);
    res.end(JSON.stringify(body));
  };

  /** At most this many HTTP callers are remembered: past it the least recently seen is forgotten
   *  (a stranger rotating addresses would otherwise grow the map for ten minutes at a time). */
  const MAX_HTTP_CALLERS = 50_000;

  const serveHttp = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method === 'OPTIONS') {
      respond(req, res, 204, null);
      return;
    }
    if (req.method !== 'POST') {
      respond(req, res, 405, errorFrame('bad-frame', 'POST a frame (append, fetch, push-key, push-register, push-unregister or notify) as JSON'));
      return;
    }
    const key = addressKey(req, guard.limits.trustProxy);
    let caller = httpCallers.get(key);
    if (caller)
      httpCallers.delete(key); // re-inserted last: the map's order is least recently seen first
    else caller = newCaller(key);
    httpCallers.set(key, caller);
    if (httpCallers.size > MAX_HTTP_CALLERS) {
      for (const [k, old] of httpCallers) {
        if (httpCallers.size <= MAX_HTTP_CALLERS) break;
        if (old.inFlight === 0) httpCallers.delete(k);
      }
    }
    const c = caller;
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (status: number, frame: ServerFrame): void => {
      if (done) return;
      done = true;
      respond(req, res, status, frame);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > lim.maxFrameBytes) {
        finish(413, errorFrame('too-large', `a frame is at most ${lim.maxFrameBytes} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', () => undefined);
    req.on('end', () => {
      if (done) return;
      const early = admit(c, size);
      if (early) return finish(httpStatusFor(early.code), early);
      const parsed = parseClientFrame(Buffer.concat(chunks).toString());
      if (!parsed.ok) return finish(400, errorFrame('bad-frame', parsed.message, parsed.rid));
      const frame = parsed.frame;
      if (frame.t === 'ping' || frame.t === 'subscribe' || frame.t === 'unsubscribe')
        return finish(400, errorFrame('bad-frame', 'the HTTP API takes append, fetch and the push frames; subscribe over the WebSocket', frame.rid));
      c.inFlight++;
      void serve(frame, c)
        .then(
          (ok) => finish(200, ok),
          (e) => {
            const f = refusalFrame(e, frame.rid, 'room' in frame ? frame.room : undefined);
            finish(httpStatusFor(f.code), f);
          },
        )
        .finally(() => c.inFlight--);
    });
  };

  // Forget HTTP callers idle for ten minutes, and expire idle rooms.
  const housekeeping = setInterval(() => {
    const cutoff = Date.now() - 10 * 60_000;
    for (const [k, c] of httpCallers) if (c.lastSeen < cutoff && c.inFlight === 0) httpCallers.delete(k);
    const windowAgo = Date.now() - lim.pushWindowMs;
    for (const [k, b] of notifyBudgets) if (b.last < windowAgo) notifyBudgets.delete(k);
    // A writer idle for an hour has its whole allowance back: forgotten.
    for (const [k, w] of writers) if (w.last < Date.now() - HOUR) writers.delete(k);
  }, 60_000);
  housekeeping.unref();
  const sweeper = setInterval(
    () =>
      void store.sweep().then(
        (n) => n > 0 && log(`relay: expired ${n} idle room(s)`),
        (e) => log(`relay: sweep failed: ${(e as Error).message}`),
      ),
    options.sweepIntervalMs ?? Math.min(lim.roomIdleMs, 60 * 60_000),
  );
  sweeper.unref();

  return {
    stats,
    limits: lim,
    accept,
    serveHttp,
    pushKey: async () => (push ? (await vapidKeys()).publicKey : null),
    pushesSettled: async () => {
      while (inFlightPushes.size > 0) await Promise.all([...inFlightPushes]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        void sender?.then(
          (s) => s.close(),
          () => undefined,
        );
        clearInterval(housekeeping);
        clearInterval(sweeper);
        stopGap();
        for (const ws of live) ws.terminate();
        for (const r of rooms.values()) r.channel.unsubscribe();
        rooms.clear();
        resolve();
      }),
  };
}

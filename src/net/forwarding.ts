// y-webrtc sends every doc update to every peer, including updates it just received from a peer:
// in a mesh of seven phones each entry crossed each link about twice (≈ 51 KB sent per phone per
// phase for 8.4 KB of entries). Here each peer tells its peers which peers it is connected to
// (a `neighbors` message, on every change), and an update received from peer X is forwarded to
// peer Y only if Y is not connected to X (by Y's own word), and never back to X. Updates this
// phone made, carried again, or got from the relay or another tab still go to every peer.
//
// Why every peer still gets every update (with true announcements): by induction on the moment a
// phone has the update. Its author sends it to all its peers. A phone that got it from S sends it
// to each peer Y except those connected to S, and S, having had it earlier, got it to all of S's
// peers, Y among them. In a full mesh nobody forwards: each entry crosses each link once.
// Announcements only decide what is sent to the peer that made them, so a false one (a peer
// claiming links it lacks) costs that peer only. A stale one (a link that just closed) can leave a
// peer without an update until the next sync handshake or anti-entropy round (each resync, and
// every reconnection), which compare the whole state: late, never lost.
import type { WebrtcProvider } from 'y-webrtc';
import * as Y from 'yjs';
import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';

/** The message type (beside y-webrtc's 0-4 and anti-entropy's 100). */
export const MESSAGE_NEIGHBORS = 101;
/** At most this many peer ids in one announcement, each at most MAX_ID_CHARS long. */
export const MAX_NEIGHBORS = 256;
const MAX_ID_CHARS = 128;

interface Conn {
  readonly peer?: unknown;
  readonly remotePeerId?: string;
  readonly connected: boolean;
  readonly closed: boolean;
}

interface RoomLike {
  webrtcConns: Map<string, Conn>;
  _docUpdateHandler: (update: Uint8Array, origin: unknown) => void;
  bcconnected: boolean;
  readonly doc: {
    on(e: 'update', f: (u: Uint8Array, o: unknown) => void): void;
    off(e: 'update', f: (u: Uint8Array, o: unknown) => void): void;
    once(e: 'destroy', f: () => void): void;
  };
}

/** What each peer (by its y-webrtc connection) says it is connected to. */
const announced = new WeakMap<object, ReadonlySet<string>>();
const wrappedRooms = new WeakSet<object>();

export function neighborsMessage(ids: readonly string[]): Uint8Array {
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, MESSAGE_NEIGHBORS);
  const list = [...new Set(ids)].slice(0, MAX_NEIGHBORS);
  encoding.writeVarUint(e, list.length);
  for (const id of list) encoding.writeVarString(e, id);
  return encoding.toUint8Array(e);
}

/** The peer ids of a `neighbors` message, or null if it is malformed or over the limits. */
export function parseNeighbors(bytes: Uint8Array): Set<string> | null {
  try {
    const d = decoding.createDecoder(bytes);
    if (decoding.readVarUint(d) !== MESSAGE_NEIGHBORS) return null;
    const n = decoding.readVarUint(d);
    if (n > MAX_NEIGHBORS) return null;
    const ids = new Set<string>();
    for (let i = 0; i < n; i++) {
      const id = decoding.readVarString(d);
      if (id.length > MAX_ID_CHARS) return null;
      ids.add(id);
    }
    return decoding.hasContent(d) ? null : ids;
  } catch {
    return null;
  }
}

/** Records a peer's announcement (by its connection). Returns false if malformed. */
export function receiveNeighbors(conn: object, bytes: Uint8Array): boolean {
  const ids = parseNeighbors(bytes);
  if (ids === null) return false;
  announced.set(conn, ids);
  return true;
}

function openConns(room: RoomLike): Conn[] {
  return [...room.webrtcConns.values()].filter((c) => c.connected && !c.closed);
}

/** Tells every open connection which peers this phone is connected to. Returns how many it told. */
export function announceNeighbors(provider: WebrtcProvider): number {
  const room = provider.room as unknown as RoomLike | null;
  if (room === null) return 0;
  const conns = openConns(room);
  const message = neighborsMessage(conns.map((c) => c.remotePeerId ?? '').filter((id) => id !== ''));
  let sent = 0;
  for (const c of conns) {
    try {
      (c.peer as { send(m: Uint8Array): void }).send(message);
      sent++;
    } catch {
      // A channel closing under us.
    }
  }
  return sent;
}

/** The connections an update from `origin` need not be sent to: the sender, and its announced neighbors. */
export function skippedFor(room: RoomLike, origin: unknown): Set<Conn> {
  const skip = new Set<Conn>();
  if (typeof origin !== 'object' || origin === null) return skip;
  const from = [...room.webrtcConns.values()].find((c) => c === origin);
  if (from === undefined) return skip;
  skip.add(from);
  const sender = from.remotePeerId;
  if (sender === undefined) return skip;
  for (const c of room.webrtcConns.values()) {
    if (c !== from && announced.get(c)?.has(sender) === true) skip.add(c);
  }
  return skip;
}

/** A tab's posts to the other tabs of its browser wait until no update came for this long, and at
 *  most TAB_POST_MAX_MS after the first that waits; then they go as one merged update. */
export const TAB_POST_QUIET_MS = 250;
export const TAB_POST_MAX_MS = 2000;

/**
 * Puts the forwarding rule in front of y-webrtc's doc-update broadcast, and batches its
 * BroadcastChannel half. Peers get each update at once (minus the forwarding rule). The other tabs
 * of this browser get every update too, even with no other tab heard (keeping a lone tab quiet left
 * two tabs that missed each other's announcement never syncing: tests/e2e/net-sync, 2 of 5
 * fresh-clone runs), but merged (Y.mergeUpdates) into one post once updates stop coming for
 * TAB_POST_QUIET_MS (at most TAB_POST_MAX_MS after the first that waits), and at once when the page
 * is hidden or left: y-webrtc encrypted and posted each update on its own, about 40 ms of a phone's
 * processor time per phase (bench/phase.ts profile) spent mostly during the rounds after the last
 * seal, for tabs that usually do not exist. Another tab is one of the same player's, behind by at
 * most the bound; its own links, anti-entropy and the shared store carry the same entries anyway.
 * Call once the room exists (after the provider's first 'status' event).
 */
export function limitForwarding(provider: WebrtcProvider): void {
  const room = provider.room as unknown as RoomLike | null;
  if (room === null || wrappedRooms.has(room)) return;
  wrappedRooms.add(room);
  const original = room._docUpdateHandler;
  let waiting: Uint8Array[] = [];
  let quiet: ReturnType<typeof setTimeout> | null = null;
  let bound: ReturnType<typeof setTimeout> | null = null;
  const postToTabs = (): void => {
    if (quiet !== null) clearTimeout(quiet);
    if (bound !== null) clearTimeout(bound);
    quiet = bound = null;
    if (waiting.length === 0) return;
    const merged = waiting.length === 1 ? waiting[0]! : Y.mergeUpdates(waiting);
    waiting = [];
    if (!room.bcconnected) return; // disconnected meanwhile: its next connect() posts the whole state
    const all = room.webrtcConns;
    room.webrtcConns = new Map(); // the channel alone
    try {
      original(merged, null);
    } finally {
      room.webrtcConns = all;
    }
  };
  const limited = (update: Uint8Array, origin: unknown): void => {
    const skip = skippedFor(room, origin);
    const all = room.webrtcConns;
    const tabs = room.bcconnected;
    // y-webrtc's broadcast walks room.webrtcConns: show it only the connections that may lack it,
    // and keep its channel half for the batch.
    if (skip.size > 0) room.webrtcConns = new Map([...all].filter(([, c]) => !skip.has(c)));
    room.bcconnected = false;
    try {
      original(update, origin);
    } finally {
      room.webrtcConns = all;
      room.bcconnected = tabs;
    }
    if (!tabs) return;
    waiting.push(update);
    if (quiet !== null) clearTimeout(quiet);
    quiet = setTimeout(postToTabs, TAB_POST_QUIET_MS);
    bound ??= setTimeout(postToTabs, TAB_POST_MAX_MS);
  };
  room._docUpdateHandler = limited;
  // y-webrtc registers the handler on connect() and removes it on disconnect() by this property.
  if (room.bcconnected) {
    room.doc.off('update', original);
    room.doc.on('update', limited);
  }
  type Target = { addEventListener(e: string, f: () => void): void; removeEventListener(e: string, f: () => void): void };
  const win = (globalThis as { window?: Target }).window;
  const docu = (globalThis as { document?: Target & { visibilityState?: string } }).document;
  const onHidden = (): void => {
    if (docu?.visibilityState === 'hidden') postToTabs();
  };
  win?.addEventListener('pagehide', postToTabs);
  docu?.addEventListener('visibilitychange', onHidden);
  room.doc.once('destroy', () => {
    postToTabs();
    win?.removeEventListener('pagehide', postToTabs);
    docu?.removeEventListener('visibilitychange', onHidden);
  });
}

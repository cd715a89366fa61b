// Drives src/net (with src/store underneath) in a real browser for tests/e2e/net-*.test.ts and
// bench/net.ts. The page joins the game named by the invite in its URL fragment, restores the log
// from IndexedDB first, then connects; window.net lets the test act and observe.
import { appendMessages, connectGame, connectOptionsFor, createGameDoc, onLog, parseInvite, readLog, type SyncStatus } from '../../../../src/net';
import { openPactoStore, persistDoc } from '../../../../src/store';

/** Counts what this page's data channels send, below y-webrtc. */
const connections: RTCPeerConnection[] = [];
function CountedPeerConnection(config?: RTCConfiguration): RTCPeerConnection {
  const pc = new RTCPeerConnection(config);
  connections.push(pc);
  return pc;
}

async function dataChannelBytesSent(): Promise<number> {
  let total = 0;
  for (const pc of connections) {
    const stats = await pc.getStats();
    stats.forEach((s: { type: string; bytesSent?: number }) => {
      if (s.type === 'data-channel') total += s.bytesSent ?? 0;
    });
  }
  return total;
}

function message(tag: string, i: number, size: number): Uint8Array {
  const head = new TextEncoder().encode(`${tag}:${i}:`);
  const out = new Uint8Array(Math.max(size, head.length));
  out.set(head);
  for (let j = head.length; j < out.length; j++) out[j] = (i * 31 + j) & 0xff;
  return out;
}

async function digest(log: readonly Uint8Array[]): Promise<string> {
  const parts: number[] = [];
  for (const m of log) parts.push(...new TextEncoder().encode(`${m.length}:`), ...m);
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(parts)));
  return `${log.length}/${Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

const invite = parseInvite(location.href);
const params = new URLSearchParams(location.search);
const doc = createGameDoc();
const store = await openPactoStore('pacto-net-test');
const persisted = persistDoc(store, invite.gameId, doc);
await persisted.ready;
const restored = readLog(doc).length;

const connection = connectGame(doc, {
  ...connectOptionsFor(invite, {}, location),
  resyncIntervalMs: Number(params.get('resync') ?? 5000),
  // Only for showing what happens without the split.
  ...(params.has('max') ? { maxMessageBytes: Number(params.get('max')) } : {}),
  wrtc: { RTCPeerConnection: CountedPeerConnection, RTCSessionDescription, RTCIceCandidate },
});

/** The last status the connection pushed, as a UI would hold it. */
let notified: SyncStatus = connection.status();
connection.onStatus((s) => (notified = s));

/** Wall-clock time at which the log first reached each length (pages of one machine share the clock). */
const reachedAt = new Map<number, number>();
onLog(doc, () => {
  const n = readLog(doc).length;
  if (!reachedAt.has(n)) reachedAt.set(n, Date.now());
});

const net = {
  restored,
  roomName: connection.roomName,
  count: (): number => readLog(doc).length,
  digest: (): Promise<string> => digest(readLog(doc)),
  /** Appends `count` messages in one transaction; returns the wall-clock time of the append. */
  append: (count: number, size: number, tag: string): number => {
    appendMessages(
      doc,
      Array.from({ length: count }, (_, i) => message(tag, i, size)),
    );
    return Date.now();
  },
  flush: (): Promise<void> => persisted.flush(),
  status: (): SyncStatus => connection.status(),
  notified: (): SyncStatus => notified,
  disconnect: (): void => connection.disconnect(),
  connect: (): void => connection.connect(),
  /** When the log first had at least `count` messages, or null if not yet. */
  reachedAt: (count: number): number | null => {
    let best: number | null = null;
    for (const [n, t] of reachedAt) if (n >= count && (best === null || t < best)) best = t;
    return best;
  },
  bytesSent: dataChannelBytesSent,
};

(window as unknown as { net: typeof net }).net = net;
document.getElementById('state')!.textContent = `ready: ${restored} restored`;

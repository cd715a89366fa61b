// One phone of bench/phase.ts: holds one power, connects to the game's room with the real net layer
// and behaves as an honest phone with the real protocol: seals random legal orders when told to,
// takes the automatic steps (FINAL, LOCK, REVEAL) as soon as ballotDuties says so, acknowledges
// each resolved phase. window.phone lets the
// bench act and observe; times are Date.now() (every page of the run shares the machine's clock).
import { appendMessage, appendMessages, connectGame, connectOptionsFor, createGameDoc, onLog, parseInvite, readLog } from '../../../../src/net';
import {
  acknowledge,
  ballotDuties,
  cachedVerifier,
  checkSignature,
  commitTurn,
  createIdentity,
  finalOrders,
  fromBase64,
  lockBallot,
  openMessage,
  reduceLog,
  revealBallot,
  type GameView,
  type Identity,
  type Message,
} from '../../../../src/protocol';
import { randomOrders, type Power } from '../../../../src/rules';
import { picker } from '../../../../src/util/prng';

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

const invite = parseInvite(location.href);
const gameId = invite.gameId;
const doc = createGameDoc();
const connection = connectGame(doc, {
  ...connectOptionsFor(invite, {}, location),
  wrtc: { RTCPeerConnection: CountedPeerConnection, RTCSessionDescription, RTCIceCandidate },
});

interface Seat {
  readonly me: Identity;
  readonly power: Power;
}
let seat: Seat | undefined;
let seq = 1_000;
/** commit id -> secret; phase -> this phone's commits. */
const secrets = new Map<string, bigint>();
const mine = new Map<string, string>();
const opened = new Map<string, Message>();
const seen = new WeakSet<Uint8Array>();
const acked = new Set<string>();
const phasesAt = new Map<number, number>();
let view: GameView | undefined;
const errors: string[] = [];
/** Where a phase's time goes: reducing on this page, checking signatures, and when it revealed (phase key -> Date.now()). */
let reduceMs = 0;
let verifyMs = 0;
let reductions = 0;
const revealedAt = new Map<string, number>();
/** The protocol's default check (Ed25519 behind a cache), timed. */
const verifier = cachedVerifier((m, s, k) => {
  const t0 = performance.now();
  const ok = checkSignature(m, s, k);
  verifyMs += performance.now() - t0;
  return ok;
});

function bytesOf(text: string): Uint8Array {
  const b = fromBase64(text);
  if (b === null) throw new Error('phone: bad base64 from the bench');
  return b;
}

const stamp = () => ({ seq: seq++, time: Date.now() });

/** What an honest phone does whenever the log changes; appends re-enter through onLog, hence the loop. */
let busy = false;
function react(): void {
  if (busy) return;
  busy = true;
  try {
    for (let again = true; again; ) {
      again = false;
      const t0 = performance.now();
      view = reduceLog(gameId, readLog(doc), { verifier });
      reduceMs += performance.now() - t0;
      reductions++;
      if (!phasesAt.has(view.phases.length)) phasesAt.set(view.phases.length, Date.now());
      if (seat === undefined) return;
      const c = view.current;
      if (c !== undefined) {
        for (const e of readLog(doc)) {
          if (seen.has(e)) continue;
          seen.add(e);
          const o = openMessage(e, verifier);
          if (o.ok) opened.set(o.message.id, o.message);
        }
        const due = ballotDuties(view, seat.me.id);
        const commit = mine.get(c.key);
        if (due.finals.length > 0 && commit !== undefined) appendMessage(doc, finalOrders(seat.me, gameId, c.key, seat.power, commit, stamp()).bytes);
        else if (due.lock) appendMessage(doc, lockBallot(seat.me, gameId, view, opened, stamp()).bytes);
        else if (due.reveal) {
          revealedAt.set(c.key, Date.now());
          appendMessage(doc, revealBallot(seat.me, gameId, view, opened, (id) => secrets.get(id) ?? null, stamp()).bytes);
        }
        if ((due.finals.length > 0 && commit !== undefined) || due.lock || due.reveal) {
          again = true;
          continue;
        }
      }
      const last = view.phases.at(-1);
      if (last !== undefined && !acked.has(last.key)) {
        acked.add(last.key);
        appendMessage(doc, acknowledge(seat.me, gameId, last.key, last.stateHash, stamp()).bytes);
        again = true;
      }
    }
  } catch (e) {
    errors.push(String(e));
  } finally {
    busy = false;
  }
}
onLog(doc, react);

const phone = {
  /** Seeds as base64 (32 bytes each); the bench made the setup messages with the same identity. */
  init(signSeed: string, boxSecret: string, power: Power, firstSeq: number): void {
    seat = { me: createIdentity(bytesOf(signSeed), bytesOf(boxSecret)), power };
    seq = firstSeq;
    react();
  },
  appendAll(messages: readonly string[]): void {
    appendMessages(doc, messages.map(bytesOf));
  },
  /** Seals random legal orders for the open phase; the wall-clock time of the append, or null if nothing is awaited of us. */
  commit(seed: number): number | null {
    view = reduceLog(gameId, readLog(doc), { verifier });
    const c = view.current;
    if (seat === undefined || c === undefined || !c.required.includes(seat.power)) return null;
    const bytes = crypto.getRandomValues(new Uint8Array(120));
    const random = { secret: bytes.slice(0, 32), nonce: bytes.slice(32, 56), entropy: bytes.slice(56, 88), coin: bytes.slice(88, 120) };
    const orders = randomOrders(c.position, seat.power, picker(seed));
    const r = commitTurn(seat.me, gameId, view, seat.power, orders, random, stamp());
    if (!r.ok) throw new Error(`phone: seal refused (${r.reason})`);
    secrets.set(r.message.id, r.secret);
    mine.set(c.key, r.message.id);
    appendMessage(doc, r.message.bytes);
    return Date.now();
  },
  summary: () => ({ count: readLog(doc).length, phases: view?.phases.length ?? 0, current: view?.current?.key ?? null, required: view?.current?.required ?? [], errors, reduceMs, verifyMs, reductions }),
  revealedAt: (key: string): number | null => revealedAt.get(key) ?? null,
  /** When this page's reduced view first had at least `n` resolved phases, or null. */
  phasesAt(n: number): number | null {
    let best: number | null = null;
    for (const [k, t] of phasesAt) if (k >= n && (best === null || t < best)) best = t;
    return best;
  },
  webrtcPeers: (): number => connection.status().webrtcPeers,
  bytesSent: dataChannelBytesSent,
};

(window as unknown as { phone: typeof phone }).phone = phone;
document.getElementById('state')!.textContent = 'ready';

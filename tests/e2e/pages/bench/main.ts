// One phone of bench/phase.ts: holds one power and runs a game's plumbing as the app does
// (src/ui/game/core.ts): a GameReplica (the admission gate; signatures checked ahead, as updates
// arrive, with the platform's Ed25519) over this profile's IndexedDB (admitted entries and doc
// updates), connected to the game's room with the real net layer. It behaves as an honest phone
// with the real protocol: seals random legal orders when told to, takes the automatic steps
// (FINAL, LOCK, REVEAL) as soon as ballotDuties says so (a phone told to seal as a done player marks
// its orders final: its FINAL goes at once, README "The early FINAL"; a seal that makes its FINAL
// due sends both in one update, as the app's outbox does), acknowledges each resolved phase, each
// sent as the app's outbox sends it (its number reserved on disk first, then out at once). Reactions are one reduction per burst of
// changes, in the next task, as the app's runner does. window.phone lets the bench act and observe; times are
// Date.now() (every page of the run shares the machine's clock).
import { connectGame, connectOptionsFor, createGameDoc, GameReplica, parseInvite } from '../../../../src/net';
import { webCryptoEd25519 } from '../../../../src/net/native-ed25519';
import {
  acknowledge,
  ballotDuties,
  commitTurn,
  createIdentity,
  finalDueOnSeal,
  finalOrders,
  fromBase64,
  lockBallot,
  openMessage,
  reduceLog,
  revealBallot,
  secretBytes,
  type GameView,
  type Identity,
  type Message,
} from '../../../../src/protocol';
import { randomOrders, type Power } from '../../../../src/rules';
import { entryStorage, openPactoStore, persistDoc } from '../../../../src/store';
import { AheadWork, type SealEscrowRandom } from '../../../../src/ui/game/ahead';
import { pendingHash } from '../../../../src/ui/game/drafts';
import { duties } from '../../../../src/ui/game/duties';
import { nextTask } from '../../../../src/ui/game/next-task';
import { SEQ_BLOCK } from '../../../../src/ui/game/outbox';
import { PEER_WRITES } from '../../../../src/ui/game/peer-writes';
import { picker } from '../../../../src/util/prng';

/** PACTO_TRACE: every event of this page, [Date.now(), what]. */
const trace: [number, string][] = [];
function tr(what: string): void {
  trace.push([Date.now(), what]);
}
const connections: RTCPeerConnection[] = [];
function CountedPeerConnection(config?: RTCConfiguration): RTCPeerConnection {
  const pc = new RTCPeerConnection(config);
  connections.push(pc);
  const peer = connections.length;
  const watch = (ch: RTCDataChannel) => {
    ch.addEventListener('message', (e: MessageEvent) => tr(`dc-in c${peer} ${(e.data as ArrayBuffer).byteLength ?? (e.data as string).length}B`));
    const send = ch.send.bind(ch) as (d: ArrayBufferView) => void;
    ch.send = ((d: ArrayBufferView) => {
      tr(`dc-out c${peer} ${d.byteLength}B`);
      send(d);
    }) as typeof ch.send;
  };
  pc.addEventListener('datachannel', (e) => watch(e.channel));
  const create = pc.createDataChannel.bind(pc);
  pc.createDataChannel = ((label: string, init?: RTCDataChannelInit) => {
    const ch = create(label, init);
    watch(ch);
    return ch;
  }) as typeof pc.createDataChannel;
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

const errors: string[] = [];
const invite = parseInvite(location.href);
const gameId = invite.gameId;
const doc = createGameDoc();
const store = await openPactoStore('pacto-bench');
// As the app (src/ui/game/core.ts): peers' entries and updates written once a round is over.
const replica = await GameReplica.open({ gameId, doc, storage: entryStorage(store, gameId), peerWrites: PEER_WRITES });
// The game's record, where the app reserves sequence numbers (see reserve).
await store.putGame({ id: gameId, title: 'bench', created: Date.now() });
const persisted = persistDoc(store, gameId, doc, {
  onError: (e) => errors.push(`store: ${String(e)}`),
  load: (updates, origin) => replica.loadStored(updates, origin),
  own: (origin) => replica.isOwnOrigin(origin),
  peerWrites: PEER_WRITES,
});
await persisted.ready;
const connection = connectGame(replica, {
  ...connectOptionsFor(invite, {}, location),
  wrtc: { RTCPeerConnection: CountedPeerConnection, RTCSessionDescription, RTCIceCandidate },
});
/** Whether this browser's WebCrypto Ed25519 passed the protocol's known answers (then it checks ahead). */
const nativeEd25519 = webCryptoEd25519().then((c) => c !== null);

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
/** Duties already handed to publish (phase key + step), so a reaction before the entry is admitted does not sign twice. */
const done = new Set<string>();
const phasesAt = new Map<number, number>();
/** The bench waiting for a number of phases (phone.untilPhases): answered when reached, so it need not poll. */
const phaseWaiters = new Set<{ n: number; resolve: () => void }>();
/** The phase whose orders this phone marked final (as the app's "my orders are final"). */
let ready: string | undefined;
let view: GameView | undefined;
/** Where a phase's time goes on this page: reducing, and when it revealed (phase key -> Date.now()). */
let reduceMs = 0;
let reductions = 0;
/** Time this phone's own entries took from their reservation to going out (send). */
let publishMs = 0;
let publishes = 0;
const revealedAt = new Map<string, number>();
/** Per phase key, when each step first happened on this page (Date.now()): see STEPS in bench/phase.ts. */
const marks = new Map<string, Record<string, number>>();
function mark(key: string, step: string): void {
  tr(`mark ${step}`);
  const m = marks.get(key) ?? {};
  marks.set(key, m);
  m[step] ??= Date.now();
}

/** Where this page's time went, by name: total ms and count (the bench prints them with PACTO_PROFILE). */
const times = new Map<string, { ms: number; n: number }>();
function time(name: string, ms: number): void {
  const t = times.get(name) ?? { ms: 0, n: 0 };
  times.set(name, t);
  t.ms += ms;
  t.n++;
}

function bytesOf(text: string): Uint8Array {
  const b = fromBase64(text);
  if (b === null) throw new Error('phone: bad base64 from the bench');
  return b;
}

/** Numbers below this are reserved by the write `reserving` (the app's blocks, SEQ_BLOCK ahead). */
let reservedTo = 0;
let reserving: Promise<unknown> = Promise.resolve();

/**
 * As the app's outbox (src/ui/game/outbox.ts reserve): the sequence number comes from a block
 * reserved ahead by a strict write (a new block when it runs low). An entry waits only for its
 * block.
 */
function reserve(): { stamp: { seq: number; time: number }; landed: Promise<unknown> } {
  const stamp = { seq: seq++, time: Date.now() };
  const covered = stamp.seq < reservedTo ? reserving : null;
  const grow = covered === null || reservedTo - seq < SEQ_BLOCK / 2;
  if (!grow) return { stamp, landed: covered };
  const to = Math.max(reservedTo, seq) + SEQ_BLOCK;
  const write = store.modifyReservation(gameId, (old) => ({ nextSeq: Math.max(old.nextSeq, to), once: old.once }));
  reservedTo = to;
  reserving = write;
  return { stamp, landed: covered ?? write };
}

/**
 * This phone's own entry, as the app's outbox sends it (outbox.ts send): signed with a number of a
 * block on disk; a message the protocol allows once is then written with its name in one strict
 * read-modify-write of the reservation (store.modifyReservation) before it goes out; then it is
 * admitted and into the doc at once, its own write landing after (GameReplica.publish,
 * `reserved`). The time counted is from the reservation to the entry going out.
 */
function send(sign: (s: { seq: number; time: number }) => Uint8Array, once?: string, key?: string, step?: string): void {
  const t0 = performance.now();
  void (async () => {
    const r = reserve();
    await r.landed;
    const bytes = sign(r.stamp);
    const t1 = performance.now();
    tr(`${step ?? 'ack'} signed ${(t1 - t0).toFixed(1)}ms`);
    if (once !== undefined)
      await store.modifyReservation(gameId, (old) => ({
        nextSeq: old.nextSeq,
        once: [...old.once, once].slice(-200),
        kept: [...(old.kept ?? []), { name: once, entries: [bytes] }],
      }));
    tr(`${step ?? 'ack'} landed`);
    time(`${step ?? 'ack'}: sign`, t1 - t0);
    time(`${step ?? 'ack'}: then wait for the reservation`, performance.now() - t1);
    await replica.publish([bytes], { reserved: true });
  })().then(
    () => {
      publishMs += performance.now() - t0;
      publishes++;
      if (key !== undefined && step !== undefined) mark(key, step);
    },
    (e) => errors.push(`publish: ${String(e)}`),
  );
}

function reduce(): GameView {
  const t0 = performance.now();
  const v = reduceLog(gameId, replica.entries(), { verifier: replica.verifier, ...(seat === undefined ? {} : { me: seat.me.id }) });
  reduceMs += performance.now() - t0;
  tr(`reduce ${(performance.now() - t0).toFixed(1)}ms n=${replica.entries().length} phases=${v.phases.length}`);
  reductions++;
  return v;
}

/** What an honest phone does whenever the admitted set changes. */
function react(): void {
  try {
    view = reduce();
    if (!phasesAt.has(view.phases.length)) {
      phasesAt.set(view.phases.length, Date.now());
      for (const w of [...phaseWaiters])
        if (view.phases.length >= w.n) {
          phaseWaiters.delete(w);
          w.resolve();
        }
    }
    if (seat === undefined) return;
    const c = view.current;
    if (c !== undefined) {
      for (const e of replica.entries()) {
        if (seen.has(e)) continue;
        seen.add(e);
        const o = openMessage(e, replica.verifier, replica.admission.wireContext());
        if (o.ok) opened.set(o.message.id, o.message);
      }
      const due = ballotDuties(view, seat.me.id, ready === undefined ? {} : { ready });
      const commit = mine.get(c.key);
      const once = (step: string): boolean => !done.has(`${c.key}|${step}`) && (done.add(`${c.key}|${step}`), true);
      if (c.ballot.sealed) mark(c.key, 'commits-in');
      if (due.lock) mark(c.key, 'finals-in');
      if (due.reveal) mark(c.key, 'locks-in');
      const me = seat;
      if (due.finals.length > 0 && commit !== undefined) {
        if (once('final')) send((s) => finalOrders(me.me, gameId, c.key, me.power, commit, s).bytes, `${c.key}|final`, c.key, 'final-sent');
      } else if (due.lock) {
        if (once('lock')) send((s) => lockBallot(me.me, gameId, view!, opened, s).bytes, `${c.key}|lock`, c.key, 'lock-sent');
      } else if (due.reveal && once('reveal')) {
        revealedAt.set(c.key, Date.now());
        send((s) => revealBallot(me.me, gameId, view!, opened, (id) => secrets.get(id) ?? null, s).bytes, `${c.key}|reveal`, c.key, 'reveal-sent');
      }
    }
    // The ACKs the app's duty loop sends on their own (src/ui/game/duties.ts): none while the ACK of
    // the phase just resolved rides in this key's LOCK of the open phase (ackCarriedByLock).
    for (const d of duties({ view, me: seat.me.id })) {
      if (d.kind !== 'ack' || done.has(`${d.phase}|ack`)) continue;
      done.add(`${d.phase}|ack`);
      const me = seat;
      send((s) => acknowledge(me.me, gameId, d.phase, d.hash, s).bytes);
    }
  } catch (e) {
    errors.push(String(e));
  }
}

/** As the app's runner: the next LOCK's and seal's curve work in idle time, as commits arrive (ahead.ts). */
let ahead: AheadWork | undefined;
function aheadFor(me: Identity): AheadWork {
  ahead ??= new AheadWork({
    identity: me,
    view: () => view ?? reduce(),
    messages: () => opened,
    closed: () => false,
    random: (n) => crypto.getRandomValues(new Uint8Array(n)),
    // As the runner (keepSecret): the next seal's secret kept on disk in idle time, in the drafts.
    keepSecret: async (secret, tag, v) => {
      const phase = v.current?.key;
      if (phase === undefined || seat === undefined) throw new Error('no seal to keep a secret for');
      await store.addSeal({ gameId, phase, power: seat.power }, { key: secretBytes(secret), hash: pendingHash(tag), created: Date.now() });
      return `${phase}|${seat.power}`;
    },
    onError: (e) => errors.push(`ahead: ${String(e)}`),
  });
  return ahead;
}

/** Changes come in bursts (an update holds several entries, several peers' messages queue while the
 *  page is busy): one reaction per burst, in the next task, as the app's runner schedules it. */
let scheduled = false;
replica.subscribe(() => {
  tr(`rx n=${replica.entries().length}`);
  if (scheduled) return;
  scheduled = true;
  nextTask(() => {
    scheduled = false;
    react();
    if (seat !== undefined) aheadFor(seat.me).poke();
  });
});

/** Bytes of every entry this phone has admitted: the game's payload (the same on every phone once in sync). */
function payloadBytes(): number {
  return replica.entries().reduce((n, e) => n + e.length, 0);
}

const phone = {
  /** Seeds as base64 (32 bytes each); the bench made the setup messages with the same identity. */
  init(signSeed: string, boxSecret: string, power: Power, firstSeq: number): void {
    seat = { me: createIdentity(bytesOf(signSeed), bytesOf(boxSecret)), power };
    seq = firstSeq;
    react();
  },
  /** Entries made by the bench (the lobby), received as from a peer and carried into the doc at once. */
  appendAll(messages: readonly string[]): void {
    replica.receiveEntries(messages.map(bytesOf), { name: 'bench', origin: 'bench' });
    replica.carryNow(true);
  },
  /** Seals random legal orders for the open phase and publishes them (`final`: and marks them
   *  final, as a player who is done); the wall-clock time the seal started, or null if nothing is
   *  awaited of us. */
  async commit(seed: number, final = false): Promise<number | null> {
    const at = Date.now();
    view = reduce();
    const c = view.current;
    if (seat === undefined || c === undefined || !c.required.includes(seat.power)) return null;
    const me = seat;
    if (final) ready = c.key;
    // As the app seals: sealed and signed while the number's reservation is being written, the
    // secret kept on disk (the app's drafts) after it unless it was kept ahead, then sent.
    const t0 = performance.now();
    const reserved = reserve();
    const bytes = crypto.getRandomValues(new Uint8Array(120));
    // As the runner: the escrow's bytes drawn ahead, their escrow dealt in idle time (ahead.ts).
    const escrow: SealEscrowRandom = aheadFor(me.me).takeSealRandom() ?? { secret: bytes.slice(0, 32), entropy: bytes.slice(56, 88) };
    const random = { secret: escrow.secret, entropy: escrow.entropy, nonce: bytes.slice(32, 56), coin: bytes.slice(88, 120) };
    const orders = randomOrders(c.position, me.power, picker(seed));
    const r = commitTurn(me.me, gameId, view, me.power, orders, random, reserved.stamp);
    const t1 = performance.now();
    time('seal: sign', t1 - t0);
    await reserved.landed;
    const t2 = performance.now();
    time('seal: then wait for the reservation', t2 - t1);
    if (!r.ok) throw new Error(`phone: seal refused (${r.reason})`);
    // As the runner's keep: the record naming the secret by the commit's id is waited for only
    // when the same secret was not kept ahead (and landed) in this phase and power's drafts.
    const kept = escrow.kept;
    const place = kept !== undefined && kept.secret === r.secret ? await kept.landed : null;
    const ahead = place === `${c.key}|${me.power}` ? kept?.tag : undefined;
    const write = store.addSeal(
      { gameId, phase: c.key, power: me.power },
      { key: secretBytes(r.secret), nonce: random.nonce, hash: r.message.id, created: Date.now() },
      { orders: { draft: orders, sealed: orders }, now: Date.now() },
      ahead === undefined ? undefined : pendingHash(ahead),
    );
    if (ahead === undefined) await write;
    else write.catch((e: unknown) => errors.push(`seal record: ${String(e)}`));
    time(ahead === undefined ? 'seal: keep the secret' : 'seal: keep the secret (kept ahead)', performance.now() - t2);
    secrets.set(r.message.id, r.secret);
    mine.set(c.key, r.message.id);
    // As the outbox's SendOptions.with (runner.ts sealNow): the FINAL this commit makes due
    // (finalDueOnSeal: the last seal, or a seal marked final) is signed with a number of a block
    // on disk, written with its name in one strict transaction of the reservations, and leaves
    // with the commit in one publish.
    const finalNow = finalDueOnSeal(view, me.me.id, me.power, ready === undefined ? {} : { ready }) && !done.has(`${c.key}|final`);
    const entries = [r.message.bytes];
    if (finalNow) {
      done.add(`${c.key}|final`);
      const t3 = performance.now();
      const numbered = reserve();
      await numbered.landed;
      const final = finalOrders(me.me, gameId, c.key, me.power, r.message.id, numbered.stamp).bytes;
      const name = `${c.key}|final`;
      await store.modifyReservation(gameId, (old) => ({
        nextSeq: old.nextSeq,
        once: [...old.once, name].slice(-200),
        kept: [...(old.kept ?? []), { name, entries: [r.message.bytes, final] }],
      }));
      time('seal: its FINAL signed and reserved with it', performance.now() - t3);
      entries.push(final);
    }
    await replica.publish(entries, { reserved: true });
    if (finalNow) mark(c.key, 'final-sent');
    return at;
  },
  summary: () => ({
    count: replica.entries().length,
    phases: view?.phases.length ?? 0,
    current: view?.current?.key ?? null,
    required: view?.current?.required ?? [],
    ballotKeys: view?.current?.ballotKeys.length ?? 0,
    errors: [...errors, ...replica.reports().map((r) => `refused ${r.kind}: ${r.reason ?? ''}`)],
    reduceMs,
    reductions,
    publishMs,
    publishes,
  }),
  payloadBytes,
  /** Milliseconds for each of `n` strict writes of the reservation in a row (reserving nothing new). */
  async probeWrites(n: number): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await store.modifyReservation(gameId, (old) => old);
      out.push(performance.now() - t0);
    }
    return out;
  },
  times: (): Record<string, { ms: number; n: number }> => Object.fromEntries(times),
  nativeEd25519: (): Promise<boolean> => nativeEd25519,
  revealedAt: (key: string): number | null => revealedAt.get(key) ?? null,
  marks: (key: string): Record<string, number> => marks.get(key) ?? {},
  trace: (from: number): [number, string][] => trace.filter(([t]) => t >= from),
  /** When this page's reduced view first had at least `n` resolved phases, or null. */
  /** Resolves to phasesAt(n) once this page's view has `n` phases: one call per phase instead of
   *  polling, which took processor time from the pages being measured (two shared cores). */
  async untilPhases(n: number): Promise<number | null> {
    if (view === undefined || view.phases.length < n) await new Promise<void>((resolve) => phaseWaiters.add({ n, resolve }));
    return phone.phasesAt(n);
  },
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

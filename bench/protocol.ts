// Protocol figures for `npm run bench`: sealing cost, rebuilding a 20-year game from its log,
// log size per game-year, re-reducing a phase with 4k commits of one power, and the Yjs update
// size of one commit and one reveal.
import nacl from 'tweetnacl';
import * as Y from 'yjs';
import { POWERS, randomOrders, type Order, type Power } from '../src/rules';
import {
  acceptStart,
  ackCarriedByLock,
  acknowledge,
  ballotDuties,
  cachedVerifier,
  checkSignature,
  clearMemos,
  commitTurn,
  createGame,
  createIdentity,
  finalOrders,
  gameMessages,
  joinGame,
  lockBallot,
  openMessage,
  openSealed,
  paddingUnits,
  parseEntry,
  prepareSealEscrow,
  PROTOCOL_VERSION,
  reduceLog,
  revealBallot,
  revealDeadlineFor,
  RULES_ENGINE_VERSION,
  SIGNATURE_BYTES,
  sealOrders,
  signatureVerifier,
  signMessage,
  startGame,
  startKeys,
  type GameView,
  type Identity,
  type Message,
  type Settings,
  type WireContext,
} from '../src/protocol';
import { nodeVerifier } from '../tests/native-ed25519';
import { rng } from '../tests/protocol/helpers';

const SETTINGS: Settings = {
  variant: 'standard',
  engine: RULES_ENGINE_VERSION,
  rules: {},
  deadlines: { movement: 86_400_000, retreat: 21_600_000, adjustment: 21_600_000, lot: 3_600_000, reveal: revealDeadlineFor({ movement: 86_400_000 }) },
  endYear: null,
  signaling: 'wss://signal.example',
  assignment: 'choice',
};

interface Seat {
  me: Identity;
  power: Power;
  seq: number;
  /** commit id -> secret. */
  secrets: Map<string, bigint>;
  /** phase -> commit id. */
  commits: Map<string, string>;
}

/** Every valid entry of a log by id (what a phone holds), opened once per entry. */
function messagesOf(gameId: string, log: readonly Uint8Array[]): ReadonlyMap<string, Message> {
  return gameMessages(gameId, log);
}

/** What a log's compact entries are read with: the game and the key list of each START in it. */
function wireContextOf(gameId: string, log: readonly Uint8Array[]): WireContext {
  const keyLists: string[][] = [];
  for (const b of log) {
    const o = openMessage(b, signatureVerifier, { game: gameId, keyLists: [] });
    if (o.ok && o.message.payload.type === 'start') keyLists.push(startKeys(o.message.payload));
  }
  return { game: gameId, keyLists };
}

/** An honest seven-player game of `years` years: every power commits, reveals and acknowledges every phase. */
export function scriptedGame(years: number, seed = 1): { gameId: string; log: Uint8Array[]; view: GameView } {
  const r = rng(seed);
  const seats: Seat[] = POWERS.map((power) => ({ me: createIdentity(r.bytes(32), r.bytes(32)), power, seq: 0, secrets: new Map(), commits: new Map() }));
  // After the START every seat names itself by its place in the START's key list (protocol 6's compact form).
  const placed: { keys?: readonly string[] } = {};
  const stamp = (s: Seat, time: number) => ({ seq: s.seq++, time, ...(placed.keys === undefined ? {} : { places: placed.keys }) });
  let time = 1_800_000_000_000;
  const creator = seats[0]!;
  const { gameId, message } = createGame(creator.me, r.bytes(16), SETTINGS, stamp(creator, time));
  const log: Uint8Array[] = [message.bytes];
  for (const s of seats) log.push(joinGame(s.me, gameId, s.power, s.power, stamp(s, time)).bytes);
  const roster = Object.fromEntries(seats.map((s) => [s.power, s.me.id])) as Record<Power, string>;
  const start = startGame(creator.me, gameId, roster, Object.fromEntries(seats.map((s) => [s.me.id, s.me.escrowPublicKey])), stamp(creator, time));
  log.push(start.bytes);
  placed.keys = startKeys({ roster, participants: [] });
  for (const s of seats.slice(1)) log.push(acceptStart(s.me, gameId, start, stamp(s, time)).bytes);
  const byPower = Object.fromEntries(seats.map((s) => [s.power, s])) as Record<Power, Seat>;
  let view = reduceLog(gameId, log);
  while (view.current !== undefined && view.current.position.phase.year < 1901 + years) {
    const c = view.current;
    time += 3_600_000;
    for (const p of c.required) {
      const s = byPower[p];
      const random = { secret: r.bytes(32), nonce: r.bytes(24), entropy: r.bytes(32), coin: r.bytes(32) };
      const sealed = commitTurn(s.me, gameId, view, p, randomOrders(c.position, p, r.int), random, stamp(s, time));
      if (!sealed.ok) throw new Error('bench: seal refused');
      s.secrets.set(sealed.message.id, sealed.secret);
      s.commits.set(c.key, sealed.message.id);
      log.push(sealed.message.bytes);
    }
    // The automatic steps, as honest phones take them: FINAL, then LOCK, then REVEAL.
    for (const step of ['final', 'lock', 'reveal'] as const) {
      const v = reduceLog(gameId, log);
      const messages = messagesOf(gameId, log);
      for (const s of seats) {
        const due = ballotDuties(v, s.me.id);
        if (step === 'final' && due.finals.length > 0) log.push(finalOrders(s.me, gameId, c.key, s.power, s.commits.get(c.key)!, stamp(s, time + 1)).bytes);
        if (step === 'lock' && due.lock) log.push(lockBallot(s.me, gameId, v, messages, stamp(s, time + 1)).bytes);
        if (step === 'reveal' && due.reveal) log.push(revealBallot(s.me, gameId, v, messages, (id) => s.secrets.get(id) ?? null, stamp(s, time + 1)).bytes);
      }
    }
    view = reduceLog(gameId, log);
    const last = view.phases.at(-1)!;
    // Each seat ACKs the phase, in its next LOCK when it owes one (protocol 5), else on its own.
    for (const s of seats)
      if (ackCarriedByLock(view, s.me.id) !== last.key) log.push(acknowledge(s.me, gameId, last.key, last.stateHash, stamp(s, time + 2)).bytes);
  }
  return { gameId, log, view: reduceLog(gameId, log) };
}

function time<T>(run: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = run();
  return { ms: performance.now() - t, value };
}

const fresh = (log: readonly Uint8Array[]) => log.map((b) => b.slice());

export async function benchProtocol(): Promise<void> {
  const r = rng(7);
  // Sealing: a large order set (Russia's opening orders, padded to 17 units' worth).
  const orders: Order[] = [];
  while (orders.length < 17) orders.push(...randomOrders(scriptedStart().position!, 'russia', r.int));
  const rounds = 500;
  const secret = 12345678901234567890n;
  const nonce = r.bytes(24);
  const seal = time(() => {
    for (let i = 0; i < rounds; i++) openSealed(sealOrders({ orders, draw: false }, 17, secret, nonce).sealed, secret);
  });
  console.log(`protocol: seal+open one power's orders (${orders.length} orders, padded for 17 units): ${(seal.ms / rounds).toFixed(3)} ms`);
  const start = scriptedStart();
  const sealWithEscrow = time(() => {
    for (let i = 0; i < 20; i++) {
      const random = { secret: r.bytes(32), nonce: r.bytes(24), entropy: r.bytes(32), coin: r.bytes(32) };
      commitTurn(benchIdentity, start.gameId, start, 'russia', orders, random, { seq: i, time: 0 });
    }
  });
  console.log(`protocol: a whole commit (seal, escrow to 6 players, sign): ${(sealWithEscrow.ms / 20).toFixed(1)} ms`);
  // The app deals the escrow of a phone's first seal of a phase in idle time (src/ui/game/ahead.ts).
  let sealing = 0;
  for (let i = 0; i < 20; i++) {
    const random = { secret: r.bytes(32), nonce: r.bytes(24), entropy: r.bytes(32), coin: r.bytes(32) };
    prepareSealEscrow(benchIdentity, start, random);
    sealing += time(() => commitTurn(benchIdentity, start.gameId, start, 'russia', orders, random, { seq: i, time: 0 })).ms;
  }
  console.log(`protocol: the same commit, its escrow dealt ahead (prepareSealEscrow): ${(sealing / 20).toFixed(1)} ms`);
  const payload = new Uint8Array(600).fill(7);
  const sig = signMessage(benchIdentity, { type: 'ack', game: start.gameId, seq: 1, time: 1, phase: 'start', hash: '00'.repeat(16) });
  const signing = time(() => {
    for (let i = 0; i < 100; i++) signMessage(benchIdentity, { type: 'ack', game: start.gameId, seq: i, time: 1, phase: 'start', hash: '00'.repeat(16) });
  });
  const checking = time(() => {
    for (let i = 0; i < 100; i++) checkSignature(sig.subarray(64), sig.subarray(0, 64), benchIdentity.signPublicKey);
  });
  const naclSigning = time(() => {
    for (let i = 0; i < 20; i++) nacl.sign.detached(payload, benchIdentity.signSecretKey);
  });
  console.log(
    `protocol: Ed25519 sign ${(signing.ms / 100).toFixed(2)} ms, check ${(checking.ms / 100).toFixed(2)} ms (@noble/curves; tweetnacl signed in ${(naclSigning.ms / 20).toFixed(2)} ms)`,
  );

  const years = 20;
  const made = time(() => scriptedGame(years));
  const { gameId, log, view } = made.value;
  const bytes = log.reduce((n, b) => n + b.length, 0);
  const phases = view.phases.length;
  const kinds = ['movement', 'retreat', 'adjustment'].map((k) => `${view.phases.filter((p) => p.key.endsWith(k)).length} ${k}`).join(', ');
  console.log(
    `protocol: 20-year game: ${log.length} messages, ${phases} phases (${kinds}), log ${bytes} bytes = ${Math.round(bytes / years)} bytes per game-year (target < 20,000, every entry signed and verifiable from the log alone; protocol ${PROTOCOL_VERSION}) (generated in ${Math.round(made.ms)} ms)`,
  );

  console.log(`protocol: log bytes per game-year by kind (signature ${SIGNATURE_BYTES} B on each): ${bytesByKind(gameId, log, years)}`);

  clearMemos();
  const cold = time(() => reduceLog(gameId, fresh(log), { verifier: cachedVerifier(checkSignature) }));
  console.log(`protocol: reduce 20-year log from scratch, checking every signature (the protocol's Ed25519): ${Math.round(cold.ms)} ms`);
  clearMemos();
  const native = time(() => reduceLog(gameId, fresh(log), { verifier: nodeVerifier() }));
  console.log(`protocol: reduce 20-year log from scratch, native ed25519 verify: ${Math.round(native.ms)} ms`);
  // As the entries arrived, the phone checked each signature and each REVEAL's escrow once (its
  // verifier remembers both); a rebuild from scratch forgets everything else.
  const verified = cachedVerifier(checkSignature);
  clearMemos();
  reduceLog(gameId, fresh(log), { verifier: verified });
  clearMemos();
  const rebuild = time(() => reduceLog(gameId, fresh(log), { verifier: verified }));
  console.log(`protocol: reduce 20-year log from scratch, signatures and escrow already checked on arrival: ${Math.round(rebuild.ms)} ms (target < 200 ms)`);
  const warmLog = fresh(log);
  reduceLog(gameId, warmLog.slice(0, -1), { verifier: verified });
  const again = time(() => reduceLog(gameId, warmLog, { verifier: verified }));
  console.log(`protocol: re-reduce after one new entry (all memos warm): ${Math.round(again.ms)} ms`);
  // What a phone does as a game-year arrives: one re-reduce per entry, the escrow checks and
  // adjudications of each phase done once, as they come (signatures checked on arrival).
  clearMemos();
  const arriving = fresh(log);
  const lastYear = arriving.length - Math.round(log.length / years);
  reduceLog(gameId, arriving.slice(0, lastYear), { verifier: verified });
  const perEntry: number[] = [];
  for (let k = lastYear + 1; k <= arriving.length; k++) perEntry.push(time(() => reduceLog(gameId, arriving.slice(0, k), { verifier: verified })).ms);
  perEntry.sort((a, b) => a - b);
  const at = (q: number) => perEntry[Math.min(perEntry.length - 1, Math.floor(q * perEntry.length))]!.toFixed(1);
  console.log(
    `protocol: re-reduce per entry as the 20-year log's last game-year arrives one entry at a time (${perEntry.length} entries): median ${at(0.5)} ms, p95 ${at(0.95)} ms, total ${Math.round(perEntry.reduce((x, y) => x + y, 0))} ms`,
  );
  longChain();
  if (JSON.stringify(cold.value.stateHash) !== JSON.stringify(rebuild.value.stateHash) || native.value.stateHash !== rebuild.value.stateHash)
    throw new Error('bench: rebuilds disagree');

  // Yjs: the update one new commit and one new reveal put on the wire.
  const doc = new Y.Doc();
  const arr = doc.getArray<Uint8Array>('log');
  const ctx = wireContextOf(gameId, log);
  const typeAt = (b: Uint8Array) => {
    const p = parseEntry(b, ctx);
    return p.ok ? p.entry.payload.type : null;
  };
  const commitIndex = log.findIndex((b) => typeAt(b) === 'commit');
  arr.push(log.slice(0, commitIndex));
  const updates: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array) => updates.push(u));
  arr.push([log[commitIndex]!]);
  const revealIndex = log.findIndex((b) => typeAt(b) === 'reveal');
  arr.push([log[revealIndex]!]);
  console.log(
    `protocol: Yjs update of one commit: ${updates[0]!.length} bytes (message ${log[commitIndex]!.length}); of one reveal: ${updates[1]!.length} bytes (message ${log[revealIndex]!.length})`,
  );
}

/** "reveal 6.8 KB (15.3 × 436 B), ..." for the kinds of a log, per game-year, largest first. */
function bytesByKind(gameId: string, log: readonly Uint8Array[], years: number): string {
  const by = new Map<string, { n: number; bytes: number }>();
  const ctx = wireContextOf(gameId, log);
  for (const b of log) {
    const p = parseEntry(b, ctx);
    const kind = p.ok ? p.entry.payload.type : 'unreadable';
    const k = by.get(kind) ?? { n: 0, bytes: 0 };
    by.set(kind, { n: k.n + 1, bytes: k.bytes + b.length });
  }
  return [...by]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .map(([kind, k]) => `${kind} ${(k.bytes / years / 1000).toFixed(1)} KB (${(k.n / years).toFixed(1)} × ${Math.round(k.bytes / k.n)} B)`)
    .join(', ');
}

const benchIdentity: Identity = createIdentity(new Uint8Array(32).fill(9), new Uint8Array(32).fill(10));

function scriptedStart(): GameView {
  return scriptedGame(0).view;
}

/**
 * Issue 10's figure: one power signs 4,000 commits in one phase (a cheater may); a phone
 * re-reduces when one more entry arrives. The reducer's work is linear (tests/protocol/
 * sealed-chain counts it); this is the wall time beside the target, and 1k for the ratio.
 */
function longChain(): void {
  const { gameId, log } = scriptedGame(0);
  const v = reduceLog(gameId, log);
  const c = v.current!;
  const france = v.roster!.france;
  const seat = scriptedSeats(1).find((s) => s.me.id === france)!;
  const units = paddingUnits(c.position, 'france');
  const escrowOf = () => ({
    c: ['A'.repeat(43), 'A'.repeat(43), 'A'.repeat(43), 'A'.repeat(43), 'A'.repeat(43), 'A'.repeat(43)],
    e: 'A'.repeat(43),
    // Protocol 5's form: the shares are derived, not carried.
    s: [],
  });
  const commits: Uint8Array[] = [];
  for (let i = 0; i < 4001; i++) {
    const box = sealOrders({ orders: [], draw: false }, units, BigInt(i + 1), new Uint8Array(24).fill(i % 251));
    commits.push(
      signMessage(seat.me, {
        type: 'commit',
        game: gameId,
        seq: 100 + i,
        time: 1_800_000_000_000,
        phase: c.key,
        power: 'france',
        sealed: box.sealed,
        hash: box.hash,
        escrow: escrowOf(),
      }),
    );
  }
  const verifier = nodeVerifier();
  const figures: string[] = [];
  for (const n of [1000, 4000]) {
    const base = [...log, ...commits.slice(0, n)];
    reduceLog(gameId, base, { verifier });
    let best = Infinity;
    for (let k = 0; k < 5; k++) {
      const next = [...base, commits[4000 - k]!];
      best = Math.min(best, time(() => reduceLog(gameId, next, { verifier })).ms);
    }
    figures.push(`${n / 1000}k: ${best.toFixed(1)} ms`);
  }
  console.log(`protocol: re-reduce a phase holding 1k / 4k commits of one power after one more entry: ${figures.join(', ')} (target < 50 ms at 4k)`);
}

/** The seats scriptedGame makes for a seed (same identities). */
export function scriptedSeats(seed: number): { me: Identity; power: Power }[] {
  const r = rng(seed);
  return POWERS.map((power) => ({ me: createIdentity(r.bytes(32), r.bytes(32)), power }));
}

if (import.meta.url === `file://${process.argv[1]}`) await benchProtocol();

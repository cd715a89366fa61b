// Protocol figures for `npm run bench`: sealing cost, rebuilding a 20-year game from its log,
// log size per game-year, and the Yjs update size of one commit and one reveal.
import nacl from 'tweetnacl';
import * as Y from 'yjs';
import { POWERS, randomOrders, type Order, type Power } from '../src/rules';
import {
  acceptStart,
  acknowledge,
  cachedVerifier,
  clearMemos,
  commitOrders,
  createGame,
  createIdentity,
  joinGame,
  openOrders,
  reduceLog,
  revealOrders,
  RULES_ENGINE_VERSION,
  sealOrders,
  startGame,
  type GameView,
  type Identity,
  type Settings,
} from '../src/protocol';
import { nodeVerifier } from '../tests/native-ed25519';


/** Seeded so every run measures the same game. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { int: (n: number) => Math.floor(next() * n), bytes: (n: number) => Uint8Array.from({ length: n }, () => Math.floor(next() * 256)) };
}

const SETTINGS: Settings = {
  variant: 'standard',
  engine: RULES_ENGINE_VERSION,
  rules: {},
  deadlines: { movement: 86_400_000, retreat: 21_600_000, adjustment: 21_600_000, lot: 3_600_000 },
  endYear: null,
  signaling: 'wss://signal.example',
  assignment: 'choice',
};

interface Seat {
  me: Identity;
  power: Power;
  seq: number;
  keys: Map<string, Record<string, Uint8Array>>;
}

/** An honest seven-player game of `years` years: every power commits, reveals and acknowledges every phase. */
export function scriptedGame(years: number, seed = 1): { gameId: string; log: Uint8Array[]; view: GameView } {
  const r = generator(seed);
  const seats: Seat[] = POWERS.map((power) => ({ me: createIdentity(r.bytes(32), r.bytes(32)), power, seq: 0, keys: new Map() }));
  const stamp = (s: Seat, time: number) => ({ seq: s.seq++, time });
  let time = 1_800_000_000_000;
  const creator = seats[0]!;
  const { gameId, message } = createGame(creator.me, r.bytes(16), SETTINGS, stamp(creator, time));
  const log: Uint8Array[] = [message.bytes];
  for (const s of seats) log.push(joinGame(s.me, gameId, s.power, s.power, stamp(s, time)).bytes);
  const roster = Object.fromEntries(seats.map((s) => [s.power, s.me.id])) as Record<Power, string>;
  const start = startGame(creator.me, gameId, roster, [], stamp(creator, time));
  log.push(start.bytes);
  for (const s of seats.slice(1)) log.push(acceptStart(s.me, gameId, start.id, stamp(s, time)).bytes);
  const byPower = Object.fromEntries(seats.map((s) => [s.power, s])) as Record<Power, Seat>;
  let view = reduceLog(gameId, log);
  while (view.current !== undefined && view.current.position.phase.year < 1901 + years) {
    const c = view.current;
    time += 3_600_000;
    for (const p of c.required) {
      const s = byPower[p];
      const key = r.bytes(32);
      const msg = commitOrders(s.me, gameId, c.key, p, randomOrders(c.position, p, r.int), null, key, r.bytes(24), stamp(s, time));
      s.keys.set(c.key, { [msg.id]: key });
      log.push(msg.bytes);
    }
    const sealedView = reduceLog(gameId, log);
    for (const p of c.required) log.push(revealOrders(byPower[p].me, gameId, sealedView.current!, p, byPower[p].keys.get(c.key)!, stamp(byPower[p], time + 1)).bytes);
    view = reduceLog(gameId, log);
    const last = view.phases.at(-1)!;
    for (const s of seats) log.push(acknowledge(s.me, gameId, last.key, last.stateHash, stamp(s, time + 2)).bytes);
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
  const r = generator(7);
  // Sealing: a large order set (Russia's opening orders, padded to 17 units' worth).
  const orders: Order[] = [];
  while (orders.length < 17) orders.push(...randomOrders(scriptedStart().position!, 'russia', r.int));
  const rounds = 500;
  const key = r.bytes(32);
  const nonce = r.bytes(24);
  const seal = time(() => {
    for (let i = 0; i < rounds; i++) openOrders(sealOrders(orders, key, nonce).sealed, key);
  });
  console.log(`protocol: seal+open one power's orders (${orders.length} orders): ${(seal.ms / rounds).toFixed(3)} ms`);

  const years = 20;
  const made = time(() => scriptedGame(years));
  const { gameId, log, view } = made.value;
  const bytes = log.reduce((n, b) => n + b.length, 0);
  const phases = view.phases.length;
  const kinds = ['movement', 'retreat', 'adjustment'].map((k) => `${view.phases.filter((p) => p.key.endsWith(k)).length} ${k}`).join(', ');
  console.log(`protocol: 20-year game: ${log.length} messages, ${phases} phases (${kinds}), log ${bytes} bytes = ${Math.round(bytes / years)} bytes per game-year (generated in ${Math.round(made.ms)} ms)`);

  clearMemos();
  const cold = time(() => reduceLog(gameId, fresh(log), { verifier: cachedVerifier((m, s, k) => nacl.sign.detached.verify(m, s, k)) }));
  console.log(`protocol: reduce 20-year log from scratch, tweetnacl verifying every signature: ${Math.round(cold.ms)} ms`);
  clearMemos();
  const native = time(() => reduceLog(gameId, fresh(log), { verifier: nodeVerifier() }));
  console.log(`protocol: reduce 20-year log from scratch, native ed25519 verify: ${Math.round(native.ms)} ms`);
  const verified = cachedVerifier((m, s, k) => nacl.sign.detached.verify(m, s, k));
  reduceLog(gameId, fresh(log), { verifier: verified });
  clearMemos();
  const rebuild = time(() => reduceLog(gameId, fresh(log), { verifier: verified }));
  console.log(`protocol: reduce 20-year log from scratch, signatures already verified on arrival: ${Math.round(rebuild.ms)} ms (target < 200 ms)`);
  const warmLog = fresh(log);
  reduceLog(gameId, warmLog.slice(0, -1), { verifier: verified });
  const again = time(() => reduceLog(gameId, warmLog, { verifier: verified }));
  console.log(`protocol: re-reduce after one new entry (all memos warm): ${Math.round(again.ms)} ms`);
  if (JSON.stringify(cold.value.stateHash) !== JSON.stringify(rebuild.value.stateHash) || native.value.stateHash !== rebuild.value.stateHash) throw new Error('bench: rebuilds disagree');

  // Yjs: the update one new commit and one new reveal put on the wire.
  const doc = new Y.Doc();
  const arr = doc.getArray<Uint8Array>('log');
  const commitIndex = log.findIndex((b) => new TextDecoder().decode(b.subarray(64)).includes('"type":"commit"'));
  arr.push(log.slice(0, commitIndex));
  const updates: Uint8Array[] = [];
  doc.on('update', (u: Uint8Array) => updates.push(u));
  arr.push([log[commitIndex]!]);
  const revealIndex = log.findIndex((b) => new TextDecoder().decode(b.subarray(64)).includes('"type":"reveal"'));
  arr.push([log[revealIndex]!]);
  console.log(`protocol: Yjs update of one commit: ${updates[0]!.length} bytes (message ${log[commitIndex]!.length}); of one reveal: ${updates[1]!.length} bytes (message ${log[revealIndex]!.length})`);
}

function scriptedStart(): GameView {
  return scriptedGame(0).view;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchProtocol();

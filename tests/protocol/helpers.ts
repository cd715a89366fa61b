import { expect } from 'vitest';
import { escrowPublic, escrowSecret } from '../../src/protocol/escrow';
// Test harness: seven deterministic identities, a started standard game, and helpers that
// play a phase through the protocol the way honest phones do.
import { POWERS, randomOrders, type Order, type Power } from '../../src/rules';
import {
  acceptStart,
  ballotDuties,
  commitTurn,
  compactEntry,
  createGame,
  createIdentity,
  decodeBody,
  finalOrders,
  joinGame,
  lockBallot,
  openMessage,
  reduceLog,
  revealBallot,
  RULES_ENGINE_VERSION,
  startGame,
  startKeys,
  type GameView,
  type Identity,
  type Message,
  type Settings,
  type Signed,
} from '../../src/protocol';

/** mulberry32: a seeded generator so every test run replays the same game. */
export function rng(seed: number): { next: () => number; int: (n: number) => number; bytes: (n: number) => Uint8Array } {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    bytes: (n) => Uint8Array.from({ length: n }, () => Math.floor(next() * 256)),
  };
}

/** Fisher–Yates with the seeded generator: `xs` in an order fixed by `seed`. */
export function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const r = rng(seed);
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The escrow key of each identity, as a START pins them (what the app reads from the JOINs, view.players). */
export function escrowOf(ids: readonly Identity[]): Record<string, string> {
  return Object.fromEntries(ids.map((i) => [i.id, i.escrowPublicKey]));
}

export function identity(n: number): Identity {
  const r = rng(1000 + n);
  return createIdentity(r.bytes(32), r.bytes(32));
}

export const HOUR = 3_600_000;
export const T0 = 1_800_000_000_000;

export function settings(overrides: Partial<Settings> = {}): Settings {
  return {
    variant: 'standard',
    engine: RULES_ENGINE_VERSION,
    rules: {},
    deadlines: { movement: 24 * HOUR, retreat: 6 * HOUR, adjustment: 6 * HOUR, lot: HOUR, reveal: HOUR },
    endYear: null,
    signaling: 'wss://signal.example',
    assignment: 'choice',
    ...overrides,
  };
}

/** One phone: its identity, the power it holds, its sequence counter and the secrets of its commits. */
export class Phone {
  seq = 0;
  /** commit id -> secret scalar (what this phone's REVEAL releases). */
  readonly secrets = new Map<string, bigint>();
  /** phase -> this phone's commit ids, oldest first. */
  readonly commits = new Map<string, string[]>();
  constructor(
    readonly me: Identity,
    readonly power: Power,
    readonly random: ReturnType<typeof rng>,
  ) {}
  stamp(time: number) {
    return { seq: this.seq++, time };
  }
  sealRandom(coin?: Uint8Array) {
    return { secret: this.random.bytes(32), nonce: this.random.bytes(24), entropy: this.random.bytes(32), coin: coin ?? this.random.bytes(32) };
  }
  commit(gameId: string, view: GameView, orders: readonly Order[], time: number, draw?: boolean): Signed {
    const c = view.current!;
    const r = commitTurn(this.me, gameId, view, this.power, orders, this.sealRandom(), this.stamp(time), draw === undefined ? {} : { draw });
    if (!r.ok) throw new Error(`commit refused: ${r.reason}`);
    this.secrets.set(r.message.id, r.secret);
    this.commits.set(c.key, [...(this.commits.get(c.key) ?? []), r.message.id]);
    return r.message;
  }
  /** FINAL naming this phone's latest commit of the phase. */
  final(gameId: string, view: GameView, time: number): Signed {
    const c = view.current!;
    return finalOrders(this.me, gameId, c.key, this.power, this.commits.get(c.key)!.at(-1)!, this.stamp(time));
  }
  lock(gameId: string, view: GameView, log: readonly Uint8Array[], time: number): Signed {
    return lockBallot(this.me, gameId, view, messagesOf(log), this.stamp(time));
  }
  reveal(gameId: string, view: GameView, log: readonly Uint8Array[], time: number): Signed {
    return revealBallot(this.me, gameId, view, messagesOf(log), (id) => this.secrets.get(id) ?? null, this.stamp(time));
  }
}

const opened = new WeakMap<Uint8Array, Message | null>();

/** Every valid entry of a log, by id. */
export function messagesOf(log: readonly Uint8Array[]): Map<string, Message> {
  const out = new Map<string, Message>();
  for (const b of log) {
    let m = opened.get(b);
    if (m === undefined) {
      const o = openMessage(b);
      m = o.ok ? o.message : null;
      opened.set(b, m);
    }
    if (m !== null) out.set(m.id, m);
  }
  return out;
}

export interface Game {
  gameId: string;
  phones: Phone[];
  byPower: Record<Power, Phone>;
  log: Uint8Array[];
  startId: string;
}

/** A standard game, one phone per power (creator: Austria), started and accepted by all. */
export function startedGame(seed = 1, overrides: Partial<Settings> = {}): Game {
  const random = rng(seed);
  const phones = POWERS.map((p, i) => new Phone(identity(i), p, rng(seed * 100 + i)));
  const creator = phones[0]!;
  const { gameId, message } = createGame(creator.me, random.bytes(16), settings(overrides), creator.stamp(T0));
  const log: Uint8Array[] = [message.bytes];
  for (const ph of phones) log.push(joinGame(ph.me, gameId, ph.power, ph.power, ph.stamp(T0 + 1)).bytes);
  const roster = Object.fromEntries(phones.map((ph) => [ph.power, ph.me.id])) as Record<Power, string>;
  const start = startGame(creator.me, gameId, roster, escrowOf(phones.map((ph) => ph.me)), creator.stamp(T0 + 2));
  log.push(start.bytes);
  for (const ph of phones.slice(1)) log.push(acceptStart(ph.me, gameId, start, ph.stamp(T0 + 3)).bytes);
  const byPower = Object.fromEntries(phones.map((ph) => [ph.power, ph])) as Record<Power, Phone>;
  return { gameId, phones, byPower, log, startId: start.id };
}

export function view(game: Game, log: readonly Uint8Array[] = game.log): GameView {
  return reduceLog(game.gameId, log);
}

/** Orders for every required power, from the engine's random legal orders. */
export function randomPhaseOrders(v: GameView, pick: (n: number) => number): Partial<Record<Power, Order[]>> {
  const c = v.current!;
  return Object.fromEntries(c.required.map((p) => [p, randomOrders(c.position, p, pick)]));
}

/**
 * The automatic steps of honest phones (FINAL, LOCK, REVEAL as each falls due) until nothing is
 * left; the phones of `silent` powers do nothing, those of `hold` powers everything but REVEAL.
 */
export function settlePhase(game: Game, time: number, opts: { silent?: readonly Power[]; hold?: readonly Power[] } = {}): GameView {
  for (let round = 0; round < 12; round++) {
    let n = 0;
    for (const ph of game.phones) {
      if (opts.silent?.includes(ph.power)) continue;
      const v = view(game);
      if (v.status !== 'playing' || v.current === undefined) return v;
      const due = ballotDuties(v, ph.me.id);
      if (due.finals.length > 0) game.log.push(ph.final(game.gameId, v, time).bytes);
      else if (due.lock) game.log.push(ph.lock(game.gameId, v, game.log, time).bytes);
      else if (due.reveal && !opts.hold?.includes(ph.power)) game.log.push(ph.reveal(game.gameId, v, game.log, time).bytes);
      else continue;
      n++;
    }
    if (n === 0) break;
  }
  return view(game);
}

/** Every required power commits, then the phones take their automatic steps: the honest path through one phase. */
export function playPhase(game: Game, orders: Partial<Record<Power, readonly Order[]>>, time: number): GameView {
  const v = view(game);
  for (const p of v.current!.required) game.log.push(game.byPower[p].commit(game.gameId, v, orders[p] ?? [], time).bytes);
  return settlePhase(game, time + 1);
}

/**
 * A spring 1901 played through (commits, FINALs, LOCKs, REVEALs) with the entries after the START
 * sent compact where they can be, each a fresh array: what a phone receives of a game's first phase.
 */
export function playedCompactLog(seed: number): { gameId: string; log: Uint8Array[]; keys: string[] } {
  const game = startedGame(seed);
  playPhase(game, randomPhaseOrders(view(game), rng(seed).int), T0 + 100);
  const start = messagesOf(game.log).get(game.startId)!;
  const keys = start.payload.type === 'start' ? startKeys(start.payload) : [];
  const startAt = game.log.findIndex((b) => messagesOf([b]).has(game.startId));
  return { gameId: game.gameId, log: game.log.map((b, i) => (i > startAt ? compactEntry(b, keys) : Uint8Array.from(b))), keys };
}

/** The parts of a view that are game state (everything except the ignored/misconduct report). */
export function stateOf(v: GameView): unknown {
  const { ignored: _i, misconduct: _m, ...rest } = v;
  return rest;
}

/**
 * The payload of a signed entry as the protocol reads it (either encoding), for tests that look
 * inside or tamper with an entry. Throws on bytes that do not decode.
 */
export function payloadOf(bytes: Uint8Array): Record<string, any> {
  const d = decodeBody(bytes.subarray(64));
  if (!d.ok) throw new Error(`payloadOf: ${d.reason}`);
  return d.value as Record<string, any>;
}

/** The message type of a signed entry, or null if it does not decode. */
export function typeOf(bytes: Uint8Array): string | null {
  const d = decodeBody(bytes.subarray(64));
  return d.ok ? String((d.value as { type?: unknown }).type) : null;
}

/** Spring 1901 with every power committed, FINAL and LOCK in, nobody revealed yet: the game and each key's LOCK id. */
export function lockedGame(seed: number): { game: Game; locks: Map<string, string> } {
  const game = startedGame(seed);
  const v = view(game);
  for (const p of v.current!.required) game.log.push(game.byPower[p].commit(game.gameId, v, [], T0 + 100).bytes);
  settlePhase(game, T0 + 101, { hold: v.current!.required });
  const locks = new Map<string, string>();
  for (const [id, m] of messagesOf(game.log)) if (m.payload.type === 'lock') locks.set(m.payload.from, id);
  expect(locks.size).toBe(7);
  return { game, locks };
}

/** n escrow key pairs (secret x, public x·G) from a seeded generator, for the escrow tests. */
export function escrowHolders(n: number, seed = 1): { x: bigint; p: string }[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => {
    const x = escrowSecret(r.bytes(32));
    return { x, p: escrowPublic(x) };
  });
}

/** A started game of seven keys, as the compact wire form's tests read it. */
export interface Lobby {
  gameId: string;
  players: Identity[];
  /** CREATE, JOINs, START: what any reader holds before the compact entries. */
  log: Uint8Array[];
  start: Signed;
  keys: string[];
}

/**
 * A game of seven keys (creator: players[0]), started with `order` giving the powers' keys; `seed`
 * tells two games of the same keys apart.
 */
export function lobby(seed: number, players: Identity[] = POWERS.map((_, i) => identity(i)), order: Identity[] = players): Lobby {
  const r = rng(seed);
  const creator = players[0]!;
  const { gameId, message } = createGame(creator, r.bytes(16), settings(), { seq: 0, time: T0 });
  const log: Uint8Array[] = [message.bytes];
  players.forEach((p, i) => log.push(joinGame(p, gameId, `p${i}`, null, { seq: 1, time: T0 + 1 }).bytes));
  const roster = Object.fromEntries(POWERS.map((q, i) => [q, order[i]!.id])) as Record<Power, string>;
  const start = startGame(creator, gameId, roster, escrowOf(players), { seq: 2, time: T0 + 2 });
  log.push(start.bytes);
  return { gameId, players, log, start, keys: startKeys({ roster, participants: [] }) };
}

/** A roster giving the powers to `members` in turn (the standard game lets one key hold several). */
export function rosterOf(members: readonly Identity[]): Record<Power, string> {
  return Object.fromEntries(POWERS.map((p, i) => [p, members[i % members.length]!.id])) as Record<Power, string>;
}

/** A standard game started and accepted by all (entries after the START compact), and the entries of its next phase. */
export function compactStartedGame(seed: number): { g: Game; lobby: Uint8Array[]; phase: Uint8Array[] } {
  const g = startedGame(seed);
  const keys = startKeys(payloadOf(g.log.find((b) => payloadOf(b).type === 'start')!) as never);
  const startAt = g.log.findIndex((b) => payloadOf(b).type === 'start');
  const before = g.log.length;
  playPhase(g, randomPhaseOrders(view(g), rng(seed).int), T0 + 100);
  const compact = g.log.map((b, i) => (i > startAt ? compactEntry(b, keys) : b));
  return { g, lobby: compact.slice(0, before), phase: compact.slice(before) };
}

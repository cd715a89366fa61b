// Test harness: seven deterministic identities, a started standard game, and helpers that
// play a phase through the protocol the way honest phones do.
import { POWERS, randomOrders, type Order, type Power } from '../../src/rules';
import {
  acceptStart,
  commitOrders,
  createGame,
  createIdentity,
  joinGame,
  reduceLog,
  revealOrders,
  RULES_ENGINE_VERSION,
  startGame,
  type GameView,
  type Identity,
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

/** One phone: its identity, the power it holds, its sequence counter and the keys of its commits. */
export class Phone {
  seq = 0;
  readonly keys = new Map<string, Record<string, Uint8Array>>();
  constructor(
    readonly me: Identity,
    readonly power: Power,
    readonly random: ReturnType<typeof rng>,
  ) {}
  stamp(time: number) {
    return { seq: this.seq++, time };
  }
  commit(gameId: string, view: GameView, orders: readonly Order[], time: number): Signed {
    const c = view.current!;
    const key = this.random.bytes(32);
    const msg = commitOrders(this.me, gameId, c.key, this.power, orders, c.heads[this.power] ?? null, key, this.random.bytes(24), this.stamp(time));
    const forPhase = this.keys.get(c.key) ?? {};
    forPhase[msg.id] = key;
    this.keys.set(c.key, forPhase);
    return msg;
  }
  reveal(gameId: string, view: GameView, time: number): Signed {
    const c = view.current!;
    return revealOrders(this.me, gameId, c, this.power, this.keys.get(c.key) ?? {}, this.stamp(time));
  }
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
  const start = startGame(creator.me, gameId, roster, [], creator.stamp(T0 + 2));
  log.push(start.bytes);
  for (const ph of phones.slice(1)) log.push(acceptStart(ph.me, gameId, start.id, ph.stamp(T0 + 3)).bytes);
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

/** Every required power commits, then every one reveals: the honest path through one phase. */
export function playPhase(game: Game, orders: Partial<Record<Power, readonly Order[]>>, time: number): GameView {
  let v = view(game);
  const required = v.current!.required;
  for (const p of required) game.log.push(game.byPower[p].commit(game.gameId, v, orders[p] ?? [], time).bytes);
  v = view(game);
  for (const p of required) game.log.push(game.byPower[p].reveal(game.gameId, v, time + 1).bytes);
  return view(game);
}

/** The parts of a view that are game state (everything except the ignored/misconduct report). */
export function stateOf(v: GameView): unknown {
  const { ignored: _i, misconduct: _m, ...rest } = v;
  return rest;
}

// Test harness for variant games: one phone per seat (a key holding several powers), the
// creator holding the neutral placeholders, phases played through commitTurn like honest phones.
import { variantById, type Order, type Power } from '../../src/rules';
import {
  acceptStart,
  commitTurn,
  createGame,
  joinGame,
  reduceLog,
  revealOrders,
  startGame,
  voteTimeout,
  type GameView,
  type Identity,
  type Settings,
  type Signed,
} from '../../src/protocol';
import { identity, rng, settings, T0 } from './helpers';

export class SeatPhone {
  seq = 0;
  /** phase -> power -> commit id -> key */
  readonly keys = new Map<string, Map<Power, Record<string, Uint8Array>>>();
  constructor(
    readonly me: Identity,
    readonly random: ReturnType<typeof rng>,
  ) {}
  stamp(time: number) {
    return { seq: this.seq++, time };
  }
  commit(gameId: string, v: GameView, power: Power, orders: readonly Order[], time: number, coin?: Uint8Array): Signed {
    const c = v.current!;
    const key = this.random.bytes(32);
    const r = commitTurn(this.me, gameId, v, power, orders, { key, nonce: this.random.bytes(24), coin: coin ?? this.random.bytes(32) }, this.stamp(time));
    if (!r.ok) throw new Error(`commit refused: ${r.reason} ${r.missing.join(' ')}`);
    const byPower = this.keys.get(c.key) ?? new Map<Power, Record<string, Uint8Array>>();
    byPower.set(power, { ...(byPower.get(power) ?? {}), [r.message.id]: key });
    this.keys.set(c.key, byPower);
    return r.message;
  }
  reveal(gameId: string, v: GameView, power: Power, time: number): Signed {
    const c = v.current!;
    return revealOrders(this.me, gameId, c, power, this.keys.get(c.key)?.get(power) ?? {}, this.stamp(time));
  }
}

export interface VariantGame {
  gameId: string;
  variant: string;
  /** One phone per seat id, plus spare phones (not in the roster) under 'spare-N'. */
  phones: Map<string, SeatPhone>;
  log: Uint8Array[];
}

/** A started game of the variant: seat i played by identity i; `spares` extra players joined but unseated. */
export function startedVariant(variantId: string, seed = 1, overrides: Partial<Settings> = {}, spares = 0): VariantGame {
  const variant = variantById(variantId)!;
  const random = rng(seed);
  const phones = new Map<string, SeatPhone>();
  variant.seats.forEach((s, i) => phones.set(s.id, new SeatPhone(identity(i), rng(seed * 100 + i))));
  for (let k = 0; k < spares; k++) phones.set(`spare-${k}`, new SeatPhone(identity(10 + k), rng(seed * 100 + 50 + k)));
  const creator = phones.get(variant.seats[0]!.id)!;
  const { gameId, message } = createGame(creator.me, random.bytes(16), settings({ variant: variantId, ...overrides }), creator.stamp(T0));
  const log: Uint8Array[] = [message.bytes];
  for (const ph of phones.values()) log.push(joinGame(ph.me, gameId, 'player', null, ph.stamp(T0 + 1)).bytes);
  const roster = {} as Record<Power, string>;
  for (const s of variant.seats) for (const p of s.powers) roster[p] = phones.get(s.id)!.me.id;
  for (const p of variant.neutral) roster[p] = creator.me.id;
  const start = startGame(creator.me, gameId, roster, [], creator.stamp(T0 + 2));
  log.push(start.bytes);
  for (const s of variant.seats.slice(1)) log.push(acceptStart(phones.get(s.id)!.me, gameId, start.id, phones.get(s.id)!.stamp(T0 + 3)).bytes);
  return { gameId, variant: variantId, phones, log };
}

export function vview(game: VariantGame, log: readonly Uint8Array[] = game.log): GameView {
  return reduceLog(game.gameId, log);
}

/** The phone holding `power` now. */
export function holderOf(game: VariantGame, v: GameView, power: Power): SeatPhone {
  const key = v.holders![power];
  for (const ph of game.phones.values()) if (ph.me.id === key) return ph;
  throw new Error(`nobody holds ${power}`);
}

/**
 * Every required power commits (orders[p], or a hold for each of its units under the 1914 rules),
 * then every one reveals, except the powers in `absent`, which are then voted out by the others.
 */
export function playVariantPhase(
  game: VariantGame,
  orders: Partial<Record<Power, readonly Order[]>>,
  time: number,
  opts: { absent?: readonly Power[]; coins?: Partial<Record<Power, Uint8Array>>; silent?: readonly Power[] } = {},
): GameView {
  let v = vview(game);
  const c = v.current!;
  const absent = new Set(opts.absent ?? []);
  const silent = new Set(opts.silent ?? []);
  for (const p of c.required) {
    if (absent.has(p)) continue;
    const given = withHolds(v, p, orders[p] ?? []);
    game.log.push(holderOf(game, v, p).commit(game.gameId, v, p, given, time, opts.coins?.[p]).bytes);
  }
  v = vview(game);
  for (const p of c.required) if (!absent.has(p) && !silent.has(p)) game.log.push(holderOf(game, v, p).reveal(game.gameId, v, p, time + 1).bytes);
  const out = new Set([...absent, ...silent]);
  if (out.size > 0) {
    v = vview(game);
    const late = v.current!.revealDeadline + 1;
    // Every active power votes out the absent or silent powers of the other seats (a silent
    // player still votes; an absent one does not).
    const seatOf = (p: Power) => v.seats!.find((s) => s.powers.includes(p))?.id;
    for (const voter of c.active) {
      if (absent.has(voter)) continue;
      const against = [...out].filter((p) => seatOf(p) !== seatOf(voter));
      if (against.length === 0) continue;
      game.log.push(voteTimeout(holderOf(game, v, voter).me, game.gameId, c.key, voter, against, holderOf(game, v, voter).stamp(late)).bytes);
    }
  }
  return vview(game);
}

/** The orders given, plus a hold for every unit of the power they leave without one (movement only). */
function withHolds(v: GameView, p: Power, given: readonly Order[]): Order[] {
  const c = v.current!;
  if (c.position.phase.kind !== 'movement') return [...given];
  const ordered = new Set(given.filter((o) => o.power === p && 'unit' in o).map((o) => ('unit' in o ? o.unit.loc : '')));
  const holds: Order[] = c.position.units
    .filter((u) => u.power === p && !ordered.has(u.loc))
    .map((u) => ({ kind: 'hold', power: p, unit: { type: u.type, loc: u.loc } }));
  return [...given, ...holds];
}

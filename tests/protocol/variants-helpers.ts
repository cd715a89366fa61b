// Test harness for variant games: one phone per seat (a key holding several powers), the
// creator holding the neutral placeholders, phases played through commitTurn like honest phones.
import { variantById, type Order, type Power } from '../../src/rules';
import {
  acceptStart,
  ballotDuties,
  claimClock,
  commitTurn,
  createGame,
  finalOrders,
  joinGame,
  lockBallot,
  reduceLog,
  revealBallot,
  startGame,
  voteTimeout,
  type GameView,
  type Identity,
  type Settings,
  type Signed,
} from '../../src/protocol';
import { escrowOf, identity, messagesOf, payloadOf, rng, settings, T0, typeOf } from './helpers';

export class SeatPhone {
  seq = 0;
  /** commit id -> secret scalar. */
  readonly secrets = new Map<string, bigint>();
  /** `${phase}|${power}` -> commit ids, oldest first. */
  readonly commits = new Map<string, string[]>();
  constructor(
    readonly me: Identity,
    readonly random: ReturnType<typeof rng>,
  ) {}
  stamp(time: number) {
    return { seq: this.seq++, time };
  }
  commit(gameId: string, v: GameView, power: Power, orders: readonly Order[], time: number, coin?: Uint8Array): Signed {
    const c = v.current!;
    const random = { secret: this.random.bytes(32), nonce: this.random.bytes(24), entropy: this.random.bytes(32), coin: coin ?? this.random.bytes(32) };
    const r = commitTurn(this.me, gameId, v, power, orders, random, this.stamp(time));
    if (!r.ok) throw new Error(`commit refused: ${r.reason} ${r.missing.join(' ')}`);
    this.secrets.set(r.message.id, r.secret);
    this.commits.set(`${c.key}|${power}`, [...(this.commits.get(`${c.key}|${power}`) ?? []), r.message.id]);
    return r.message;
  }
  /**
   * The phone's automatic steps now (FINAL of each of its powers, LOCK, REVEAL as each falls due);
   * `hold`: all but the REVEAL. Returns what it signed.
   */
  steps(game: VariantGame, time: number, hold = false): Signed[] {
    const out: Signed[] = [];
    for (let round = 0; round < 6; round++) {
      const v = vview(game);
      if (v.status !== 'playing' || v.current === undefined) break;
      const messages = messagesOf(game.log);
      const due = ballotDuties(v, this.me.id);
      let signed: Signed | undefined;
      if (due.finals.length > 0) {
        const power = due.finals[0] as Power;
        signed = finalOrders(this.me, game.gameId, v.current.key, power, this.commits.get(`${v.current.key}|${power}`)!.at(-1)!, this.stamp(time));
      } else if (due.lock) signed = lockBallot(this.me, game.gameId, v, messages, this.stamp(time));
      else if (due.reveal && !hold) signed = revealBallot(this.me, game.gameId, v, messages, (id) => this.secrets.get(id) ?? null, this.stamp(time));
      if (signed === undefined) break;
      game.log.push(signed.bytes);
      out.push(signed);
    }
    return out;
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
  const start = startGame(creator.me, gameId, roster, escrowOf([...phones.values()].map((ph) => ph.me)), creator.stamp(T0 + 2));
  log.push(start.bytes);
  for (const s of variant.seats.slice(1)) log.push(acceptStart(phones.get(s.id)!.me, gameId, start, phones.get(s.id)!.stamp(T0 + 3)).bytes);
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

/** Every seat phone takes its automatic steps until nothing is left; `silent` phones hold their REVEAL, `absent` ones do nothing. */
export function settleVariant(game: VariantGame, time: number, opts: { absent?: readonly Power[]; silent?: readonly Power[] } = {}): GameView {
  const v0 = vview(game);
  const keyOf = (p: Power) => (v0.holders ?? v0.roster)![p];
  const absentKeys = new Set((opts.absent ?? []).map(keyOf));
  const silentKeys = new Set((opts.silent ?? []).map(keyOf));
  for (let round = 0; round < 8; round++) {
    let n = 0;
    for (const ph of game.phones.values()) if (!absentKeys.has(ph.me.id)) n += ph.steps(game, time, silentKeys.has(ph.me.id)).length;
    if (n === 0) break;
  }
  return vview(game);
}

/**
 * Every required power commits (orders[p], or a hold for each of its units under the 1914 rules),
 * then every phone takes its automatic steps, except the powers in `absent` (they seal nothing and
 * do nothing) and `silent` (they seal, finalize and lock, but never reveal); after the deadline that
 * applies, the others vote them out. A silent side of a two-player game first claims that its own
 * clock has passed the deadline (a CLOCK): only then can the single other player time it out.
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
  v = settleVariant(game, time + 1, opts);
  const out = new Set([...absent, ...silent]);
  if (out.size > 0 && v.current?.key === c.key) {
    const late = Math.max(v.current.revealDeadline, v.current.deadline) + 1;
    const seatOf = (p: Power) => v.seats!.find((s) => s.powers.includes(p))?.id;
    if (c.players.length === 2) {
      for (const p of silent) {
        const ph = holderOf(game, v, p);
        if (!game.log.some((b) => typeOf(b) === 'clock' && payloadOf(b).from === ph.me.id)) {
          game.log.push(claimClock(ph.me, game.gameId, c.key, 'reveal', ph.stamp(late)).bytes);
        }
      }
    }
    // Every other player votes the absent or silent powers of the other seats out (a silent player
    // still votes; an absent one does not), once per key.
    const voted = new Set<string>();
    for (const voter of c.active) {
      if (absent.has(voter)) continue;
      const ph = holderOf(game, v, voter);
      if (voted.has(ph.me.id)) continue;
      const against = [...out].filter((p) => seatOf(p) !== seatOf(voter) && holderOf(game, v, p) !== ph);
      if (against.length === 0) continue;
      voted.add(ph.me.id);
      game.log.push(voteTimeout(ph.me, game.gameId, c.key, against, ph.stamp(late)).bytes);
    }
    v = settleVariant(game, late, opts);
  }
  return v;
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

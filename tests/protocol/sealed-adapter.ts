// The seam between the issue-12 attack tests (tests/protocol/sealed-*.test.ts) and the protocol.
//
// The tests state PROPERTIES ("France's orders are the ones France sealed last", "the attacker can
// reach one outcome only"); this file says how an honest phone and a cheater act, in the verbs the
// tests use. Phase 1 (now) implements every verb with today's API, so the tests run and fail where
// today's protocol lets the attack through. Phase 2 (docs/sealed-design.md) re-implements the verbs
// marked PHASE 2 with the new messages (FINAL, LOCK, per-key REVEAL with escrow shares, the lot as
// a sealed ballot, padded seals and chats, the START anchor), keeping each verb's MEANING:
//  - honest verbs do what the app's runner does;
//  - attack verbs give the cheater the strongest translation of the attack under the protocol of
//    the day: every message it can sign, sent whenever it likes. An attack verb must never be
//    weakened to make a test pass; if the new protocol makes an attack impossible to even express,
//    the verb still signs the closest thing (e.g. a second LOCK where the old attack named an old
//    commit in a reveal) and lets the reducer refuse it.
// Everything here is pure and seeded (no clock, no Math.random).
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { POWERS, variantById, type Order, type Power } from '../../src/rules';
import {
  acceptStart,
  cachedVerifier,
  canonicalEncode,
  commitLot,
  commitOrders,
  commitTurn,
  createGame,
  dealSeats,
  drawRevealDue,
  handOver as handOverMessage,
  joinGame,
  lotOrder,
  messageId,
  openChat,
  openMessage,
  PROTOCOL_VERSION,
  reduceLog,
  revealDraw,
  revealDue,
  revealLot,
  revealOrders,
  sealChat,
  sealOrders,
  sendChat,
  signMessage,
  startGame,
  voteDraw as voteDrawMessage,
  voteTimeout,
  type GameView,
  type Identity,
  type Message,
  type PayloadBody,
  type Settings,
  type Signed,
  type Verifier,
} from '../../src/protocol';
import { duties, powersOf } from '../../src/ui/game/duties';
import { identity, rng, settings as baseSettings, T0 } from './helpers';

export type Rng = ReturnType<typeof rng>;

/** One phone: an identity, its own sequence counter, and the secrets of what it sealed. */
export class Device {
  seq = 0;
  /** commit id -> sealing key (phase 1: the secretbox key; PHASE 2: whatever the owner's reveal opens with). */
  readonly secrets = new Map<string, Uint8Array>();
  /** `${phase}|${power}` -> this device's commit ids, oldest first. */
  readonly sealed = new Map<string, string[]>();
  constructor(
    readonly me: Identity,
    readonly random: Rng,
    readonly name: string,
  ) {}
  clone(): Device {
    const d = new Device(this.me, this.random, this.name);
    d.seq = this.seq;
    for (const [k, v] of this.secrets) d.secrets.set(k, v);
    for (const [k, v] of this.sealed) d.sealed.set(k, [...v]);
    return d;
  }
  get key(): string {
    return this.me.id;
  }
  stamp(time: number) {
    return { seq: this.seq++, time };
  }
  commitsFor(phase: string, power: Power): string[] {
    return this.sealed.get(`${phase}|${power}`) ?? [];
  }
  keysFor(phase: string, power: Power): Record<string, Uint8Array> {
    return Object.fromEntries(this.commitsFor(phase, power).map((id) => [id, this.secrets.get(id)!]));
  }
}

export interface Table {
  gameId: string;
  createId: string;
  startId: string;
  /** Seated devices in seat order; devices[0] created the game. */
  devices: Device[];
  /** Joined before START but given no power (replacements, sybils). */
  spares: Device[];
  roster: Record<Power, string>;
  settings: Settings;
  log: Uint8Array[];
}

export interface TableOptions {
  seed?: number;
  /** Default 'standard'. For other variants the seats are the variant's. */
  variant?: string;
  /** Standard game only: which powers each player holds (default: one each, in POWERS order). */
  seats?: readonly (readonly Power[])[];
  spares?: number;
  settings?: Partial<Settings>;
}

/** A created, joined, started and accepted game. */
export function table(opts: TableOptions = {}): Table {
  const seed = opts.seed ?? 1;
  const variantId = opts.variant ?? 'standard';
  const variant = variantById(variantId)!;
  const seats = variantId === 'standard' ? (opts.seats ?? POWERS.map((p) => [p])) : variant.seats.map((s) => s.powers);
  const devices = seats.map((_, i) => new Device(identity(i), rng(seed * 100 + i), `seat-${i}`));
  const spares = Array.from({ length: opts.spares ?? 0 }, (_, k) => new Device(identity(20 + k), rng(seed * 100 + 50 + k), `spare-${k}`));
  const creator = devices[0]!;
  const s = baseSettings({ variant: variantId, ...opts.settings });
  const { gameId, message } = createGame(creator.me, rng(seed).bytes(16), s, creator.stamp(T0));
  const log: Uint8Array[] = [message.bytes];
  for (const d of [...devices, ...spares]) log.push(joinGame(d.me, gameId, d.name, null, d.stamp(T0 + 1)).bytes);
  const roster = {} as Record<Power, string>;
  seats.forEach((powers, i) => {
    for (const p of powers) roster[p] = devices[i]!.key;
  });
  for (const p of variant.neutral) roster[p] = creator.key;
  const start = startGame(creator.me, gameId, roster, [], creator.stamp(T0 + 2));
  log.push(start.bytes);
  for (const d of devices.slice(1)) log.push(acceptStart(d.me, gameId, start.id, d.stamp(T0 + 3)).bytes);
  return { gameId, createId: message.id, startId: start.id, devices, spares, roster, settings: s, log };
}

/**
 * An alternative future of the table: its own log and its own copies of the devices (same keys,
 * counters and secrets so far), so what is signed in the fork never leaks into the original.
 */
export function fork(t: Table, extra: readonly Uint8Array[] = []): Table {
  const copy = (d: Device) => d.clone();
  return { ...t, devices: t.devices.map(copy), spares: t.spares.map(copy), log: [...t.log, ...extra] };
}

export const post = (t: Table, msgs: readonly Signed[]): Signed[] => {
  for (const m of msgs) t.log.push(m.bytes);
  return [...msgs];
};

/**
 * The game as `d`'s phone sees it (null: a device that holds no seat, e.g. a spectator).
 * PHASE 2: passes the device's anchor (the START it accepted, derived from its own ACK; the
 * creator's own START for the creator) to the reducer.
 */
export function reduceAs(t: Table, _d: Device | null, log: readonly Uint8Array[] = t.log): GameView {
  return reduceLog(t.gameId, log, { verifier: nativeVerifier });
}

/**
 * Ed25519 through node's native crypto: the same check as tweetnacl's (the reducer takes any
 * Verifier; phones pass WebCrypto's), a hundred times faster, so seeded attack statistics over
 * hundreds of games stay quick. Signing still goes through the protocol's own tweetnacl code.
 */
const SPKI_ED25519 = Uint8Array.from([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]);
const publicKeys = new Map<string, KeyObject>();
export const nativeVerifier: Verifier = cachedVerifier((payload, signature, publicKey) => {
  const hex = Buffer.from(publicKey).toString('hex');
  let key = publicKeys.get(hex);
  if (key === undefined) {
    key = createPublicKey({ key: Buffer.concat([SPKI_ED25519, publicKey]), format: 'der', type: 'spki' });
    publicKeys.set(hex, key);
  }
  return verify(null, payload, key, signature);
});

export function powersHeld(v: GameView, d: Device): Power[] {
  return powersOf(v, d.key);
}

/**
 * Seals `orders` for `power` (the runner's "seal" button). In the toss phase of a two-player game
 * the coin is `extra.coin` (or random). PHASE 2: with escrow shares to every other distinct player
 * (`extra.bogusShareFor`: the keys whose share is deliberately wrong), padded to its bucket.
 */
export function seal(
  t: Table,
  d: Device,
  power: Power,
  orders: readonly Order[],
  time: number,
  extra: { coin?: Uint8Array; bogusShareFor?: readonly string[] } = {},
): Signed {
  const v = reduceAs(t, d);
  const c = v.current!;
  const key = d.random.bytes(32);
  const r = commitTurn(d.me, t.gameId, v, power, orders, { key, nonce: d.random.bytes(24), coin: extra.coin ?? d.random.bytes(32) }, d.stamp(time));
  if (!r.ok) throw new Error(`seal refused: ${r.reason}`);
  d.secrets.set(r.message.id, key);
  d.sealed.set(`${c.key}|${power}`, [...d.commitsFor(c.key, power), r.message.id]);
  return post(t, [r.message])[0]!;
}

/**
 * What `d`'s phone signs on its own now (runner duties): today the reveal of each of its powers
 * once `revealDue`, and its draw reveals. `hold`: do every automatic step except releasing keys
 * (today: nothing; PHASE 2: FINAL and LOCK, not REVEAL), so a cheater can wait and read.
 */
export function honestSteps(t: Table, d: Device, time: number, opts: { hold?: boolean } = {}): Signed[] {
  const v = reduceAs(t, d);
  const c = v.current;
  const out: Signed[] = [];
  if (v.status === 'starting') {
    // The runner accepts the START that rosters this phone (src/ui/game/duties.ts).
    for (const duty of duties({ view: v, me: d.key, messages: opened(t.log) })) {
      if (duty.kind === 'accept-start') out.push(acceptStart(d.me, t.gameId, duty.startId, d.stamp(time)));
    }
    return post(t, out);
  }
  if (c === undefined) return out;
  for (const p of powersHeld(v, d)) {
    if (!opts.hold && revealDue(v, p)) out.push(revealOrders(d.me, t.gameId, c, p, d.keysFor(c.key, p), d.stamp(time)));
    if (!opts.hold && drawRevealDue(v, p)) out.push(revealDraw(d.me, t.gameId, c, p, d.stamp(time)));
  }
  return post(t, out);
}

/** Every valid entry of a log, by id (what a phone's runner holds). */
export function opened(log: readonly Uint8Array[]): Map<string, Message> {
  const out = new Map<string, Message>();
  for (const b of log) {
    const o = openMessage(b, nativeVerifier);
    if (o.ok) out.set(o.message.id, o.message);
  }
  return out;
}

/**
 * Runs honest steps of `devices` until none of them has anything left to sign; returns the common
 * view. `clock` gives a device's own claimed time (a liar's clock), `time` otherwise.
 */
export function settle(t: Table, devices: readonly Device[], time: number, opts: { hold?: readonly Device[]; clock?: (d: Device) => number | undefined } = {}): GameView {
  for (let round = 0; round < 20; round++) {
    let n = 0;
    for (const d of devices) n += honestSteps(t, d, opts.clock?.(d) ?? time, { hold: opts.hold?.includes(d) ?? false }).length;
    if (n === 0) break;
  }
  return reduceAs(t, null);
}

/** The device holding `power` now. */
export function holder(t: Table, v: GameView, power: Power): Device {
  const key = (v.holders ?? v.roster)![power];
  const d = [...t.devices, ...t.spares].find((x) => x.key === key);
  if (d === undefined) throw new Error(`nobody holds ${power}`);
  return d;
}

/** Every required power of the listed devices (but `except`) seals orders[p], or nothing: its units hold. */
export function sealAll(t: Table, devices: readonly Device[], orders: Partial<Record<Power, readonly Order[]>>, time: number, except: readonly Power[] = []): void {
  const v = reduceAs(t, null);
  for (const d of devices) for (const p of powersHeld(v, d)) if (v.current!.required.includes(p) && !except.includes(p)) seal(t, d, p, orders[p] ?? [], time);
}

/** One honest phase for everyone: seal, then settle. */
export function playHonest(t: Table, orders: Partial<Record<Power, readonly Order[]>>, time: number): GameView {
  sealAll(t, t.devices, orders, time);
  return settle(t, t.devices, time + 1);
}

// ---------------------------------------------------------------------------------------------
// Attack verbs
// ---------------------------------------------------------------------------------------------

/**
 * Several plans for one power, sealed before anyone has revealed, so that a chooser can pick one
 * later; returns one id per plan (the id the chooser names). Today: a chain of re-seals.
 * PHASE 2: the strongest translation, e.g. a commit per plan and a FINAL per plan (equivocation),
 * the extra FINALs kept back for the chooser.
 */
export function sealPlans(t: Table, d: Device, power: Power, plans: readonly (readonly Order[])[], time: number, coins?: readonly Uint8Array[]): string[] {
  return plans.map((orders, i) => seal(t, d, power, orders, time, coins?.[i] === undefined ? {} : { coin: coins[i]! }).id);
}

/**
 * `d`, having read everything, finishes its part of the phase (releases its keys) while naming
 * `naming[p]` as the commit (plan) of power p it "had seen". Today: its reveals' locks.
 * PHASE 2: its LOCK (a second one if it already locked: equivocation) names the FINAL of that plan
 * (publishing a kept-back FINAL if needed), and its REVEAL names that LOCK.
 */
export function revealNaming(t: Table, d: Device, time: number, naming: Partial<Record<Power, string>>): Signed[] {
  const v = reduceAs(t, d);
  const c = v.current!;
  const out: Signed[] = [];
  for (const p of powersHeld(v, d)) {
    if (!c.required.includes(p) || c.revealed.includes(p) || d.commitsFor(c.key, p).length === 0) continue;
    out.push(revealOrders(d.me, t.gameId, { ...c, heads: { ...c.heads, ...naming } }, p, d.keysFor(c.key, p), d.stamp(time)));
  }
  return post(t, out);
}

/**
 * `d` releases its keys but not its escrow shares of the commits of `owners` (keys): an accomplice
 * keeping a withholder's orders shut. Today there are no shares: an ordinary reveal.
 * PHASE 2: its REVEAL without (or with wrong) shares for those owners' commits.
 */
export function revealOmittingShares(t: Table, d: Device, time: number, _owners: readonly string[]): Signed[] {
  return honestSteps(t, d, time);
}

/** Timeout votes by each voter (for every active power it holds) against `targets`. PHASE 2: per key. */
export function voteOut(t: Table, voters: readonly Device[], targets: readonly Power[], time: number): Signed[] {
  const v = reduceAs(t, null);
  const c = v.current!;
  const out: Signed[] = [];
  for (const d of voters) {
    const mine = powersHeld(v, d).filter((p) => c.active.includes(p));
    const against = targets.filter((p) => !mine.includes(p));
    if (against.length === 0) continue;
    for (const p of mine) out.push(voteTimeout(d.me, t.gameId, c.key, p, against, d.stamp(time)));
  }
  return post(t, out);
}

/** Hand-over votes: each signer asks that `power` pass to key `to` (signed once per signer). */
export function handOver(t: Table, signers: readonly Device[], power: Power, to: string, time: number): Signed[] {
  const v = reduceAs(t, null);
  return post(t, signers.map((d) => handOverMessage(d.me, t.gameId, v.current!.key, power, to, d.stamp(time))));
}

/** A secret draw vote. PHASE 2: the vote travels inside the power's sealed orders (re-seal). */
export function voteDraw(t: Table, d: Device, power: Power, yes: boolean, time: number): Signed {
  const v = reduceAs(t, d);
  return post(t, [voteDrawMessage(d.me, t.gameId, v.current!.key, power, yes, d.stamp(time))])[0]!;
}

/**
 * Signs a payload exactly as the protocol's signMessage does (canonical payload with v and from,
 * Ed25519 signature in front), with node's native Ed25519: Ed25519 signatures are deterministic,
 * so the bytes are identical to tweetnacl's (a test checks it), only a hundred times faster. For
 * building logs of thousands of entries.
 */
const PKCS8_ED25519 = Uint8Array.from([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]);
const privateKeys = new Map<string, KeyObject>();
export function fastSign(me: Identity, body: PayloadBody): Signed {
  let key = privateKeys.get(me.id);
  if (key === undefined) {
    key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, me.signSecretKey.subarray(0, 32)]), format: 'der', type: 'pkcs8' });
    privateKeys.set(me.id, key);
  }
  const payload = canonicalEncode({ ...body, v: PROTOCOL_VERSION, from: me.id });
  const bytes = new Uint8Array(64 + payload.length);
  bytes.set(sign(null, payload, key), 0);
  bytes.set(payload, 64);
  return { id: messageId(bytes), bytes };
}

/**
 * `n` commits of one power in the open phase, each replacing the one before (a chain), with
 * sequence numbers running backwards along the chain (an author picks its numbers freely; a
 * reducer that walks chains by repeated passes in seq order is quadratic on this). Not posted.
 * PHASE 2: if commits no longer chain, simply n commits of the power.
 */
export function commitChain(t: Table, d: Device, power: Power, n: number, time: number): Signed[] {
  const v = reduceAs(t, d);
  const phase = v.current!.key;
  const out: Signed[] = [];
  let prev: string | null = null;
  const base = d.seq + n;
  for (let i = 0; i < n; i++) {
    const sealed = sealOrders([], d.random.bytes(32), d.random.bytes(24));
    const m = fastSign(d.me, { type: 'commit', game: t.gameId, seq: base - i, time, phase, power, prev, sealed: sealed.sealed, hash: sealed.hash, keyHash: sealed.keyHash });
    out.push(m);
    prev = m.id;
  }
  d.seq = base + 1;
  return out;
}

/** Signs `body` as `d` with a `time` chosen so that its id sorts below `below` (grinding). */
function grind(d: Device, body: Record<string, unknown>, below: string, time: number): Signed {
  for (let k = 0; k < 10_000; k++) {
    const bytes = signMessage(d.me, { ...body, ...d.stamp(time + k) } as never);
    const id = messageId(bytes);
    if (id < below) return { id, bytes };
  }
  throw new Error('grind failed');
}

/** The creator signs another START for the game (id ground below the first one's). */
export function secondStart(t: Table, roster: Record<Power, string>, time: number): Signed {
  const creator = t.devices[0]!;
  return post(t, [grind(creator, { type: 'start', game: t.gameId, roster, lot: [] }, t.startId, time)])[0]!;
}

/** The creator signs another CREATE with the same salt and other settings (id ground below the first). */
export function secondCreate(t: Table, changed: Partial<Settings>, time: number): Signed {
  const creator = t.devices[0]!;
  const first = new TextDecoder().decode(t.log[0]!.subarray(64));
  const salt = (JSON.parse(first) as { salt: string }).salt;
  return post(t, [grind(creator, { type: 'create', game: t.gameId, salt, settings: { ...t.settings, ...changed } }, t.createId, time)])[0]!;
}

/** A JOIN sent after START (a stranger with the invite link, or a replacement). */
export function lateJoin(t: Table, n: number, time: number): Device {
  const d = new Device(identity(40 + n), rng(4000 + n), `late-${n}`);
  post(t, [joinGame(d.me, t.gameId, d.name, null, d.stamp(time))]);
  return d;
}

// ---------------------------------------------------------------------------------------------
// Escrow, leaks, chat
// ---------------------------------------------------------------------------------------------

/**
 * The orders in commit `commitId`, opened by `holders` pooling the escrow shares they received
 * (and what is public in the log), without its owner's key; null if they cannot.
 * Today there is no escrow: always null. PHASE 2: decrypt each holder's share, combine.
 */
export function openWithShares(_t: Table, _commitId: string, _holders: readonly Device[]): readonly Order[] | null {
  return null;
}

/** The length of the sealed field of the commit `d` would sign for these orders (not posted). */
export function sealedLength(t: Table, d: Device, power: Power, orders: readonly Order[]): number {
  const v = reduceAs(t, d);
  const c = v.current!;
  const m = commitOrders(d.me, t.gameId, c.key, power, orders, null, d.random.bytes(32), d.random.bytes(24), d.stamp(T0));
  return payloadOf(m.bytes).sealed.length;
}

export function payloadOf(bytes: Uint8Array): Record<string, any> {
  return JSON.parse(new TextDecoder().decode(bytes.subarray(64))) as Record<string, any>;
}

/**
 * A chat from `d` to 'all' or to the holders of some powers, as the app's runner builds it today
 * (src/ui/game/runner.ts sendChat: 'all' = every JOINed key). PHASE 2: the protocol's own
 * recipient function ('all' = the players of the started game), padded, recipients hidden.
 */
export function chat(t: Table, d: Device, to: readonly Power[] | 'all', text: string, time: number): Signed {
  const view = reduceAs(t, d);
  const roster = view.holders ?? view.roster;
  const keys = to === 'all' || roster === undefined ? view.players.map((p) => p.key) : to.map((p) => roster[p]);
  const recipients = view.players.filter((p) => p.key !== d.key && keys.includes(p.key)).map((p) => ({ key: p.key, box: p.box }));
  const sealed = sealChat(text, d.me, recipients, d.random.bytes(32), d.random.bytes(24));
  return post(t, [sendChat(d.me, t.gameId, sealed, d.stamp(time))])[0]!;
}

/** What `reader` reads in a chat entry, or null. */
export function readChat(t: Table, reader: Device, msg: Signed): string | null {
  const p = payloadOf(msg.bytes);
  const v = reduceAs(t, reader);
  const sender = v.players.find((x) => x.key === p.from);
  if (sender === undefined) return null;
  return openChat(p as never, sender.box, reader.me);
}

// ---------------------------------------------------------------------------------------------
// The lot
// ---------------------------------------------------------------------------------------------

export type LotAttack =
  /** One player signs `commits` lot commits and, having read the others, opens the one it likes (or none). */
  | { readonly kind: 'many-commits'; readonly attacker: number; readonly commits: number }
  /** The creator (device 0), having read every value, chooses which of them the draw counts. */
  | { readonly kind: 'creator-chooses' }
  /** One player with one commit, having read every other value, reveals or withholds. */
  | { readonly kind: 'last-revealer'; readonly attacker: number }
  /** The creator and one accomplice do anything of the above together. */
  | { readonly kind: 'pair'; readonly accomplice: number };

export interface LotRun {
  /** The attacker's key (for 'pair': the creator's). */
  readonly attacker: string;
  /** Every power the attacker can end up holding by choosing among the options it has. */
  readonly reachable: ReadonlySet<Power>;
}

/**
 * A lot game of `players` players (device 0 creates it), played honestly except by the attacker,
 * which explores every option it has at the point where it has read everything it can read.
 * Today: lot commits, the creator reveals first, the others reveal, START names the counted reveals.
 * PHASE 2: START names the participants, the lot is a sealed ballot with escrow (docs).
 */
export function lotRun(seed: number, attack: LotAttack, players = 7): LotRun {
  const r = rng(seed);
  const devices = Array.from({ length: players }, (_, i) => new Device(identity(i), rng(seed * 131 + i), `p${i}`));
  const creator = devices[0]!;
  const { gameId, message } = createGame(creator.me, r.bytes(16), baseSettings({ assignment: 'lot' }), creator.stamp(T0));
  const log: Uint8Array[] = [message.bytes];
  const values = new Map<Device, Uint8Array[]>();
  for (const d of devices) {
    log.push(joinGame(d.me, gameId, d.name, null, d.stamp(T0 + 1)).bytes);
    const k = attack.kind === 'many-commits' && devices.indexOf(d) === attack.attacker ? attack.commits : 1;
    const mine = Array.from({ length: k }, () => d.random.bytes(32));
    values.set(d, mine);
    for (const v of mine) log.push(commitLot(d.me, gameId, 'powers', v, d.stamp(T0 + 2)).bytes);
  }
  const cheaters = new Set<Device>(
    attack.kind === 'many-commits' || attack.kind === 'last-revealer' ? [devices[attack.attacker]!]
    : attack.kind === 'creator-chooses' ? [creator]
    : [creator, devices[attack.accomplice]!],
  );
  // Honest players reveal (the creator first, as the runner does); cheaters wait and read them all.
  const reveals = new Map<Device, Signed>();
  for (const d of devices) {
    if (cheaters.has(d)) continue;
    const rv = revealLot(d.me, gameId, 'powers', values.get(d)![0]!, d.stamp(T0 + 3));
    reveals.set(d, rv);
    log.push(rv.bytes);
  }
  // Each cheater's options: reveal any one of its values, or withhold (signed only when needed).
  // (Honest phones reveal only after the creator has, so a cheating creator's value is out first.)
  const choices = [...cheaters].map((d) => (d === creator ? values.get(d)! : [null, ...values.get(d)!]).map((value) => ({ d, value })));
  const reachable = new Set<Power>();
  const attackerKey = [...cheaters][0]!.key;
  type Choice = { d: Device; value: Uint8Array | null };
  const combos = (i: number): Choice[][] => (i === choices.length ? [[]] : choices[i]!.flatMap((c) => combos(i + 1).map((rest) => [c, ...rest])));
  const honest = [...reveals.entries()].map(([d, m]) => ({ d, value: values.get(d)![0]!, m }));
  for (const combo of combos(0)) {
    const opened = [...honest, ...combo.filter((c) => c.value !== null).map((c) => ({ d: c.d, value: c.value!, m: null as Signed | null }))];
    // The START: an honest creator counts every reveal; a cheating creator any subset it likes.
    for (const counted of cheaters.has(creator) ? subsetsOf(opened) : [opened]) {
      const revealed = new Map(counted.map((c) => [c.d.key, c.value]));
      const order = lotOrder(devices.map((d) => d.key), revealed);
      const roster = dealSeats(order, revealed, POWERS.map((p) => ({ id: p, powers: [p] }))) as Record<Power, string>;
      const mine = POWERS.find((p) => roster[p] === attackerKey);
      if (mine === undefined || reachable.has(mine)) continue;
      // Only a START the protocol accepts gives the attacker that power: sign this option and check.
      const published = opened.map((c) => c.m ?? revealLot(c.d.me, gameId, 'powers', c.value, c.d.stamp(T0 + 4)));
      const countedIds = published.filter((_, i) => counted.includes(opened[i]!)).map((m) => m.id);
      const start = startGame(creator.me, gameId, roster, countedIds, creator.stamp(T0 + 5));
      const extra = published.filter((m) => !honest.some((h) => h.m === m)).map((m) => m.bytes);
      const v = reduceLog(gameId, [...log, ...extra, start.bytes], { verifier: nativeVerifier });
      if (v.roster !== undefined && v.roster[mine] === attackerKey) reachable.add(mine);
    }
  }
  return { attacker: attackerKey, reachable };
}

function subsetsOf<T>(xs: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let mask = 1; mask < 1 << xs.length; mask++) out.push(xs.filter((_, i) => (mask >> i) & 1));
  return out;
}

export const encodeView = (v: GameView) => canonicalEncode(v);

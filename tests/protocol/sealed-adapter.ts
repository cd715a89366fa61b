// The seam between the issue-12 attack tests (tests/protocol/sealed-*.test.ts) and the protocol.
//
// The tests state PROPERTIES ("France's orders are the ones France sealed last", "the attacker can
// reach one outcome only"); this file says how an honest phone and a cheater act, in the verbs the
// tests use. Phase 1 implemented every verb with the v1 API, so the tests ran and failed where that
// protocol let the attack through. Phase 2 (now; rules in src/protocol/README.md) implements the
// verbs with the v2 messages (FINAL, LOCK, per-key REVEAL with escrow shares, the lot as a sealed
// ballot, padded seals and chats, the START anchor), keeping each verb's MEANING:
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
  ballotDuties,
  cachedVerifier,
  canonicalEncode,
  chatPlayers,
  checkCommitSecret,
  claimClock,
  commitLotValue,
  commitTurn,
  createGame,
  encodePayload,
  escrowHolders,
  finalOrders,
  handOver as handOverMessage,
  DERIVED_ESCROW_VERSION,
  escrowPublic,
  interpolateAtZero,
  joinGame,
  lockBallot,
  messageId,
  myShare,
  openBallot,
  openChat,
  openMessage,
  openSealed,
  ordersFromPlain,
  pointFromText,
  pointText,
  PROTOCOL_VERSION,
  reconstructFor,
  reduceLog,
  revealBallot,
  revealDeadlineFor,
  revealDue,
  compareText,
  sealChat,
  sealCommit,
  sealOrders,
  sendChat,
  signMessage,
  startGame,
  startKeys,
  startLot,
  voteTimeout,
  acknowledge,
  type GameView,
  type Identity,
  type Message,
  type Payload,
  type PayloadBody,
  type Settings,
  type Signed,
  type Verifier,
} from '../../src/protocol';
import { scalarText } from '../../src/protocol/escrow';
import type { RevealPayload } from '../../src/protocol/messages';
import { duties, powersOf } from '../../src/ui/game/duties';
import { escrowOf, identity, payloadOf, rng, settings as baseSettings, T0 } from './helpers';

export type Rng = ReturnType<typeof rng>;

/** One phone: an identity, its own sequence counter, and the secrets of what it sealed. */
export class Device {
  seq = 0;
  /** commit id -> the secret scalar its owner's REVEAL releases. */
  readonly secrets = new Map<string, bigint>();
  /** `${phase}|${power}` -> this device's commit ids, oldest first. */
  readonly sealed = new Map<string, string[]>();
  /** `${phase}|${power}` -> the orders it sealed last (a draw vote re-seals them). */
  readonly orders = new Map<string, readonly Order[]>();
  /** commit id -> a FINAL naming it, signed and kept back (sealPlans). */
  readonly keptFinals = new Map<string, Signed>();
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
    for (const [k, v] of this.orders) d.orders.set(k, v);
    for (const [k, v] of this.keptFinals) d.keptFinals.set(k, v);
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
  sealRandom(coin?: Uint8Array) {
    return { secret: this.random.bytes(32), nonce: this.random.bytes(24), entropy: this.random.bytes(32), coin: coin ?? this.random.bytes(32) };
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
  /** Deadlines may leave out `reveal`: it is then derived as the New Game screen derives it. */
  settings?: Partial<Omit<Settings, 'deadlines'>> & { deadlines?: Omit<Settings['deadlines'], 'reveal'> & Partial<Pick<Settings['deadlines'], 'reveal'>> };
}

/** Settings as the New Game screen makes them: the reveal-stage deadline derived when not given. */
function withReveal(s: Settings): Settings {
  const d = s.deadlines as Partial<Settings['deadlines']> & Omit<Settings['deadlines'], 'reveal'>;
  return { ...s, deadlines: { ...d, reveal: d.reveal ?? revealDeadlineFor(d) } };
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
  const s = withReveal(baseSettings({ variant: variantId, ...(opts.settings as Partial<Settings>) }));
  const { gameId, message } = createGame(creator.me, rng(seed).bytes(16), s, creator.stamp(T0));
  const log: Uint8Array[] = [message.bytes];
  for (const d of [...devices, ...spares]) log.push(joinGame(d.me, gameId, d.name, null, d.stamp(T0 + 1)).bytes);
  const roster = {} as Record<Power, string>;
  seats.forEach((powers, i) => {
    for (const p of powers) roster[p] = devices[i]!.key;
  });
  for (const p of variant.neutral) roster[p] = creator.key;
  const start = startGame(creator.me, gameId, roster, escrowOf([...devices, ...spares].map((d) => d.me)), creator.stamp(T0 + 2));
  log.push(start.bytes);
  for (const d of devices.slice(1)) log.push(acceptStart(d.me, gameId, start, d.stamp(T0 + 3)).bytes);
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
 * The game as `d`'s phone sees it (null: a phone with no anchor, e.g. a spectator): the reducer
 * anchors it to the START it signed or accepted.
 */
export function reduceAs(t: Table, d: Device | null, log: readonly Uint8Array[] = t.log): GameView {
  return reduceLog(t.gameId, log, { verifier: nativeVerifier, ...(d === null ? {} : { me: d.key }) });
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

/** Decodes a signed entry's payload (either encoding). */
export { payloadOf };

/** Re-signs a payload changed by a cheater (the protocol's own signer: a cheater signs what it likes). */
function resign(d: Device, payload: Record<string, any>): Signed {
  const { v: _v, from: _from, ...body } = payload;
  const bytes = signMessage(d.me, body as PayloadBody);
  return { id: messageId(bytes), bytes };
}

/**
 * Makes the escrow share of each holder in `keys` wrong: before version 5 a character of its
 * encrypted share flips; from version 5 (derived shares) its commitment S_i becomes S_i + G, a
 * valid point that the share it derives no longer matches (the dealer's only freedom there).
 */
function spoilShares(escrow: { c: string[]; e: string | null; s: string[] }, holders: readonly string[], keys: readonly string[]) {
  if (escrow.s.length === 0 && escrow.e !== null) {
    const G = pointFromText(escrowPublic(1n))!;
    return { ...escrow, c: escrow.c.map((text, i) => (keys.includes(holders[i]!) ? pointText(pointFromText(text)!.add(G)) : text)) };
  }
  return { ...escrow, s: escrow.s.map((text, i) => (keys.includes(holders[i]!) ? (text[0] === 'A' ? 'B' : 'A') + text.slice(1) : text)) };
}

/**
 * Seals `orders` for `power` (the runner's "seal" button): padded to its bucket, with escrow shares
 * to every other key of the ballot (`extra.bogusShareFor`: the keys whose share is deliberately
 * wrong), the draw vote in movement phases (`extra.draw`) and, in the toss phase of a two-player
 * game, the coin `extra.coin` (or a random one).
 */
export function seal(
  t: Table,
  d: Device,
  power: Power,
  orders: readonly Order[],
  time: number,
  extra: { coin?: Uint8Array; bogusShareFor?: readonly string[]; draw?: boolean } = {},
): Signed {
  const v = reduceAs(t, d);
  const c = v.current!;
  const r = commitTurn(d.me, t.gameId, v, power, orders, d.sealRandom(extra.coin), d.stamp(time), extra.draw === undefined ? {} : { draw: extra.draw });
  if (!r.ok) throw new Error(`seal refused: ${r.reason}`);
  let message = r.message;
  if (extra.bogusShareFor !== undefined && extra.bogusShareFor.length > 0) {
    const p = payloadOf(message.bytes);
    message = resign(d, { ...p, escrow: spoilShares(p.escrow, escrowHolders(c.ballotKeys, d.key), extra.bogusShareFor) });
  }
  d.secrets.set(message.id, r.secret);
  d.sealed.set(`${c.key}|${power}`, [...d.commitsFor(c.key, power), message.id]);
  d.orders.set(`${c.key}|${power}`, orders);
  return post(t, [message])[0]!;
}

const openedCache = new WeakMap<Uint8Array, Message | null>();

/** Every valid entry of a log, by id (what a phone's runner holds). */
export function opened(log: readonly Uint8Array[]): Map<string, Message> {
  const out = new Map<string, Message>();
  for (const b of log) {
    let m = openedCache.get(b);
    if (m === undefined) {
      const o = openMessage(b, nativeVerifier);
      m = o.ok ? o.message : null;
      openedCache.set(b, m);
    }
    if (m !== null) out.set(m.id, m);
  }
  return out;
}

/** The secret `d` sealed a commit with (null: not its commit). */
const secretOf = (d: Device) => (id: string) => d.secrets.get(id) ?? null;

/**
 * What `d`'s phone signs on its own now (the runner's duties, src/ui/game/duties.ts): accept the
 * START, ACK resolved phases, its lot commit, FINAL, LOCK and REVEAL as each falls due (in one
 * turn when one makes the next due), and a CLOCK claim where a two-player game needs one.
 * `hold`: every automatic step except releasing keys (FINAL and LOCK, no REVEAL), so a cheater
 * can wait and read.
 */
export function honestSteps(t: Table, d: Device, time: number, opts: { hold?: boolean } = {}): Signed[] {
  const out: Signed[] = [];
  for (let round = 0; round < 8; round++) {
    const v = reduceAs(t, d);
    const messages = opened(t.log);
    const step: Signed[] = [];
    for (const duty of duties({ view: v, me: d.key, now: time })) {
      switch (duty.kind) {
        case 'accept-start':
          step.push(acceptStart(d.me, t.gameId, messages.get(duty.startId)!, d.stamp(time)));
          break;
        case 'ack':
          step.push(acknowledge(d.me, t.gameId, duty.phase, duty.hash, d.stamp(time)));
          break;
        case 'lot-commit': {
          const value = d.random.bytes(32);
          const r = commitLotValue(d.me, t.gameId, v, value, d.sealRandom(), d.stamp(time));
          d.secrets.set(r.message.id, r.secret);
          step.push(r.message);
          break;
        }
        case 'final': {
          const mineLast = d.commitsFor(duty.phase, duty.power).at(-1) ?? v.current!.ballot.heads[duty.power]!;
          step.push(finalOrders(d.me, t.gameId, duty.phase, duty.power, mineLast, d.stamp(time)));
          break;
        }
        case 'lock':
          step.push(lockBallot(d.me, t.gameId, v, messages, d.stamp(time)));
          break;
        case 'reveal':
          if (!opts.hold) step.push(revealBallot(d.me, t.gameId, v, messages, secretOf(d), d.stamp(time)));
          break;
        case 'clock':
          step.push(claimClock(d.me, t.gameId, duty.phase, 'orders', d.stamp(time)));
          break;
      }
      // One kind at a time: the next duty is judged on a view that includes this one.
      if (step.length > 0 && (duty.kind === 'lock' || duty.kind === 'final' || duty.kind === 'lot-commit')) break;
    }
    if (step.length === 0) break;
    out.push(...post(t, step));
  }
  return out;
}

/**
 * Runs honest steps of `devices` until none of them has anything left to sign; returns the view of
 * a phone without anchor. `clock` gives a device's own claimed time (a liar's clock), `time` otherwise.
 * `hold`: devices that do every automatic step but release nothing (honestSteps' hold), listed in
 * `devices` or not: a withholder still finalizes and locks, since that is what lets it read the others.
 */
export function settle(
  t: Table,
  devices: readonly Device[],
  time: number,
  opts: { hold?: readonly Device[]; clock?: (d: Device) => number | undefined } = {},
): GameView {
  const all = [...devices, ...(opts.hold ?? []).filter((d) => !devices.includes(d))];
  for (let round = 0; round < 20; round++) {
    let n = 0;
    for (const d of all) n += honestSteps(t, d, opts.clock?.(d) ?? time, { hold: opts.hold?.includes(d) ?? false }).length;
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
export function sealAll(
  t: Table,
  devices: readonly Device[],
  orders: Partial<Record<Power, readonly Order[]>>,
  time: number,
  except: readonly Power[] = [],
): void {
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
 * later; returns one id per plan (the id the chooser names). The strongest translation: a commit
 * per plan and a FINAL per plan (equivocation); the FINAL of the last plan is published (what the
 * phone's own FINAL would name), the others are kept back for the chooser.
 */
export function sealPlans(t: Table, d: Device, power: Power, plans: readonly (readonly Order[])[], time: number, coins?: readonly Uint8Array[]): string[] {
  const ids = plans.map((orders, i) => seal(t, d, power, orders, time, coins?.[i] === undefined ? {} : { coin: coins[i]! }).id);
  const phase = reduceAs(t, d).current!.key;
  ids.forEach((id, i) => {
    const f = finalOrders(d.me, t.gameId, phase, power, id, d.stamp(time));
    if (i === ids.length - 1) post(t, [f]);
    else d.keptFinals.set(id, f);
  });
  return ids;
}

/**
 * `d`, having read everything, finishes its part of the phase (releases its keys) while naming
 * `naming[p]` as the commit (plan) of power p it "had seen": its LOCK (a second one if it already
 * locked: equivocation) names the FINAL of that plan (publishing a kept-back FINAL if needed; a
 * commit nobody finalized goes in the LOCK's heads, the closest thing it can sign), and its REVEAL
 * names that LOCK.
 */
export function revealNaming(t: Table, d: Device, time: number, naming: Partial<Record<Power, string>>): Signed[] {
  const out: Signed[] = [];
  let v = reduceAs(t, d);
  const b = openBallot(v);
  if (b === undefined) return out;
  let messages = opened(t.log);
  const finals: Record<string, string> = {};
  const heads: Record<string, string> = {};
  for (const slot of b.required) {
    const ids = b.ballot.finals[slot];
    if (ids !== undefined && ids.length > 0) finals[slot] = [...ids].sort()[0]!;
    else if (b.timedOut.includes(slot) && b.ballot.heads[slot] !== undefined) heads[slot] = b.ballot.heads[slot]!;
  }
  for (const [power, commit] of Object.entries(naming)) {
    const published = [...messages.values()].find((m) => m.payload.type === 'final' && m.payload.phase === b.phase && m.payload.commit === commit);
    const kept = d.keptFinals.get(commit);
    if (published !== undefined) finals[power] = published.id;
    else if (kept !== undefined) {
      out.push(...post(t, [kept]));
      d.keptFinals.delete(commit);
      finals[power] = kept.id;
    } else heads[power] = commit;
  }
  // Its own LOCK's complaints are kept (an honest LOCK's, so its REVEAL stays valid).
  const honest = payloadOf(lockBallot(d.me, t.gameId, v, messages, { seq: 0, time }).bytes);
  const lock = resign(d, { ...honest, ...d.stamp(time), finals, heads });
  out.push(...post(t, [lock]));
  v = reduceAs(t, d);
  messages = opened(t.log);
  out.push(...post(t, [cheatReveal(d, t, v, messages, time, { ownLock: lock.id })]));
  return out;
}

/**
 * `d`'s REVEAL as the honest one (revealBallot) but for what a cheater changes: naming `ownLock`
 * as its own LOCK, and releasing no share of the commits of `withholdFrom` (keys). Built from the
 * protocol's own revealDue, so every other value sits where the tally looks for it; re-signed by `d`.
 */
function cheatReveal(
  d: Device,
  t: Table,
  v: GameView,
  messages: ReadonlyMap<string, Message>,
  time: number,
  cheat: { readonly ownLock?: string; readonly withholdFrom?: readonly string[] },
): Signed {
  const b = openBallot(v)!;
  const honest = payloadOf(revealBallot(d.me, t.gameId, v, messages, secretOf(d), d.stamp(time)).bytes) as RevealPayload;
  const ownLocks = new Set(b.ballot.locks[d.key] ?? []);
  const locks =
    cheat.ownLock === undefined ? [...(honest.locks as string[])] : [...(honest.locks as string[]).filter((id) => !ownLocks.has(id)), cheat.ownLock];
  locks.sort(compareText);
  const secrets: string[] = [];
  const shares: string[] = [];
  for (const { commit: c, release } of revealDue(d.key, b.ballotKeys, messages, locks, honest.complaints !== undefined)) {
    if (release === 'secret') secrets.push(scalarText(secretOf(d)(c.id)!));
    else if (!(cheat.withholdFrom ?? []).includes(c.from)) {
      const share = myShare(d.me, c.id, c.payload, escrowHolders(b.ballotKeys, c.from));
      if (share !== undefined && share !== null) shares.push(scalarText(share));
    }
  }
  return resign(d, { ...honest, locks, secrets, shares });
}

/**
 * `d` releases its keys but not its escrow shares of the commits of `owners` (keys): an accomplice
 * keeping a withholder's orders shut. Its LOCK is signed first if it has none.
 */
export function revealOmittingShares(t: Table, d: Device, time: number, owners: readonly string[]): Signed[] {
  const out: Signed[] = [];
  let v = reduceAs(t, d);
  let messages = opened(t.log);
  if (!ballotDuties(v, d.key).reveal) {
    out.push(...honestSteps(t, d, time, { hold: true }));
    v = reduceAs(t, d);
    messages = opened(t.log);
  }
  out.push(...post(t, [cheatReveal(d, t, v, messages, time, { withholdFrom: owners })]));
  return out;
}

/** Timeout votes: one per voter key (whatever powers it holds), against `targets` not its own. */
export function voteOut(t: Table, voters: readonly Device[], targets: readonly Power[], time: number): Signed[] {
  const out: Signed[] = [];
  for (const d of voters) {
    const v = reduceAs(t, d);
    const c = v.current;
    if (c === undefined) continue;
    const mine = powersHeld(v, d);
    const against = targets.filter((p) => !mine.includes(p));
    if (against.length === 0) continue;
    out.push(voteTimeout(d.me, t.gameId, c.key, against, d.stamp(time)));
  }
  return post(t, out);
}

/** Hand-over votes: each signer asks that `power` pass to key `to` (signed once per signer). */
export function handOver(t: Table, signers: readonly Device[], power: Power, to: string, time: number): Signed[] {
  const out: Signed[] = [];
  for (const d of signers) {
    const v = reduceAs(t, d);
    const escrow = v.players.find((p) => p.key === to)?.escrow ?? null;
    if (v.current !== undefined) out.push(handOverMessage(d.me, t.gameId, v.current.key, power, to, escrow, v.start ?? t.startId, d.stamp(time)));
  }
  return post(t, out);
}

/** A draw vote: it travels inside the power's sealed orders, so voting re-seals them with the flag. */
export function voteDraw(t: Table, d: Device, power: Power, yes: boolean, time: number): Signed {
  const v = reduceAs(t, d);
  const orders = d.orders.get(`${v.current!.key}|${power}`) ?? [];
  return seal(t, d, power, orders, time, { draw: yes });
}

/**
 * Signs a payload exactly as the protocol's signMessage does (binary payload with v and from,
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
  const payload = encodePayload({ ...body, v: PROTOCOL_VERSION, from: me.id } as Payload);
  const bytes = new Uint8Array(64 + payload.length);
  bytes.set(sign(null, payload, key), 0);
  bytes.set(payload, 64);
  return { id: messageId(bytes), bytes };
}

const POINT_POOL = Array.from({ length: 32 }, (_, k) => escrowPublic(BigInt(1000 + k)));

/**
 * `n` commits of one power in the open phase with sequence numbers running backwards (an author
 * picks its numbers freely; commits no longer chain, so this is simply n re-seals). Not posted.
 * Each is well formed (padded size, escrow shape) with an escrow of random points: the reducer
 * checks shapes only, the holders check their shares, so a cheater's bogus escrow costs the
 * reducer what an honest one does.
 */
export function commitChain(t: Table, d: Device, power: Power, n: number, time: number): Signed[] {
  const v = reduceAs(t, d);
  const c = v.current!;
  const holders = escrowHolders(c.ballotKeys, d.key).length;
  const units = c.position.units.filter((u) => u.power === power).length;
  // Valid points (a version 5 commit whose points do not decode is refused), from a small pool so
  // that decoding them costs the reducer what an honest commit's do.
  const point = () => POINT_POOL[d.random.bytes(1)[0]! % POINT_POOL.length]!;
  const out: Signed[] = [];
  const base = d.seq + n;
  for (let i = 0; i < n; i++) {
    const box = sealOrders({ orders: [], draw: false }, units, BigInt(i + 1), d.random.bytes(24));
    const escrow = {
      c: Array.from({ length: holders >= 2 ? holders : 1 }, point),
      e: holders >= 2 ? point() : null,
      s: [],
    };
    out.push(fastSign(d.me, { type: 'commit', game: t.gameId, seq: base - i, time, phase: c.key, power, sealed: box.sealed, hash: box.hash, escrow }));
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
  const known = escrowOf([...t.devices, ...t.spares].map((d) => d.me));
  const escrow = Object.fromEntries(startKeys({ roster, participants: [] }).map((k) => [k, known[k]]));
  return post(t, [grind(creator, { type: 'start', game: t.gameId, roster, participants: [], escrow }, t.startId, time)])[0]!;
}

/** The creator signs another CREATE with the same salt and other settings (id ground below the first). */
export function secondCreate(t: Table, changed: Partial<Settings>, time: number): Signed {
  const creator = t.devices[0]!;
  const salt = payloadOf(t.log[0]!).salt as string;
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
 * (and what is public in the log), without its owner's key; null if they cannot. Each holder
 * decrypts its own share; whatever they pool is interpolated, and the result must be the
 * committed secret (C_0) to open anything.
 */
export function openWithShares(t: Table, commitId: string, holders: readonly Device[]): readonly Order[] | null {
  const messages = opened(t.log);
  const c = messages.get(commitId)?.payload;
  if (c?.type !== 'commit') return null;
  const v = reduceAs(t, null);
  const ballotKeys = v.current?.key === c.phase ? v.current.ballotKeys : [];
  const all = escrowHolders(ballotKeys, c.from);
  const points: [number, bigint][] = [];
  for (const d of holders) {
    const share = myShare(d.me, commitId, c, all);
    if (share !== undefined && share !== null) points.push([all.indexOf(d.key) + 1, share]);
  }
  if (points.length === 0) return null;
  // Feldman (before version 5): interpolated; derived (version 5): summed. Either must give C_0.
  const derived = c.v >= DERIVED_ESCROW_VERSION;
  const secret = derived
    ? reconstructFor(
        points.map(([, y]) => y),
        true,
      )
    : interpolateAtZero(points);
  if (!checkCommitSecret(c.escrow, derived, secret)) return null;
  const plain = openSealed(c.sealed, secret);
  return plain === null ? null : (ordersFromPlain(plain)?.orders ?? null);
}

/** The length of the sealed field of the commit `d` would sign for these orders (not posted). */
export function sealedLength(t: Table, d: Device, power: Power, orders: readonly Order[]): number {
  const v = reduceAs(t, d);
  const m = sealCommit(d.me, t.gameId, v, power, orders, d.sealRandom(), d.stamp(T0)).message;
  return payloadOf(m.bytes).sealed.length;
}

/**
 * A chat from `d` to 'all' or to the holders of some powers, as the app's runner builds it: boxed
 * to every player of the game (chatPlayers), padded, recipients inside.
 */
export function chat(t: Table, d: Device, to: readonly Power[] | 'all', text: string, time: number): Signed {
  const view = reduceAs(t, d);
  const holders = view.holders ?? view.roster;
  const keys = to === 'all' || holders === undefined ? 'all' : [...new Set(to.map((p) => holders[p]))];
  const sealed = sealChat({ to: keys, text, time }, d.me, chatPlayers(view), d.random.bytes);
  return post(t, [sendChat(d.me, t.gameId, sealed, d.seq++)])[0]!;
}

/** What `reader` reads in a chat entry, or null. */
export function readChat(t: Table, reader: Device, msg: Signed): string | null {
  const p = payloadOf(msg.bytes);
  const v = reduceAs(t, reader);
  const sender = v.players.find((x) => x.key === p.from);
  if (sender === undefined) return null;
  return openChat(p as never, sender.box, reader.me)?.text ?? null;
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
 * START names the participants; every participant seals one value (a cheater with 'many-commits'
 * seals all of its values before anyone locks); everyone locks; honest participants reveal; each
 * cheater then reveals or withholds (a withholder is voted out after the lot's reveal deadline),
 * and a cheating creator may also sign a second START naming any subset of the participants (its
 * sybil-free choice of "which values count"). What the attacker ends up holding is read on every
 * honest participant's phone.
 */
export function lotRun(seed: number, attack: LotAttack, players = 7): LotRun {
  const r = rng(seed);
  const devices = Array.from({ length: players }, (_, i) => new Device(identity(i), rng(seed * 131 + i), `p${i}`));
  const creator = devices[0]!;
  const settings = withReveal(baseSettings({ assignment: 'lot' }));
  const { gameId, message } = createGame(creator.me, r.bytes(16), settings, creator.stamp(T0));
  const t: Table = { gameId, createId: message.id, startId: '', devices, spares: [], roster: {} as Record<Power, string>, settings, log: [message.bytes] };
  for (const d of devices) post(t, [joinGame(d.me, gameId, d.name, null, d.stamp(T0 + 1))]);
  const start = startLot(
    creator.me,
    gameId,
    devices.map((d) => d.key),
    escrowOf(devices.map((d) => d.me)),
    creator.stamp(T0 + 2),
  );
  t.startId = start.id;
  post(t, [start]);
  for (const d of devices.slice(1)) post(t, [acceptStart(d.me, gameId, start, d.stamp(T0 + 3))]);
  const cheaters = new Set<Device>(
    attack.kind === 'many-commits' || attack.kind === 'last-revealer'
      ? [devices[attack.attacker]!]
      : attack.kind === 'creator-chooses'
        ? [creator]
        : [creator, devices[attack.accomplice]!],
  );
  // A many-commits attacker seals all its values before anyone can lock.
  if (attack.kind === 'many-commits') {
    const d = devices[attack.attacker]!;
    for (let k = 0; k < attack.commits; k++) {
      const res = commitLotValue(d.me, gameId, reduceAs(t, d), d.random.bytes(32), d.sealRandom(), d.stamp(T0 + 4));
      d.secrets.set(res.message.id, res.secret);
      post(t, [res.message]);
    }
  }
  // Everyone commits and locks; honest participants reveal; cheaters hold their REVEAL and read.
  settle(t, devices, T0 + 5, { hold: [...cheaters] });
  const honest = devices.filter((d) => !cheaters.has(d));
  const attackerKey = [...cheaters][0]!.key;
  const reachable = new Set<Power>();
  type Option = (f: Table) => void;
  const revealOrWithhold = (i: number): Option[] => [(f) => void settle(f, [f.devices[i]!], T0 + 6), () => undefined];
  const options: Option[][] = [...cheaters].map((d) => revealOrWithhold(devices.indexOf(d)));
  if (cheaters.has(creator)) {
    // A second START naming other participants (the creator always among them), accepted by the
    // pair: the creator alone, the cheaters alone, and the table less each honest participant in
    // turn (whose value it would drop). Phones anchored to the first START ignore any second one,
    // so these stand for all 2^(n-1) subsets, which would only repeat the same views.
    const subsets: Option[] = [() => undefined];
    const choices = [[creator.key], [...cheaters].map((c) => c.key), ...honest.map((h) => devices.filter((d) => d !== h).map((d) => d.key))];
    for (const keys of choices) {
      subsets.push((f) => {
        const s = startLot(f.devices[0]!.me, gameId, keys, escrowOf(devices.map((d) => d.me)), f.devices[0]!.stamp(T0 + 7));
        post(f, [s]);
        for (const c of [...cheaters].filter((c) => c !== creator))
          post(f, [acceptStart(f.devices[devices.indexOf(c)]!.me, gameId, s, f.devices[devices.indexOf(c)]!.stamp(T0 + 7))]);
      });
    }
    options.push(subsets);
  }
  const combos = (i: number): Option[][] => (i === options.length ? [[]] : options[i]!.flatMap((o) => combos(i + 1).map((rest) => [o, ...rest])));
  for (const combo of combos(0)) {
    const f = fork(t);
    for (const o of combo) o(f);
    // Withholders are voted out by the honest participants once the lot's reveal deadline passes.
    let v = reduceAs(f, f.devices[devices.indexOf(honest[0]!)]!);
    if (v.status === 'lot' && v.lot !== undefined) {
      const late = v.lot.revealDeadline + 1;
      const out = v.lot.ballot.waiting.filter((k) => [...cheaters].some((c) => c.key === k));
      for (const h of honest) post(f, [voteTimeout(f.devices[devices.indexOf(h)]!.me, gameId, 'lot', out, f.devices[devices.indexOf(h)]!.stamp(late))]);
      settle(
        f,
        honest.map((h) => f.devices[devices.indexOf(h)]!),
        late,
      );
    }
    for (const h of honest) {
      v = reduceAs(f, f.devices[devices.indexOf(h)]!);
      const mine = POWERS.find((p) => v.roster?.[p] === attackerKey);
      if (mine !== undefined && v.status !== 'lot') reachable.add(mine);
    }
  }
  return { attacker: attackerKey, reachable };
}

export const encodeView = (v: GameView) => canonicalEncode(v);

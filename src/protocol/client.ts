// What a phone signs, and when. Pure like the rest: the caller supplies the clock reading, the
// per-author sequence number and every random byte; the duty functions say what an honest phone
// signs on its own, as functions of the view and of the messages it holds.
import { isTossPhase, missingOrders, variantById, type Loc, type Order, type Power } from '../rules';
import { escrowHolders, revealOwes, type RevealDue } from './ballot';
import { compareText, toHex } from './bytes';
import { hashHex } from './canonical';
import { compactEntry, parseEntry, signMessage, type Message } from './envelope';
import {
  dealAhead,
  dealDerivedEscrow,
  dealtFor,
  escrowOn,
  holderCheck,
  holderChecked,
  pointFromText,
  prepareKeyTables,
  proveShared,
  scalarText,
  scalarToBytes,
  type EscrowFields,
  type HolderCheck,
} from './escrow';
import type { Identity } from './identity';
import { gameIdFor } from './lobby';
import {
  DERIVED_ESCROW_VERSION,
  LOT_PHASE,
  PIN_VERSION,
  revealComplaintsAllowed,
  startKeys,
  type CommitPayload,
  type Complaint,
  type LockPayload,
  type LotCommitPayload,
  type Payload,
  type PayloadBody,
  type PhaseKey,
  type Settings,
  type StartPayload,
} from './messages';
import { paddingUnits, sealLotValue, sealOrders } from './seal';
import type { BallotView, GameView } from './view';

/** The author's own sequence number (0, 1, 2, ... across the whole game) and clock reading. */
export interface Stamp {
  readonly seq: number;
  readonly time: number;
  /**
   * The key list of the START this phone is anchored to (startKeys; `authorPlaces`): with it, an
   * entry of a kind that may be is written in the compact wire form, its author named by its place
   * in the list (README.md "The compact wire form"). Not part of the payload.
   */
  readonly places?: readonly string[];
}

/** The key list a phone names its author's place in (Stamp.places): its START's, or none before START. */
export function authorPlaces(view: GameView, messages: ReadonlyMap<string, Message>): readonly string[] | undefined {
  const start = 'start' in view && typeof view.start === 'string' ? messages.get(view.start) : undefined;
  return start?.payload.type === 'start' ? startKeys(start.payload) : undefined;
}

export interface Signed {
  readonly id: string;
  readonly bytes: Uint8Array;
}

/**
 * The id of a signed entry in its full wire form (hash of its payload), as the reducer and every
 * naming use it. A compact entry's id is that of its signed bytes (Signed.id; parseEntry).
 */
export function messageId(bytes: Uint8Array): string {
  return hashHex(bytes.subarray(64));
}

function sign(identity: Identity, body: PayloadBody & { readonly places?: readonly string[] }): Signed {
  const { places, ...payload } = body;
  const full = signMessage(identity, payload as PayloadBody);
  return { id: messageId(full), bytes: places === undefined ? full : compactEntry(full, places) };
}

// ---- The lobby ----------------------------------------------------------------------------------

/** salt: 16 random bytes. */
export function createGame(identity: Identity, salt: Uint8Array, settings: Settings, stamp: Stamp): { gameId: string; message: Signed } {
  const saltHex = toHex(salt);
  const gameId = gameIdFor(identity.id, saltHex, settings);
  return { gameId, message: sign(identity, { type: 'create', game: gameId, ...stamp, salt: saltHex, settings }) };
}

export function joinGame(identity: Identity, gameId: string, name: string, power: Power | null, stamp: Stamp): Signed {
  return sign(identity, { type: 'join', game: gameId, ...stamp, name, box: identity.boxPublicKey, escrow: identity.escrowPublicKey, power });
}

/**
 * The escrow key of every key a START names, pinned for the whole game: `escrowOf` gives each
 * key's (view.players' `escrow`, what its JOINs name). Throws for a key without one: the creator's
 * phone does not start a game it cannot pin (README.md "Key escrow"). The runner calls it before
 * it reserves the START's once-only right, so a refused roster costs nothing.
 */
export function pinEscrow(keys: readonly string[], escrowOf: Readonly<Record<string, string | null>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of keys) {
    const e = escrowOf[k];
    if (typeof e !== 'string' || pointFromText(e) === null) throw new Error('a player has no usable escrow key: the game cannot start with it');
    out[k] = e;
  }
  return out;
}

/** The escrow keys players named in their JOINs, as a START pins them: key -> escrow key (null: none usable). */
export function escrowKeysOf(players: readonly { readonly key: string; readonly escrow: string | null }[]): Record<string, string | null> {
  return Object.fromEntries(players.map((p) => [p.key, p.escrow]));
}

/** 'choice' games: the creator's roster, with the escrow key of every key it names pinned. */
export function startGame(
  identity: Identity,
  gameId: string,
  roster: Readonly<Record<Power, string>>,
  escrowOf: Readonly<Record<string, string | null>>,
  stamp: Stamp,
): Signed {
  const escrow = pinEscrow(startKeys({ roster, participants: [] }), escrowOf);
  return sign(identity, { type: 'start', game: gameId, ...stamp, roster: { ...roster }, participants: [], escrow });
}

/** Lot games: the keys that draw the seats, fixed before any value exists, each with its escrow key pinned. */
export function startLot(
  identity: Identity,
  gameId: string,
  participants: readonly string[],
  escrowOf: Readonly<Record<string, string | null>>,
  stamp: Stamp,
): Signed {
  const keys = [...new Set(participants)].sort(compareText);
  return sign(identity, { type: 'start', game: gameId, ...stamp, roster: null, participants: keys, escrow: pinEscrow(keys, escrowOf) });
}

/** The START's payload, from a message a phone holds or from a signed entry. */
function startPayloadOf(start: Message | Signed): StartPayload | null {
  const payload = 'payload' in start ? start.payload : payloadOfEntry(start.bytes);
  return payload !== null && payload.type === 'start' ? payload : null;
}

function payloadOfEntry(bytes: Uint8Array): Payload | null {
  const parsed = parseEntry(bytes);
  return parsed.ok ? parsed.entry.payload : null;
}

/**
 * Accepts a START: a phone does this once, ever (the START becomes its anchor). Throws, signing
 * nothing, for a START of another game or (version 5 on) one that names this phone and pins another
 * escrow key for it: this phone's complaints would be judged with a key it does not hold, and
 * shares dealt to it would be encrypted to that key (README.md "Key escrow").
 */
export function acceptStart(identity: Identity, gameId: string, start: Message | Signed, stamp: Stamp): Signed {
  const refused = startRefusal(identity, gameId, start);
  if (refused !== null) throw new Error(refused);
  return sign(identity, { type: 'ack', game: gameId, ...stamp, phase: 'start', hash: start.id });
}

/**
 * Why this phone must not accept `start` (acceptStart's rule), or null. The runner asks before it
 * reserves the once-only acceptance, so a refused START never costs this phone its acceptance of
 * another one.
 */
export function startRefusal(identity: Identity, gameId: string, start: Message | Signed): string | null {
  const p = startPayloadOf(start);
  if (p === null || p.game !== gameId) return 'not a START of this game';
  if (p.v >= PIN_VERSION && startKeys(p).includes(identity.id) && p.escrow?.[identity.id] !== identity.escrowPublicKey)
    return 'this START pins another escrow key for this phone: not accepted';
  return null;
}

// ---- Sealing --------------------------------------------------------------------------------------

/** The random bytes a seal needs, all from the caller. */
export interface SealRandom {
  /** 32 bytes: with `entropy`, the escrow's ephemeral key and so the secret scalar are derived from them. */
  readonly secret: Uint8Array;
  /** 24 bytes. */
  readonly nonce: Uint8Array;
  /** 32 bytes: see `secret`. */
  readonly entropy: Uint8Array;
  /** 32 bytes, sealed only in the phase of a two-player toss. */
  readonly coin: Uint8Array;
}

/**
 * The escrow of a commit by `owner` (version 5: shares derived for every other key of the ballot,
 * in key order) and the secret scalar it escrows, which seals the box and which the owner's REVEAL
 * releases: the sum of the derived shares, so it is known only once the holders are.
 */
function escrowFor(
  view: GameView,
  ballotKeys: readonly string[],
  owner: string,
  random: Pick<SealRandom, 'secret' | 'entropy'>,
): { escrow: EscrowFields; secret: bigint } {
  const keys = holderKeys(view, ballotKeys, owner);
  const dealt = keys === null ? null : dealDerivedEscrow(owner, keys, random.secret, random.entropy);
  if (dealt === null) throw new Error('a player has no usable escrow key');
  return dealt;
}

/** The escrow keys a commit by `owner` deals shares to (every other key of the ballot, in key order); null if one has none. */
function holderKeys(view: GameView, ballotKeys: readonly string[], owner: string): string[] | null {
  const holders = escrowHolders(ballotKeys, owner);
  const keys = holders.map((k) => playerEscrowKey(view, k));
  return escrowOn(holders.length) && keys.some((k) => k === null) ? null : (keys as string[]);
}

/** The escrow key shares are dealt to for the player `key`, as the view's players list names it (null if none). */
function playerEscrowKey(view: GameView, key: string): string | null {
  return view.players.find((p) => p.key === key)?.escrow ?? null;
}

export interface SealOptions {
  /** Movement phases: the draw vote sealed with the orders (default: no). */
  readonly draw?: boolean;
}

/**
 * Seals orders for `power` in the open phase: padded to the power's size on this board, with the
 * draw vote in movement phases, the coin in a two-player toss phase, and the secret escrowed to
 * every other key of the ballot. Refuses, under the "1914" rule "every unit must receive an
 * order", while a unit of the power has none.
 */
export function commitTurn(
  identity: Identity,
  gameId: string,
  view: GameView,
  power: Power,
  orders: readonly Order[],
  random: SealRandom,
  stamp: Stamp,
  options: SealOptions = {},
): { ok: true; message: Signed; secret: bigint } | { ok: false; reason: 'no-open-phase' | 'missing-orders'; missing: Loc[] } {
  if (view.status !== 'playing' || view.current === undefined) return { ok: false, reason: 'no-open-phase', missing: [] };
  const missing = sealMissing(view, power, orders);
  if (missing.length > 0) return { ok: false, reason: 'missing-orders', missing };
  return { ok: true, ...sealCommit(identity, gameId, view, power, orders, random, stamp, options) };
}

/**
 * The units of `power` that commitTurn refuses to seal without an order (the "1914" rules), checked
 * without signing anything: empty when the orders may be sealed or no phase is open.
 */
export function sealMissing(view: GameView, power: Power, orders: readonly Order[]): Loc[] {
  if (view.status !== 'playing' || view.current === undefined) return [];
  // The switches in force are the view's (the variant's, then the game's settings.rules on top).
  return view.rules.allOrdersRequired === true ? missingOrders(view.current.position, power, orders).map((u) => u.loc) : [];
}

/** The seal without the "1914" check (a phone not running the helper, or a test). */
export function sealCommit(
  identity: Identity,
  gameId: string,
  view: GameView,
  power: Power,
  orders: readonly Order[],
  random: SealRandom,
  stamp: Stamp,
  options: SealOptions = {},
): { message: Signed; secret: bigint } {
  if (view.status !== 'playing' || view.current === undefined) throw new Error('no phase is open');
  const c = view.current;
  const variant = variantById(view.settings.variant);
  const { escrow, secret } = escrowFor(view, c.ballotKeys, identity.id, random);
  const movement = c.position.phase.kind === 'movement';
  const coin = variant !== undefined && isTossPhase(variant, c.position.phase) ? random.coin : undefined;
  const box = sealOrders(
    { orders, ...(movement ? { draw: options.draw === true } : {}), ...(coin === undefined ? {} : { coin }) },
    paddingUnits(c.position, power),
    secret,
    random.nonce,
  );
  const message = sign(identity, { type: 'commit', game: gameId, ...stamp, phase: c.key, power, sealed: box.sealed, hash: box.hash, escrow });
  return { message, secret };
}

/** A lot participant's sealed value (32 random bytes, kept until the lot closes). */
export function commitLotValue(
  identity: Identity,
  gameId: string,
  view: GameView,
  value: Uint8Array,
  random: Pick<SealRandom, 'secret' | 'nonce' | 'entropy'>,
  stamp: Stamp,
): { message: Signed; secret: bigint } {
  if (view.status !== 'lot') throw new Error('no lot is open');
  const lot = view.lot;
  const { escrow, secret } = escrowFor(view, lot.participants, identity.id, random);
  const box = sealLotValue(value, secret, random.nonce);
  return { message: sign(identity, { type: 'lot-commit', game: gameId, ...stamp, sealed: box.sealed, hash: box.hash, escrow }), secret };
}

/** The scalar's 32-byte form, as a phone stores it (the same 32 bytes a secretbox key took before). */
export const secretBytes = (secret: bigint): Uint8Array => scalarToBytes(secret);

// ---- The ballot: FINAL, LOCK, REVEAL ---------------------------------------------------------------

/** The sealed ballot open now: the current phase's, or the lot's. */
export interface OpenBallot {
  readonly phase: PhaseKey;
  readonly ballot: BallotView;
  /** Slots awaited (timed-out ones included): powers, or participant keys in the lot. */
  readonly required: readonly string[];
  readonly timedOut: readonly string[];
  readonly ballotKeys: readonly string[];
  readonly holderOf: (slot: string) => string;
  readonly lot: boolean;
  /** Who may vote in it: the phase's players, or the lot's participants. */
  readonly players: readonly string[];
  readonly deadline: number;
  readonly revealDeadline: number;
  /** Keys that signed a CLOCK in it. */
  readonly clocked: readonly string[];
}

export function openBallot(view: GameView): OpenBallot | undefined {
  if (view.status === 'lot') {
    const l = view.lot;
    const { participants, deadline, revealDeadline, clocked } = l;
    return {
      phase: LOT_PHASE,
      ballot: l.ballot,
      required: participants,
      timedOut: l.timedOut,
      ballotKeys: participants,
      holderOf: (s) => s,
      lot: true,
      players: participants,
      deadline,
      revealDeadline,
      clocked,
    };
  }
  if (view.status !== 'playing' || view.current === undefined) return undefined;
  const c = view.current;
  const holders = view.holders;
  return {
    players: c.players,
    deadline: c.deadline,
    revealDeadline: c.revealDeadline,
    clocked: c.clocked,
    phase: c.key,
    ballot: c.ballot,
    required: c.required,
    timedOut: c.timedOut,
    ballotKeys: c.ballotKeys,
    holderOf: (s) => holders[s as Power],
    lot: false,
  };
}

export interface BallotDuties {
  /** Slots of mine whose FINAL is due (phases only: a lot commit is its own FINAL). */
  readonly finals: readonly string[];
  readonly lock: boolean;
  readonly reveal: boolean;
}

export interface DutyOptions {
  /**
   * The phase whose orders this key's player marked final ("ready": done, README.md "The sealed
   * ballot", the early FINAL): there its FINALs are due as soon as every awaited slot it holds has
   * a commit, without waiting for the other slots' commits.
   */
  readonly ready?: string;
}

/**
 * What an honest phone signs now in the open ballot: FINAL of each of its slots once every awaited
 * slot has a commit (or, its player having marked the phase ready, once each of its own awaited
 * slots has one); its LOCK once every awaited slot has a FINAL; its REVEAL once every key of the
 * ballot has a LOCK. Each once: the view's ballot says whether this key's FINAL, LOCK or REVEAL is in.
 */
export function ballotDuties(view: GameView, me: string, options: DutyOptions = {}): BallotDuties {
  const b = openBallot(view);
  const none: BallotDuties = { finals: [], lock: false, reveal: false };
  if (b === undefined) return none;
  const awaited = b.required.filter((s) => !b.timedOut.includes(s));
  const sealedAll = b.ballot.sealed;
  const finals = finalsDue(b, awaited, me, options, undefined);
  const inBallot = b.ballot.keys.includes(me);
  const locked = b.ballot.locks[me] !== undefined;
  const lock = inBallot && !locked && sealedAll && awaited.every((s) => b.ballot.finals[s] !== undefined);
  const reveal = inBallot && locked && b.ballot.reveals[me] === undefined && b.ballot.keys.every((k) => b.ballot.locks[k] !== undefined);
  return { finals, lock, reveal };
}

/**
 * My slots whose FINAL is due (not in yet): once every awaited slot has a commit, or, the phase
 * marked ready, once every awaited slot of mine has one. `sealing`: counted as if this slot had a
 * commit (the one being signed: finalsDueOnSeal).
 */
function finalsDue(b: OpenBallot, awaited: readonly string[], me: string, options: DutyOptions, sealing: string | undefined): string[] {
  if (b.lot) return [];
  const has = (s: string) => s === sealing || b.ballot.heads[s] !== undefined;
  const mine = awaited.filter((s) => b.holderOf(s) === me);
  const sealed = sealing === undefined ? b.ballot.sealed : awaited.every(has);
  const due = sealed || (options.ready === b.phase && mine.every(has));
  return due ? mine.filter((s) => has(s) && b.ballot.finals[s] === undefined) : [];
}

/**
 * Whether the FINAL of `slot` (mine, awaited) falls due as soon as the commit this phone is signing
 * for it is in: ballotDuties's rule (finalsDue) with that commit counted. Then the phone may send
 * the FINAL with the commit (README.md "The sealed ballot", the last seal's burst) instead of
 * after the commit's own round; what is signed is the same.
 */
export function finalDueOnSeal(view: GameView, me: string, slot: string, options: DutyOptions = {}): boolean {
  const b = openBallot(view);
  if (b === undefined || b.holderOf(slot) !== me) return false;
  const awaited = b.required.filter((s) => !b.timedOut.includes(s));
  if (!awaited.includes(slot)) return false;
  return finalsDue(b, awaited, me, options, slot).includes(slot);
}

/** FINAL: the one commit of `power` its holder stands by. */
export function finalOrders(identity: Identity, gameId: string, phase: PhaseKey, power: Power, commit: string, stamp: Stamp): Signed {
  return sign(identity, { type: 'final', game: gameId, ...stamp, phase, power, commit });
}

const byLowest = (a: Message, b: Message) => a.payload.seq - b.payload.seq || compareText(a.id, b.id);

/**
 * My escrow share of a commit (decrypted before version 5, derived from version 5 on), or null if
 * it does not check out; undefined if I hold none (escrow off, or not a holder). Remembered per
 * commit, key and index (escrow.ts holderCheck), so done ahead it costs nothing here.
 */
export function myShare(identity: Identity, commitId: string, commit: CommitPayload | LotCommitPayload, holders: readonly string[]): bigint | null | undefined {
  return myCheck(identity, commitId, commit, holders)?.share;
}

/** My share of a commit, checked, and my complaint if it does not check (holderCheck); undefined if I hold none. */
function myCheck(identity: Identity, commitId: string, commit: CommitPayload | LotCommitPayload, holders: readonly string[]): HolderCheck | undefined {
  const { escrow } = commit;
  const index = holders.indexOf(identity.id) + 1;
  if (index === 0 || escrow.e === null) return undefined;
  return holderCheck(identity.escrowSecret, identity.escrowPublicKey, commitId, escrow, commit.v >= DERIVED_ESCROW_VERSION, commit.from, index);
}

// ---- Work done ahead ------------------------------------------------------------------------------
//
// From the last commit to the result every phone signs FINAL, LOCK and REVEAL in turn; the LOCK
// checks this phone's share of every named commit (x_i·E, a multiplication no table helps) and the
// REVEAL releases those shares. Both can be worked out as soon as each commit arrives, long before
// the last one, and remembered (holderCheck): the runner does it in idle time, and LOCK and REVEAL
// then only read it. Pure, and the same bytes with or without it.

/**
 * The commits of the open ballot whose share this phone will check at its LOCK, by the view alone:
 * the latest commit of every slot it does not hold (what an honest FINAL names). Those it has done
 * already (holderCheck remembered) are left out once `messages` has them.
 */
export function sharesAhead(identity: Identity, view: GameView, messages?: ReadonlyMap<string, Message>): string[] {
  const me = identity.id;
  const b = openBallot(view);
  if (b === undefined || !b.ballotKeys.includes(me)) return [];
  const out: string[] = [];
  for (const [slot, id] of Object.entries(b.ballot.heads)) {
    if (b.holderOf(slot) === me) continue;
    const c = messages === undefined ? undefined : commitPayload(messages, id);
    if (c !== undefined) {
      const index = escrowHolders(b.ballotKeys, c.from).indexOf(me) + 1;
      if (index === 0 || c.escrow.e === null || holderChecked(identity.escrowPublicKey, id, index)) continue;
    }
    out.push(id);
  }
  return out.sort(compareText);
}

/**
 * Checks this phone's share of the commit `commitId` of the open ballot now (and makes its
 * complaint if it does not check), remembered for lockBallot and revealBallot: what they then sign
 * is the same as without it. Does nothing for a commit it holds no share of, or does not have.
 */
export function prepareShare(identity: Identity, view: GameView, messages: ReadonlyMap<string, Message>, commitId: string): void {
  const b = openBallot(view);
  const c = commitPayload(messages, commitId);
  if (b === undefined || c === undefined || c.from === identity.id) return;
  myCheck(identity, commitId, c, escrowHolders(b.ballotKeys, c.from));
}

/**
 * Deals the escrow of this phone's next seal in the open ballot now, from the random bytes that
 * seal will be given (`random.secret` and `random.entropy`, drawn fresh for it): commitTurn (or
 * commitLotValue) given those bytes then takes it and does no curve work; what it signs is the same
 * (escrow.ts dealAhead). Does nothing outside a ballot this phone's key is in.
 */
export function prepareSealEscrow(identity: Identity, view: GameView, random: Pick<SealRandom, 'secret' | 'entropy'>): void {
  const b = openBallot(view);
  if (b === undefined || !b.ballotKeys.includes(identity.id)) return;
  const keys = holderKeys(view, b.ballotKeys, identity.id);
  if (keys !== null) dealAhead(identity.id, keys, random.secret, random.entropy);
}

/**
 * The tag of a seal's escrow (its ephemeral point E, or C_0 = s·G when escrow is off): one per
 * secret, and in the commit. A phone that keeps a seal's secret before signing the commit keeps it
 * under this tag (sealSecretAhead), and finds it again from the commit (commitSealTag).
 */
export function escrowTag(escrow: EscrowFields): string | null {
  return escrow.e ?? escrow.c[0] ?? null;
}

/** The tag of the escrow of commit `id` among `messages` (escrowTag), or null if it is no commit there. */
export function commitSealTag(messages: ReadonlyMap<string, Message>, id: string): string | null {
  const p = messages.get(id)?.payload;
  return p?.type === 'commit' ? escrowTag(p.escrow) : null;
}

/**
 * The secret of this phone's next seal in the open ballot if it is given these random bytes (what
 * prepareSealEscrow deals, dealt now if it was not), with its escrow's tag: the phone keeps it on
 * disk before the seal is signed, so the seal does not wait for that write. The same secret as the
 * seal's as long as the ballot's keys do not change meanwhile (the caller compares). Null outside a
 * ballot this phone's key is in, or when a player has no usable escrow key.
 */
export function sealSecretAhead(identity: Identity, view: GameView, random: Pick<SealRandom, 'secret' | 'entropy'>): { secret: bigint; tag: string } | null {
  const b = openBallot(view);
  if (b === undefined || b.lot || !b.ballotKeys.includes(identity.id)) return null;
  const keys = holderKeys(view, b.ballotKeys, identity.id);
  if (keys === null) return null;
  dealAhead(identity.id, keys, random.secret, random.entropy);
  const dealt = dealtFor(identity.id, keys, random.secret, random.entropy);
  const tag = dealt === undefined ? null : escrowTag(dealt.escrow);
  return dealt === undefined || tag === null ? null : { secret: dealt.secret, tag };
}

/**
 * Whether this phone has a first seal still to make in the open phase: a slot it holds, awaited,
 * with no commit yet (what prepareSealEscrow is worth doing for).
 */
export function sealAhead(view: GameView, me: string): boolean {
  const b = openBallot(view);
  return b !== undefined && !b.lot && owesSeal(b, me);
}

/** Whether `me` holds a slot of the ballot that is awaited (not timed out) and has no commit yet. */
function owesSeal(b: OpenBallot, me: string): boolean {
  return b.required.some((s) => b.holderOf(s) === me && !b.timedOut.includes(s) && b.ballot.heads[s] === undefined);
}

/**
 * Builds the tables of the escrow keys this phone's next seal deals shares to (the other keys of
 * the open ballot), so the seal does not: in idle time, once (the START fixes the keys; a later
 * call only finds them built: escrow.ts keyPoint).
 */
export function prepareSeal(view: GameView, me: string): void {
  const b = openBallot(view);
  if (b === undefined || !b.ballotKeys.includes(me)) return;
  prepareKeyTables(escrowHolders(b.ballotKeys, me).flatMap((k) => playerEscrowKey(view, k) ?? []));
}

function commitPayload(messages: ReadonlyMap<string, Message>, id: string): CommitPayload | LotCommitPayload | undefined {
  const p = messages.get(id)?.payload;
  return p?.type === 'commit' || p?.type === 'lot-commit' ? p : undefined;
}

/** The commit a FINAL (or, in the lot, a lot commit) names. */
function finalCommit(messages: ReadonlyMap<string, Message>, id: string): string | undefined {
  const p = messages.get(id)?.payload;
  return p?.type === 'final' ? p.commit : p?.type === 'lot-commit' ? id : undefined;
}

/**
 * LOCK: per awaited slot the FINAL seen (the lowest, should its holder have signed two), per
 * timed-out slot without one its latest commit, and a complaint for every named commit whose escrow
 * share for this phone does not check out (the share is checked once per commit on this phone).
 */
export function lockBallot(identity: Identity, gameId: string, view: GameView, messages: ReadonlyMap<string, Message>, stamp: Stamp): Signed {
  const b = openBallot(view);
  if (b === undefined) throw new Error('no ballot is open');
  const finals: Record<string, string> = {};
  const heads: Record<string, string> = {};
  for (const slot of b.required) {
    const ids = b.ballot.finals[slot];
    if (ids !== undefined && ids.length > 0) {
      const chosen = ids
        .map((id) => messages.get(id))
        .filter((m): m is Message => m !== undefined)
        .sort(byLowest)[0];
      finals[slot] = chosen?.id ?? [...ids].sort(compareText)[0]!;
    } else if (b.timedOut.includes(slot) && b.ballot.heads[slot] !== undefined) heads[slot] = b.ballot.heads[slot]!;
  }
  const complaints: Complaint[] = [];
  const named = [...Object.values(finals).map((id) => finalCommit(messages, id)), ...Object.values(heads)].filter((x): x is string => x !== undefined);
  for (const id of [...new Set(named)].sort(compareText)) {
    const c = commitPayload(messages, id);
    if (c === undefined || c.from === identity.id || c.escrow.e === null) continue;
    const check = myCheck(identity, id, c, escrowHolders(b.ballotKeys, c.from));
    if (check === undefined || check.share !== null) continue;
    if (check.complaint !== null) complaints.push({ commit: id, k: check.complaint.k, proof: check.complaint.proof });
  }
  // Version 5: this key's ACK of the phase resolved just before (its state hash) rides in the LOCK.
  const ack = b.lot ? null : (view.phases.at(-1)?.stateHash ?? null);
  return sign(identity, { type: 'lock', game: gameId, ...stamp, phase: b.phase, finals, heads, complaints, ack });
}

/** The commits a LOCK names: through its FINALs (the lot: its lot commits) and its `heads`. */
function lockNames(
  messages: ReadonlyMap<string, Message>,
  l: { readonly finals: Readonly<Record<string, string>>; readonly heads: Readonly<Record<string, string>> },
): string[] {
  return [...Object.values(l.finals).map((id) => finalCommit(messages, id)), ...Object.values(l.heads)].filter((x): x is string => x !== undefined);
}

/**
 * What a REVEAL by `me` naming the LOCKs `lockIds` must release, in its listed order (ballot.ts
 * revealOwes, which the tally reads too): the commits those LOCKs name (through their FINALs, and
 * `heads`), `me`'s own LOCK among them excusing the commits it complained about (an honest phone
 * complains only with a true proof about a share that does not check, so its complaints are valid)
 * and, in a version 6 game (`revealComplaints`), letting a complaint stand in for the share of a
 * commit it did not name.
 */
export function revealDue(
  me: string,
  ballotKeys: readonly string[],
  messages: ReadonlyMap<string, Message>,
  lockIds: readonly string[],
  revealComplaints: boolean,
): RevealDue<{ id: string; from: string; payload: CommitPayload | LotCommitPayload }>[] {
  const locks = lockIds.map((id) => messages.get(id)?.payload).filter((l): l is LockPayload => l?.type === 'lock');
  const mine = locks.find((l) => l.from === me);
  const complained = new Set(mine?.complaints.map((k) => k.commit) ?? []);
  const ownNamed = new Set(mine === undefined ? [] : lockNames(messages, mine));
  const named: { id: string; from: string; payload: CommitPayload | LotCommitPayload }[] = [];
  for (const l of locks)
    for (const id of lockNames(messages, l)) {
      const payload = commitPayload(messages, id);
      if (payload !== undefined) named.push({ id, from: payload.from, payload });
    }
  return revealOwes(me, named, ballotKeys, { names: (c) => ownNamed.has(c.id), complained: (c) => complained.has(c.id) }, revealComplaints);
}

/**
 * REVEAL: one LOCK per key of the ballot (for a key with two, the one the REVEALs seen name, else
 * the lowest id), and what naming them owes (revealDue): this phone's secret of each of its own
 * named commits (`secretOf`, from its store), then its share of every other named commit it holds
 * one of, each list in the order of the commits' ids; in a version 6 game, for a commit its own
 * LOCK did not name whose share does not check, a complaint in the share's place.
 */
export function revealBallot(
  identity: Identity,
  gameId: string,
  view: GameView,
  messages: ReadonlyMap<string, Message>,
  secretOf: (commitId: string) => bigint | null,
  stamp: Stamp,
): Signed {
  const b = openBallot(view);
  if (b === undefined) throw new Error('no ballot is open');
  const lockIds: string[] = [];
  for (const [key, ids] of Object.entries(b.ballot.locks)) {
    if (!b.ballotKeys.includes(key) || ids.length === 0) continue;
    lockIds.push(b.ballot.lockNamed[key] ?? [...ids].sort(compareText)[0]!);
  }
  const startPayload = 'start' in view && typeof view.start === 'string' ? messages.get(view.start)?.payload : undefined;
  const revealComplaints = revealComplaintsAllowed(startPayload);
  const secrets: string[] = [];
  const shares: string[] = [];
  const complaints: Complaint[] = [];
  for (const { commit: c, release } of revealDue(identity.id, b.ballotKeys, messages, lockIds, revealComplaints)) {
    if (release === 'secret') {
      const s = secretOf(c.id);
      if (s === null) throw new Error(`no secret on this device for commit ${c.id}`);
      secrets.push(scalarText(s));
    } else {
      const check = myCheck(identity, c.id, c.payload, escrowHolders(b.ballotKeys, c.from));
      if (check !== undefined && check.share !== null) shares.push(scalarText(check.share));
      else if (release === 'share-or-complaint' && c.payload.escrow.e !== null) {
        const proof = check === undefined ? proveShared(identity.escrowSecret, c.payload.escrow.e, c.id) : check.complaint;
        if (proof !== null) complaints.push({ commit: c.id, k: proof.k, proof: proof.proof });
      }
    }
  }
  // Version 4 names the LOCKs by id alone, sorted (each LOCK's key is its signer); version 6 lists
  // its complaints in the place of shares in the order of their commits' ids, as revealDue gives them.
  return sign(identity, {
    type: 'reveal',
    game: gameId,
    ...stamp,
    phase: b.phase,
    locks: [...new Set(lockIds)].sort(compareText),
    secrets,
    shares,
    complaints,
  });
}

// ---- Votes, clock and the rest ---------------------------------------------------------------------

/** Votes `slots` (powers; participant keys in the lot) out of the phase; one vote per key counts. */
export function voteTimeout(identity: Identity, gameId: string, phase: PhaseKey, slots: readonly string[], stamp: Stamp): Signed {
  return sign(identity, { type: 'timeout', game: gameId, ...stamp, phase, slots: [...new Set(slots)].sort(compareText) });
}

/** "My clock has passed this stage's deadline": lets the other side of a two-player game vote me out. */
export function claimClock(identity: Identity, gameId: string, phase: PhaseKey, stage: 'orders' | 'reveal', stamp: Stamp): Signed {
  return sign(identity, { type: 'clock', game: gameId, ...stamp, phase, stage });
}

/**
 * An honest phone signs a CLOCK only where it matters (two players) and only when it owes a seal
 * past the orders deadline by its own clock: a phone that has sealed has nothing to be voted out
 * for, and its automatic steps never wait for its player.
 */
export function clockDue(view: GameView, me: string, now: number): PhaseKey | null {
  const b = openBallot(view);
  if (b === undefined) return null;
  if (b.players.length !== 2 || now < b.deadline) return null;
  if (!owesSeal(b, me) || b.clocked.includes(me)) return null;
  return b.phase;
}

/**
 * What the player of `power` may vote out now, by its phone's own clock: powers without a seal
 * after the orders deadline; the powers of keys the ballot waits for after the reveal-stage
 * deadline. (lotTimeoutsDue is the same for the lot, by participant key.)
 */
export function timeoutsDue(view: GameView, power: Power, now: number): Power[] {
  if (view.status !== 'playing' || view.current?.active.includes(power) !== true) return [];
  const me = view.holders[power];
  return dueAgainst(view, me, now) as Power[];
}

/** The participants a lot participant may vote out now, by its phone's own clock. */
export function lotTimeoutsDue(view: GameView, me: string, now: number): string[] {
  return view.status === 'lot' && view.lot.participants.includes(me) ? dueAgainst(view, me, now) : [];
}

function dueAgainst(view: GameView, me: string, now: number): string[] {
  const b = openBallot(view);
  if (b === undefined) return [];
  const { deadline, revealDeadline } = b;
  const open = b.required.filter((s) => !b.timedOut.includes(s) && b.holderOf(s) !== me);
  if (b.ballot.stage === 'orders') return now >= deadline ? open.filter((s) => b.ballot.heads[s] === undefined) : [];
  // The automatic steps get the whole reveal stage (from the view's revealDeadline on, never earlier).
  if (now < revealDeadline) return [];
  return open.filter((s) => b.ballot.waiting.includes(b.holderOf(s)));
}

/** Seed 001's alliance: each member power signs the same member list; yes: false leaves it. */
export function declareAlliance(
  identity: Identity,
  gameId: string,
  phase: PhaseKey,
  power: Power,
  powers: readonly Power[],
  yes: boolean,
  stamp: Stamp,
): Signed {
  return sign(identity, { type: 'alliance', game: gameId, ...stamp, phase, power, powers: [...new Set(powers)].sort(), yes });
}

/**
 * Votes to hand an absent `power` to the key `to` (a player replacing an absent one, seed 000 XV.4),
 * naming the escrow key `to` will play with (its JOINs' one, view.players' `escrow`): pinned when
 * the hand-over counts. Throws for a key without a usable one.
 */
export function handOver(
  identity: Identity,
  gameId: string,
  phase: PhaseKey,
  power: Power,
  to: string,
  escrow: string | null,
  startId: string,
  stamp: Stamp,
): Signed {
  if (escrow === null || pointFromText(escrow) === null) throw new Error('the new player has no usable escrow key');
  return sign(identity, { type: 'handover', game: gameId, ...stamp, phase, power, to, start: startId, escrow });
}

export function concede(identity: Identity, gameId: string, phase: PhaseKey, power: Power, stamp: Stamp): Signed {
  return sign(identity, { type: 'concede', game: gameId, ...stamp, phase, power });
}

/**
 * The resolved phase whose ACK `me` leaves to its LOCK of the open phase (version 5: a LOCK carries
 * its author's ACK of the phase just before), or null. Only while that LOCK is still to come from
 * a key of the open ballot: once the phase resolves without it, the ACK is due on its own again,
 * so an ACK is delayed, never lost.
 */
export function ackCarriedByLock(view: GameView, me: string): PhaseKey | null {
  if (view.status !== 'playing' || view.current === undefined) return null;
  const c = view.current;
  if (!c.ballotKeys.includes(me) || (c.ballot.locks[me]?.length ?? 0) > 0) return null;
  return view.phases.at(-1)?.key ?? null;
}

export function acknowledge(identity: Identity, gameId: string, phase: PhaseKey, stateHash: string, stamp: Stamp): Signed {
  return sign(identity, { type: 'ack', game: gameId, ...stamp, phase, hash: stateHash });
}

/** A chat's public time is 0 (the real time is inside, for the recipients): only the seq is needed. */
export function sendChat(
  identity: Identity,
  gameId: string,
  sealed: Pick<Extract<PayloadBody, { type: 'chat' }>, 'keys' | 'nonce' | 'sealed'>,
  seq: number,
): Signed {
  return sign(identity, { type: 'chat', game: gameId, seq, time: 0, ...sealed });
}

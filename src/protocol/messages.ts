// The signed payloads of the game log and their shape checks. Everything that matters for
// trust is inside the payload (game id, author, sequence number, phase, power), because only
// the payload is signed. Unknown fields are refused so a payload has exactly one byte form.
import { POWERS, type Power } from '../rules';
import { compareText } from './bytes';

/**
 * The version new entries are written in: 7, binary payloads (codec.ts) carried in the compact
 * wire form after the START, encoded as version 6's. Each entry carries its own version, which says
 * its encoding; the game's version (its CREATE's: lobby.ts gameVersionOf) says its rules. README.md "Wire form and
 * ids".
 */
export const PROTOCOL_VERSION = 7;

/**
 * The versions a phone reads: 2 (canonical JSON with hex, logs written before the codec), 3
 * (binary, a REVEAL's LOCKs keyed by author), 4 (a REVEAL names its LOCKs by id alone), 5, 6 and 7
 * (6's bytes; a version 7 game keeps the clock of CLOCK_VERSION).
 */
export const READABLE_VERSIONS: readonly number[] = [2, 3, 4, 5, 6, 7];

/**
 * The first version whose entries may be carried in the compact wire form (codec.ts
 * compactPayload): after the START, no game id and the author named by its place in a START's key
 * list. The signed bytes and the id are over the full payload, which is also its full wire form.
 * Every later version read (7) is encoded and carried the same way.
 */
export const COMPACT_VERSION = 6;

/**
 * The first game version (its CREATE's, the game's version: README.md "Game identity and the START
 * anchor") whose clock is the lower median and whose phases open at the clock median of the closed
 * ballot's counted LOCK claims (timeout.ts clockMedian, nextOpening; issue 31). Games of an older
 * version keep the old clock exactly (the upper median; the next opening from the REVEAL claims),
 * so every phone in a game already played agrees with the release that created it.
 */
export const CLOCK_VERSION = 7;

/**
 * The first version whose CREATE fixes the game's version for good (README.md "Game identity and the
 * START anchor", issue 31): a game holding a CREATE of this version or later bound to its id is of
 * the lowest such version, and a CREATE of another version is ignored. Before it, the newest CREATE
 * set the version (which old games keep: their recorded logs reduce as they always did).
 */
export const FIXED_VERSION = 7;

/** Whether a game of this version (its CREATE's) keeps the clock of CLOCK_VERSION. */
export function usesLockClock(gameVersion: number): boolean {
  return gameVersion >= CLOCK_VERSION;
}

/**
 * The first version whose REVEAL names its LOCKs as a sorted list of ids (the author of each is the
 * LOCK's own signer) and lists its secrets and shares without commit ids, in the order of the
 * named commits' ids.
 */
export const LOCK_LIST_VERSION = 4;

/**
 * The first version whose START pins the escrow key of every key it names (`escrow`) and whose
 * HANDOVER names the recipient's (README.md "Key escrow"). Games whose START is older keep the old
 * rule: a key's escrow key is the one all its JOINs name.
 */
export const PIN_VERSION = 5;

/**
 * The first version whose commits escrow their key with derived additive shares (escrow.ts
 * "Version 5"): the commit carries the ephemeral point and one commitment per holder, no share.
 */
export const DERIVED_ESCROW_VERSION = 5;

/**
 * The first version whose LOCK carries its author's ACK of the phase resolved just before the
 * LOCK's phase (`ack`: that phase's state hash, or null), instead of a separate ACK entry.
 */
export const ACK_IN_LOCK_VERSION = 5;

/**
 * The first version whose REVEAL carries `complaints`: in the place of a share it owes of a commit
 * its author's own LOCK did not name, a complaint (the kind a LOCK carries) when that share does
 * not check (ballot.ts revealOwes). Games whose START is older keep the old rule (README.md "The
 * sealed ballot").
 */
export const REVEAL_COMPLAINT_VERSION = 6;

/**
 * Whether a game's REVEALs may complain in a share's place: its START (the one the game counts;
 * none yet: no) is of REVEAL_COMPLAINT_VERSION or later. The reducer's tally and the writer
 * (client.ts revealBallot) both ask this, so they cannot disagree on a game's rule.
 */
export function revealComplaintsAllowed(start: { readonly v: number } | undefined): boolean {
  return start !== undefined && start.v >= REVEAL_COMPLAINT_VERSION;
}

/** The one version whose payloads are canonical JSON and still read. */
export const JSON_VERSION = 2;

/** A phase of the game ('1901-spring-movement'), or 'lot' for the ballot that deals the seats. */
export type PhaseKey = string;

/** The phase key of the lot ballot (lot games, between START and the first phase). */
export const LOT_PHASE = 'lot';

export interface Deadlines {
  /** Milliseconds each phase kind stays open before absent powers may be timed out. */
  readonly movement: number;
  readonly retreat: number;
  readonly adjustment: number;
  /** For drawing seats by lot (the lot ballot, after START). */
  readonly lot: number;
  /** After every awaited seat has sealed: how long the automatic steps (FINAL, LOCK, REVEAL) may take. */
  readonly reveal: number;
}

/** A phase duration this long means "no deadline": a table game, played by people sitting together. */
export const TABLE_DEADLINE_MS = 1_000_000_000_000;

/**
 * The reveal-stage duration a game gets unless it says otherwise: 10 minutes at a table (the
 * steps are automatic and the phones are in one room), 1 hour otherwise.
 */
export function revealDeadlineFor(deadlines: Pick<Deadlines, 'movement'>): number {
  return deadlines.movement >= TABLE_DEADLINE_MS ? 10 * 60_000 : 60 * 60_000;
}

export interface Settings {
  readonly variant: string;
  /** Rules-engine version the creator ran; a phone with another version says so. */
  readonly engine: string;
  /** Partial RuleOptions, integers and booleans only. */
  readonly rules: Readonly<Record<string, number | boolean>>;
  readonly deadlines: Deadlines;
  /** Short game (rulebook III): the game ends after this year's adjustments; null: play to the end. */
  readonly endYear: number | null;
  readonly signaling: string;
  /** 'lot': seats are drawn by lot among the START's participants (rulebook); 'choice': the creator assigns. */
  readonly assignment: 'choice' | 'lot';
}

interface Base {
  readonly v: number;
  readonly game: string;
  /** Author's ed25519 public key, hex. */
  readonly from: string;
  /** Per-author counter: two different messages with one number are equivocation. */
  readonly seq: number;
  /** The author's own clock (ms since epoch), a claim, never trusted alone. */
  readonly time: number;
}

/** The game id is a hash of the creator key, the salt and the settings: one CREATE per game id. */
export interface CreatePayload extends Base {
  readonly type: 'create';
  readonly salt: string;
  readonly settings: Settings;
}
export interface JoinPayload extends Base {
  readonly type: 'join';
  readonly name: string;
  /** curve25519 key (hex) for chat boxes. */
  readonly box: string;
  /** ristretto255 key (base64url) that escrow shares are encrypted to (escrow.ts). */
  readonly escrow: string;
  readonly power: Power | null;
}
export interface StartPayload extends Base {
  readonly type: 'start';
  /**
   * 'choice' games: power -> key. One key may hold several powers (a seat of the variant); a
   * neutral power is listed under the creator's key as a placeholder. null in lot games.
   */
  readonly roster: Readonly<Record<Power, string>> | null;
  /** Lot games: the keys that draw seats (sorted); empty in 'choice' games. */
  readonly participants: readonly string[];
  /**
   * Version 5 on: every key the START names (startKeys) -> the escrow key its shares are dealt to
   * and its complaints judged with, for the whole game (one of that key's own JOINs names it).
   * Absent before version 5.
   */
  readonly escrow?: Readonly<Record<string, string>>;
}
/**
 * The escrow part of a sealed commit (escrow.ts). Before version 5: Feldman commitments, ephemeral
 * point, encrypted shares. Version 5: one commitment S_i per holder, the ephemeral point, `s` empty
 * (the shares are derived, not carried). With escrow off: C_0 alone.
 */
export interface EscrowPayload {
  readonly c: readonly string[];
  readonly e: string | null;
  readonly s: readonly string[];
}
export interface CommitPayload extends Base {
  readonly type: 'commit';
  readonly phase: PhaseKey;
  readonly power: Power;
  /** base64url(nonce || secretbox(padded plaintext)) under a key derived from the secret scalar. */
  readonly sealed: string;
  /** hashHex of the sealed bytes. */
  readonly hash: string;
  readonly escrow: EscrowPayload;
}
/** Names the one commit of the power that the power's holder stands by (once per power and phase). */
export interface FinalPayload extends Base {
  readonly type: 'final';
  readonly phase: PhaseKey;
  readonly power: Power;
  readonly commit: string;
}
/** A holder's proof that its escrow share of `commit` is bogus (escrow.ts complaintValid). */
export interface Complaint {
  readonly commit: string;
  readonly k: string;
  readonly proof: string;
}
/** Blind naming, once per key and phase: the FINAL of every awaited slot, the latest commit of each timed-out slot without one. */
export interface LockPayload extends Base {
  readonly type: 'lock';
  readonly phase: PhaseKey;
  /** slot (power, or participant key in the lot) -> FINAL id (in the lot: the LOT-COMMIT id). */
  readonly finals: Readonly<Record<string, string>>;
  /** slot -> commit id, for timed-out slots without a FINAL. */
  readonly heads: Readonly<Record<string, string>>;
  readonly complaints: readonly Complaint[];
  /**
   * Version 5 (required there, absent before): the state hash the author computed for the phase
   * resolved just before this LOCK's phase, its ACK of that phase folded in; null when none is.
   */
  readonly ack?: string | null;
}
/** Opening, once per key and phase: names one LOCK per key, releases the author's secrets and escrow shares. */
export interface RevealPayload extends Base {
  readonly type: 'reveal';
  readonly phase: PhaseKey;
  /**
   * One LOCK of every key of the ballot. Versions 2 and 3: key -> LOCK id. Version 4: the LOCK ids,
   * sorted (each LOCK's key is its signer; revealLockIds reads both forms).
   */
  readonly locks: Readonly<Record<string, string>> | readonly string[];
  /**
   * The author's secret scalars (base64url) of its own commits that the named LOCKs name. Versions
   * 2 and 3: commit id -> secret. Version 4: the secrets alone, in the order of those commits' ids.
   */
  readonly secrets: Readonly<Record<string, string>> | readonly string[];
  /**
   * The author's decrypted escrow shares (base64url) of the other named commits it holds a share
   * of (less those its LOCK complained about). Versions 2 and 3: commit id -> share. Version 4: the
   * shares alone, in the order of those commits' ids.
   */
  readonly shares: Readonly<Record<string, string>> | readonly string[];
  /**
   * Version 6 (required there, absent before): complaints, sorted by commit id, each in the place of
   * a share owed of a commit that the author's own named LOCK did not name (ballot.ts revealOwes);
   * those shares are left out of `shares`.
   */
  readonly complaints?: readonly Complaint[];
}
/** Votes `slots` (powers, or participant keys in the lot) out of the phase; the voter is the author key. */
export interface TimeoutPayload extends Base {
  readonly type: 'timeout';
  readonly phase: PhaseKey;
  readonly slots: readonly string[];
}
/** "My clock has passed this phase's deadline for this stage": what lets the single other player of a two-player game vote me out. */
export interface ClockPayload extends Base {
  readonly type: 'clock';
  readonly phase: PhaseKey;
  readonly stage: 'orders' | 'reveal';
}
export interface ConcedePayload extends Base {
  readonly type: 'concede';
  readonly phase: PhaseKey;
  readonly power: Power;
}
/** Seed 001's alliance: every member power signs one with the same `powers`; `yes: false` leaves it. */
export interface AlliancePayload extends Base {
  readonly type: 'alliance';
  readonly phase: PhaseKey;
  /** The signing power (a member). */
  readonly power: Power;
  /** All members, sorted, at least two. */
  readonly powers: readonly Power[];
  readonly yes: boolean;
}
/** Civil-disorder hand-over: an absent `power` passes to key `to` once a majority of the other players sign it. */
export interface HandoverPayload extends Base {
  readonly type: 'handover';
  readonly phase: PhaseKey;
  /** The power handed over (not the signer's). */
  readonly power: Power;
  readonly to: string;
  /** The START the signer plays under (the replacement's phone anchors to it). */
  readonly start: string;
  /** Version 5 on: the escrow key `to` plays with once it holds the power (one of its JOINs names it). Absent before. */
  readonly escrow?: string;
}
export interface ChatPayload extends Base {
  readonly type: 'chat';
  /** Every player of the game (public key, hex) -> base64url(box of a 32-byte value): the message key for recipients, random for the others. */
  readonly keys: Readonly<Record<string, string>>;
  readonly nonce: string;
  /** secretbox of the padded plaintext {to, text, time, pad}; the public `time` is 0. */
  readonly sealed: string;
}
/** phase 'start' with hash = START id accepts that START (once per key, ever); otherwise hash = state hash after the phase. */
export interface AckPayload extends Base {
  readonly type: 'ack';
  readonly phase: string;
  readonly hash: string;
}
/** A lot participant's sealed value (its slot is its key); it is also its FINAL: a second one is equivocation. */
export interface LotCommitPayload extends Base {
  readonly type: 'lot-commit';
  readonly sealed: string;
  readonly hash: string;
  readonly escrow: EscrowPayload;
}

export type Payload =
  | CreatePayload
  | JoinPayload
  | StartPayload
  | CommitPayload
  | FinalPayload
  | LockPayload
  | RevealPayload
  | TimeoutPayload
  | ClockPayload
  | ConcedePayload
  | ChatPayload
  | AckPayload
  | LotCommitPayload
  | AlliancePayload
  | HandoverPayload;
export type MessageType = Payload['type'];

/** Fold order within a phase: commits before what names them, and so on. */
export const TYPE_ORDER: readonly MessageType[] = [
  'create',
  'join',
  'start',
  'lot-commit',
  'commit',
  'final',
  'lock',
  'reveal',
  'timeout',
  'clock',
  'concede',
  'ack',
  'chat',
  'alliance',
  'handover',
];

/** A payload without the envelope fields that signMessage fills in. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type PayloadBody = DistributiveOmit<Payload, 'v' | 'from'>;

type Check = (v: unknown) => boolean;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const int: Check = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const hexOf =
  (n: number): Check =>
  (v) =>
    typeof v === 'string' && v.length === n && /^[0-9a-f]*$/.test(v);
const b64 =
  (max: number): Check =>
  (v) =>
    typeof v === 'string' && v.length <= max && /^[A-Za-z0-9_-]*$/.test(v);
const text =
  (max: number): Check =>
  (v) =>
    typeof v === 'string' && v.length <= max;
const bool: Check = (v) => typeof v === 'boolean';
const power: Check = (v) => typeof v === 'string' && (POWERS as readonly string[]).includes(v);
const nullable =
  (c: Check): Check =>
  (v) =>
    v === null || c(v);
const phaseKey: Check = (v) => typeof v === 'string' && /^\d{1,5}-(spring|fall|winter)-(movement|retreat|adjustment)$/.test(v);
const id = hexOf(32);
const pk = hexOf(64);
const sortedUnique =
  (c: Check, max: number): Check =>
  (v) =>
    Array.isArray(v) && v.length <= max && v.every(c) && v.every((x, i) => i === 0 || (v[i - 1] as string) < (x as string));
const recordOf =
  (keyCheck: Check, valueCheck: Check, max: number): Check =>
  (v) =>
    isRecord(v) && Object.keys(v).length <= max && Object.entries(v).every(([k, x]) => keyCheck(k) && valueCheck(x));
const shape =
  (fields: Record<string, Check>): Check =>
  (v) =>
    isRecord(v) && Object.keys(v).every((k) => k in fields) && Object.entries(fields).every(([k, c]) => c(v[k]));

const deadlines = shape({ movement: int, retreat: int, adjustment: int, lot: int, reveal: int });
const settings = shape({
  variant: text(40),
  engine: text(80),
  rules: recordOf(text(40), (x) => bool(x) || int(x), 16),
  deadlines,
  endYear: nullable(int),
  signaling: text(300),
  assignment: (v) => v === 'choice' || v === 'lot',
});

const BASE = { v: (x: unknown) => typeof x === 'number' && READABLE_VERSIONS.includes(x), game: id, from: pk, seq: int, time: int, type: text(20) };
const MAX_SEALED = 60_000;
/** 32 bytes in base64url: a point or a scalar of the escrow. */
const b32: Check = (v) => typeof v === 'string' && v.length === 43 && /^[A-Za-z0-9_-]*$/.test(v);
const b64exact =
  (n: number): Check =>
  (v) =>
    typeof v === 'string' && v.length === n && /^[A-Za-z0-9_-]*$/.test(v);
/** Slots: powers in a phase, participant keys in the lot. */
const slot: Check = (v) => power(v) || pk(v);
const anyPhase: Check = (v) => v === LOT_PHASE || phaseKey(v);
const listOf =
  (c: Check, max: number): Check =>
  (v) =>
    Array.isArray(v) && v.length <= max && v.every(c);
/** Up to seven players share a phase: seven commitments and shares at most (a spare for hand-overs). */
const escrow = shape({ c: (v) => listOf(b32, 8)(v) && (v as unknown[]).length >= 1, e: nullable(b32), s: listOf(b32, 8) });
const complaint = shape({ commit: id, k: b32, proof: b64exact(86) });
const roster: Check = (v) => recordOf(power, pk, 7)(v) && Object.keys(v as object).length === POWERS.length;

const SHAPES: Record<MessageType, Check> = {
  create: shape({ ...BASE, salt: hexOf(32), settings }),
  join: shape({ ...BASE, name: text(40), box: pk, escrow: b32, power: nullable(power) }),
  start: shape({ ...BASE, roster: nullable(roster), participants: sortedUnique(pk, 16), escrow: (v) => v === undefined || recordOf(pk, b32, 16)(v) }),
  alliance: shape({ ...BASE, phase: phaseKey, power, powers: (v) => sortedUnique(power, 7)(v) && (v as unknown[]).length >= 2, yes: bool }),
  handover: shape({ ...BASE, phase: phaseKey, power, to: pk, start: id, escrow: (v) => v === undefined || b32(v) }),
  commit: shape({ ...BASE, phase: phaseKey, power, sealed: b64(MAX_SEALED), hash: id, escrow }),
  final: shape({ ...BASE, phase: phaseKey, power, commit: id }),
  lock: shape({
    ...BASE,
    phase: anyPhase,
    finals: recordOf(slot, id, 16),
    heads: recordOf(slot, id, 16),
    complaints: listOf(complaint, 16),
    ack: (v) => v === undefined || v === null || id(v),
  }),
  reveal: shape({
    ...BASE,
    phase: anyPhase,
    locks: (v) => (Array.isArray(v) ? sortedUnique(id, 16)(v) : recordOf(pk, id, 16)(v)),
    secrets: (v) => (Array.isArray(v) ? listOf(b32, 16)(v) : recordOf(id, b32, 16)(v)),
    shares: (v) => (Array.isArray(v) ? listOf(b32, 32)(v) : recordOf(id, b32, 32)(v)),
    complaints: (v) => v === undefined || listOf(complaint, 32)(v),
  }),
  timeout: shape({ ...BASE, phase: anyPhase, slots: (v) => sortedUnique(slot, 16)(v) && (v as unknown[]).length > 0 }),
  clock: shape({ ...BASE, phase: anyPhase, stage: (v) => v === 'orders' || v === 'reveal' }),
  concede: shape({ ...BASE, phase: phaseKey, power }),
  chat: shape({ ...BASE, keys: recordOf(pk, b64(100), 16), nonce: b64(32), sealed: b64(MAX_SEALED) }),
  ack: shape({ ...BASE, phase: (v) => v === 'start' || phaseKey(v), hash: id }),
  'lot-commit': shape({ ...BASE, sealed: b64(4_000), hash: id, escrow }),
};

/** A payload of a known type whose fields all have the right shape, or why not. */
export function checkPayload(value: unknown): { ok: true; payload: Payload } | { ok: false; reason: string } {
  if (!isRecord(value)) return { ok: false, reason: 'not-an-object' };
  if (typeof value.v !== 'number' || !READABLE_VERSIONS.includes(value.v)) return { ok: false, reason: 'unknown-protocol-version' };
  const check = SHAPES[value.type as MessageType];
  if (typeof value.type !== 'string' || !Object.hasOwn(SHAPES, value.type) || check === undefined) return { ok: false, reason: 'unknown-type' };
  if (!check(value)) return { ok: false, reason: 'bad-shape' };
  // A REVEAL's LOCKs, secrets and shares: lists from version 4 on, keyed before.
  if (value.type === 'reveal' && [value.locks, value.secrets, value.shares].some((x) => Array.isArray(x) !== (value.v as number) >= LOCK_LIST_VERSION))
    return { ok: false, reason: 'bad-shape' };
  // A REVEAL carries `complaints` (a list, maybe empty) from version 6 on, and never before.
  if (value.type === 'reveal' && (value.v as number) >= REVEAL_COMPLAINT_VERSION !== (value.complaints !== undefined))
    return { ok: false, reason: 'bad-shape' };
  // A START's escrow keys and a HANDOVER's: from version 5 on, never before.
  if ((value.type === 'start' || value.type === 'handover') && (value.escrow !== undefined) !== (value.v as number) >= PIN_VERSION)
    return { ok: false, reason: value.escrow === undefined ? 'missing-escrow-keys' : 'bad-shape' };
  // A LOCK carries `ack` (an id or null) from version 5 on, and never before: one form per version.
  if (value.type === 'lock' && (value.v as number) >= ACK_IN_LOCK_VERSION !== (value.ack !== undefined)) return { ok: false, reason: 'bad-shape' };
  // Version 5 escrow carries no share (they are derived): a commit of that version with one is of no version.
  if ((value.type === 'commit' || value.type === 'lot-commit') && (value.v as number) >= DERIVED_ESCROW_VERSION && (value.escrow as EscrowPayload).s.length > 0)
    return { ok: false, reason: 'bad-shape' };
  return { ok: true, payload: value as unknown as Payload };
}

/** The keys a START names, sorted, once each: its roster's keys (placeholders included) or its participants. */
export function startKeys(p: Pick<StartPayload, 'roster' | 'participants'>): string[] {
  const keys = p.roster === null ? [...p.participants] : Object.values(p.roster);
  return [...new Set(keys)].sort(compareText);
}

/** The LOCK ids a REVEAL names, in either form (a list from version 4 on, key -> id before). */
export function revealLockIds(p: RevealPayload): readonly string[] {
  return Array.isArray(p.locks) ? (p.locks as readonly string[]) : Object.values(p.locks);
}

/** Messages that belong to one phase of the game (or the lot ballot) rather than to the lobby. */
export function isPhaseBound(
  p: Payload,
): p is CommitPayload | FinalPayload | LockPayload | RevealPayload | TimeoutPayload | ClockPayload | ConcedePayload | AlliancePayload | HandoverPayload {
  return (
    p.type === 'commit' ||
    p.type === 'final' ||
    p.type === 'lock' ||
    p.type === 'reveal' ||
    p.type === 'timeout' ||
    p.type === 'clock' ||
    p.type === 'concede' ||
    p.type === 'alliance' ||
    p.type === 'handover'
  );
}

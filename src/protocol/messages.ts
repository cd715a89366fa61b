// The signed payloads of the game log and their shape checks. Everything that matters for
// trust is inside the payload (game id, author, sequence number, phase, power), because only
// the payload is signed. Unknown fields are refused so a payload has exactly one byte form.
import { POWERS, type Power } from '../rules';

export const PROTOCOL_VERSION = 1;

export type PhaseKey = string; // '1901-spring-movement'

export interface Deadlines {
  /** Milliseconds each phase kind stays open before absent powers may be timed out. */
  readonly movement: number;
  readonly retreat: number;
  readonly adjustment: number;
  /** For drawing powers by lot in the lobby. */
  readonly lot: number;
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
  /** 'lot': powers are drawn by lot among the joined players (rulebook); 'choice': the creator assigns. */
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

export interface CreatePayload extends Base { readonly type: 'create'; readonly salt: string; readonly settings: Settings }
export interface JoinPayload extends Base { readonly type: 'join'; readonly name: string; readonly box: string; readonly power: Power | null }
export interface StartPayload extends Base {
  readonly type: 'start';
  /** power -> key. One key may hold several powers (a seat of the variant); a neutral power is
   *  listed under the creator's key as a placeholder and never acts (see variants.ts). */
  readonly roster: Readonly<Record<Power, string>>;
  /** Lot games: ids of the lot reveals counted for the draw. */
  readonly lot: readonly string[];
}
export interface CommitPayload extends Base {
  readonly type: 'commit';
  readonly phase: PhaseKey;
  readonly power: Power;
  /** Id of this power's commit it replaces in this phase, null for the first: the chain makes "earlier" unforgeable. */
  readonly prev: string | null;
  /** base64url(nonce || secretbox(orders)). */
  readonly sealed: string;
  /** hashHex of the sealed bytes. */
  readonly hash: string;
  /** hashHex of the key that opens it (binds the key, see seal.ts). */
  readonly keyHash: string;
}
export interface RevealPayload extends Base {
  readonly type: 'reveal';
  readonly phase: PhaseKey;
  readonly power: Power;
  /** commit id -> base64url key, for every commit of this power in the phase. */
  readonly keys: Readonly<Record<string, string>>;
  /** power -> id of the latest commit of that power the revealer had seen. */
  readonly lock: Readonly<Partial<Record<Power, string>>>;
}
export interface TimeoutPayload extends Base { readonly type: 'timeout'; readonly phase: PhaseKey; readonly power: Power; readonly powers: readonly Power[] }
/** A secret draw vote: `hash` = drawCommitment(game, phase, power, seq, yes, salt) (draw.ts). */
export interface DrawPayload extends Base { readonly type: 'draw'; readonly phase: PhaseKey; readonly power: Power; readonly hash: string }
/** Opens this power's draw commits: the salt, and per survivor the latest draw commit seen. */
export interface DrawRevealPayload extends Base {
  readonly type: 'draw-reveal';
  readonly phase: PhaseKey;
  readonly power: Power;
  readonly salt: string;
  readonly lock: Readonly<Partial<Record<Power, string>>>;
}
export interface ConcedePayload extends Base { readonly type: 'concede'; readonly phase: PhaseKey; readonly power: Power }
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
/** Civil-disorder hand-over: `power` passes to key `to` once a majority of the other players sign it. */
export interface HandoverPayload extends Base {
  readonly type: 'handover';
  readonly phase: PhaseKey;
  /** The power handed over (not the signer's). */
  readonly power: Power;
  readonly to: string;
}
export interface ChatPayload extends Base {
  readonly type: 'chat';
  /** recipient public key (hex) -> base64url(box of the message key). */
  readonly keys: Readonly<Record<string, string>>;
  readonly nonce: string;
  readonly sealed: string;
}
/** phase 'start' with hash = START id accepts the roster; otherwise hash = state hash after the phase. */
export interface AckPayload extends Base { readonly type: 'ack'; readonly phase: string; readonly hash: string }
export interface LotCommitPayload extends Base { readonly type: 'lot-commit'; readonly lot: string; readonly hash: string }
export interface LotRevealPayload extends Base { readonly type: 'lot-reveal'; readonly lot: string; readonly value: string }

export type Payload =
  | CreatePayload | JoinPayload | StartPayload | CommitPayload | RevealPayload | TimeoutPayload
  | DrawPayload | ConcedePayload | ChatPayload | AckPayload | LotCommitPayload | LotRevealPayload
  | AlliancePayload | HandoverPayload | DrawRevealPayload;
export type MessageType = Payload['type'];

/** Fold order within a phase: commits before the reveals that name them, and so on. */
export const TYPE_ORDER: readonly MessageType[] = [
  'create', 'join', 'lot-commit', 'lot-reveal', 'start', 'commit', 'reveal', 'timeout', 'concede', 'draw', 'ack', 'chat',
  'alliance', 'handover', 'draw-reveal',
];

/** A payload without the envelope fields that signMessage fills in. */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type PayloadBody = DistributiveOmit<Payload, 'v' | 'from'>;

type Check = (v: unknown) => boolean;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const int: Check = (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const hexOf = (n: number): Check => (v) => typeof v === 'string' && v.length === n && /^[0-9a-f]*$/.test(v);
const b64 = (max: number): Check => (v) => typeof v === 'string' && v.length <= max && /^[A-Za-z0-9_-]*$/.test(v);
const text = (max: number): Check => (v) => typeof v === 'string' && v.length <= max;
const bool: Check = (v) => typeof v === 'boolean';
const power: Check = (v) => typeof v === 'string' && (POWERS as readonly string[]).includes(v);
const nullable = (c: Check): Check => (v) => v === null || c(v);
const phaseKey: Check = (v) => typeof v === 'string' && /^\d{1,5}-(spring|fall|winter)-(movement|retreat|adjustment)$/.test(v);
const id = hexOf(32);
const pk = hexOf(64);
const sortedUnique = (c: Check, max: number): Check => (v) =>
  Array.isArray(v) && v.length <= max && v.every(c) && v.every((x, i) => i === 0 || (v[i - 1] as string) < (x as string));
const recordOf = (keyCheck: Check, valueCheck: Check, max: number): Check => (v) =>
  isRecord(v) && Object.keys(v).length <= max && Object.entries(v).every(([k, x]) => keyCheck(k) && valueCheck(x));
const shape = (fields: Record<string, Check>): Check => (v) =>
  isRecord(v) && Object.keys(v).every((k) => k in fields) && Object.entries(fields).every(([k, c]) => c(v[k]));

const deadlines = shape({ movement: int, retreat: int, adjustment: int, lot: int });
const settings = shape({
  variant: text(40),
  engine: text(80),
  rules: recordOf(text(40), (x) => bool(x) || int(x), 16),
  deadlines,
  endYear: nullable(int),
  signaling: text(300),
  assignment: (v) => v === 'choice' || v === 'lot',
});

const BASE = { v: (x: unknown) => x === PROTOCOL_VERSION, game: id, from: pk, seq: int, time: int, type: text(20) };
const MAX_SEALED = 60_000;

const SHAPES: Record<MessageType, Check> = {
  create: shape({ ...BASE, salt: hexOf(32), settings }),
  join: shape({ ...BASE, name: text(40), box: pk, power: nullable(power) }),
  start: shape({ ...BASE, roster: (v) => recordOf(power, pk, 7)(v) && Object.keys(v as object).length === POWERS.length, lot: sortedUnique(id, 64) }),
  alliance: shape({ ...BASE, phase: phaseKey, power, powers: (v) => sortedUnique(power, 7)(v) && (v as unknown[]).length >= 2, yes: bool }),
  handover: shape({ ...BASE, phase: phaseKey, power, to: pk }),
  commit: shape({ ...BASE, phase: phaseKey, power, prev: nullable(id), sealed: b64(MAX_SEALED), hash: id, keyHash: id }),
  reveal: shape({ ...BASE, phase: phaseKey, power, keys: recordOf(id, b64(43), 64), lock: recordOf(power, id, 7) }),
  timeout: shape({ ...BASE, phase: phaseKey, power, powers: (v) => sortedUnique(power, 7)(v) && (v as unknown[]).length > 0 }),
  draw: shape({ ...BASE, phase: phaseKey, power, hash: id }),
  'draw-reveal': shape({ ...BASE, phase: phaseKey, power, salt: b64(43), lock: recordOf(power, id, 7) }),
  concede: shape({ ...BASE, phase: phaseKey, power }),
  chat: shape({ ...BASE, keys: recordOf(pk, b64(100), 16), nonce: b64(32), sealed: b64(MAX_SEALED) }),
  ack: shape({ ...BASE, phase: (v) => v === 'start' || phaseKey(v), hash: id }),
  'lot-commit': shape({ ...BASE, lot: text(20), hash: id }),
  'lot-reveal': shape({ ...BASE, lot: text(20), value: b64(43) }),
};

/** A payload of a known type whose fields all have the right shape, or why not. */
export function checkPayload(value: unknown): { ok: true; payload: Payload } | { ok: false; reason: string } {
  if (!isRecord(value)) return { ok: false, reason: 'not-an-object' };
  if (value.v !== PROTOCOL_VERSION) return { ok: false, reason: 'unknown-protocol-version' };
  const check = SHAPES[value.type as MessageType];
  if (typeof value.type !== 'string' || !Object.hasOwn(SHAPES, value.type) || check === undefined) return { ok: false, reason: 'unknown-type' };
  if (!check(value)) return { ok: false, reason: 'bad-shape' };
  return { ok: true, payload: value as unknown as Payload };
}

export function isPhaseBound(
  p: Payload,
): p is CommitPayload | RevealPayload | TimeoutPayload | DrawPayload | DrawRevealPayload | ConcedePayload | AlliancePayload | HandoverPayload {
  return (
    p.type === 'commit' || p.type === 'reveal' || p.type === 'timeout' || p.type === 'draw' || p.type === 'draw-reveal' || p.type === 'concede' ||
    p.type === 'alliance' || p.type === 'handover'
  );
}

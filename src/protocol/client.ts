// What a phone signs, and when. Pure like the rest: the caller supplies the clock reading,
// the per-author sequence number and every random byte.
import { isTossPhase, missingOrders, variantById, type Loc, type Order, type Power } from '../rules';
import { fromBase64, toBase64, toHex } from './bytes';
import { hashHex } from './canonical';
import { signMessage } from './envelope';
import type { Identity } from './identity';
import { gameIdFor } from './lobby';
import { lotCommitment } from './lot';
import type { PhaseKey, PayloadBody, Settings } from './messages';
import { drawCommitment, drawSalt } from './draw';
import { sealOrders } from './seal';
import type { GameView, OpenPhase } from './view';

/** The author's own sequence number (0, 1, 2, ... across the whole game) and clock reading. */
export interface Stamp {
  readonly seq: number;
  readonly time: number;
}

export interface Signed {
  readonly id: string;
  readonly bytes: Uint8Array;
}

/** The id of a signed entry (hash of its payload), as reduceLog and reveal locks use it. */
export function messageId(bytes: Uint8Array): string {
  return hashHex(bytes.subarray(64));
}

function sign(identity: Identity, body: PayloadBody): Signed {
  const bytes = signMessage(identity, body);
  return { id: messageId(bytes), bytes };
}

/** salt: 16 random bytes. */
export function createGame(identity: Identity, salt: Uint8Array, settings: Settings, stamp: Stamp): { gameId: string; message: Signed } {
  const saltHex = toHex(salt);
  const gameId = gameIdFor(identity.id, saltHex);
  return { gameId, message: sign(identity, { type: 'create', game: gameId, ...stamp, salt: saltHex, settings }) };
}

export function joinGame(identity: Identity, gameId: string, name: string, power: Power | null, stamp: Stamp): Signed {
  return sign(identity, { type: 'join', game: gameId, ...stamp, name, box: identity.boxPublicKey, power });
}

export function startGame(identity: Identity, gameId: string, roster: Readonly<Record<Power, string>>, lotReveals: readonly string[], stamp: Stamp): Signed {
  return sign(identity, { type: 'start', game: gameId, ...stamp, roster, lot: [...lotReveals].sort() });
}

export function acceptStart(identity: Identity, gameId: string, startId: string, stamp: Stamp): Signed {
  return sign(identity, { type: 'ack', game: gameId, ...stamp, phase: 'start', hash: startId });
}

/** value: 32 random bytes, kept until the reveal. */
export function commitLot(identity: Identity, gameId: string, lot: string, value: Uint8Array, stamp: Stamp): Signed {
  return sign(identity, { type: 'lot-commit', game: gameId, ...stamp, lot, hash: lotCommitment(value) });
}

export function revealLot(identity: Identity, gameId: string, lot: string, value: Uint8Array, stamp: Stamp): Signed {
  return sign(identity, { type: 'lot-reveal', game: gameId, ...stamp, lot, value: toBase64(value) });
}

/**
 * Seals orders under a fresh key (32 random bytes) and nonce (24 random bytes). `prev` is this
 * power's latest commit in the phase (view.current.heads[power]) so the new one replaces it.
 */
export function commitOrders(
  identity: Identity,
  gameId: string,
  phase: PhaseKey,
  power: Power,
  orders: readonly Order[],
  prev: string | null,
  key: Uint8Array,
  nonce: Uint8Array,
  stamp: Stamp,
): Signed {
  const sealed = sealOrders(orders, key, nonce);
  return sign(identity, { type: 'commit', game: gameId, ...stamp, phase, power, prev, sealed: sealed.sealed, hash: sealed.hash, keyHash: sealed.keyHash });
}

/**
 * The seal helper for variants: refuses to seal while a unit of the power has no order under the
 * "1914" rule "every unit must receive an order", and seals `coin` (32 random bytes, supplied by
 * the caller like every random byte) with the orders in the phase of a two-player toss.
 */
export function commitTurn(
  identity: Identity,
  gameId: string,
  view: GameView,
  power: Power,
  orders: readonly Order[],
  random: { readonly key: Uint8Array; readonly nonce: Uint8Array; readonly coin: Uint8Array },
  stamp: Stamp,
): { ok: true; message: Signed } | { ok: false; reason: 'no-open-phase' | 'missing-orders'; missing: Loc[] } {
  const c = view.current;
  if (c === undefined || view.settings === undefined) return { ok: false, reason: 'no-open-phase', missing: [] };
  const variant = variantById(view.settings.variant);
  const required = { ...(variant?.rules ?? {}), ...view.settings.rules }.allOrdersRequired === true;
  const missing = required ? missingOrders(c.position, power, orders).map((u) => u.loc) : [];
  if (missing.length > 0) return { ok: false, reason: 'missing-orders', missing };
  const coin = variant !== undefined && isTossPhase(variant, c.position.phase) ? random.coin : undefined;
  const sealed = sealOrders(orders, random.key, random.nonce, coin);
  const prev = c.heads[power] ?? null;
  return {
    ok: true,
    message: sign(identity, { type: 'commit', game: gameId, ...stamp, phase: c.key, power, prev, sealed: sealed.sealed, hash: sealed.hash, keyHash: sealed.keyHash }),
  };
}

/** Seed 001's alliance: each member power signs the same member list; yes: false leaves it. */
export function declareAlliance(identity: Identity, gameId: string, phase: PhaseKey, power: Power, powers: readonly Power[], yes: boolean, stamp: Stamp): Signed {
  return sign(identity, { type: 'alliance', game: gameId, ...stamp, phase, power, powers: [...new Set(powers)].sort(), yes });
}

/** Votes to hand `power` to the key `to` (a player replacing an absent one, seed 000 XV.4). */
export function handOver(identity: Identity, gameId: string, phase: PhaseKey, power: Power, to: string, stamp: Stamp): Signed {
  return sign(identity, { type: 'handover', game: gameId, ...stamp, phase, power, to });
}

/** keys: commit id -> key for every commit this power made in the phase; the lock is taken from the view. */
export function revealOrders(identity: Identity, gameId: string, current: OpenPhase, power: Power, keys: Readonly<Record<string, Uint8Array>>, stamp: Stamp): Signed {
  const textKeys: Record<string, string> = {};
  for (const [id, key] of Object.entries(keys)) textKeys[id] = toBase64(key);
  return sign(identity, { type: 'reveal', game: gameId, ...stamp, phase: current.key, power, keys: textKeys, lock: { ...current.heads } });
}

export function voteTimeout(identity: Identity, gameId: string, phase: PhaseKey, power: Power, against: readonly Power[], stamp: Stamp): Signed {
  return sign(identity, { type: 'timeout', game: gameId, ...stamp, phase, power, powers: [...new Set(against)].sort() });
}

/** A secret vote: only its commitment is published; revealDraw opens it when every survivor has voted. */
export function voteDraw(identity: Identity, gameId: string, phase: PhaseKey, power: Power, yes: boolean, stamp: Stamp): Signed {
  const hash = drawCommitment(gameId, phase, power, stamp.seq, yes, drawSalt(identity, gameId, phase, power));
  return sign(identity, { type: 'draw', game: gameId, ...stamp, phase, power, hash });
}

/** Opens every draw vote this power made in the phase; the lock is taken from the view. */
export function revealDraw(identity: Identity, gameId: string, current: OpenPhase, power: Power, stamp: Stamp): Signed {
  const salt = drawSalt(identity, gameId, current.key, power);
  return sign(identity, { type: 'draw-reveal', game: gameId, ...stamp, phase: current.key, power, salt, lock: { ...current.drawHeads } });
}

/** Due once every surviving power has committed a draw vote, for a power that voted and has not revealed. */
export function drawRevealDue(view: GameView, power: Power): boolean {
  const c = view.current;
  if (c === undefined || !c.drawVoters.includes(power) || !c.drawCommitted.includes(power) || c.drawRevealed.includes(power)) return false;
  return c.drawVoters.every((p) => c.drawCommitted.includes(p));
}

export function concede(identity: Identity, gameId: string, phase: PhaseKey, power: Power, stamp: Stamp): Signed {
  return sign(identity, { type: 'concede', game: gameId, ...stamp, phase, power });
}

export function acknowledge(identity: Identity, gameId: string, phase: PhaseKey, stateHash: string, stamp: Stamp): Signed {
  return sign(identity, { type: 'ack', game: gameId, ...stamp, phase, hash: stateHash });
}

export function sendChat(identity: Identity, gameId: string, sealed: Pick<Extract<PayloadBody, { type: 'chat' }>, 'keys' | 'nonce' | 'sealed'>, stamp: Stamp): Signed {
  return sign(identity, { type: 'chat', game: gameId, ...stamp, ...sealed });
}

/**
 * A phone reveals as soon as it sees a commit from every power whose orders are awaited (or
 * that power is timed out), and it has committed itself and not yet revealed.
 */
export function revealDue(view: GameView, power: Power): boolean {
  const c = view.current;
  if (c === undefined || !c.required.includes(power) || c.revealed.includes(power) || !c.committed.includes(power)) return false;
  return c.required.every((p) => c.committed.includes(p) || c.timedOut.includes(p));
}

/** Powers this power should vote out now, judged by this phone's own clock. */
export function timeoutsDue(view: GameView, power: Power, now: number): Power[] {
  const c = view.current;
  if (c === undefined || now < c.deadline || !c.active.includes(power)) return [];
  const everyoneCommitted = c.required.every((p) => c.committed.includes(p) || c.timedOut.includes(p));
  if (everyoneCommitted && now < c.revealDeadline) return [];
  return c.required.filter((p) => p !== power && !c.timedOut.includes(p) && (everyoneCommitted ? !c.revealed.includes(p) : !c.committed.includes(p)));
}

/** Decodes a base64url key string (for stores that keep commit keys as text). */
export function keyFromText(text: string): Uint8Array | null {
  return fromBase64(text);
}

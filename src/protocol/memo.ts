// Phones re-reduce the whole log whenever an entry arrives, so the two expensive pure steps
// are remembered: opening an entry (by the identity of its bytes object: entries in a log are
// never mutated) and adjudicating a phase (by the hash of everything adjudicate() is given).
// Results are the same with or without the memo; only time changes.
import type { Adjudication, Power } from '../rules';
import type { Opened, Verifier } from './envelope';
import { clearEscrowMemos } from './escrow';

const LIMIT = 20_000;

/**
 * Remembers an escrow check of a ballot (a REVEAL's secret against its commit's C₀, a share
 * against the commitments): `key` names everything the check depends on (an entry id fixes the
 * entry's bytes), so the answer is the same remembered or not.
 */
export type EscrowChecks = (key: string, run: () => boolean) => boolean;

const checksBy = new WeakMap<Verifier, EscrowChecks>();

/**
 * The escrow checks made with this verifier, remembered as long as it lives: like the signatures
 * it remembers, a phone checks each entry's escrow once per session (curve multiplications cost
 * most of a rebuild's time), whatever else is forgotten (clearMemos keeps them, as it keeps the
 * verifier's signatures).
 */
export function escrowChecksOf(verifier: Verifier, limit = 200_000): EscrowChecks {
  const have = checksBy.get(verifier);
  if (have !== undefined) return have;
  const known = new Map<string, boolean>();
  const checks: EscrowChecks = (key, run) => {
    const k = known.get(key);
    if (k !== undefined) return k;
    const fresh = run();
    if (known.size >= limit) known.clear();
    known.set(key, fresh);
    return fresh;
  };
  checksBy.set(verifier, checks);
  return checks;
}

const openedBy = new WeakMap<Verifier, WeakMap<object, { readonly slot: string; readonly opened: Opened }>>();

/**
 * What an entry opens to, by its bytes' identity and `slot`: what else the opening read (the game,
 * and for a version 6 entry naming its author by place, the STARTs held), so a new START reads it again.
 */
export function memoOpen(bytes: unknown, verifier: Verifier, open: () => Opened, slot = ''): Opened {
  if (typeof bytes !== 'object' || bytes === null) return open();
  const opened = openedBy.get(verifier) ?? new WeakMap<object, { readonly slot: string; readonly opened: Opened }>();
  openedBy.set(verifier, opened);
  const have = opened.get(bytes);
  if (have !== undefined && have.slot === slot) return have.opened;
  const fresh = open();
  opened.set(bytes, { slot, opened: fresh });
  return fresh;
}

export interface Adjudged {
  readonly adjudication: Adjudication;
  readonly nextHash: string;
}

const adjudged = new Map<string, Adjudged>();

export function memoAdjudicate(key: string, run: () => Adjudged): Adjudged {
  const have = adjudged.get(key);
  if (have !== undefined) return have;
  const fresh = run();
  if (adjudged.size >= LIMIT) adjudged.clear();
  adjudged.set(key, fresh);
  return fresh;
}

const positionHashes = new WeakMap<object, string>();

/**
 * The state hash of a position object, remembered by its identity (positions are never changed
 * once made): a phone's every re-reduce hashes the same last position, from the same remembered
 * adjudication, again.
 */
export function memoPositionHash(position: object, run: () => string): string {
  const have = positionHashes.get(position);
  if (have !== undefined) return have;
  const fresh = run();
  positionHashes.set(position, fresh);
  return fresh;
}

const unsealed = new Map<string, Uint8Array | null>();

/** Opening a sealed box, remembered by (commit id, secret): the id fixes the sealed bytes. */
export function memoUnseal(commitId: string, secret: bigint, run: () => Uint8Array | null): Uint8Array | null {
  const key = `${commitId}|${secret}`;
  const have = unsealed.get(key);
  if (have !== undefined) return have;
  const fresh = run();
  if (unsealed.size >= LIMIT) unsealed.clear();
  unsealed.set(key, fresh);
  return fresh;
}

export interface PhaseFacts {
  readonly ordersNeeded: readonly Power[];
  readonly withUnits: readonly Power[];
  readonly withCentres: readonly Power[];
}

const facts = new Map<string, PhaseFacts>();

/** Facts about a position, remembered by the same chained key that names it in memoAdjudicate. */
export function memoFacts(key: string, run: () => PhaseFacts): PhaseFacts {
  const have = facts.get(key);
  if (have !== undefined) return have;
  const fresh = run();
  if (facts.size >= LIMIT) facts.clear();
  facts.set(key, fresh);
  return fresh;
}

const phases = new Map<string, unknown>();

/** The last outcome of each resolved phase of each game, by `${game}|${phase}` (reduce.ts PhaseMemo). */
export const memoPhase = {
  get: (slot: string): unknown => phases.get(slot),
  set(slot: string, value: unknown): void {
    if (phases.size >= LIMIT) phases.clear();
    phases.set(slot, value);
  },
};

const chains = new Map<string, unknown>();

/** The chain of resolved phases of the last fold of each game and view slot (reduce.ts PhaseChain). */
export const memoChain = {
  get: (slot: string): unknown => chains.get(slot),
  set(slot: string, value: unknown): void {
    if (chains.size >= 1_000) chains.clear();
    chains.set(slot, value);
  },
};

let fixed = new WeakMap<object, unknown>();

/**
 * What a fold computes once per game set-up (reduce.ts FixedKeys), remembered by the identity of
 * the lobby answer it was computed from (a new lobby entry makes a new answer).
 */
export const memoFixed = {
  get: (lobby: object): unknown => fixed.get(lobby),
  set(lobby: object, value: unknown): void {
    fixed.set(lobby, value);
  },
};

let openedLogs = new WeakMap<object, Map<string, unknown>>();

/** The last log each game's entries were opened from, per verifier (reduce.ts OpenedLog). */
export const memoOpenedLog = {
  get: (verifier: object, gameId: string): unknown => openedLogs.get(verifier)?.get(gameId),
  set(verifier: object, gameId: string, value: unknown): void {
    const map = openedLogs.get(verifier) ?? new Map<string, unknown>();
    openedLogs.set(verifier, map);
    if (map.size >= 1_000) map.clear();
    map.set(gameId, value);
  },
};

type Remembered = { keys: readonly string[]; view: unknown; index: unknown };
let views = new WeakMap<object, Map<string, Remembered>>();

/** The last view of each game on this phone, per engine and anchor, with the entries it came from (and their index, reduce.ts EntryIndex). */
export const memoView = {
  get: (engine: object, slot: string): Remembered | undefined => views.get(engine)?.get(slot),
  set(engine: object, slot: string, value: Remembered): void {
    const map = views.get(engine) ?? new Map<string, Remembered>();
    views.set(engine, map);
    if (map.size >= 1_000) map.clear();
    map.set(slot, value);
  },
  forget(engine: object, slot: string): void {
    views.get(engine)?.delete(slot);
  },
};

/** Forgets the remembered views and phases only (checks and adjudications, keyed by content, stay). */
export function clearFoldMemos(): void {
  views = new WeakMap();
  fixed = new WeakMap();
  openedLogs = new WeakMap();
  phases.clear();
  chains.clear();
}

/** Forgets everything remembered but what each verifier holds (benchmarks measure a rebuild from scratch with it). */
export function clearMemos(): void {
  clearFoldMemos();
  clearEscrowMemos();
  adjudged.clear();
  unsealed.clear();
  facts.clear();
}

// Admission: which signed entries a phone keeps. The set a phone admits is the truth the reducer
// reads; whatever carries entries (Yjs, a data channel, the store) only offers them here. The
// rules are in README.md ("Admission"), each with why it is safe; this file implements them.
//
// Every rule but one is a function of the entries offered, never of their order of arrival, so
// two phones that have been offered the same entries keep the same set (the exception: before a
// START, which strangers hold the joiner slots, first come first kept; see recount):
// - each entry falls in exactly one bucket (its author and kind, see ruleOf) that keeps its K
//   lowest (seq, id): when a bucket is full a lower entry evicts the highest, a higher one is
//   refused, which keeps exactly the K lowest of everything ever offered while storing only them;
//   kinds the protocol allows once keep two (the second proves equivocation, a third adds nothing);
// - an entry named by an admitted entry (the commit a FINAL names, the FINALs and commits a LOCK
//   names, the LOCKs a REVEAL names) is admitted over its bucket's quota and never evicted, so no
//   phone misses what another phone's admitted entry refers to (anti-entropy fetches it by id);
// - the creator's STARTs: the two lowest, and each one a root it names accepted (startRoots);
// - the phases an author's phase entries fall in are kept the same way (the lowest PHASES);
// - whose entries count at all ("counted" authors) is recomputed from the admitted CREATE,
//   STARTs, HANDOVERs and JOINs whenever one of them changes.
// Entries that cannot count yet (their author has not joined, or needs a START first) wait in a
// small pool and are offered again when their author becomes counted.
import { compareText, equalBytes } from './bytes';
import { hashHex } from './canonical';
import { namesAuthorByPlace, type WireContext } from './codec';
import {
  signatureVerifier,
  MAX_MESSAGE_BYTES,
  parseEntry,
  rawId,
  SIGNATURE_BYTES,
  verifyEntry,
  waitsForStart,
  type ParsedEntry,
  type Verifier,
} from './envelope';
import { gameIdFor, wireContextOf } from './lobby';
import { LOT_PHASE, revealLockIds, startKeys, type Payload, type StartPayload } from './messages';

/** The quotas and caps, each explained in README.md. */
export const QUOTAS = {
  /**
   * Authors counted for their JOIN alone (not the creator, not in a START's roster, not handed a
   * power), before any START: first come, first kept, each listed in the lobby (README.md
   * "Admission", issue 31).
   */
  joiners: 1024,
  /** Of the joiners, the first to come whose chats count and who keep `join` JOINs (the others keep `listedJoin`). */
  talkers: 64,
  /** JOINs kept of a joiner past the first `talkers` (its lowest: its name and first claim). */
  listedJoin: 2,
  /** Phases per author that may hold its phase entries (commits, reveals, votes, acks). */
  phases: 512,
  /** Kinds the protocol allows once (CREATE, START, start ACK, lot commit, FINAL, LOCK, REVEAL): keep two. */
  once: 2,
  create: 2,
  join: 16,
  ack: 8,
  /** Per phase: TIMEOUT votes (the latest counts), CLOCK claims, HANDOVER votes. */
  timeout: 8,
  clock: 4,
  handover: 8,
  commit: 32,
  phase: 128,
  chat: 3000,
  /** Chats of an author who only joined (before a START rosters them). */
  joinerChat: 64,
} as const;

/** Size caps per kind of entry (all also under MAX_MESSAGE_BYTES). */
export const SIZE_CAPS = {
  commit: 16 * 1024,
  chat: 16 * 1024,
  other: 8 * 1024,
} as const;

/** Entries waiting for their author to count: a bounded pool in memory. */
export const PENDING_LIMITS = { entries: 1024, bytes: 8 * 1024 * 1024 } as const;

/** Remembered permanent failures (by hash of the entry bytes), in memory. */
const BAD_LIMIT = 20_000;

export type Verdict =
  /** Newly admitted. */
  | { readonly kind: 'admitted'; readonly id: string; readonly author: string }
  /** Already admitted (these very bytes, or another valid signature over the same payload). */
  | { readonly kind: 'duplicate'; readonly id: string; readonly author: string }
  /** Valid as far as can be told, but its author does not count (yet): kept aside. */
  | { readonly kind: 'pending'; readonly id: string; readonly author: string }
  | { readonly kind: 'refused'; readonly id: string; readonly reason: string; readonly author?: string };

/** A set of hashes remembered across restarts (entries whose signature failed). */
export interface FailedSet {
  has(hash: string): boolean;
  add(hash: string): void;
}

export interface AdmissionOptions {
  readonly verifier?: Verifier;
  /** Authors whose entries always count on this phone: its own key. Their own entries are never dropped. */
  readonly pinned?: readonly string[];
  readonly failed?: FailedSet;
}

/** An entry as the store keeps it: its bytes under the id it was admitted as. */
export interface StoredEntry {
  readonly id: string;
  readonly bytes: Uint8Array;
}

/** What changed in the admitted set since the last takeChanges(): ids to store, ids to delete. */
export interface Changes {
  readonly put: { readonly id: string; readonly bytes: Uint8Array }[];
  readonly remove: string[];
}

interface Held {
  readonly id: string;
  readonly bytes: Uint8Array;
  /** The signed payload bytes (the wire bytes less the signature, rebuilt for a compact entry). */
  readonly body: Uint8Array;
  readonly payload: Payload;
  readonly bucket: string;
  /** Set for entries subject to the author's phase window. */
  readonly phase: string | null;
}

interface Waiting {
  /** entryHash of these very bytes: the pool's key, so a copy with a forged signature cannot stand for the real one. */
  readonly key: string;
  readonly id: string;
  readonly entry: ParsedEntry;
  readonly bytes: Uint8Array;
  readonly author: string;
  readonly type: Payload['type'];
  /** Signature already checked (entries set aside after being admitted). */
  readonly verified: boolean;
}

type Needs = 'any' | 'talker' | 'vouched' | 'creator' | 'bound';

interface Rule {
  readonly bucket: string;
  readonly limit: number;
  readonly cap: number;
  readonly needs: Needs;
  readonly phase: string | null;
}

const PHASE_RE = /^(\d{1,5})-(spring|fall|winter)-(movement|retreat|adjustment)$/;
const SEASONS = ['spring', 'fall', 'winter'];
const KINDS = ['movement', 'retreat', 'adjustment'];

/** Phase keys in game order (year, season, kind), then as text. */
export function comparePhaseKeys(a: string, b: string): number {
  const x = PHASE_RE.exec(a);
  const y = PHASE_RE.exec(b);
  if (x === null || y === null) return compareText(a, b);
  return Number(x[1]) - Number(y[1]) || SEASONS.indexOf(x[2]!) - SEASONS.indexOf(y[2]!) || KINDS.indexOf(x[3]!) - KINDS.indexOf(y[3]!) || compareText(a, b);
}

/** The anti-entropy bucket of an entry: 'lobby', 'chat' or the phase it belongs to. */
export function digestBucket(p: Payload): string {
  if (p.type === 'chat') return 'chat';
  if ('phase' in p && p.phase !== 'start') return `phase:${p.phase}`;
  return 'lobby';
}

/** An author's standing for its quotas: vouched, a joiner among the first `talkers`, or any other. */
type Standing = 'vouched' | 'talker' | 'other';

function ruleOf(p: Payload, standing: Standing): Rule {
  const vouched = standing === 'vouched';
  const a = p.from;
  const other = SIZE_CAPS.other;
  switch (p.type) {
    case 'create':
      return { bucket: `${a}|create`, limit: QUOTAS.create, cap: other, needs: 'bound', phase: null };
    case 'join':
      return { bucket: `${a}|join`, limit: standing === 'other' ? QUOTAS.listedJoin : QUOTAS.join, cap: other, needs: 'any', phase: null };
    case 'start':
      return { bucket: `${a}|start`, limit: QUOTAS.once, cap: other, needs: 'creator', phase: null };
    case 'lot-commit':
      return { bucket: `${a}|lot-commit`, limit: QUOTAS.once, cap: other, needs: 'vouched', phase: null };
    case 'chat':
      return { bucket: `${a}|chat`, limit: vouched ? QUOTAS.chat : QUOTAS.joinerChat, cap: SIZE_CAPS.chat, needs: 'talker', phase: null };
    case 'ack':
      return p.phase === 'start'
        ? { bucket: `${a}|ack|start`, limit: QUOTAS.once, cap: other, needs: 'vouched', phase: null }
        : { bucket: `${a}|ack|${p.phase}`, limit: QUOTAS.ack, cap: other, needs: 'vouched', phase: p.phase };
    case 'handover':
      return { bucket: `${a}|handover|${p.phase}`, limit: QUOTAS.handover, cap: other, needs: 'vouched', phase: p.phase };
    case 'commit':
      return { bucket: `${a}|commit|${p.phase}|${p.power}`, limit: QUOTAS.commit, cap: SIZE_CAPS.commit, needs: 'vouched', phase: p.phase };
    case 'final':
      return { bucket: `${a}|final|${p.phase}|${p.power}`, limit: QUOTAS.once, cap: other, needs: 'vouched', phase: p.phase };
    case 'lock':
      return { bucket: `${a}|lock|${p.phase}`, limit: QUOTAS.once, cap: other, needs: 'vouched', phase: p.phase };
    case 'reveal':
      return { bucket: `${a}|reveal|${p.phase}`, limit: QUOTAS.once, cap: other, needs: 'vouched', phase: p.phase };
    case 'timeout':
      return { bucket: `${a}|timeout|${p.phase}`, limit: QUOTAS.timeout, cap: other, needs: 'vouched', phase: p.phase };
    case 'clock':
      return { bucket: `${a}|clock|${p.phase}`, limit: QUOTAS.clock, cap: other, needs: 'vouched', phase: p.phase };
    default:
      return { bucket: `${a}|phase|${p.phase}`, limit: QUOTAS.phase, cap: other, needs: 'vouched', phase: p.phase };
  }
}

/** The ids an entry names: what must be held wherever it is (a FINAL's commit, a LOCK's FINALs and commits, a REVEAL's LOCKs). */
function namedBy(p: Payload): string[] {
  switch (p.type) {
    case 'final':
      return [p.commit];
    case 'lock':
      return [...Object.values(p.finals), ...Object.values(p.heads)];
    case 'reveal':
      return [...revealLockIds(p)];
    case 'ack':
      // A start ACK names the START its author plays under; whether it keeps it over the quota is
      // decided by rootAccepted (README.md "Admission": STARTs held).
      return p.phase === 'start' ? [p.hash] : [];
    default:
      return [];
  }
}

/** (seq, id) order: the order in which buckets keep entries. */
function compareHeld(a: { payload: Payload; id: string }, b: { payload: Payload; id: string }): number {
  return a.payload.seq - b.payload.seq || compareText(a.id, b.id);
}

/** A binary string of the signature: a cheap key for "these very bytes are already admitted". */
function sigKey(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes.subarray(0, SIGNATURE_BYTES));
}

/** Inserts into a list sorted by (seq, id); returns the index. */
function insertSorted(list: Held[], h: Held): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareHeld(list[mid]!, h) < 0) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, h);
}

type Plan =
  | { readonly ok: false; readonly verdict: Verdict; readonly permanent: boolean; readonly type?: Payload['type'] }
  | {
      readonly ok: true;
      readonly entry: ParsedEntry;
      readonly rule: Rule;
      readonly bytes: Uint8Array;
      readonly evictBucket: Held | null;
      readonly evictPhase: string | null;
    };

export class Admission {
  readonly gameId: string;
  private readonly check: Verifier;
  private readonly pinned: ReadonlySet<string>;
  private readonly failed: FailedSet | undefined;

  private readonly held = new Map<string, Held>();
  private readonly bySig = new Map<string, string>();
  private readonly buckets = new Map<string, Held[]>();
  private readonly byAuthor = new Map<string, Set<string>>();
  /** Per author: phase key -> how many held entries of the author are in it. */
  private readonly phases = new Map<string, Map<string, number>>();
  private readonly pending = new Map<string, Waiting>();
  private pendingBytes = 0;
  /**
   * Compact entries (version 6) whose author's place no START held names yet, by their bytes'
   * hash: offered again whenever a START is admitted, never forgotten for it (bounded like pending).
   */
  private readonly placeless = new Map<string, Uint8Array>();
  private placelessBytes = 0;
  private context: WireContext | null = null;
  /** Ids named by admitted entries, with how many admitted entries name each: admitted over quota, never evicted. */
  private readonly named = new Map<string, number>();
  private readonly bad = new Map<string, string>();

  private creator: string | undefined;
  /** An admitted START exists: joiner slots are closed. */
  private started = false;
  private vouched = new Set<string>();
  /** In the order they came (first come, first kept); `talkers`: the first QUOTAS.talkers of them. */
  private joiners = new Set<string>();
  private talkers = new Set<string>();

  private dirty = new Set<string>();
  private changed = 0;
  private cachedEntries: Uint8Array[] | null = null;
  private recounting = false;

  /** Signature checks that trust what this set admitted (for the reducer), else the real check. */
  readonly verifier: Verifier;

  constructor(gameId: string, options: AdmissionOptions = {}) {
    this.gameId = gameId;
    this.check = options.verifier ?? signatureVerifier;
    this.pinned = new Set(options.pinned ?? []);
    this.failed = options.failed;
    for (const k of this.pinned) this.vouched.add(k);
    this.verifier = {
      // The readers of what this set admits find each entry as the admission read it.
      ...(this.check.readings === undefined ? {} : { readings: this.check.readings }),
      verify: (id, payload, signature, publicKey) => {
        const h = this.held.get(id);
        if (h !== undefined && equalBytes(h.bytes.subarray(0, SIGNATURE_BYTES), signature)) return true;
        return this.check.verify(id, payload, signature, publicKey);
      },
    };
  }

  // ---- Reading ----------------------------------------------------------------------------

  /** Bumped on every change of the admitted set. */
  get version(): number {
    return this.changed;
  }

  get size(): number {
    return this.held.size;
  }

  has(id: string): boolean {
    return this.held.has(id);
  }

  bytesOf(id: string): Uint8Array | undefined {
    return this.held.get(id)?.bytes;
  }

  /** The id of an admitted entry with exactly these bytes, if any. */
  idOfBytes(bytes: Uint8Array): string | undefined {
    if (bytes.length <= SIGNATURE_BYTES) return undefined;
    const id = this.bySig.get(sigKey(bytes));
    if (id === undefined) return undefined;
    const h = this.held.get(id);
    return h !== undefined && equalBytes(h.bytes, bytes) ? id : undefined;
  }

  /** The admitted entries (the same array until the set changes). */
  entries(): readonly Uint8Array[] {
    this.cachedEntries ??= [...this.held.values()].map((h) => h.bytes);
    return this.cachedEntries;
  }

  ids(): string[] {
    return [...this.held.keys()].sort(compareText);
  }

  authorOf(id: string): string | undefined {
    return this.held.get(id)?.payload.from;
  }

  /** Admitted ids per anti-entropy bucket, each list sorted. */
  digestBuckets(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const h of this.held.values()) {
      const b = digestBucket(h.payload);
      const list = out.get(b);
      if (list === undefined) out.set(b, [h.id]);
      else list.push(h.id);
    }
    for (const list of out.values()) list.sort(compareText);
    return out;
  }

  /** Entries waiting for their author to count. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Whose entries count now (for tests and diagnostics). */
  counted(): { creator?: string; vouched: string[]; joiners: string[]; talkers: string[] } {
    return {
      ...(this.creator === undefined ? {} : { creator: this.creator }),
      vouched: [...this.vouched].sort(compareText),
      joiners: [...this.joiners].sort(compareText),
      talkers: [...this.talkers].sort(compareText),
    };
  }

  /** Ids to store and to delete since the last call. */
  takeChanges(): Changes {
    const put: Changes['put'] = [];
    const remove: string[] = [];
    for (const id of [...this.dirty].sort(compareText)) {
      const h = this.held.get(id);
      if (h === undefined) remove.push(id);
      else put.push({ id, bytes: h.bytes });
    }
    this.dirty = new Set();
    return { put, remove };
  }

  // ---- Offering ---------------------------------------------------------------------------

  /**
   * Offers one entry. `trusted`: its signature was checked before (this phone signed it, or it
   * comes back from this phone's store). `dryRun`: say what would happen, change nothing.
   * Never throws.
   */
  offer(bytes: unknown, options: { readonly trusted?: boolean; readonly dryRun?: boolean } = {}): Verdict {
    try {
      return this.offerUnsafe(bytes, options.trusted === true, options.dryRun === true);
    } catch (e) {
      return { kind: 'refused', id: 'internal-error', reason: `internal-error: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  /**
   * Puts back what this phone stored, without checking signatures again where that is safe: an
   * entry is trusted only if it reads as the very payload it was admitted as. A record's `id` is
   * the id it was admitted (and stored) under, the hash of the signed bytes, so an entry read with
   * the same id is those checked bytes. A compact entry is read with the STARTs the store holds: if
   * the START it was admitted under was lost (or its record changed) and another START of the
   * creator names another key at its place, it reads as another message, under another id; such an
   * entry (and one given as bare bytes, with no id to compare) is offered as if a peer sent it: its
   * signature is checked, and one that does not hold waits for a START (the `placeless` pool). The
   * store keeps every such record, and every entry whose author does not count (yet): nothing is
   * deleted for a lost START, which a peer gives back.
   */
  restore(entries: readonly (Uint8Array | StoredEntry)[]): void {
    const before = new Set(this.dirty);
    // Lowest (seq, id) first so that buckets fill as they would have; the result does not depend on it.
    const parsed: { entry: ParsedEntry; bytes: Uint8Array }[] = [];
    const byPlace: (Uint8Array | StoredEntry)[] = [];
    const unsure: Uint8Array[] = [];
    const read = (item: Uint8Array | StoredEntry, ctx: WireContext, early: boolean): void => {
      const { bytes, id } = item instanceof Uint8Array ? { bytes: item, id: undefined } : item;
      // A place two STARTs fill with two keys reads two ways: the stored id says which, with no check.
      const p = parseEntry(
        bytes,
        ctx,
        id === undefined ? this.check : { verify: (read) => read === id, ...(this.check.readings === undefined ? {} : { readings: this.check.readings }) },
      );
      if (p.ok) {
        // Bare bytes in full form are their own payload (the id is its hash): nothing to mix up.
        const same = id === undefined ? !namesAuthorByPlace(bytes.subarray(SIGNATURE_BYTES)) : p.entry.id === id;
        if (same) parsed.push({ entry: p.entry, bytes });
        else unsure.push(bytes);
      } else if (waitsForStart(p.reason)) {
        if (early) byPlace.push(item);
        else this.waitForStart(bytes);
      }
    };
    for (const item of entries) read(item, this.wireContext(), true);
    parsed.sort((a, b) => compareHeld(a.entry, b.entry));
    // CREATE, STARTs and JOINs first, so authors count before their other entries come.
    const first = (t: Payload['type']) => t === 'create' || t === 'start' || t === 'join' || t === 'handover';
    for (const p of parsed) if (first(p.entry.payload.type)) this.offerParsed(p.entry, p.bytes, true, false);
    // Compact entries name their author by a place in a START: read once the STARTs are in, with
    // every stored START of the creator, also one over the quota that a start ACK read here names
    // (it is admitted below): a compact entry is read with the START it was admitted under.
    const ctx = wireContextOf(this.gameId, [...this.held.values(), ...parsed.map((p) => p.entry)]);
    for (const item of byPlace) read(item, ctx, false);
    parsed.sort((a, b) => compareHeld(a.entry, b.entry));
    for (const p of parsed) if (!first(p.entry.payload.type)) this.offerParsed(p.entry, p.bytes, true, false);
    // Entries not read as what they were admitted as: checked first, with the same STARTs (the
    // reading whose signature holds, if any). A compact one that none signs waits for a START, never
    // as the author it was misread as (it would wait for that author to count, then fail).
    for (const bytes of unsure) {
      const p = parseEntry(bytes, ctx, this.check);
      if (!p.ok) {
        if (waitsForStart(p.reason)) this.waitForStart(bytes);
      } else if (verifyEntry(p.entry, this.check)) this.offerParsed(p.entry, bytes, true, false);
      else if (namesAuthorByPlace(bytes.subarray(SIGNATURE_BYTES))) this.waitForStart(bytes);
      else {
        this.rememberBad(entryHash(p.entry), 'bad-signature');
        this.failed?.add(entryHash(p.entry));
      }
    }
    // A START refused for the quota above may now be named by a start ACK (kept over the quota).
    for (const p of parsed) if (p.entry.payload.type === 'start' && !this.held.has(p.entry.id)) this.offerParsed(p.entry, p.bytes, true, false);
    // What came from the store needs no writing back; stored entries that no longer count are
    // deleted from it (a change of these rules, or a store written by another version), but not
    // those waiting for their author to count, nor those not read as what they were stored as.
    const waiting = new Set([...this.pending.values()].map((w) => w.id));
    const dirty = new Set(before);
    for (const p of parsed) if (!this.held.has(p.entry.id) && !waiting.has(p.entry.id)) dirty.add(p.entry.id);
    for (const id of this.dirty) if (before.has(id)) dirty.add(id);
    this.dirty = dirty;
  }

  private offerUnsafe(bytes: unknown, trusted: boolean, dryRun: boolean): Verdict {
    if (!(bytes instanceof Uint8Array)) return { kind: 'refused', id: 'not-bytes', reason: 'not-bytes' };
    if (bytes.length > MAX_MESSAGE_BYTES) return { kind: 'refused', id: 'too-large', reason: 'too-large' };
    const known = this.idOfBytes(bytes);
    if (known !== undefined) return { kind: 'duplicate', id: known, author: this.held.get(known)!.payload.from };
    // Bytes that do not parse are cheap to refuse again; nothing is remembered of them. Compact
    // bytes whose author's place no START held names wait for one (README.md "The compact wire form").
    const parsed = parseEntry(bytes, this.wireContext(), this.check);
    if (!parsed.ok && waitsForStart(parsed.reason)) {
      if (!dryRun) this.waitForStart(bytes);
      return { kind: 'pending', id: parsed.id, author: '' };
    }
    if (!parsed.ok) return { kind: 'refused', id: parsed.id, reason: parsed.reason };
    const verdict = this.offerParsed(parsed.entry, bytes, trusted, dryRun);
    // A compact entry read with a place's key that does not sign it may be another START's (a
    // creator who signed two): it waits for a START too, so no honest entry is lost for it.
    if (verdict.kind === 'refused' && verdict.reason === 'bad-signature' && !dryRun && namesAuthorByPlace(bytes.subarray(SIGNATURE_BYTES)))
      this.waitForStart(bytes);
    return verdict;
  }

  /** Everything after parsing: remembered failures, the plan, the signature, the change. */
  private offerParsed(entry: ParsedEntry, bytes: Uint8Array, trusted: boolean, dryRun: boolean): Verdict {
    const key = entryHash(entry);
    const badReason = this.bad.get(key) ?? (this.failed?.has(key) === true ? 'bad-signature' : undefined);
    if (badReason !== undefined) return { kind: 'refused', id: entry.id, reason: badReason, author: entry.payload.from };
    const plan = this.plan(entry, bytes, key, trusted);
    if (!plan.ok) {
      if (plan.permanent && !dryRun) this.rememberBad(key, plan.verdict.kind === 'refused' ? plan.verdict.reason : 'refused');
      if (plan.verdict.kind === 'pending' && !dryRun) this.wait(key, entry, bytes, trusted);
      return plan.verdict;
    }
    if (dryRun) return { kind: 'admitted', id: entry.id, author: entry.payload.from };
    if (!trusted && !verifyEntry(entry, this.check)) {
      this.rememberBad(key, 'bad-signature');
      this.failed?.add(key);
      return { kind: 'refused', id: entry.id, reason: 'bad-signature', author: entry.payload.from };
    }
    if (this.held.has(entry.id)) {
      // Another valid signature over a payload already admitted: the same entry.
      return { kind: 'duplicate', id: entry.id, author: entry.payload.from };
    }
    this.apply(plan);
    return { kind: 'admitted', id: entry.id, author: entry.payload.from };
  }

  private rememberBad(hash: string, reason: string): void {
    if (this.bad.size >= BAD_LIMIT) this.bad.delete(this.bad.keys().next().value!);
    this.bad.set(hash, reason);
  }

  private isCounted(author: string): boolean {
    return this.vouched.has(author) || this.joiners.has(author);
  }

  /** Decides what an entry would do, without changing anything and without checking its signature. */
  private plan(entry: ParsedEntry, bytes: Uint8Array, key: string, trusted: boolean): Plan {
    const p = entry.payload;
    const author = p.from;
    const refuse = (reason: string, permanent: boolean): Plan => ({ ok: false, verdict: { kind: 'refused', id: entry.id, reason, author }, permanent });
    if (p.game !== this.gameId) return refuse('wrong-game', true);
    if (this.held.has(entry.id)) {
      // Same payload, other signature bytes: valid only if that signature checks out.
      if (!trusted && !verifyEntry(entry, this.check)) {
        this.failed?.add(key);
        return refuse('bad-signature', true);
      }
      return { ok: false, verdict: { kind: 'duplicate', id: entry.id, author }, permanent: false };
    }
    const rule = ruleOf(p, this.vouched.has(author) ? 'vouched' : this.talkers.has(author) ? 'talker' : 'other');
    if (bytes.length > rule.cap) return refuse('too-large-for-kind', true);
    if (rule.phase !== null && rule.phase !== LOT_PHASE && !PHASE_RE.test(rule.phase)) return refuse('bad-phase', true);
    const pending: Plan = { ok: false, verdict: { kind: 'pending', id: entry.id, author }, permanent: false, type: p.type };
    switch (rule.needs) {
      case 'bound':
        if (gameIdFor(author, (p as Extract<Payload, { type: 'create' }>).salt, (p as Extract<Payload, { type: 'create' }>).settings) !== this.gameId)
          return refuse('create-not-bound-to-game', true);
        break;
      case 'creator':
        if (this.creator === undefined) return pending;
        if (author !== this.creator) return refuse('start-not-by-creator', true);
        break;
      case 'vouched':
        if (!this.vouched.has(author)) return pending;
        break;
      case 'talker':
        if (!this.vouched.has(author) && !this.talkers.has(author)) return pending;
        break;
      case 'any':
        // A JOIN: its author counts if vouched, already a joiner, or (before any START) a joiner slot is free.
        if (!this.isCounted(author) && (this.started || this.joiners.size >= QUOTAS.joiners)) return pending;
        break;
    }
    let evictPhase: string | null = null;
    if (rule.phase !== null) {
      const mine = this.phases.get(author);
      if (mine !== undefined && !mine.has(rule.phase) && mine.size >= QUOTAS.phases) {
        const highest = [...mine.keys()].sort(comparePhaseKeys).at(-1)!;
        if (comparePhaseKeys(rule.phase, highest) > 0) return refuse('quota-phases', false);
        evictPhase = highest;
      }
    }
    const list = this.buckets.get(rule.bucket);
    let evictBucket: Held | null = null;
    if (p.type === 'start') {
      // The creator's STARTs: the two lowest, and over them each one a rooted member accepted
      // (README.md "Admission": STARTs held). A START no longer among the two lowest and not so
      // accepted is dropped after (pruneStarts), never evicted here.
      if (list !== undefined && list.length >= rule.limit && compareHeld(entry, list[rule.limit - 1]!) > 0 && !this.rootAccepted(entry.id, p))
        return refuse('quota', false);
    } else if (list !== undefined && !this.named.has(entry.id)) {
      // A bucket emptied by a phase eviction cannot be this one (a new phase starts empty buckets).
      // Entries named by admitted entries are over quota: they neither count nor get evicted.
      const counting = list.filter((h) => !this.named.has(h.id));
      if (counting.length >= rule.limit) {
        const highest = counting[counting.length - 1]!;
        if (compareHeld(entry, highest) > 0) return refuse('quota', false);
        evictBucket = highest;
      }
    }
    return { ok: true, entry, rule, bytes, evictBucket, evictPhase };
  }

  /**
   * Keys whose acceptance keeps a START over the quota: the creator, this phone's own (pinned), and
   * the keys of the creator's two lowest STARTs. Not the keys of a START kept only for such an
   * acceptance, so a creator's sybils cannot vouch for more STARTs than these keys have acceptances.
   */
  private startRoots(): Set<string> {
    const roots = new Set(this.pinned);
    if (this.creator === undefined) return roots;
    roots.add(this.creator);
    for (const h of (this.buckets.get(`${this.creator}|start`) ?? []).slice(0, QUOTAS.once)) {
      if (h.payload.type === 'start') for (const k of startKeys(h.payload)) roots.add(k);
    }
    return roots;
  }

  /** Whether a root that this START names has an admitted start ACK naming it. */
  private rootAccepted(id: string, start: StartPayload, roots: ReadonlySet<string> = this.startRoots()): boolean {
    return startKeys(start).some(
      (k) => roots.has(k) && (this.buckets.get(`${k}|ack|start`) ?? []).some((h) => h.payload.type === 'ack' && h.payload.hash === id),
    );
  }

  /** Drops the creator's STARTs beyond the two lowest that no root accepted (their acceptance or root gone). */
  private pruneStarts(): boolean {
    if (this.creator === undefined) return false;
    const list = this.buckets.get(`${this.creator}|start`) ?? [];
    if (list.length <= QUOTAS.once) return false;
    const roots = this.startRoots();
    const out = list.slice(QUOTAS.once).filter((h) => h.payload.type !== 'start' || !this.rootAccepted(h.id, h.payload, roots));
    for (const h of out) this.drop(h.id);
    return out.length > 0;
  }

  private apply(plan: Extract<Plan, { ok: true }>): void {
    const { entry, rule, bytes } = plan;
    const author = entry.payload.from;
    if (plan.evictPhase !== null) {
      for (const id of [...(this.byAuthor.get(author) ?? [])]) if (this.held.get(id)?.phase === plan.evictPhase) this.drop(id);
    }
    if (plan.evictBucket !== null) this.drop(plan.evictBucket.id);
    const h: Held = { id: entry.id, bytes, body: entry.body, payload: entry.payload, bucket: rule.bucket, phase: rule.phase };
    // The reducer reads what is admitted: it finds this reading (also of an entry admitted trusted, unchecked here).
    this.check.readings?.keep(entry);
    this.held.set(h.id, h);
    this.bySig.set(sigKey(bytes), h.id);
    const list = this.buckets.get(rule.bucket);
    if (list === undefined) this.buckets.set(rule.bucket, [h]);
    else insertSorted(list, h);
    const ids = this.byAuthor.get(author);
    if (ids === undefined) this.byAuthor.set(author, new Set([h.id]));
    else ids.add(h.id);
    if (rule.phase !== null) {
      const mine = this.phases.get(author) ?? new Map<string, number>();
      this.phases.set(author, mine);
      mine.set(rule.phase, (mine.get(rule.phase) ?? 0) + 1);
    }
    this.touch(h.id);
    for (const id of namedBy(entry.payload)) this.named.set(id, (this.named.get(id) ?? 0) + 1);
    const t = entry.payload.type;
    const evictedCounting = [plan.evictBucket].some(
      (e) => e !== null && (['create', 'start', 'handover', 'join'].includes(e.payload.type) || (e.payload.type === 'ack' && e.payload.phase === 'start')),
    );
    const anchors = t === 'ack' && entry.payload.phase === 'start' && this.pinned.has(author);
    if (t === 'create' || t === 'start' || evictedCounting || anchors) this.context = null;
    const newJoiner = t === 'join' && !this.isCounted(author);
    if (t === 'create' || t === 'start' || t === 'handover' || evictedCounting || (newJoiner && !this.joinerCame(author))) this.recount();
    if (t === 'start' && this.placeless.size > 0) {
      // Compact entries may name their author by a place in this START.
      const waiting = [...this.placeless.values()];
      this.placeless.clear();
      this.placelessBytes = 0;
      // Not trusted even if it came from the store: its signature held under the START it was
      // read with then, and this START may name another key at its place (README.md).
      for (const w of waiting) this.offerUnsafe(w, false, false);
    }
    // What it names may be waiting (its author did not count yet): offer it again.
    for (const id of namedBy(entry.payload)) {
      if (this.held.has(id)) continue;
      const w = [...this.pending.values()].find((x) => x.id === id);
      if (w !== undefined) {
        this.unwait(w.key);
        this.offerParsed(w.entry, w.bytes, w.verified, false);
      }
    }
  }

  /** Removes an admitted entry (evicted by a quota, or its author no longer counts). */
  private drop(id: string): Held | undefined {
    const h = this.held.get(id);
    if (h === undefined) return undefined;
    this.held.delete(id);
    if (h.payload.type === 'start' || h.payload.type === 'create') this.context = null;
    for (const n of namedBy(h.payload)) {
      const k = (this.named.get(n) ?? 0) - 1;
      if (k <= 0) this.named.delete(n);
      else this.named.set(n, k);
    }
    if (this.bySig.get(sigKey(h.bytes)) === id) this.bySig.delete(sigKey(h.bytes));
    const list = this.buckets.get(h.bucket);
    if (list !== undefined) {
      const i = list.indexOf(h);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) this.buckets.delete(h.bucket);
    }
    const author = h.payload.from;
    const ids = this.byAuthor.get(author);
    ids?.delete(id);
    if (ids !== undefined && ids.size === 0) this.byAuthor.delete(author);
    if (h.phase !== null) {
      const mine = this.phases.get(author);
      const n = (mine?.get(h.phase) ?? 0) - 1;
      if (mine !== undefined) {
        if (n <= 0) mine.delete(h.phase);
        else mine.set(h.phase, n);
        if (mine.size === 0) this.phases.delete(author);
      }
    }
    this.touch(id);
    return h;
  }

  private touch(id: string): void {
    this.dirty.add(id);
    this.changed++;
    this.cachedEntries = null;
  }

  // ---- Whose entries count ----------------------------------------------------------------

  /**
   * creator: the author of an admitted CREATE (bound to the game id, so only one key can be it).
   * vouched: creator, pinned, every key of an admitted START's roster or lot participants, and
   * every `to` of a HANDOVER signed by a member or the creator.
   * joiners: before any START, the other authors of a JOIN (admitted or waiting) in the order they
   * came: those already joiners keep their slots, then the others (admitted first, then waiting, each
   * in arrival order) until QUOTAS.joiners, the first QUOTAS.talkers of them talkers (their chats
   * count); once a START is admitted, none (JOINs after START count only if vouched). No key,
   * however low, takes a slot from one that came before it.
   * Authors whose standing changed are put back through admission from scratch (their held and
   * waiting entries), which gives the same buckets as if they had always stood so.
   */
  private recount(): void {
    if (this.recounting) return;
    this.recounting = true;
    try {
      for (let round = 0; round < 64; round++) {
        // A START kept for an acceptance that is gone (or whose root is) goes first.
        if (this.pruneStarts()) this.context = null;
        const creator = this.findCreator();
        const roster = new Set<string>();
        let started = false;
        for (const h of this.held.values()) {
          if (h.payload.type !== 'start' || h.payload.from !== creator) continue;
          started = true;
          for (const k of h.payload.roster === null ? h.payload.participants : Object.values(h.payload.roster)) roster.add(k);
        }
        const vouched = new Set<string>([...this.pinned, ...roster]);
        if (creator !== undefined) vouched.add(creator);
        for (const h of this.held.values()) {
          if (h.payload.type === 'handover' && (roster.has(h.payload.from) || h.payload.from === creator)) vouched.add(h.payload.to);
        }
        const candidates = new Set<string>();
        if (!started) {
          for (const h of this.held.values()) if (h.payload.type === 'join' && !vouched.has(h.payload.from)) candidates.add(h.payload.from);
          for (const w of this.pending.values()) if (!vouched.has(w.author) && w.type === 'join') candidates.add(w.author);
        }
        // First come, first kept: the joiners stay (while still candidates), then newcomers in arrival order.
        const joiners = new Set([...this.joiners].filter((k) => candidates.has(k)));
        for (const k of candidates) if (joiners.size < QUOTAS.joiners) joiners.add(k);
        const talkers = new Set([...joiners].slice(0, QUOTAS.talkers));
        const before = { creator: this.creator, vouched: this.vouched, joiners: this.joiners, talkers: this.talkers };
        const changed = new Set<string>();
        for (const k of new Set([...before.vouched, ...vouched])) if (before.vouched.has(k) !== vouched.has(k)) changed.add(k);
        for (const k of new Set([...before.joiners, ...joiners])) if (before.joiners.has(k) !== joiners.has(k)) changed.add(k);
        for (const k of new Set([...before.talkers, ...talkers])) if (before.talkers.has(k) !== talkers.has(k)) changed.add(k);
        const creatorChanged = before.creator !== creator;
        this.started = started;
        if (changed.size === 0 && !creatorChanged) return;
        this.creator = creator;
        this.vouched = vouched;
        this.joiners = joiners;
        this.talkers = talkers;
        // The creator's STARTs may have waited for the CREATE.
        if (creatorChanged && creator !== undefined) changed.add(creator);
        for (const author of [...changed].sort(compareText)) this.reinstate(author);
      }
    } finally {
      this.recounting = false;
    }
  }

  /**
   * A JOIN of an author not counted yet, while no START is held and a joiner slot is open: what
   * recount decides then (every candidate is a joiner already, so the author joins last, a talker
   * if a talker slot is open too, and nothing else changes), without going over every held entry,
   * so a flood of JOINs costs linear time (README.md "Admission": joiner slots). False: recount.
   */
  private joinerCame(author: string): boolean {
    if (this.recounting || this.started || this.vouched.has(author) || this.joiners.size >= QUOTAS.joiners) return false;
    this.joiners.add(author);
    if (this.talkers.size < QUOTAS.talkers) this.talkers.add(author);
    this.recounting = true;
    try {
      this.reinstate(author);
    } finally {
      this.recounting = false;
    }
    return true;
  }

  private findCreator(): string | undefined {
    for (const h of this.held.values()) if (h.payload.type === 'create') return h.payload.from;
    return undefined;
  }

  /** Takes every held and waiting entry of an author out and offers them again, lowest first. */
  private reinstate(author: string): void {
    const again: { bytes: Uint8Array; trusted: boolean; entry: ParsedEntry }[] = [];
    for (const id of [...(this.byAuthor.get(author) ?? [])]) {
      const h = this.drop(id);
      if (h !== undefined)
        again.push({
          bytes: h.bytes,
          trusted: true,
          entry: { id: h.id, payload: h.payload, body: h.body, signature: h.bytes.subarray(0, SIGNATURE_BYTES) },
        });
    }
    for (const w of [...this.pending.values()]) {
      if (w.author !== author) continue;
      this.unwait(w.key);
      again.push({ bytes: w.bytes, trusted: w.verified, entry: w.entry });
    }
    again.sort((a, b) => compareHeld(a.entry, b.entry));
    for (const e of again) this.offerParsed(e.entry, e.bytes, e.trusted, false);
  }

  // ---- The waiting pool -------------------------------------------------------------------

  /** What a compact entry is read with: this game, and the key list of each START of its creator held. */
  wireContext(): WireContext {
    this.context ??= wireContextOf(this.gameId, this.held.values(), this.anchor());
    return this.context;
  }

  /** The START a pinned key (this phone's) accepted: its entries, and its players', are read with it first. */
  private anchor(): string | undefined {
    for (const k of this.pinned) {
      const ack = (this.buckets.get(`${k}|ack|start`) ?? []).find((h) => h.payload.type === 'ack');
      if (ack?.payload.type === 'ack') return ack.payload.hash;
    }
    return undefined;
  }

  /**
   * Keeps compact bytes for a START to come. They are checked when offered again, even if they
   * came trusted: which key they stand for depends on the STARTs held then.
   */
  private waitForStart(bytes: Uint8Array): void {
    const key = rawId(bytes);
    if (this.placeless.has(key)) return;
    this.placeless.set(key, bytes);
    this.placelessBytes += bytes.length;
    while (this.placeless.size > PENDING_LIMITS.entries || this.placelessBytes > PENDING_LIMITS.bytes) {
      const oldest = this.placeless.keys().next().value!;
      this.placelessBytes -= this.placeless.get(oldest)!.length;
      this.placeless.delete(oldest);
    }
  }

  /** A JOIN waits only when no joiner slot is open to it, so waiting changes no standing. */
  private wait(key: string, entry: ParsedEntry, bytes: Uint8Array, verified: boolean): void {
    if (this.pending.has(key)) return;
    const type = entry.payload.type;
    this.pending.set(key, { key, id: entry.id, entry, bytes, author: entry.payload.from, type, verified });
    this.pendingBytes += bytes.length;
    while (this.pending.size > PENDING_LIMITS.entries || this.pendingBytes > PENDING_LIMITS.bytes) {
      this.unwait(this.pending.keys().next().value!);
    }
  }

  private unwait(key: string): void {
    const w = this.pending.get(key);
    if (w === undefined) return;
    this.pending.delete(key);
    this.pendingBytes -= w.bytes.length;
  }
}

/**
 * The key of an entry's very bytes (what the failed-signature memory and the waiting pool go by):
 * a hash of its signature and its id. The id is the hash of the payload, so this names the bytes
 * as a hash of them all would, for one short hash instead of one over up to 60 KiB.
 */
export function entryHash(entry: Pick<ParsedEntry, 'id' | 'signature'>): string {
  const id = new Uint8Array(16);
  for (let i = 0; i < 16; i++) id[i] = parseInt(entry.id.slice(2 * i, 2 * i + 2), 16);
  const both = new Uint8Array(SIGNATURE_BYTES + 16);
  both.set(entry.signature.subarray(0, SIGNATURE_BYTES));
  both.set(id, SIGNATURE_BYTES);
  return hashHex(both);
}

/** An in-memory FailedSet bounded to `limit` hashes (oldest forgotten first). */
export function boundedFailedSet(limit = 10_000, initial: Iterable<string> = []): FailedSet & { added(): string[]; size: number } {
  const set = new Set<string>(initial);
  let fresh: string[] = [];
  return {
    has: (h) => set.has(h),
    add: (h) => {
      if (set.has(h)) return;
      if (set.size >= limit) set.delete(set.values().next().value!);
      set.add(h);
      fresh.push(h);
    },
    /** Hashes added since the last call (for persisting). */
    added: () => {
      const out = fresh;
      fresh = [];
      return out;
    },
    get size() {
      return set.size;
    },
  };
}

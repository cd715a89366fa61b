// One game on this phone: the set of signed entries it has admitted (the truth, kept in the store)
// and the Y.Doc that carries entries between phones (never the authority). Everything that
// arrives, from a peer or from the store, goes through receive(): the entries inside are offered
// to the protocol's Admission whatever else the update holds, and only a clean part of the update
// reaches Yjs, so only that is applied, stored and forwarded.
//
// The carrier rule: every admitted entry the doc does not hold (it came in a refused update, its
// Yjs id was taken by other bytes, or Yjs holds it back for a missing dependency) is published
// again into the doc under a fresh random Yjs client id, which nobody can have squatted in advance.
import * as Y from 'yjs';
import { Admission, boundedFailedSet, equalBytes, hashHex, SIGNATURE_BYTES, type StoredEntry, type Verdict, type Verifier } from '../protocol';
import type { EntrySource } from './anti-entropy';
import { isPreparing, platformVerifier } from './native-ed25519';
import { MAX_UPDATE_BYTES, type GateResult, type PeerRef, type ReceiveOptions, type Report, type UpdateGate } from './gate';
import { LOG_KEY } from './log-doc';
import { applyUpdateSettled } from './settle';
import { isSkip, keepPrefixes, parseUpdate, PEER_LIMITS, STORE_LIMITS, type UpdateItem } from './yjs-update';

/** Where a game's admitted entries and failed-signature hashes live (the store implements it). */
export interface EntryStorage {
  /** Stored entries: each best with the id it was admitted as (bare bytes of a compact entry are checked again). */
  load(): Promise<{ readonly entries: readonly (Uint8Array | StoredEntry)[]; readonly failed: readonly string[] }>;
  /**
   * Durable (on disk) when it resolves if `strict`: the batch holds an entry this phone signed.
   * Otherwise (peers' entries only) it may be relaxed: peers hold them too.
   */
  save(put: readonly { readonly id: string; readonly bytes: Uint8Array }[], remove: readonly string[], strict: boolean): Promise<void>;
  saveFailed(hashes: readonly string[]): Promise<void>;
}

export interface ReplicaOptions {
  readonly gameId: string;
  readonly doc?: Y.Doc;
  /** Default: the platform's Ed25519 behind the protocol's rule (`platformVerifier`). */
  readonly verifier?: Verifier;
  /** This phone's own key: its entries always count here. */
  readonly self?: string;
  readonly storage?: EntryStorage;
  /** Random bytes for fresh Yjs client ids (default: crypto.getRandomValues). */
  readonly random?: (n: number) => Uint8Array;
  /** How long an admitted entry may stay out of the doc before it is published again (default 3 s). */
  readonly carryDelayMs?: number;
  readonly onReport?: (r: Report) => void;
  /**
   * When peers' entries (and the hashes of refused ones) are written: once none came for
   * `quietMs`, and at most `maxMs` after the first that waits. Until then they wait in memory, so
   * the disk is not busy while a round of the ballot is under way (every phone at once: their
   * writes slowed each other's once-only reservations and the round; bench/phase.ts). An entry of
   * this phone's own, flush(), writeNow() and destroy() write at once, with whatever waits.
   * Default: no wait. README "Writing peers' entries later".
   */
  readonly peerWrites?: { readonly quietMs: number; readonly maxMs: number };
}

export class PublishError extends Error {
  constructor(
    readonly reason: string,
    readonly id: string,
  ) {
    super(`this entry cannot be published: ${reason}`);
    this.name = 'PublishError';
  }
}

/** Failed-signature hashes remembered per game. */
export const FAILED_LIMIT = 10_000;
const REPORTS_KEPT = 500;
const CARRY_WAITS = 3;
const CARRIER_ORIGIN = Symbol('pacto-carrier');
const LOCAL_ORIGIN = Symbol('pacto-local');

function defaultRandom(n: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(n));
}

export class GameReplica implements UpdateGate, EntrySource {
  readonly gameId: string;
  readonly doc: Y.Doc;
  readonly admission: Admission;
  private readonly log: Y.Array<Uint8Array>;
  private readonly o: ReplicaOptions;
  private readonly failed: ReturnType<typeof boundedFailedSet>;
  /** Entry id -> how many items of the doc hold it. */
  private readonly carried = new Map<string, number>();
  private readonly uncarried = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private readonly reportList: Report[] = [];
  private readonly reportCounts = new Map<string, number>();
  /** Changes not yet handed to storage: the next batch (entry id -> bytes to put, or null to remove). */
  private pendingEntries = new Map<string, Uint8Array | null>();
  private pendingFailed: string[] = [];
  /** Whether the pending batch holds an entry this phone signed (then it is written strictly). */
  private pendingOwn = false;
  /** The write loop while it runs: it takes whatever is pending, one batch per storage call. */
  private writing: Promise<void> | null = null;
  private writeError: unknown = null;
  /** Set by writeNow: the write loop takes what is pending even if it is only peers'. */
  private writeForced = false;
  /** peerWrites: the quiet timer (restarted by each peers' change) and the bound (from the first). */
  private quietTimer: ReturnType<typeof setTimeout> | null = null;
  private boundTimer: ReturnType<typeof setTimeout> | null = null;
  private carryTimer: ReturnType<typeof setTimeout> | null = null;
  private carryWaits = 0;
  private notified = -1;
  private destroyed = false;
  private readonly observer: (event: Y.YArrayEvent<Uint8Array>) => void;
  private digestCache: { version: number; digest: Map<string, { count: number; hash: string }>; buckets: Map<string, string[]> } | null = null;

  private constructor(o: ReplicaOptions, admission: Admission, failed: ReturnType<typeof boundedFailedSet>) {
    this.o = o;
    this.gameId = o.gameId;
    this.doc = o.doc ?? new Y.Doc();
    this.admission = admission;
    this.failed = failed;
    this.log = this.doc.getArray<Uint8Array>(LOG_KEY);
    this.observer = (event) => {
      for (const item of event.changes.added) {
        const content = (item as Y.Item).content;
        if (content instanceof Y.ContentBinary) this.carry(content.content, 1);
      }
      // Only a doc loaded by other means than the gate can lose items (the gate refuses deletions);
      // observers run before Yjs collects deleted content, so the bytes are still there.
      for (const item of event.changes.deleted) {
        const content = (item as Y.Item).content;
        if (content instanceof Y.ContentBinary) this.carry(content.content, -1);
      }
    };
    this.log.observe(this.observer);
    for (const bytes of this.log.toArray()) if (bytes instanceof Uint8Array) this.carry(bytes, 1);
    for (const id of this.admission.ids()) if (!this.carried.has(id)) this.uncarried.add(id);
  }

  /** Loads the admitted set from storage (without checking signatures again) around `doc`. */
  static async open(o: ReplicaOptions): Promise<GameReplica> {
    const loaded = o.storage === undefined ? { entries: [], failed: [] } : await o.storage.load();
    const failed = boundedFailedSet(FAILED_LIMIT, loaded.failed);
    failed.added();
    const admission = new Admission(o.gameId, { verifier: o.verifier ?? platformVerifier(), pinned: o.self === undefined ? [] : [o.self], failed });
    admission.restore(loaded.entries);
    const replica = new GameReplica(o, admission, failed);
    replica.settle();
    return replica;
  }

  // ---- What the reducer and the screens read ----------------------------------------------

  /** The admitted entries (the same array until the set changes). */
  entries(): readonly Uint8Array[] {
    return this.admission.entries();
  }

  /** Trusts the signatures of admitted entries (checked on admission), checks anything else. */
  get verifier(): Verifier {
    return this.admission.verifier;
  }

  get version(): number {
    return this.admission.version;
  }

  /** Called after each change of the admitted set. Returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** What peers or the store sent that was refused (the last REPORTS_KEPT). */
  reports(): readonly Report[] {
    return this.reportList;
  }

  /** Reports per peer name (all time). */
  reportsByPeer(): ReadonlyMap<string, number> {
    return this.reportCounts;
  }

  report(r: Report): void {
    if (this.reportList.length >= REPORTS_KEPT) this.reportList.shift();
    this.reportList.push(r);
    const peer = r.peer ?? '-';
    this.reportCounts.set(peer, (this.reportCounts.get(peer) ?? 0) + 1);
    try {
      this.o.onReport?.(r);
    } catch {
      // A listener's failure is not the peer's.
    }
  }

  /** Whether a doc update with this transaction origin was made by this phone (its own entries, or
   *  the carrier publishing admitted entries again): those are what it uploads to relays. */
  isOwnOrigin(origin: unknown): boolean {
    return origin === LOCAL_ORIGIN || origin === CARRIER_ORIGIN;
  }

  /** Entries admitted but not (yet) in the doc. */
  get uncarriedCount(): number {
    return this.uncarried.size;
  }

  // ---- This phone's own entries ------------------------------------------------------------

  /** What admitting these entries would do, changing nothing (the app checks before it stores keys). */
  preview(bytes: Uint8Array): Verdict {
    return this.admission.offer(bytes, { trusted: true, dryRun: true });
  }

  /**
   * Admits this phone's own entries in order, stores them durably, then puts them in the doc.
   * Throws PublishError at the first one that cannot be admitted (nothing of it is kept; the ones
   * before it are published). The app checks each entry with preview() before it stores anything.
   *
   * `reserved`: the caller reserved each entry's sequence number, and its right to a message the
   * protocol allows once, durably before signing it (the app's outbox): then the entries go into
   * the doc at once and their own strict write lands after (src/protocol/README.md, "Sending
   * before the entry is stored"); a failed write is reported, and thrown by the next flush().
   */
  async publish(entries: readonly Uint8Array[], options: { readonly reserved?: boolean } = {}): Promise<void> {
    const fresh: Uint8Array[] = [];
    let refused: PublishError | null = null;
    for (const bytes of entries) {
      const copy = Uint8Array.from(bytes); // a copy, and a plain Uint8Array (see plainBytes)
      const v = this.admission.offer(copy, { trusted: true });
      if (v.kind === 'admitted') {
        fresh.push(copy);
        this.pendingOwn = true;
      } else if (v.kind !== 'duplicate') {
        refused = new PublishError(v.kind === 'refused' ? v.reason : 'author-not-counted', v.id);
        break;
      }
    }
    this.settle();
    if (options.reserved !== true) await this.flush();
    const toDoc = fresh.filter((b) => {
      const id = this.admission.idOfBytes(b);
      return id !== undefined && !this.carried.has(id);
    });
    if (toDoc.length > 0 && !this.destroyed) this.doc.transact(() => this.log.push(toDoc), LOCAL_ORIGIN);
    if (refused !== null) throw refused;
  }

  // ---- The gate ------------------------------------------------------------------------------

  /**
   * Checks the signatures of the entries in a Yjs update ahead, asynchronously, with the
   * platform's Ed25519 (when the verifier can), so receive() then finds them checked. Null when
   * there is nothing to wait for. Never rejects; receive() decides as it would without it.
   */
  prepare(update: Uint8Array): Promise<void> | null {
    if (!isPreparing(this.check) || !(update instanceof Uint8Array) || update.length > MAX_UPDATE_BYTES) return null;
    const parsed = parseUpdate(update, PEER_LIMITS);
    const fresh = parsed.items.map((i) => i.content).filter((b) => this.admission.idOfBytes(b) === undefined);
    return fresh.length === 0 ? null : this.check.prepare(fresh, this.admission.wireContext());
  }

  /** The verifier the admission checks new entries with. */
  private get check(): Verifier {
    return this.o.verifier ?? platformVerifier();
  }

  receive(update: Uint8Array, peer: PeerRef, options: ReceiveOptions = {}): GateResult {
    try {
      return this.receiveUnsafe(update, peer, options);
    } catch (e) {
      this.report({ kind: 'internal-error', peer: peer.name, reason: e instanceof Error ? e.message : String(e) });
      return { clean: false, applied: 0, reason: 'internal-error' };
    } finally {
      this.settle();
    }
  }

  /** The store's own update records, at load: larger records are allowed. Returns whether every record was clean. */
  loadStored(updates: readonly Uint8Array[], origin: unknown): boolean {
    let clean = true;
    const peer = { name: 'store', origin };
    for (const u of updates) {
      const r = this.receive(u, peer, { maxBytes: Number.POSITIVE_INFINITY, limits: STORE_LIMITS });
      clean &&= r.clean;
    }
    return clean;
  }

  /** Entries sent directly (anti-entropy): admitted like those in an update; the carrier puts them in the doc. */
  receiveEntries(entries: readonly Uint8Array[], peer: PeerRef): void {
    try {
      for (const e of entries) this.admit(e, peer);
    } finally {
      this.settle();
    }
  }

  private receiveUnsafe(update: Uint8Array, peer: PeerRef, options: ReceiveOptions): GateResult {
    if (!(update instanceof Uint8Array)) {
      this.report({ kind: 'update-refused', peer: peer.name, reason: 'not-bytes' });
      return { clean: false, applied: 0, reason: 'not-bytes' };
    }
    if (update.length > (options.maxBytes ?? MAX_UPDATE_BYTES)) {
      this.report({ kind: 'update-refused', peer: peer.name, reason: 'update-too-large' });
      return { clean: false, applied: 0, reason: 'update-too-large' };
    }
    const parsed = parseUpdate(update, options.limits ?? PEER_LIMITS);
    const verdicts = new Map<UpdateItem, Verdict>();
    for (const item of parsed.items) verdicts.set(item, this.admit(item.content, peer));
    if (!parsed.ok) {
      this.report({ kind: 'update-refused', peer: peer.name, reason: parsed.reason });
      return { clean: false, applied: 0, reason: parsed.reason ?? 'refused' };
    }
    const keep = new Map<number, number>();
    let whole = true;
    let applied = 0;
    let cutReason: string | undefined;
    for (const group of parsed.groups) {
      let n = 0;
      for (const s of group.structs) {
        if (isSkip(s)) {
          n++;
          continue;
        }
        const held = this.heldAt(s.client, s.clock);
        if (held !== undefined) {
          // Yjs keeps what it has under this id and skips the item; different bytes are a fork by Yjs id.
          if (!equalBytes(held, s.content)) this.reportFork(s, held, verdicts.get(s)!, peer);
          n++;
          continue;
        }
        const v = verdicts.get(s)!;
        if (!this.itemAdmitted(s, v)) {
          cutReason ??= v.kind === 'refused' ? v.reason : v.kind;
          break;
        }
        n++;
        applied++;
      }
      keep.set(group.client, n);
      if (n < group.structs.length) whole = false;
    }
    if (!whole) this.report({ kind: 'update-cut', peer: peer.name, reason: cutReason ?? 'refused-item' });
    const clean = whole ? update : keepPrefixes(update, parsed, keep);
    if (applied > 0 || whole) {
      try {
        applyUpdateSettled(this.doc, clean, peer.origin);
      } catch (e) {
        this.report({ kind: 'internal-error', peer: peer.name, reason: `yjs: ${e instanceof Error ? e.message : String(e)}` });
        return { clean: false, applied: 0, reason: 'yjs-threw' };
      }
    }
    return whole ? { clean: true, applied } : { clean: false, applied, reason: cutReason ?? 'refused-item' };
  }

  private admit(bytes: Uint8Array, peer: PeerRef): Verdict {
    const v = this.admission.offer(plainBytes(bytes));
    if (v.kind === 'refused')
      this.report({ kind: 'entry-refused', peer: peer.name, reason: v.reason, ids: [v.id], ...(v.author === undefined ? {} : { authors: [v.author] }) });
    return v;
  }

  /** An item may reach the doc if its entry is admitted, in these bytes or in another valid signature. */
  private itemAdmitted(item: UpdateItem, v: Verdict): boolean {
    if (v.kind === 'refused' || !this.admission.has(v.id)) return false;
    if (v.kind === 'duplicate') return true;
    const mine = this.admission.bytesOf(v.id);
    return mine !== undefined && equalBytes(mine, item.content);
  }

  /** The bytes the doc holds at a Yjs id, or undefined if it holds nothing there. */
  private heldAt(client: number, clock: number): Uint8Array | undefined {
    const structs = this.doc.store.clients.get(client);
    if (structs === undefined || clock >= Y.getState(this.doc.store, client)) return undefined;
    const s = structs[Y.findIndexSS(structs, clock)];
    if (s instanceof Y.Item && s.content instanceof Y.ContentBinary) return s.content.content;
    return new Uint8Array(0);
  }

  private idOf(bytes: Uint8Array): string | undefined {
    return this.admission.idOfBytes(bytes) ?? (bytes.length > SIGNATURE_BYTES ? hashHex(bytes.subarray(SIGNATURE_BYTES)) : undefined);
  }

  private reportFork(item: UpdateItem, held: Uint8Array, v: Verdict, peer: PeerRef): void {
    const ours = this.idOf(held);
    const authors = new Set<string>();
    const a = ours === undefined ? undefined : this.admission.authorOf(ours);
    if (a !== undefined) authors.add(a);
    if (v.kind !== 'refused') authors.add(v.author);
    else if (v.author !== undefined) authors.add(v.author);
    this.report({
      kind: 'fork-by-yjs-id',
      peer: peer.name,
      at: { client: item.client, clock: item.clock },
      ids: [ours ?? '?', v.id],
      authors: [...authors].sort(),
      ...(v.kind === 'refused' ? { reason: v.reason } : {}),
    });
  }

  // ---- The carrier ---------------------------------------------------------------------------

  private carry(bytes: Uint8Array, delta: 1 | -1): void {
    const id = this.idOf(bytes);
    if (id === undefined) return;
    const n = (this.carried.get(id) ?? 0) + delta;
    if (n > 0) {
      this.carried.set(id, n);
      this.uncarried.delete(id);
      return;
    }
    this.carried.delete(id);
    if (this.admission.has(id)) {
      this.uncarried.add(id);
      this.scheduleCarry();
    }
  }

  /** After any change: storage writes, failed hashes, the carrier's timer, listeners. */
  private settle(): void {
    const changes = this.admission.takeChanges();
    for (const { id } of changes.put) if (!this.carried.has(id)) this.uncarried.add(id);
    for (const id of changes.remove) this.uncarried.delete(id);
    const failed = this.failed.added();
    if (this.o.storage !== undefined && (changes.put.length > 0 || changes.remove.length > 0 || failed.length > 0)) {
      // The latest change of an id wins (a put after a remove, or the reverse, in one batch).
      for (const { id, bytes } of changes.put) this.pendingEntries.set(id, bytes);
      for (const id of changes.remove) this.pendingEntries.set(id, null);
      this.pendingFailed.push(...failed);
      this.queueWrites();
    }
    if (this.uncarried.size > 0) this.scheduleCarry();
    if (this.notified !== this.admission.version) {
      this.notified = this.admission.version;
      this.digestCache = null;
      for (const l of [...this.listeners]) {
        try {
          l();
        } catch {
          // A listener's failure stays its own.
        }
      }
    }
  }

  /** Whether what is pending is written now: an own entry in it, a forced write, or no peerWrites. */
  private writeDue(): boolean {
    return this.o.peerWrites === undefined || this.pendingOwn || this.writeForced;
  }

  /** After a change is pending: written now when due, else when peers' entries stop coming (peerWrites). */
  private queueWrites(): void {
    const wait = this.o.peerWrites;
    if (this.writeDue() || wait === undefined || this.destroyed) {
      this.writeNow();
      return;
    }
    if (this.writing !== null) return; // the loop ends, then queues what is left
    if (this.quietTimer !== null) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.writeNow(), wait.quietMs);
    this.boundTimer ??= setTimeout(() => this.writeNow(), wait.maxMs);
  }

  /** Writes whatever is pending now, peers' entries included (flush, page hidden, destroy). */
  writeNow(): void {
    if (this.quietTimer !== null) clearTimeout(this.quietTimer);
    if (this.boundTimer !== null) clearTimeout(this.boundTimer);
    this.quietTimer = null;
    this.boundTimer = null;
    if (this.pendingEntries.size === 0 && this.pendingFailed.length === 0) return;
    this.writeForced = true;
    this.startWrites();
  }

  /**
   * Writes what is pending, in order, one storage call per batch: changes that arrive while a write
   * is under way (a burst of peers' entries) wait and go together in the next one, instead of one
   * durable transaction each that this phone's own next entry would queue behind.
   */
  private startWrites(): void {
    const storage = this.o.storage;
    if (this.writing !== null || storage === undefined) return;
    this.writing = (async () => {
      while ((this.pendingEntries.size > 0 || this.pendingFailed.length > 0) && this.writeDue()) {
        const batch = this.pendingEntries;
        const failed = this.pendingFailed;
        const strict = this.pendingOwn;
        this.pendingEntries = new Map();
        this.pendingFailed = [];
        this.pendingOwn = false;
        this.writeForced = false;
        const put: { id: string; bytes: Uint8Array }[] = [];
        const remove: string[] = [];
        for (const [id, bytes] of batch) {
          if (bytes === null) remove.push(id);
          else put.push({ id, bytes });
        }
        try {
          if (put.length > 0 || remove.length > 0) await storage.save(put, remove, strict);
          if (failed.length > 0) await storage.saveFailed(failed);
        } catch (e) {
          this.writeError = e;
          this.report({ kind: 'internal-error', peer: 'store', reason: `store: ${e instanceof Error ? e.message : String(e)}` });
        }
      }
    })().finally(() => {
      this.writing = null;
      // A change made while the loop wrote: now if due, else when peers' entries stop coming.
      if (this.pendingEntries.size > 0 || this.pendingFailed.length > 0) this.queueWrites();
    });
  }

  /** Resolves once every change so far is in storage; rejects if a write failed. */
  async flush(): Promise<void> {
    this.writeNow();
    while (this.writing !== null) await this.writing;
    if (this.writeError !== null) {
      const e = this.writeError;
      this.writeError = null;
      throw e;
    }
  }

  private scheduleCarry(): void {
    if (this.carryTimer !== null || this.destroyed) return;
    this.carryTimer = setTimeout(() => {
      this.carryTimer = null;
      this.carryNow();
    }, this.o.carryDelayMs ?? 3000);
  }

  /** Publishes every admitted entry the doc does not hold, under a fresh Yjs client id. Returns how many. */
  carryNow(force = false): number {
    if (this.destroyed) return 0;
    const ids = [...this.uncarried].filter((id) => this.admission.has(id) && !this.carried.has(id)).sort();
    if (ids.length === 0) {
      this.uncarried.clear();
      return 0;
    }
    // Yjs integrates items it held back once their dependency arrives: give it a few rounds.
    if (!force && this.doc.store.pendingStructs !== null && this.carryWaits < CARRY_WAITS) {
      this.carryWaits++;
      this.scheduleCarry();
      return 0;
    }
    this.carryWaits = 0;
    this.publishFresh(ids.map((id) => this.admission.bytesOf(id)!));
    return ids.length;
  }

  private freshClientId(): number {
    const b = (this.o.random ?? defaultRandom)(4);
    return ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0;
  }

  private publishFresh(entries: readonly Uint8Array[]): void {
    const saved = this.doc.clientID;
    let fresh = this.freshClientId();
    while (fresh === saved || this.doc.store.clients.has(fresh)) fresh = this.freshClientId();
    this.doc.clientID = fresh;
    try {
      this.doc.transact(() => this.log.push([...entries]), CARRIER_ORIGIN);
    } finally {
      this.doc.clientID = saved;
    }
  }

  // ---- Anti-entropy's view -------------------------------------------------------------------

  private digests(): { digest: Map<string, { count: number; hash: string }>; buckets: Map<string, string[]> } {
    if (this.digestCache === null || this.digestCache.version !== this.admission.version) {
      const buckets = this.admission.digestBuckets();
      const digest = new Map<string, { count: number; hash: string }>();
      const enc = new TextEncoder();
      for (const [b, ids] of buckets) digest.set(b, { count: ids.length, hash: hashHex(enc.encode(ids.join(''))).slice(0, 16) });
      this.digestCache = { version: this.admission.version, digest, buckets };
    }
    return this.digestCache;
  }

  digest(): ReadonlyMap<string, { readonly count: number; readonly hash: string }> {
    return this.digests().digest;
  }

  idsIn(bucket: string): readonly string[] {
    return this.digests().buckets.get(bucket) ?? [];
  }

  bytesOf(id: string): Uint8Array | undefined {
    return this.admission.bytesOf(id);
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    if (this.carryTimer !== null) clearTimeout(this.carryTimer);
    // What waits (peerWrites) is written: peers' entries are not dropped with the page.
    this.writeNow();
    this.log.unobserve(this.observer);
    this.listeners.clear();
  }
}

/**
 * Bytes as a plain Uint8Array. A data channel hands messages over as Buffer (simple-peer's buffer
 * polyfill in a browser, Node's Buffer in Node), a Uint8Array subclass that Yjs refuses to insert
 * ("Unexpected content type in insert operation"): an admitted entry held as one could never be
 * carried. Anything else is returned as it is, for the admission to judge.
 */
function plainBytes(bytes: unknown): Uint8Array {
  return bytes instanceof Uint8Array && bytes.constructor !== Uint8Array ? Uint8Array.from(bytes) : (bytes as Uint8Array);
}

// The outbox of one game on this phone: every message this phone signs passes here once. It
// signs with a sequence number from a block reserved in the store ahead, refuses what the
// protocol's quotas would refuse, and, for a message the protocol allows once, writes its name
// with its signed bytes in one strict transaction before it leaves (so a phone killed at any
// instant has either nothing of it anywhere, or its name with the bytes to send again on
// reopening); lets the caller store what must survive a reload (a commit's secret) and then
// publishes. src/protocol/README.md, "Once-only messages".
import { openMessage, QUOTAS, type Opened, type Signed, type Stamp, type Verdict, type Verifier } from '../../protocol';
import type { PactoStore, ReservationRecord } from '../../store';
import type { Lang } from '../i18n';
import type { GameRecordRef } from './records';

/** The game's entry set as the runner needs it (GameReplica in src/net). */
export interface EntryLog {
  entries(): readonly Uint8Array[];
  subscribe(listener: () => void): () => void;
  /**
   * Admits, stores durably, then publishes; throws (changing nothing) if an entry is refused.
   * `reserved`: the sequence number and once-only right were reserved durably before signing, so
   * the entry goes out before its own write lands (GameReplica.publish).
   */
  publish(entries: readonly Uint8Array[], options?: { readonly reserved?: boolean }): Promise<void>;
  /** What publishing would do, changing nothing. */
  preview(bytes: Uint8Array): Verdict;
  /** Trusts the signatures of admitted entries. */
  readonly verifier: Verifier;
}

/** An entry this phone cannot publish: over a quota of the protocol (src/protocol/README.md, Admission). */
export class QuotaError extends Error {
  readonly reason: string;
  constructor(reason: string, kind: string, lang: Lang) {
    const text = {
      commit: {
        es: `Ya has sellado ${QUOTAS.commit} veces esta potencia en esta fase: no se puede volver a sellar.`,
        en: `You have sealed this power ${QUOTAS.commit} times in this phase: it cannot be sealed again.`,
      },
      size: { es: 'El mensaje es demasiado largo.', en: 'The message is too long.' },
      other: {
        es: 'Has llegado al límite de mensajes de este tipo en esta partida.',
        en: 'You have reached the limit of messages of this kind in this game.',
      },
    };
    const which = reason.startsWith('too-large') ? 'size' : kind === 'commit' ? 'commit' : 'other';
    super(text[which][lang]);
    this.name = 'QuotaError';
    this.reason = reason;
  }
}

/**
 * Sequence numbers reserved per write of the game's reservation (store.modifyReservation): numbers
 * are reserved in blocks ahead, so an entry that is not once-only (an ACK, a commit) waits for no
 * write once the block is on disk.
 * Skipped numbers cost nothing (src/protocol/README.md, "Sending before the entry is stored").
 */
export const SEQ_BLOCK = 32;

/** Numbers [next, end) reserved for this page by the write `landed` (rejected: it failed). */
interface SeqRange {
  next: number;
  readonly end: number;
  readonly landed: Promise<void>;
}

export interface OutboxOptions {
  readonly store: PactoStore;
  readonly record: GameRecordRef;
  readonly log: EntryLog;
  readonly now: () => number;
  readonly lang: () => Lang;
  /** The next sequence number of this phone's key by the entries it holds (the view's nextSeq). */
  readonly seqFloor: () => number;
  /** Called once an entry is published (the runner re-reduces). */
  readonly published: () => void;
  readonly closed: () => boolean;
  /**
   * The key list of the START this phone is anchored to, once there is one (protocol authorPlaces):
   * entries are then written compact, the author named by its place in it.
   */
  readonly places?: () => readonly string[] | undefined;
  /** Told, after it is stored and published, what this phone appended. */
  readonly onAppended?: (m: { readonly type: string; readonly phase?: string }) => void;
  readonly onError?: (e: unknown) => void;
}

export interface SendOptions {
  /** The name of a message the protocol allows once (a FINAL, LOCK, REVEAL, the START and its
   *  acceptance, the lot commit): the message is signed first, in memory, then its name and its
   *  bytes are written in one strict transaction of the reservations that reads the names first;
   *  only then does it leave. If this device reserved the name already (another tab, the service
   *  worker, this page before a reload), nothing is signed and the bytes kept with the name are
   *  sent again. src/protocol/README.md, "Once-only messages". */
  readonly once?: string;
  /** With `once`: a secret the message depends on (the lot commit's), asked once the sign step
   *  returned, written with its name and bytes. */
  readonly secret?: () => string | undefined;
  /** Stores what the message depends on (a commit's secret) after the quota check, before publishing. */
  readonly keep?: (signed: Signed, stamp: Stamp) => Promise<void>;
  /**
   * A once-only message that leaves with this one, in the same update (the last seal's FINAL, which
   * names the commit: runner.ts sealNow). Signed once this one is checked and kept, with a number
   * of a block on disk; its name and the bytes of both are then written in one strict transaction
   * of the reservations (unless the name is reserved already: then it is dropped, nothing of it
   * left the phone), and only then do both go out. A phone that dies after that write sends these
   * very bytes again (resendKeptWhere as the runner loads the game, and send whenever the name
   * comes up), so a crash at any point leaves nothing signed under the name, or the one entry kept
   * with it. If it cannot be signed or written, this message goes alone (the duty that would have
   * signed it comes later, as without it).
   */
  readonly with?: { readonly once: string; readonly sign: (first: Signed, stamp: Stamp) => Signed | null };
}

export class Outbox {
  private readonly o: OutboxOptions;
  /** Numbers reserved for this page, in increasing order (each range written, or being written). */
  private ranges: SeqRange[] = [];
  /** A write reserving a new block is under way. */
  private growing = false;
  /**
   * Once-only names reserved (store.modifyReservation), each true if this page reserved it, false if
   * seen in the store by a reservation of this page (another tab's: asked of the store again at each
   * reservation, so a right it gives back, release, is seen).
   */
  private readonly onceNames = new Map<string, boolean>();
  /** Entries kept with their once-only name in the reservations (send), as last read there. */
  private readonly keptOnce = new Map<string, { readonly entries: readonly Uint8Array[]; readonly secret?: string }>();

  constructor(o: OutboxOptions) {
    this.o = o;
  }

  /**
   * Stamps, has `sign` sign once with the stamp (it may return null: nothing to send any more),
   * checks the quotas, keeps and appends. Resolves to the entry appended, or null. `sign` must let
   * nothing it signs out of the phone but by returning it, and must write nothing: with `once`, the
   * name is taken only after it returns (so a sign step that throws takes nothing).
   */
  async send(sign: (stamp: Stamp) => Signed | null | Promise<Signed | null>, options: SendOptions = {}): Promise<Signed | null> {
    const once = options.once;
    // Reserved already, as this page knows: the bytes kept with the name (if any) go again, these
    // very bytes (the phone may have died before they left); nothing new is signed.
    if (once !== undefined && this.reserved(once)) {
      await this.resendKept(once);
      return null;
    }
    // A number of a block on disk (nothing signed with it leaves before that block's write lands).
    const reserved = await this.reserve();
    await reserved.landed;
    const signed = await sign(reserved.stamp);
    if (signed === null) return null;
    this.check(signed);
    if (once !== undefined && !(await this.keepOnce(once, [signed.bytes], options.secret?.()))) {
      // Another context of this device (a tab, the service worker, this page before a reload)
      // reserved it first: what it kept with the name goes again; this signature never leaves.
      await this.resendKept(once);
      return null;
    }
    await options.keep?.(signed, reserved.stamp);
    const second = options.with === undefined ? null : await this.follower(signed, options.with);
    await this.append(signed, second);
    return signed;
  }

  /**
   * Writes the once-only name `name` with the entries signed under it (and the secret they depend
   * on) in one strict transaction of the reservations that reads the names first: true once on
   * disk; false if the name was reserved already (then nothing is written). Nothing signed under
   * a once-only name leaves the phone before this lands, so a crash at any point leaves either
   * nothing of it anywhere, or the name with the very bytes to send (resendKeptWhere on reopening).
   */
  async keepOnce(name: string, entries: readonly Uint8Array[], secret?: string): Promise<boolean> {
    // Reserved before the reservations had a database of their own (the game's record).
    if ((this.o.record.current.once ?? []).includes(name)) return false;
    const kept = { entries, ...(secret === undefined ? {} : { secret }) };
    const written = await this.o.store.modifyReservation(this.o.record.gameId, (stored) => {
      this.seeStored(stored);
      if (stored.once.includes(name)) return null;
      return {
        nextSeq: stored.nextSeq,
        once: [...stored.once, name].slice(-200),
        kept: [...(stored.kept ?? []), { name, ...kept }],
      };
    });
    if (written === null) return false;
    this.onceNames.set(name, true);
    this.keptOnce.set(name, kept);
    return true;
  }

  /** The secret kept with the once-only name `name` (send's `secret`), as this page last read the reservations. */
  async keptSecret(name: string): Promise<string | undefined> {
    if (!this.keptOnce.has(name)) await this.readKept();
    return this.keptOnce.get(name)?.secret;
  }

  /**
   * The message that leaves with `first` (SendOptions.with), signed and written with its name, or
   * null (nothing of it left: it goes later by its own duty).
   */
  private async follower(first: Signed, w: NonNullable<SendOptions['with']>): Promise<Signed | null> {
    if (this.o.closed() || this.reserved(w.once)) return null;
    try {
      const r = await this.reserve();
      if (r === null) return null;
      await r.landed;
      const second = w.sign(first, r.stamp);
      if (second === null || this.o.log.preview(second.bytes).kind === 'refused') return null;
      // The name and both entries in one strict transaction that reads the names first (another
      // tab may hold it: then nothing is written and the entry, signed in memory only, is dropped).
      // With the entry it names: the commit's own record may not be on disk yet (its secret is,
      // kept ahead: drafts.ts sealed), and a FINAL sent again without it would name a commit no
      // phone holds.
      if (!(await this.keepOnce(w.once, [first.bytes, second.bytes]))) return null;
      return second;
    } catch (e) {
      // Not written (a failed transaction commits nothing): nothing of it left the phone.
      this.o.onError?.(e);
      return null;
    }
  }

  /**
   * Sends again the entries kept with the once-only name `name` (SendOptions.with), if there are any.
   * No read of its own: a name is known here only from this page's reservation (which kept its
   * entries in keptOnce) or from a transaction that read the store (seeStored, which noted the
   * entries written in the same transaction as the name), so keptOnce already holds them.
   */
  private async resendKept(name: string): Promise<void> {
    const kept = this.keptOnce.get(name);
    if (kept !== undefined) await this.resendAll(kept.entries);
  }

  /**
   * Sends again the entries kept with every once-only name `which` accepts (read from the
   * reservations now): on opening, a phone that died between writing a burst and sending it sends
   * it, even where no duty would ask for the name again (its phase over, or its commit, sent only
   * with it, missing from the log).
   */
  async resendKeptWhere(which: (name: string) => boolean): Promise<void> {
    if (!(await this.readKept())) return;
    for (const [name, kept] of this.keptOnce) if (which(name)) await this.resendAll(kept.entries);
  }

  /** Reads the reservations (writing nothing) for their names and kept entries; false if they cannot be read. */
  private async readKept(): Promise<boolean> {
    try {
      await this.o.store.modifyReservation(this.o.record.gameId, (stored) => {
        this.seeStored(stored);
        return null;
      });
      return true;
    } catch {
      return false;
    }
  }

  /** Sends again, in one publish, those of `entries` the log lacks (signed here, reserved before). */
  private async resendAll(entries: readonly Uint8Array[]): Promise<void> {
    if (this.o.closed()) return;
    const fresh = entries.filter((b) => {
      const kind = this.o.log.preview(b).kind;
      return kind === 'admitted' || kind === 'pending';
    });
    if (fresh.length === 0) return;
    try {
      await this.o.log.publish(fresh, { reserved: true });
    } catch (e) {
      this.o.onError?.(e);
      return;
    }
    this.o.published();
  }

  /**
   * The next sequence number, reserved in the store (this resolves once it is on disk). Two tabs of
   * this browser may run the same game: each takes its numbers from blocks reserved in one
   * transaction that reads the stored counter, so they never sign two messages with one number
   * (which peers report as misconduct).
   */
  async stamp(): Promise<Stamp> {
    const reserved = await this.reserve();
    await reserved.landed;
    return reserved.stamp;
  }

  /** A number of the reserved blocks at or above `floor` (the ranges' write may still be under way). */
  private take(floor: number): { seq: number; landed: Promise<void> } | undefined {
    for (;;) {
      const r = this.ranges[0];
      if (r === undefined) return undefined;
      r.next = Math.max(r.next, floor);
      if (r.next < r.end) return { seq: r.next++, landed: r.landed };
      this.ranges.shift();
    }
  }

  /** Numbers left in the reserved blocks. */
  private left(): number {
    return this.ranges.reduce((n, r) => n + Math.max(0, r.end - r.next), 0);
  }

  /**
   * The reservation of stamp(): the number (`stamp`, told as soon as it is chosen) and the strict
   * write that records it (`landed`: resolves once on disk, rejects if the write failed). Nothing
   * signed with the stamp may be sent or stored before `landed` resolves.
   *
   * A number comes from a block this page reserved ahead (one read-modify-write of the game's
   * reservation, SEQ_BLOCK numbers above every number stored or seen): a message then waits only
   * for the block's write, usually long landed.
   */
  private async reserve(): Promise<{ stamp: Stamp; landed: Promise<void> }> {
    const record = this.o.record;
    const taken = this.take(this.o.seqFloor());
    // A new block when there is none or this one runs low (one grows at a time).
    const grow = taken === undefined || (this.left() < SEQ_BLOCK / 2 && !this.growing);
    if (!grow) return { stamp: this.stampOf(taken.seq), landed: taken.landed };
    this.growing = true;
    let chosen!: (seq: number) => void;
    const choice = new Promise<number>((resolve) => (chosen = resolve));
    let grown!: (landed: Promise<void>) => void;
    const blockLanded = new Promise<void>((resolve) => (grown = resolve));
    blockLanded.catch(() => undefined);
    const write = this.o.store.modifyReservation(record.gameId, (stored) => {
      this.seeStored(stored);
      // Above every number stored (other tabs' blocks; the game's record before reservations
      // had their own database), reserved by this page or seen in the log.
      const highest = this.ranges.reduce((m, r) => Math.max(m, r.end), 0);
      const base = Math.max(stored.nextSeq, record.current.nextSeq ?? 0, highest, this.o.seqFloor());
      const seq = taken?.seq ?? base;
      const from = seq === base ? base + 1 : base;
      this.ranges.push({ next: from, end: from + SEQ_BLOCK, landed: blockLanded });
      chosen(seq);
      return { nextSeq: from + SEQ_BLOCK, once: stored.once };
    });
    // Resolves once on disk.
    const ok = write.then(
      () => undefined,
      (e: unknown) => {
        this.ranges = this.ranges.filter((r) => r.landed !== blockLanded);
        throw e;
      },
    );
    grown(ok);
    void ok
      .finally(() => {
        this.growing = false;
      })
      .catch(() => undefined);
    if (taken !== undefined) {
      // Only a new block was written, ahead of need: this entry's number was on disk already.
      ok.catch((e: unknown) => this.o.onError?.(e));
      return { stamp: this.stampOf(taken.seq), landed: taken.landed };
    }
    // A failure before the choice (the reservation unreadable) rejects here; after it, through `landed`.
    const seq = await Promise.race([choice, ok.then(() => choice)]);
    return { stamp: this.stampOf(seq), landed: ok };
  }

  /**
   * Whether this device reserved the once-only message `name`: in the game's record (where older
   * versions reserved), on this page, or seen in the store by a reservation of this page.
   */
  reserved(name: string): boolean {
    return this.onceNames.has(name) || (this.o.record.current.once ?? []).includes(name);
  }

  private stampOf(seq: number): Stamp {
    const places = this.o.places?.();
    return { seq, time: this.o.now(), ...(places === undefined ? {} : { places }) };
  }

  /**
   * Notes the once-only names a transaction read in the store (another tab's, unless this page's),
   * and the entries kept with them.
   */
  private seeStored(stored: ReservationRecord): void {
    for (const n of stored.once) if (!this.onceNames.has(n)) this.onceNames.set(n, false);
    for (const k of stored.kept ?? []) this.keptOnce.set(k.name, { entries: k.entries, ...(k.secret === undefined ? {} : { secret: k.secret }) });
  }

  /**
   * Whether the once-only message `name` is reserved on this device: by this page, or, as the
   * shared reservations say now (one transaction that reads them and writes nothing), by another
   * tab. False if they cannot be read.
   */
  async reservedInStore(name: string): Promise<boolean> {
    if (this.reserved(name)) return true;
    let found = false;
    try {
      await this.o.store.modifyReservation(this.o.record.gameId, (stored) => {
        this.seeStored(stored);
        found = stored.once.includes(name);
        return null;
      });
    } catch {
      return false;
    }
    return found;
  }

  /**
   * Sends again an entry this phone signed and kept (a commit, kept with its secret before it went
   * out: runner.ts sealNow). Its sequence number was reserved durably before it was signed, so it
   * goes out as it would have (a copy others hold is a duplicate). False if it cannot be admitted.
   */
  async resend(bytes: Uint8Array): Promise<boolean> {
    if (this.o.closed() || this.o.log.preview(bytes).kind === 'refused') return false;
    try {
      await this.o.log.publish([bytes], { reserved: true });
    } catch {
      return false;
    }
    this.o.published();
    return true;
  }

  /** Opens an entry this phone signed: a compact one names its place in the list `places` gives. */
  private openOwn(bytes: Uint8Array): Opened {
    const places = this.o.places?.();
    return openMessage(bytes, this.o.log.verifier, { game: this.o.record.gameId, keyLists: places === undefined ? [] : [places] });
  }

  /** Refuses, before anything is stored, an entry the protocol's quotas would refuse. */
  check(signed: Signed): void {
    const v = this.o.log.preview(signed.bytes);
    if (v.kind !== 'refused') return;
    const kind = this.openOwn(signed.bytes);
    throw new QuotaError(v.reason, kind.ok ? kind.message.payload.type : '', this.o.lang());
  }

  /**
   * Checks, publishes, then tells the runner and the app. Every entry signed here had its sequence
   * number (and its once-only name) reserved durably (send waits for the write) before it gets here, so it goes
   * out without waiting for its own write (src/protocol/README.md, "Sending before the entry is
   * stored"); what it depends on (a commit's secret, `keep`) is stored before this. Private: only
   * send() adds entries, after its reservation (and once-only right) has landed.
   */
  private async append(signed: Signed, second: Signed | null = null): Promise<void> {
    if (this.o.closed()) return;
    this.check(signed);
    // One publish, so one update of the doc: the two leave together (SendOptions.with).
    await this.o.log.publish(second === null ? [signed.bytes] : [signed.bytes, second.bytes], { reserved: true });
    this.o.published();
    if (this.o.onAppended === undefined) return;
    for (const s of second === null ? [signed] : [signed, second]) {
      const opened = this.openOwn(s.bytes);
      if (!opened.ok) continue;
      const phase = (opened.message.payload as { phase?: unknown }).phase;
      try {
        this.o.onAppended({ type: opened.message.payload.type, ...(typeof phase === 'string' ? { phase } : {}) });
      } catch (e) {
        this.o.onError?.(e);
      }
    }
  }
}

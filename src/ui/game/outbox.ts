// The outbox of one game on this phone: every message this phone signs passes here once. It
// reserves the sequence number in the store (and, for a message the protocol allows once, the
// right to sign it), has the caller sign with that stamp, refuses what the protocol's quotas would
// refuse, lets the caller store what must survive a reload (a commit's secret) and then publishes.
// The sequence number and once-only right are stored before a message signed with them leaves
// the phone (it is signed in memory meanwhile), and what it depends on before it is published, so
// a crash at any moment never makes this phone sign two conflicting messages that anyone sees; the
// message itself is stored as it goes out (see append).
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
  /** The name of a message the protocol allows once (a FINAL, LOCK, REVEAL, the START acceptance,
   *  the lot commit): reserved with the sequence number; if this device already reserved it,
   *  nothing is signed. */
  readonly once?: string;
  /** Stores what the message depends on (a commit's secret) after the quota check, before publishing. */
  readonly keep?: (signed: Signed, stamp: Stamp) => Promise<void>;
  /**
   * A once-only message that leaves with this one, in the same update (the last seal's FINAL, which
   * names the commit: runner.ts sealNow). Signed once this one is checked and kept, with a number
   * of a block on disk; its name and the bytes of both are then written in one strict transaction
   * of the reservations (unless the name is reserved already: then it is dropped, nothing of it
   * left the phone), and only then do both go out. A phone that dies after that write sends these
   * very bytes again (resendKeptWhere as the runner loads the phase, and send whenever the name
   * comes up), so a crash at any point leaves nothing signed under the name, or the one entry kept
   * with it. If it cannot be signed or written, this message goes alone (the duty that would have
   * signed it comes later, as without it).
   */
  readonly with?: { readonly once: string; readonly sign: (first: Signed, stamp: Stamp) => Signed | null };
  /**
   * The once-only name of a later message of this page (the REVEAL after the LOCK: duty-loop.ts),
   * reserved in the same strict write as `once`, so that message waits for no write of its own:
   * a later send with it as `once` takes a number from a block on disk and signs at once. Held by
   * this page alone (another tab, or this page after a reload, finds it reserved and signs
   * nothing), used once, and given back unused by releaseClaims (the page hidden, left or closed).
   * Not claimed if it is reserved already. src/protocol/README.md "Sending before the entry is
   * stored" says why it is safe.
   */
  readonly claim?: string;
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
  /** Once-only names this page claimed ahead (SendOptions.claim), on disk, not used yet. */
  private readonly claimed = new Set<string>();
  /** Claimed names being given back (releaseClaims): a send asking for one waits for that write. */
  private readonly releasing = new Map<string, Promise<void>>();
  /** Entries kept with their once-only name in the reservations (SendOptions.with), as last read there. */
  private readonly keptOnce = new Map<string, readonly Uint8Array[]>();

  constructor(o: OutboxOptions) {
    this.o = o;
  }

  /**
   * Stamps, has `sign` sign once with the stamp (it may return null: nothing to send any more),
   * checks the quotas, keeps and appends. Resolves to the entry appended, or null. `sign` must let
   * nothing it signs out of the phone but by returning it: if it throws, the once-only right is
   * given back (release).
   */
  async send(sign: (stamp: Stamp) => Signed | null | Promise<Signed | null>, options: SendOptions = {}): Promise<Signed | null> {
    const reserved = await this.reserve(options.once, options.claim);
    if (reserved === null) {
      // Reserved already: if its entry was kept with the name (SendOptions.with) it is sent again,
      // these very bytes (the phone may have died before they left); else nothing is signed.
      if (options.once !== undefined) await this.resendKept(options.once);
      return null;
    }
    // Signed in memory while the reservation is being written (signing a LOCK or a REVEAL checks
    // escrow shares: curve arithmetic): nothing signed leaves this phone, sent or stored, before
    // the reservation is on disk, so a crash before it lands leaves nothing signed anywhere.
    let signed: Signed | null;
    try {
      signed = await sign(reserved.stamp);
    } catch (e) {
      // Nothing signed with the once-only right left the phone: `sign` returned nothing, and only
      // what it returns is ever stored or sent. So the right is given back (else a duty whose sign
      // step failed once could never be done again); see release. Only a right this page was
      // granted (reserve gives a stamp for no other): one another tab holds is never given back from here.
      await this.landed(reserved.landed, options.once);
      if (options.once !== undefined) await this.release(options.once);
      throw e;
    }
    await this.landed(reserved.landed, options.once);
    if (signed === null) return null;
    this.check(signed);
    await options.keep?.(signed, reserved.stamp);
    const second = options.with === undefined ? null : await this.follower(signed, options.with);
    await this.append(signed, second);
    return signed;
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
      // The name and the entry in one strict transaction that reads the names first (another tab
      // may hold it: then nothing is written and the entry, signed in memory only, is dropped).
      const written = await this.o.store.modifyReservation(this.o.record.gameId, (stored) => {
        this.seeStored(stored);
        if (stored.once.includes(w.once)) return null;
        return {
          nextSeq: stored.nextSeq,
          once: [...stored.once, w.once].slice(-200),
          // With the entry it names: the commit's own record may not be on disk yet (its secret
          // is, kept ahead: drafts.ts sealed), and a FINAL sent again without it would name a
          // commit no phone holds.
          kept: [...(stored.kept ?? []), { name: w.once, entries: [first.bytes, second.bytes] }],
        };
      });
      if (written === null) return null;
      this.onceNames.set(w.once, true);
      this.keptOnce.set(w.once, [first.bytes, second.bytes]);
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
    const entries = this.keptOnce.get(name);
    if (entries !== undefined) await this.resendAll(entries);
  }

  /**
   * Sends again the entries kept with every once-only name `which` accepts (read from the
   * reservations now): on opening, a phone that died between writing a burst and sending it sends
   * it, even where no duty would ask for the name again (its commit, sent only with it, missing
   * from the log).
   */
  async resendKeptWhere(which: (name: string) => boolean): Promise<void> {
    if (!(await this.readKept())) return;
    for (const [name, entries] of this.keptOnce) if (which(name)) await this.resendAll(entries);
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
  stamp(): Promise<Stamp>;
  /**
   * With `once`: recorded in the same kind of transaction, which finds it if this device (another
   * tab included) already reserved it: then null comes back, since signing it twice would be
   * equivocation, which the others report and which voids the player's orders.
   */
  stamp(once: string): Promise<Stamp | null>;
  async stamp(once?: string): Promise<Stamp | null> {
    const reserved = await this.reserve(once);
    if (reserved === null) return null;
    await this.landed(reserved.landed, once);
    return reserved.stamp;
  }

  /**
   * Waits for a reservation's writes. If one failed (a once-only name's own write may have landed
   * while the block its number came from did not), nothing signed with the stamp may leave, so the
   * name, if this page wrote it, is given back (release) before the error goes on: else the duty
   * could never be done again. Called once no sign step of the stamp runs any more (a sign step may
   * write, as the lot commit's does its secret: it must not run while another tab holds the name).
   */
  private async landed(landed: Promise<void>, once: string | undefined): Promise<void> {
    try {
      await landed;
    } catch (e) {
      if (once !== undefined && this.onceNames.get(once) === true) await this.release(once);
      throw e;
    }
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
   * write that records it and `once` (`landed`: resolves once on disk, rejects if the write failed).
   * Nothing signed with the stamp may be sent or stored before `landed` resolves. Null if `once` is
   * reserved already: by this page or an older version (the game's record), or, as the transaction
   * that would reserve it reads, by another tab; then nothing is to be signed.
   *
   * A number comes from a block this page reserved ahead (one read-modify-write of the game's
   * reservation, SEQ_BLOCK numbers above every number stored or seen): an entry that is not
   * once-only then waits only for the block's write, usually long landed. A once-only entry writes
   * its name (and a new block when this one runs low) in one strict transaction that reads the
   * stored names first, so two tabs never both reserve it (IndexedDB runs them one at a time).
   */
  private async reserve(once?: string, claim?: string): Promise<{ stamp: Stamp; landed: Promise<void> } | null> {
    const record = this.o.record;
    // Claimed ahead by this page (SendOptions.claim): the name is on disk and this page's alone, so
    // only a number is needed, as for a message that is not once-only. Used up here, whatever follows.
    if (once !== undefined && this.claimed.delete(once)) return this.reserve();
    // Being given back: once it is, the name is reserved as any other (the duty signs after all).
    const giving = once === undefined ? undefined : this.releasing.get(once);
    if (giving !== undefined) await giving;
    if (once !== undefined && (this.onceNames.get(once) === true || (record.current.once ?? []).includes(once))) return null;
    const claiming = once !== undefined && claim !== undefined && claim !== once && !this.reserved(claim) ? claim : undefined;
    let claimWritten = false;
    const taken = this.take(this.o.seqFloor());
    // A new block when there is none or this one runs low (one grows at a time).
    const grow = taken === undefined || (this.left() < SEQ_BLOCK / 2 && !this.growing);
    if (once === undefined && !grow) return { stamp: this.stampOf(taken.seq), landed: taken.landed };
    if (grow) this.growing = true;
    let chosen!: (seq: number | null) => void;
    const choice = new Promise<number | null>((resolve) => (chosen = resolve));
    let grown!: (landed: Promise<void>) => void;
    const blockLanded = new Promise<void>((resolve) => (grown = resolve));
    blockLanded.catch(() => undefined);
    const write = this.o.store.modifyReservation(record.gameId, (stored) => {
      this.seeStored(stored);
      if (once !== undefined && stored.once.includes(once)) {
        chosen(null);
        return null;
      }
      let seq = taken?.seq;
      let nextSeq = stored.nextSeq;
      if (grow) {
        // Above every number stored (other tabs' blocks; the game's record before reservations
        // had their own database), reserved by this page or seen in the log.
        const highest = this.ranges.reduce((m, r) => Math.max(m, r.end), 0);
        const base = Math.max(stored.nextSeq, record.current.nextSeq ?? 0, highest, this.o.seqFloor());
        seq ??= base;
        const from = seq === base ? base + 1 : base;
        this.ranges.push({ next: from, end: from + SEQ_BLOCK, landed: blockLanded });
        nextSeq = from + SEQ_BLOCK;
      }
      chosen(seq!);
      claimWritten = claiming !== undefined && !stored.once.includes(claiming);
      const names = once === undefined ? stored.once : [...stored.once, once, ...(claimWritten ? [claiming!] : [])];
      return { nextSeq, once: names.slice(-200) };
    });
    // Resolves once on disk. (A write that found `once` reserved wrote nothing, and then no stamp
    // comes out of this call and no block was added: nothing waits for it.)
    const ok = write.then(
      (written) => {
        if (written !== null && once !== undefined) this.onceNames.set(once, true);
        if (written !== null && claimWritten) {
          this.onceNames.set(claiming!, true);
          this.claimed.add(claiming!);
        }
      },
      (e: unknown) => {
        this.ranges = this.ranges.filter((r) => r.landed !== blockLanded);
        throw e;
      },
    );
    grown(ok);
    void ok
      .finally(() => {
        if (grow) this.growing = false;
      })
      .catch(() => undefined);
    if (once === undefined && taken !== undefined) {
      // Only a new block was written, ahead of need: this entry's number was on disk already.
      ok.catch((e: unknown) => this.o.onError?.(e));
      return { stamp: this.stampOf(taken.seq), landed: taken.landed };
    }
    // Settles once both writes have (the name's write must be known landed or not, see landed()).
    const landed =
      taken === undefined
        ? ok
        : Promise.allSettled([ok, taken.landed]).then((all) => {
            for (const r of all) if (r.status === 'rejected') throw r.reason;
          });
    // A failure before the choice (the record unreadable) rejects here; after it, through `landed`.
    // Waited for even with a number in hand: a once-only name is free only once the transaction
    // has read the stored names (another tab may hold it), and no sign step may run before, since
    // a sign step may write (the lot commit's stores its secret in the game's record).
    const chosenSeq = await Promise.race([choice, ok.then(() => choice)]);
    if (chosenSeq === null) return null;
    const seq = taken?.seq ?? chosenSeq;
    return { stamp: this.stampOf(seq), landed };
  }

  /**
   * Gives back, unused, every name this page claimed ahead (SendOptions.claim): called when the page
   * is hidden or left and when the game closes, so another tab, the service worker or this page
   * after a reload may sign the message. Forgotten here at once (no send of this page uses them
   * after the call), each written back by release; a crash before that write lands leaves the name
   * used up: a stall of that message, never a second one.
   */
  async releaseClaims(): Promise<void> {
    const names = [...this.claimed];
    this.claimed.clear();
    await Promise.all(
      names.map((n) => {
        const written = this.release(n).finally(() => this.releasing.delete(n));
        this.releasing.set(n, written);
        return written;
      }),
    );
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
   * Gives back a once-only right this page was granted and whose sign step threw (or whose number's
   * block failed to land, see landed), in one strict transaction of the reservations' database (as
   * reserve takes it). Safe: the outbox stores and sends only what `sign` returns, and no `sign`
   * stores or sends what it signs (they are the protocol's pure signing calls; the lot commit's
   * also stores its secret, which a later commit's replaces), so no message signed under the right
   * exists outside this call; another tab asking for the right meanwhile got null (nothing
   * signed), and asks the store again when its duty comes back (reserve reads the others' names
   * there). A crash before this write lands leaves the right used up, as before: a stall, never a
   * second message. The sequence number stays used (skipped numbers cost nothing). A failure of
   * this write leaves the right used up too.
   */
  private async release(once: string): Promise<void> {
    try {
      // In the reservations' database (one transaction reads and writes the names, as reserve does).
      await this.o.store.modifyReservation(this.o.record.gameId, (stored) =>
        stored.once.includes(once) ? { nextSeq: stored.nextSeq, once: stored.once.filter((n) => n !== once) } : null,
      );
      this.onceNames.delete(once);
    } catch {
      // Kept used up: safe, and the sign step's own error is the one to report.
    }
  }

  /**
   * Notes the once-only names a transaction read in the store (another tab's, unless this page's),
   * and the entries kept with them.
   */
  private seeStored(stored: ReservationRecord): void {
    for (const n of stored.once) if (!this.onceNames.has(n)) this.onceNames.set(n, false);
    for (const k of stored.kept ?? []) this.keptOnce.set(k.name, k.entries);
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

// The outbox of one game on this phone: every message this phone signs passes here once. It
// reserves the sequence number in the store (and, for a message the protocol allows once, the
// right to sign it), has the caller sign with that stamp, refuses what the protocol's quotas would
// refuse, lets the caller store what must survive a reload (a commit's secret) and then publishes.
// The sequence number and once-only right are stored before a message signed with them leaves
// the phone (it is signed in memory meanwhile), and what it depends on before it is published, so
// a crash at any moment never makes this phone sign two conflicting messages that anyone sees; the
// message itself is stored as it goes out (see append).
import { openMessage, QUOTAS, type Opened, type Signed, type Stamp, type Verdict, type Verifier } from '../../protocol';
import type { PactoStore } from '../../store';
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

type LockManager = { request<T>(name: string, f: () => Promise<T>): Promise<T> };
const pageLocks = new Map<string, Promise<unknown>>();

/** Web Locks across tabs where the platform has them; otherwise a lock within this page. */
function withLock<T>(name: string, f: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  if (locks !== undefined) return locks.request(name, f);
  const run = (pageLocks.get(name) ?? Promise.resolve()).then(f, f);
  pageLocks.set(
    name,
    run.catch(() => undefined),
  );
  return run;
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
}

export class Outbox {
  private readonly o: OutboxOptions;
  private seqReserved = 0;

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
    const reserved = await this.reserve(options.once);
    if (reserved === null) return null;
    // Signed in memory while the reservation is being written (signing a LOCK or a REVEAL checks
    // escrow shares: curve arithmetic): nothing signed leaves this phone, sent or stored, before
    // the reservation is on disk, so a crash before it lands leaves nothing signed anywhere.
    let signed: Signed | null;
    try {
      signed = await sign(reserved.stamp);
    } catch (e) {
      await reserved.landed;
      // Nothing signed with the once-only right left the phone: `sign` returned nothing, and only
      // what it returns is ever stored or sent. So the right is given back (else a duty whose sign
      // step failed once could never be done again); see release.
      if (options.once !== undefined) await this.release(options.once);
      throw e;
    }
    await reserved.landed;
    if (signed === null) return null;
    this.check(signed);
    await options.keep?.(signed, reserved.stamp);
    await this.append(signed);
    return signed;
  }

  /**
   * The next sequence number, reserved in the store (this resolves once it is on disk). Two tabs of
   * this browser may run the same game: the reservation reads the stored counter afresh under a
   * Web Lock, so they never sign two messages with one number (which peers report as misconduct).
   */
  stamp(): Promise<Stamp>;
  /**
   * With `once`: recorded with the reservation, under the same lock, and null comes back if this
   * device (another tab included) already reserved it: signing it twice would be equivocation,
   * which the others report and which voids the player's orders.
   */
  stamp(once: string): Promise<Stamp | null>;
  async stamp(once?: string): Promise<Stamp | null> {
    const reserved = await this.reserve(once);
    if (reserved === null) return null;
    await reserved.landed;
    return reserved.stamp;
  }

  /**
   * The reservation of stamp(), told as soon as the number is chosen (`stamp`), with the strict
   * write that records it (`landed`, under the lock until it lands). Null if `once` was reserved
   * already. Nothing signed with the stamp may be sent or stored before `landed` resolves.
   */
  private async reserve(once?: string): Promise<{ stamp: Stamp; landed: Promise<void> } | null> {
    const record = this.o.record;
    let chosen!: (seq: number | null) => void;
    const choice = new Promise<number | null>((resolve) => (chosen = resolve));
    const landed = withLock(this.lockName(), async () => {
      const fresh = await record.fresh();
      if (once !== undefined && (fresh.once ?? []).includes(once)) return chosen(null);
      const seq = Math.max(fresh.nextSeq ?? 0, record.current.nextSeq ?? 0, this.seqReserved, this.o.seqFloor());
      this.seqReserved = seq + 1;
      const write = record.patch({ nextSeq: seq + 1, ...(once === undefined ? {} : { once: [...(fresh.once ?? []), once].slice(-200) }) });
      chosen(seq);
      await write;
    });
    // A failure before the choice (the record unreadable) rejects here; after it, through `landed`.
    const seq = await Promise.race([choice, landed.then(() => choice)]);
    if (seq === null) return null;
    const places = this.o.places?.();
    return { stamp: { seq, time: this.o.now(), ...(places === undefined ? {} : { places }) }, landed };
  }

  /**
   * Gives back a once-only right whose sign step threw, under the reservation's lock, in a strict
   * write. Safe: the outbox stores and sends only what `sign` returns, and no `sign` stores or
   * sends what it signs (they are the protocol's pure signing calls; the lot commit's also stores
   * its secret, which a later commit's replaces), so no message signed under the right exists
   * outside this call; another tab asking for the right meanwhile got null (nothing signed) under
   * the same lock and asks again when its duty comes back. A crash before this write lands leaves
   * the right used up, as before: a stall, never a second message. The sequence number stays
   * used (skipped numbers cost nothing). A failure of this write leaves the right used up too.
   */
  private async release(once: string): Promise<void> {
    const record = this.o.record;
    try {
      await withLock(this.lockName(), async () => {
        const names = (await record.fresh()).once ?? [];
        if (names.includes(once)) await record.patch({ once: names.filter((n) => n !== once) });
      });
    } catch {
      // Kept used up: safe, and the sign step's own error is the one to report.
    }
  }

  /** The Web Lock the game's reservations (and their releases) take: one per store and game, shared by tabs. */
  private lockName(): string {
    return `pacto-seq-${this.o.store.name}-${this.o.record.gameId}`;
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
  private async append(signed: Signed): Promise<void> {
    if (this.o.closed()) return;
    this.check(signed);
    await this.o.log.publish([signed.bytes], { reserved: true });
    this.o.published();
    if (this.o.onAppended === undefined) return;
    const opened = this.openOwn(signed.bytes);
    if (!opened.ok) return;
    const phase = (opened.message.payload as { phase?: unknown }).phase;
    try {
      this.o.onAppended({ type: opened.message.payload.type, ...(typeof phase === 'string' ? { phase } : {}) });
    } catch (e) {
      this.o.onError?.(e);
    }
  }
}

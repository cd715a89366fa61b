// The plumbing of one game on this phone, without React: reads the game's admitted entries (the
// GameReplica's set, the truth; the Y.Doc only carries them), reduces them to a GameView and hands
// out what the player asks for. Its pieces, one job each: the outbox (stamps, signs, stores and
// appends every message), the drafts (orders and commit secrets per phase), the duty loop (what an
// honest phone signs on its own) and the chat reader. The network is the caller's business: it only
// ever sees the replica.
import {
  authorPlaces,
  chatPlayers,
  commitTurn,
  concede as concedeMessage,
  finalDueOnSeal,
  finalOrders,
  joinGame,
  gameMessages,
  reduceLog,
  sealChat,
  sealMissing,
  secretBytes,
  sendChat as chatMessage,
  startGame,
  startLot,
  acceptStart,
  startRefusal,
  escrowKeysOf,
  pinEscrow,
  startKeys,
  declareAlliance as allianceMessage,
  voteTimeout as timeoutMessage,
  type GameView,
  type Identity,
  type ReduceOptions,
} from '../../protocol';
import { formatUnit, POWERS, type Loc, type Order, type Power } from '../../rules';
import type { Lang } from '../i18n';
import type { PactoStore } from '../../store';
import { AheadWork, type SealEscrowRandom } from './ahead';
import { ChatReader } from './chats';
import { Drafts, MissingOrdersError, type SealKept } from './drafts';
import { dutyKey, powersOf } from './duties';
import { DutyLoop } from './duty-loop';
import { nextTask } from './next-task';
import { Outbox, type EntryLog } from './outbox';
import { asAppRecord, GameRecordRef, type AppGameRecord } from './records';
import { pressEnabled } from './screens/logic';
import type { DecryptedChat } from './session';

export { MissingOrdersError } from './drafts';
export { QuotaError, type EntryLog } from './outbox';

export interface RunnerOptions {
  readonly store: PactoStore;
  readonly identity: Identity;
  readonly gameId: string;
  /** The game's entry set, already loaded from the store by the caller. */
  readonly log: EntryLog;
  readonly now: () => number;
  readonly random: (n: number) => Uint8Array;
  /** Told about failures of automatic duties (they are retried on the next change). */
  readonly onError?: (e: unknown) => void;
  /** The language of errors meant for the player; by default the page's (App sets <html lang>). */
  readonly lang?: () => Lang;
  /** Told, after it is stored and published, what this phone appended (`wakesOthers` says whether
   *  the other phones must act on it: the app then asks the relays to push to them). */
  readonly onAppended?: (m: { readonly type: string; readonly phase?: string }) => void;
}

function pageLang(): Lang {
  const lang = (globalThis as { document?: { documentElement?: { lang?: string } } }).document?.documentElement?.lang ?? '';
  return lang.startsWith('es') ? 'es' : 'en';
}

export interface RunnerState {
  readonly view: GameView;
  readonly me: { readonly key: string; readonly name: string; readonly powers: readonly Power[] };
  readonly drafts: Partial<Record<Power, readonly Order[]>>;
  readonly sealed: Partial<Record<Power, readonly Order[]>>;
  /** The draw vote sealed last per power in the open phase. */
  readonly drawVotes: Partial<Record<Power, boolean>>;
  /** The player marked the open phase's orders final on this device (markFinal). */
  readonly ready: boolean;
  readonly chats: readonly DecryptedChat[];
  readonly unread: number;
}

export class GameRunner {
  readonly gameId: string;
  private readonly o: RunnerOptions;
  private readonly listeners = new Set<() => void>();
  private readonly record: GameRecordRef;
  private readonly outbox: Outbox;
  private readonly drafts: Drafts;
  private readonly dutyLoop: DutyLoop;
  private readonly chats: ChatReader;
  /** Curve work of the next LOCK and seal, done in idle time as commits arrive (ahead.ts). */
  private readonly ahead: AheadWork;
  private state: RunnerState;
  private work: Promise<void> = Promise.resolve();
  /**
   * The game record's summary for the home screen (saveSummary) and the read-chats count, written
   * one after another outside `work`: a strict write of the game's database that no duty waits for
   * (the summary is the view's, computed again after any loss).
   */
  private recordWrites: Promise<void> = Promise.resolve();
  private summaryDue = false;
  /** idle()'s promise while neither `work` nor `recordWrites` changes (the same object: wake.ts compares). */
  private settled: { work: Promise<void>; writes: Promise<void>; both: Promise<void> } | null = null;
  /** A reduction scheduled for the next task (schedule), resolved once it ran. */
  private scheduled: Promise<void> | null = null;
  /** The anchored START's key list (authorPlaces), kept per START: the outbox asks for it several times per entry. */
  private placesOf: { readonly start: string; readonly keys: readonly string[] } | null = null;
  private closed = false;
  /** The reservations' kept entries were sent again (afterChange), once per page. */
  private keptResent = false;
  private unsubscribe: () => void = () => undefined;

  private constructor(o: RunnerOptions, record: AppGameRecord) {
    this.o = o;
    this.gameId = o.gameId;
    this.record = new GameRecordRef(o.store, o.gameId, record);
    this.outbox = new Outbox({
      store: o.store,
      record: this.record,
      log: o.log,
      now: o.now,
      lang: () => this.lang(),
      seqFloor: () => this.state.view.nextSeq,
      places: () => this.places(),
      published: () => this.refresh(),
      closed: () => this.closed,
      ...(o.onAppended === undefined ? {} : { onAppended: o.onAppended }),
      ...(o.onError === undefined ? {} : { onError: o.onError }),
    });
    this.drafts = new Drafts(o.store, o.gameId, o.onError);
    this.dutyLoop = new DutyLoop({
      identity: o.identity,
      gameId: o.gameId,
      outbox: this.outbox,
      drafts: this.drafts,
      record: this.record,
      random: o.random,
      now: o.now,
      // A duty signs with the latest view; when no entry arrived since the last reduction (the
      // usual case: the duty came from it) nothing is published again and no second duty pass is queued.
      fresh: () => {
        if (reduceLog(this.gameId, this.o.log.entries(), this.reduceOptions()) !== this.state.view) this.refresh();
        return this.state.view;
      },
      powers: () => this.state.me.powers,
      messages: () => gameMessages(o.gameId, o.log.entries(), o.log.verifier),
    });
    this.chats = new ChatReader(o.identity);
    this.ahead = new AheadWork({
      identity: o.identity,
      view: () => this.state.view,
      messages: () => gameMessages(o.gameId, o.log.entries(), o.log.verifier),
      closed: () => this.closed,
      random: o.random,
      keepSecret: (secret, tag, view) => this.keepSecret(secret, tag, view),
      ...(o.onError === undefined ? {} : { onError: o.onError }),
    });
    this.state = this.compute(reduceLog(o.gameId, [], this.reduceOptions()));
  }

  static async open(o: RunnerOptions): Promise<GameRunner> {
    const record = asAppRecord(await o.store.getGame(o.gameId));
    if (record === undefined) throw new Error(`game ${o.gameId} is not on this device`);
    const runner = new GameRunner(o, record);
    runner.unsubscribe = o.log.subscribe(() => runner.schedule());
    runner.refresh();
    await runner.work;
    return runner;
  }

  get current(): RunnerState {
    return this.state;
  }

  get view(): GameView {
    return this.state.view;
  }

  get gameRecord(): AppGameRecord {
    return this.record.current;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The key list this phone names its place in (Stamp.places), read from the log once per START it is anchored to. */
  private places(): readonly string[] | undefined {
    const view = this.state.view;
    const start = 'start' in view && typeof view.start === 'string' ? view.start : null;
    if (start === null) return undefined;
    if (this.placesOf?.start === start) return this.placesOf.keys;
    const keys = authorPlaces(view, gameMessages(this.gameId, this.o.log.entries(), this.o.log.verifier));
    // Kept only once found: until then entries go in full form, and the log is read again next time.
    if (keys !== undefined) this.placesOf = { start, keys };
    return keys;
  }

  /** Resolves when every duty and store write started so far has finished (and a scheduled reduction has run). */
  idle(): Promise<void> {
    return this.scheduled === null ? this.settledNow() : this.scheduled.then(() => this.settledNow());
  }

  private settledNow(): Promise<void> {
    if (this.settled?.work !== this.work || this.settled.writes !== this.recordWrites)
      this.settled = { work: this.work, writes: this.recordWrites, both: Promise.all([this.work, this.recordWrites]).then(() => undefined) };
    return this.settled.both;
  }

  /** Writes to the game's record that nothing waits for, in order; failures go to onError. */
  private recordWrite(task: () => Promise<void>): void {
    this.recordWrites = this.recordWrites.then(task).catch((e: unknown) => this.o.onError?.(e));
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
    this.listeners.clear();
  }

  private schedule(): void {
    if (this.scheduled !== null || this.closed) return;
    // Entries come in bursts (a catch-up, or several peers' messages queued while the phone was
    // busy): one reduction per burst, in the task after the messages already queued (next-task.ts).
    this.scheduled = new Promise<void>((resolve) =>
      nextTask(() => {
        this.scheduled = null;
        try {
          if (!this.closed) this.refresh();
        } finally {
          resolve();
        }
      }),
    );
  }

  /** Re-reads the entry set and reduces it; then, in the background, loads drafts and performs duties. */
  refresh(): void {
    const view = reduceLog(this.gameId, this.o.log.entries(), this.reduceOptions());
    this.publish(this.compute(view));
    this.enqueue(() => this.afterChange());
    this.ahead.poke();
  }

  /** This phone's anchor: its key (the START it signed or accepted) and a START chosen on a forked screen. */
  private reduceOptions(): ReduceOptions {
    const anchor = this.record.current.anchor;
    return { me: this.o.identity.id, verifier: this.o.log.verifier, ...(anchor === undefined ? {} : { anchor }) };
  }

  private publish(state: RunnerState): void {
    this.state = state;
    for (const l of [...this.listeners]) l();
  }

  private publishDrafts(): void {
    this.publish({ ...this.state, ...this.drafts.current });
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const next = this.work.then(task);
    this.work = next.catch((e) => this.o.onError?.(e));
    return next;
  }

  private compute(view: GameView): RunnerState {
    const key = this.o.identity.id;
    const player = view.players.find((p) => p.key === key);
    const chats = this.chats.read(view);
    const incoming = chats.filter((c) => c.from !== key).length;
    return {
      view,
      me: { key, name: player?.name ?? '', powers: powersOf(view, key) },
      ...this.drafts.current,
      ready: view.current !== undefined && this.record.current.ready === view.current.key,
      chats,
      unread: Math.max(0, incoming - (this.record.current.chatsRead ?? 0)),
    };
  }

  private async afterChange(): Promise<void> {
    // Once per page, first: every once-only entry written with its name (outbox.ts send) that the
    // log lacks was signed and never sent (the phone died between the write and the send, or
    // before the send reached anyone): sent now, these very bytes, whatever the phase is (the lot,
    // a phase already over), since no duty will ever sign its name again.
    if (!this.keptResent) {
      this.keptResent = true;
      await this.outbox.resendKeptWhere(() => true);
    }
    if (await this.drafts.load(this.state.view.current?.key ?? '', this.state.me.powers)) {
      this.publishDrafts();
      await this.sendKept();
    }
    await this.dutyLoop.run(this.state.view);
    // Off the queue: the next duty (a burst of entries later) does not wait for this write.
    if (this.summaryDue) return;
    this.summaryDue = true;
    this.recordWrite(async () => {
      this.summaryDue = false;
      if (!this.closed) await this.saveSummary();
    });
  }

  /**
   * A commit whose secret was kept (drafts) but which the log lacks was signed and never sent (the
   * phone died between the two): the screens show it sealed, so nothing else would ever send it.
   * Sent now, once per phase loaded (its number was reserved before it was signed).
   */
  private async sendKept(): Promise<void> {
    const current = this.state.view.current;
    if (current === undefined) return;
    for (const [power, seal] of Object.entries(this.drafts.loadedLatest) as [Power, SealKept][]) {
      if (seal.entry === undefined || (current.ballot.commits[power] ?? []).includes(seal.hash)) continue;
      await this.outbox.resend(seal.entry);
    }
  }

  private async saveSummary(): Promise<void> {
    const { view, me, unread } = this.state;
    const record = this.record.current;
    const c = view.current;
    const owes = c === undefined ? [] : me.powers.filter((p) => c.required.includes(p) && !c.committed.includes(p));
    const creator = view.players.find((p) => p.key === view.creator);
    const patch = {
      status: view.status,
      powers: me.powers,
      owes,
      unread,
      lastPhase: c?.key ?? view.phases.at(-1)?.key ?? record.lastPhase,
      ...(creator === undefined ? {} : { creatorName: creator.name }),
      ...(view.settings === undefined ? {} : { variant: view.settings.variant }),
      ...(me.powers.length > 0 ? { myPower: me.powers.join(',') } : {}),
    };
    const before = JSON.stringify([record.status, record.powers, record.owes, record.unread, record.lastPhase, record.creatorName, record.variant]);
    const after = JSON.stringify([
      patch.status,
      patch.powers,
      patch.owes,
      patch.unread,
      patch.lastPhase,
      patch.creatorName ?? record.creatorName,
      patch.variant ?? record.variant,
    ]);
    if (before === after) return;
    await this.record.patch({ ...patch, updated: this.o.now() });
  }

  private lang(): Lang {
    return (this.o.lang ?? pageLang)();
  }

  /**
   * Keeps the secret of this phone's next seal on disk before the seal (ahead.ts): in the drafts of
   * the first power it owes a seal in `view`'s phase. Resolves to that place (phase|power).
   */
  private async keepSecret(secret: bigint, tag: string, view: GameView): Promise<string> {
    const current = view.current;
    const power = powersOf(view, this.o.identity.id).find((p) => current?.required.includes(p) === true && !current.committed.includes(p));
    if (current === undefined || power === undefined) throw new Error('no seal to keep a secret for');
    await this.drafts.keepAhead(current.key, power, secretBytes(secret), tag, this.o.now());
    return `${current.key}|${power}`;
  }

  // ---- What the player asks for -------------------------------------------------------------

  /** "A Par", "F Stp/cs": the units as the player's notation writes them. */
  private unitNames(missing: readonly Loc[], lang: Lang): string[] {
    const units = this.state.view.current?.position.units ?? [];
    return missing.map((loc) => {
      const unit = units.find((u) => u.loc === loc);
      return unit === undefined ? loc : formatUnit(unit, lang);
    });
  }

  private openPhaseFor(power: Power): NonNullable<GameView['current']> {
    this.refresh();
    const current = this.state.view.current;
    if (current === undefined) throw new Error('no phase is open');
    if (!this.state.me.powers.includes(power)) throw new Error(`this player does not hold ${power}`);
    return current;
  }

  async saveDraft(power: Power, orders: readonly Order[]): Promise<void> {
    const current = this.openPhaseFor(power);
    const stored = this.drafts.save(current.key, power, orders, this.o.now());
    this.publishDrafts();
    await stored;
  }

  seal(power: Power, orders: readonly Order[]): Promise<void> {
    return this.enqueue(() => this.sealNow(power, orders, undefined));
  }

  /** Seals (or re-seals) a power's orders, with its draw vote in movement phases: one commit, signed once. */
  private async sealNow(power: Power, orders: readonly Order[], draw: boolean | undefined): Promise<void> {
    const current = this.openPhaseFor(power);
    if (!current.required.includes(power)) throw new Error(`${power} has nothing to order in this phase`);
    const lang = this.lang();
    // After its FINAL (signed by this phone once every power had sealed, or at once once the
    // player marked its orders final) a power's orders are fixed.
    const finalMessage =
      lang === 'es' ? 'Las órdenes de esta potencia ya son definitivas: no pueden cambiar' : "this power's orders are final: they can no longer change";
    if (this.finalized(current.key, power)) throw new Error(finalMessage);
    // The "1914" check before anything is stored, reserved or signed.
    const missing = sealMissing(this.state.view, power, orders);
    if (missing.length > 0) throw new MissingOrdersError(power, missing, this.unitNames(missing, lang), lang);
    // The escrow's bytes drawn ahead, their escrow dealt in idle time (ahead.ts), else fresh ones.
    const escrow: SealEscrowRandom = this.ahead.takeSealRandom() ?? { secret: this.o.random(32), entropy: this.o.random(32) };
    const random = { secret: escrow.secret, entropy: escrow.entropy, nonce: this.o.random(24), coin: this.o.random(32) };
    const vote = draw ?? this.drafts.current.drawVotes[power] === true;
    let secret = 0n;
    // Another tab of this device may have signed this power's FINAL (on "my orders are final")
    // before its entry reached this tab's view: the reservations both tabs read say so. Read while
    // the commit is signed; a re-seal after it never leaves (the player would see orders that are
    // not played).
    const elsewhere = this.outbox.reservedInStore(dutyKey({ kind: 'final', phase: current.key, power }));
    await this.outbox.send(
      (stamp) => {
        const turn = commitTurn(this.o.identity, this.gameId, this.state.view, power, orders, random, stamp, { draw: vote });
        if (!turn.ok) {
          if (turn.reason === 'missing-orders') throw new MissingOrdersError(power, turn.missing, this.unitNames(turn.missing, lang), lang);
          throw new Error('no phase is open');
        }
        secret = turn.secret;
        return turn.message;
      },
      {
        // After the quota check (a re-seal over the quota stores nothing), before publishing. When
        // this very secret is on disk already (kept ahead, in this phase and power's drafts), the
        // record naming it by the commit's id is not waited for; else it is the strict write here.
        keep: async (signed, stamp) => {
          if (await elsewhere) throw new Error(finalMessage);
          const kept = escrow.kept;
          const place = kept !== undefined && kept.secret === secret ? await kept.landed : null;
          const ahead = place === `${current.key}|${power}` ? kept?.tag : undefined;
          const seal = { key: secretBytes(secret), nonce: random.nonce, hash: signed.id, created: stamp.time, entry: signed.bytes };
          await this.drafts.sealed(current.key, power, orders, vote, seal, ahead);
          this.publishDrafts();
        },
        // The last seal (or, its player having marked the phase's orders final, its own last seal):
        // the FINAL that this commit makes due (ballotDuties's rule, finalDueOnSeal) is signed now
        // and leaves with it, instead of after the commit's round (outbox.ts SendOptions.with).
        with: {
          once: dutyKey({ kind: 'final', phase: current.key, power }),
          sign: (commit, stamp) => {
            const ready = this.record.current.ready;
            const view = this.state.view;
            if (view.current?.key !== current.key) return null;
            if (!finalDueOnSeal(view, this.o.identity.id, power, ready === undefined ? {} : { ready })) return null;
            return finalOrders(this.o.identity, this.gameId, current.key, power, commit.id, stamp);
          },
        },
      },
    );
  }

  /** Whether `power`'s FINAL of `phase` is in or reserved on this device: its orders can no longer change. */
  private finalized(phase: string, power: Power): boolean {
    const current = this.state.view.current;
    return (current?.key === phase && current.finalized.includes(power)) || this.outbox.reserved(dutyKey({ kind: 'final', phase, power }));
  }

  /**
   * Marks (yes) the open phase's orders of this player final, or takes the mark back. Marked, the
   * FINAL of each power it holds is signed as soon as each of them has sealed (at once if they
   * have), without waiting for the others' seals: after it they can no longer change. Taken back
   * only while no FINAL of this player in the phase is signed (else a clear error, nothing changes).
   */
  markFinal(yes: boolean): Promise<void> {
    return this.enqueue(async () => {
      this.refresh();
      const current = this.state.view.current;
      if (current === undefined) throw new Error('no phase is open');
      const mine = this.state.me.powers.filter((p) => current.required.includes(p));
      if (mine.length === 0) throw new Error(this.lang() === 'es' ? 'No tienes órdenes que dar en esta fase' : 'you have no orders to give in this phase');
      if (yes) {
        if (this.record.current.ready !== current.key) await this.record.patch({ ready: current.key });
      } else {
        if (mine.some((p) => this.finalized(current.key, p)))
          throw new Error(
            this.lang() === 'es' ? 'Tus órdenes ya son definitivas: no se puede deshacer' : 'your orders are already final: this can no longer be undone',
          );
        if (this.record.current.ready !== undefined) await this.record.patch({ ready: undefined });
      }
      this.publish(this.compute(this.state.view));
      await this.dutyLoop.run(this.state.view);
    });
  }

  /**
   * The draw vote travels inside the sealed orders (only movement phases have one): voting re-seals
   * each surviving power of this player with the orders it sealed last (or its draft) and the vote.
   */
  voteDraw(yes: boolean): Promise<void> {
    return this.enqueue(async () => {
      this.refresh();
      const { view, me } = this.state;
      const current = view.current;
      if (current === undefined) throw new Error('no phase is open');
      if (current.position.phase.kind !== 'movement') throw new Error('draws are voted in movement phases');
      const survivors = me.powers.filter((p) => current.drawVoters.includes(p) && current.required.includes(p));
      for (const p of survivors) await this.sealNow(p, this.drafts.current.sealed[p] ?? this.drafts.current.drafts[p] ?? [], yes);
    });
  }

  declareAlliance(power: Power, powers: readonly Power[], yes: boolean): Promise<void> {
    return this.enqueue(async () => {
      const current = this.openPhaseFor(power);
      if (!powers.includes(power)) throw new Error(`${power} is not a member of the alliance`);
      if (new Set(powers).size < 2) throw new Error('an alliance needs at least two powers');
      await this.outbox.send((stamp) => allianceMessage(this.o.identity, this.gameId, current.key, power, powers, yes, stamp));
    });
  }

  concede(power: Power): Promise<void> {
    return this.enqueue(async () => {
      const current = this.openPhaseFor(power);
      await this.outbox.send((stamp) => concedeMessage(this.o.identity, this.gameId, current.key, power, stamp));
    });
  }

  /** One vote per power of this player that is still active. */
  voteTimeout(against: readonly Power[]): Promise<void> {
    return this.enqueue(async () => {
      this.refresh();
      const current = this.state.view.current;
      if (current === undefined) throw new Error('no phase is open');
      const voters = this.state.me.powers.filter((p) => current.active.includes(p));
      const targets = against.filter((p) => !this.state.me.powers.includes(p));
      if (voters.length === 0 || targets.length === 0) throw new Error('nobody to vote out');
      // One vote per player (key), whatever powers it holds: its latest vote counts.
      const earlier = current.timeoutVotes;
      const already = POWERS.filter((p) => earlier[p]?.includes(this.o.identity.id) === true);
      await this.outbox.send((stamp) => timeoutMessage(this.o.identity, this.gameId, current.key, [...new Set([...already, ...targets])], stamp));
    });
  }

  sendChat(to: readonly Power[] | 'all', text: string): Promise<void> {
    return this.enqueue(async () => {
      this.refresh();
      const { view } = this.state;
      if (!pressEnabled(view)) throw new Error('press is off in this game (gunboat)');
      const me = this.o.identity.id;
      const roster = view.holders;
      const players = chatPlayers(view);
      const keys = to === 'all' ? 'all' : roster === undefined ? [] : [...new Set(to.map((p) => roster[p]))].filter((k) => k !== me);
      if (keys !== 'all' && keys.length === 0) throw new Error('no recipients');
      if (!players.some((p) => p.key === me)) throw new Error('only the players of the game can send messages');
      await this.outbox.send((stamp) =>
        chatMessage(this.o.identity, this.gameId, sealChat({ to: keys, text, time: stamp.time }, this.o.identity, players, this.o.random), stamp.seq),
      );
    });
  }

  markChatsRead(): void {
    const incoming = this.state.chats.filter((c) => c.from !== this.o.identity.id).length;
    if (incoming === (this.record.current.chatsRead ?? 0)) return;
    // In order with the summary's writes (which also write `unread`).
    this.recordWrite(async () => {
      await this.record.patch({ chatsRead: incoming, unread: 0 });
      this.publish({ ...this.state, unread: 0 });
    });
  }

  // ---- The lobby ------------------------------------------------------------------------------

  /** Joins (or changes name or claim: the latest JOIN counts). */
  join(name: string, power: Power | null): Promise<void> {
    return this.enqueue(async () => {
      this.refresh();
      if (this.state.view.status !== 'lobby') throw new Error('the game has already started');
      await this.outbox.send((stamp) => joinGame(this.o.identity, this.gameId, name, power, stamp));
    });
  }

  /** Creator only: fixes the roster ('choice' games). */
  start(roster: Readonly<Record<Power, string>>): Promise<void> {
    return this.enqueue(async () => {
      this.refresh();
      if (this.state.view.creator !== this.o.identity.id) throw new Error('only the creator starts the game');
      const escrowOf = escrowKeysOf(this.state.view.players);
      // Refused (a player without a usable escrow key) before the once-only START is reserved.
      pinEscrow(startKeys({ roster, participants: [] }), escrowOf);
      const sent = await this.outbox.send((stamp) => startGame(this.o.identity, this.gameId, roster, escrowOf, stamp), { once: 'start' });
      if (sent === null) throw new Error('this device has already started the game');
    });
  }

  /** Creator only, lot games: fixes who draws the seats (before any value exists); the lot then runs by itself. */
  startLot(participants: readonly string[]): Promise<void> {
    return this.enqueue(async () => {
      this.refresh();
      if (this.state.view.creator !== this.o.identity.id) throw new Error('only the creator starts the game');
      const escrowOf = escrowKeysOf(this.state.view.players);
      pinEscrow(startKeys({ roster: null, participants }), escrowOf);
      const sent = await this.outbox.send((stamp) => startLot(this.o.identity, this.gameId, participants, escrowOf, stamp), { once: 'start' });
      if (sent === null) throw new Error('this device has already started the game');
    });
  }

  /**
   * A forked game (two STARTs and no anchor on this phone): the person, having compared
   * fingerprints with the table, follows one. A member of it who has accepted no START accepts it.
   */
  chooseStart(startId: string): Promise<void> {
    return this.enqueue(async () => {
      this.refresh();
      const fork = this.state.view.forks.find((f) => f.start === startId);
      const start = gameMessages(this.gameId, this.o.log.entries(), this.o.log.verifier).get(startId);
      if (fork === undefined || start === undefined) throw new Error('no such start');
      const me = this.o.identity.id;
      const accepts = fork.members.some((m) => m.key === me) && this.state.view.acceptances[me] === undefined && this.state.view.creator !== me;
      // Refused before anything is stored: neither the anchor nor the once-only acceptance.
      const refused = accepts ? startRefusal(this.o.identity, this.gameId, start) : null;
      if (refused !== null) throw new Error(refused);
      await this.record.patch({ anchor: startId });
      if (accepts) await this.outbox.send((stamp) => acceptStart(this.o.identity, this.gameId, start, stamp), { once: 'accept-start' });
      this.refresh();
    });
  }
}

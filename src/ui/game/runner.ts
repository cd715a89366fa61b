// The plumbing of one game on this phone, without React: reads the game's admitted entries (the
// GameReplica's set, the truth; the Y.Doc only carries them), reduces them to a GameView, performs
// the duties of an honest phone (duties.ts) and signs what the player asks for. Keys and drafts
// reach the store before any message that depends on them is published, and a message is stored
// before it is published, so a reload at any moment loses nothing. The network is the caller's
// business: it only ever sees the replica.
import {
  acceptStart,
  acknowledge,
  chatPlayers,
  claimClock,
  commitLotValue,
  commitTurn,
  concede as concedeMessage,
  finalOrders,
  fromBase64,
  joinGame,
  lockBallot,
  openChat,
  openMessage,
  QUOTAS,
  reduceLog,
  revealBallot,
  scalarFromBytes,
  sealChat,
  sealSecret,
  secretBytes,
  sendChat as chatMessage,
  startGame,
  startLot,
  toBase64,
  declareAlliance as allianceMessage,
  voteTimeout as timeoutMessage,
  type ChatContent,
  type GameView,
  type Identity,
  type Message,
  type ReduceOptions,
  type Signed,
  type Stamp,
  type Verdict,
  type Verifier,
} from '../../protocol';
import { formatUnit, POWERS, type Loc, type Order, type Power } from '../../rules';
import type { Lang } from '../i18n';
import type { PactoStore } from '../../store';
import { duties, dutyKey, powersOf, type Duty } from './duties';
import { asAppRecord, type AppGameRecord } from './records';
import type { DecryptedChat } from './session';

/** The game's entry set as the runner needs it (GameReplica in src/net). */
export interface EntryLog {
  entries(): readonly Uint8Array[];
  subscribe(listener: () => void): () => void;
  /** Admits, stores durably, then publishes; throws (changing nothing) if an entry is refused. */
  publish(entries: readonly Uint8Array[]): Promise<void>;
  /** What publishing would do, changing nothing. */
  preview(bytes: Uint8Array): Verdict;
  /** Trusts the signatures of admitted entries. */
  readonly verifier: Verifier;
}

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

/**
 * The "1914" rules' refusal to seal while a unit has no order (seed 001: "se deben dar órdenes de
 * combate a todas las fuerzas"), worded for the player; `missing` lets a screen point at the units.
 */
export class MissingOrdersError extends Error {
  readonly power: Power;
  readonly missing: readonly Loc[];
  /** names: the units as the player's notation writes them ("A Par"). */
  constructor(power: Power, missing: readonly Loc[], names: readonly string[], lang: Lang) {
    const units = names.join(', ');
    super(
      lang === 'es'
        ? `Con las reglas «1914» hay que dar orden a todas las unidades antes de sellar. Sin orden: ${units}`
        : `Under the "1914" rules every unit needs an order before you can seal. Without an order: ${units}`,
    );
    this.name = 'MissingOrdersError';
    this.power = power;
    this.missing = missing;
  }
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

export interface RunnerState {
  readonly view: GameView;
  readonly me: { readonly key: string; readonly name: string; readonly powers: readonly Power[] };
  readonly drafts: Partial<Record<Power, readonly Order[]>>;
  readonly sealed: Partial<Record<Power, readonly Order[]>>;
  /** The draw vote sealed last per power in the open phase. */
  readonly drawVotes: Partial<Record<Power, boolean>>;
  readonly chats: readonly DecryptedChat[];
  readonly unread: number;
}

/** What a draft record's `orders` field holds for a game phase. */
interface StoredOrders {
  readonly draft: readonly Order[];
  readonly sealed: readonly Order[] | null;
  /** The draw vote sealed with them (movement phases). */
  readonly draw?: boolean;
}

function storedOrders(value: unknown): StoredOrders {
  if (Array.isArray(value)) return { draft: value as Order[], sealed: null };
  if (typeof value === 'object' && value !== null && Array.isArray((value as StoredOrders).draft)) {
    const v = value as StoredOrders;
    return { draft: v.draft, sealed: Array.isArray(v.sealed) ? v.sealed : null, ...(v.draw === true ? { draw: true } : {}) };
  }
  return { draft: [], sealed: null };
}

type LockManager = { request<T>(name: string, f: () => Promise<T>): Promise<T> };
const pageLocks = new Map<string, Promise<unknown>>();

/** Web Locks across tabs where the platform has them; otherwise a lock within this page. */
function withLock<T>(name: string, f: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: LockManager } | undefined)?.locks;
  if (locks !== undefined) return locks.request(name, f);
  const run = (pageLocks.get(name) ?? Promise.resolve()).then(f, f);
  pageLocks.set(name, run.catch(() => undefined));
  return run;
}

export class GameRunner {
  readonly gameId: string;
  private readonly o: RunnerOptions;
  private readonly messages = new Map<string, Message>();
  private readonly openedEntries = new WeakSet<Uint8Array>();
  private readonly listeners = new Set<() => void>();
  /** Duties performed (or in flight) in this session, so one is never signed twice. */
  private readonly done = new Set<string>();
  private readonly chatText = new Map<string, ChatContent | null>();
  private record: AppGameRecord;
  private state: RunnerState;
  private draftsPhase = '';
  private drafts: Partial<Record<Power, readonly Order[]>> = {};
  private sealed: Partial<Record<Power, readonly Order[]>> = {};
  private drawVotes: Partial<Record<Power, boolean>> = {};
  private work: Promise<void> = Promise.resolve();
  private scheduled = false;
  private closed = false;
  private unsubscribe: () => void = () => undefined;
  private seqReserved = 0;

  private constructor(o: RunnerOptions, record: AppGameRecord) {
    this.o = o;
    this.gameId = o.gameId;
    this.record = record;
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
    return this.record;
  }

  /** All messages this phone has opened, by id. */
  get opened(): ReadonlyMap<string, Message> {
    return this.messages;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves when every duty and store write started so far has finished. */
  idle(): Promise<void> {
    return this.work;
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
    this.listeners.clear();
  }

  private schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    // Remote transactions come in bursts during a catch-up: one reduction per burst.
    queueMicrotask(() => {
      this.scheduled = false;
      if (!this.closed) this.refresh();
    });
  }

  /** Re-reads the entry set and reduces it; then, in the background, loads drafts and performs duties. */
  refresh(): void {
    const log = this.o.log.entries();
    const verifier = this.o.log.verifier;
    for (const entry of log) {
      if (this.openedEntries.has(entry)) continue;
      this.openedEntries.add(entry);
      const opened = openMessage(entry, verifier);
      if (opened.ok && opened.message.payload.game === this.gameId) this.messages.set(opened.message.id, opened.message);
    }
    const view = reduceLog(this.gameId, log, this.reduceOptions());
    this.publish(this.compute(view));
    this.enqueue(() => this.afterChange());
  }

  /** This phone's anchor: its key (the START it signed or accepted) and a START chosen on a forked screen. */
  private reduceOptions(): ReduceOptions {
    return { me: this.o.identity.id, verifier: this.o.log.verifier, ...(this.record.anchor === undefined ? {} : { anchor: this.record.anchor }) };
  }

  private publish(state: RunnerState): void {
    this.state = state;
    for (const l of [...this.listeners]) l();
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const next = this.work.then(task);
    this.work = next.catch((e) => this.o.onError?.(e));
    return next;
  }

  private compute(view: GameView): RunnerState {
    const key = this.o.identity.id;
    const player = view.players.find((p) => p.key === key);
    const powers = powersOf(view, key);
    const chats = this.decryptChats(view);
    const incoming = chats.filter((c) => c.from !== key).length;
    return {
      view,
      me: { key, name: player?.name ?? '', powers },
      drafts: this.drafts,
      sealed: this.sealed,
      drawVotes: this.drawVotes,
      chats,
      unread: Math.max(0, incoming - (this.record.chatsRead ?? 0)),
    };
  }

  /**
   * The chats this phone can read: the recipients are inside the sealed part (the view does not
   * carry them), so a chat this phone cannot open shows as "not for me" (text null, no recipients).
   */
  private decryptChats(view: GameView): DecryptedChat[] {
    const me = this.o.identity;
    const roster = view.holders ?? view.roster;
    const neutral = view.neutral ?? [];
    const powerOf = (k: string): Power | undefined => (roster === undefined ? undefined : POWERS.find((p) => roster[p] === k && !neutral.includes(p)));
    return view.chats.map((c) => {
      let content = this.chatText.get(c.id);
      if (content === undefined) {
        const m = this.messages.get(c.id);
        const sender = view.players.find((p) => p.key === c.from);
        content = m?.payload.type === 'chat' && sender !== undefined ? openChat(m.payload, sender.box, me) : null;
        this.chatText.set(c.id, content);
      }
      const to = content === null ? [] : content.to === 'all' ? 'all' : POWERS.filter((p) => roster !== undefined && !neutral.includes(p) && content!.to !== 'all' && content!.to.includes(roster[p]) && roster[p] !== c.from);
      const fromPower = powerOf(c.from);
      return { ...c, text: content?.text ?? null, to, time: content?.time ?? 0, ...(fromPower === undefined ? {} : { fromPower }) };
    });
  }

  private async afterChange(): Promise<void> {
    await this.loadDrafts();
    const work = duties({ view: this.state.view, me: this.o.identity.id, now: this.o.now() });
    for (const d of work) {
      const key = dutyKey(d);
      if (this.done.has(key)) continue;
      this.done.add(key);
      try {
        await this.perform(d);
      } catch (e) {
        this.done.delete(key);
        throw e;
      }
    }
    await this.saveSummary();
  }

  private async loadDrafts(): Promise<void> {
    const current = this.state.view.current;
    const phase = current?.key ?? '';
    if (phase === this.draftsPhase) return;
    const drafts: Partial<Record<Power, readonly Order[]>> = {};
    const sealed: Partial<Record<Power, readonly Order[]>> = {};
    const draws: Partial<Record<Power, boolean>> = {};
    for (const power of this.state.me.powers) {
      const r = await this.o.store.getDraft({ gameId: this.gameId, phase, power });
      if (r === undefined) continue;
      const s = storedOrders(r.orders);
      drafts[power] = s.draft;
      if (s.sealed !== null) sealed[power] = s.sealed;
      if (s.draw === true) draws[power] = true;
    }
    this.draftsPhase = phase;
    this.drafts = drafts;
    this.sealed = sealed;
    this.drawVotes = draws;
    this.publish({ ...this.state, drafts, sealed, drawVotes: draws });
  }

  private async saveSummary(): Promise<void> {
    const { view, me, unread } = this.state;
    const c = view.current;
    const owes = c === undefined ? [] : me.powers.filter((p) => c.required.includes(p) && !c.committed.includes(p));
    const creator = view.players.find((p) => p.key === view.creator);
    const patch = {
      status: view.status,
      powers: me.powers,
      owes,
      unread,
      lastPhase: c?.key ?? view.phases.at(-1)?.key ?? this.record.lastPhase,
      ...(creator === undefined ? {} : { creatorName: creator.name }),
      ...(view.settings === undefined ? {} : { variant: view.settings.variant }),
      ...(me.powers.length > 0 ? { myPower: me.powers.join(',') } : {}),
    };
    const before = JSON.stringify([this.record.status, this.record.powers, this.record.owes, this.record.unread, this.record.lastPhase, this.record.creatorName, this.record.variant]);
    const after = JSON.stringify([patch.status, patch.powers, patch.owes, patch.unread, patch.lastPhase, patch.creatorName ?? this.record.creatorName, patch.variant ?? this.record.variant]);
    if (before === after) return;
    await this.patchRecord({ ...patch, updated: this.o.now() });
  }

  private async patchRecord(patch: Partial<AppGameRecord>): Promise<void> {
    this.record = (await this.o.store.updateGame(this.gameId, patch)) as AppGameRecord;
  }

  /**
   * The next sequence number, reserved in the store before anything is signed with it. Two tabs of
   * this browser may run the same game: the reservation reads the stored counter afresh under a
   * Web Lock, so they never sign two messages with one number (which peers report as misconduct).
   */
  private async stamp(): Promise<Stamp>;
  /**
   * With `once`: the name of a message the protocol allows once (a FINAL, LOCK, REVEAL, the START
   * acceptance, the lot commit). It is recorded with the reservation, under the same lock, and
   * null comes back if this device (another tab included) already reserved it: signing it twice
   * would be equivocation, which the others report and which voids the player's orders.
   */
  private async stamp(once: string): Promise<Stamp | null>;
  private async stamp(once?: string): Promise<Stamp | null> {
    const me = this.o.identity.id;
    const reserve = async (): Promise<number | null> => {
      const fresh = asAppRecord(await this.o.store.getGame(this.gameId)) ?? this.record;
      if (once !== undefined && (fresh.once ?? []).includes(once)) return null;
      let seq = Math.max(fresh.nextSeq ?? 0, this.record.nextSeq ?? 0, this.seqReserved);
      for (const m of this.messages.values()) if (m.payload.from === me) seq = Math.max(seq, m.payload.seq + 1);
      this.seqReserved = seq + 1;
      await this.patchRecord({ nextSeq: seq + 1, ...(once === undefined ? {} : { once: [...(fresh.once ?? []), once].slice(-200) }) });
      return seq;
    };
    const seq = await withLock(`pacto-seq-${this.o.store.name}-${this.gameId}`, reserve);
    return seq === null ? null : { seq, time: this.o.now() };
  }

  private lang(): Lang {
    return (this.o.lang ?? pageLang)();
  }

  /** Refuses, before anything is stored, an entry the protocol's quotas would refuse. */
  private check(signed: Signed): void {
    const v = this.o.log.preview(signed.bytes);
    if (v.kind !== 'refused') return;
    const kind = openMessage(signed.bytes, this.o.log.verifier);
    throw new QuotaError(v.reason, kind.ok ? kind.message.payload.type : '', this.lang());
  }

  private async append(signed: Signed): Promise<void> {
    if (this.closed) return;
    this.check(signed);
    await this.o.log.publish([signed.bytes]);
    this.refresh();
    const m = this.messages.get(signed.id);
    if (m !== undefined) {
      const phase = (m.payload as { phase?: unknown }).phase;
      try {
        this.o.onAppended?.({ type: m.payload.type, ...(typeof phase === 'string' ? { phase } : {}) });
      } catch (e) {
        this.o.onError?.(e);
      }
    }
  }

  private async perform(d: Duty): Promise<void> {
    const id = this.o.identity;
    switch (d.kind) {
      case 'accept-start': {
        const stamp = await this.stamp('accept-start');
        if (stamp !== null) await this.append(acceptStart(id, this.gameId, d.startId, stamp));
        return;
      }
      case 'ack':
        await this.append(acknowledge(id, this.gameId, d.phase, d.hash, await this.stamp()));
        return;
      case 'lot-commit': {
        const random = { secret: this.o.random(32), nonce: this.o.random(24), entropy: this.o.random(32) };
        const value = this.o.random(32);
        const stamp = await this.stamp('lot-commit');
        if (stamp === null) return;
        // The secret before the commit: a lot commit whose secret is lost can only be opened by the others.
        await this.patchRecord({ lotSecret: toBase64(secretBytes(sealSecret(random))) });
        this.refresh();
        if (this.state.view.status !== 'lot') return;
        await this.append(commitLotValue(id, this.gameId, this.state.view, value, random, stamp).message);
        return;
      }
      case 'final': {
        this.refresh();
        const current = this.state.view.current;
        if (current === undefined || current.key !== d.phase) return;
        // The commit this phone made last for the power (its own records), else the latest one in the log.
        const mine = await this.mySeals(d.phase, d.power);
        const commit = mine.at(-1) ?? current.ballot.heads[d.power];
        if (commit === undefined) return;
        const stamp = await this.stamp(dutyKey(d));
        if (stamp !== null) await this.append(finalOrders(id, this.gameId, d.phase, d.power, commit, stamp));
        return;
      }
      case 'lock': {
        const stamp = await this.stamp(dutyKey(d));
        if (stamp === null) return;
        this.refresh();
        await this.append(lockBallot(id, this.gameId, this.state.view, this.messages, stamp));
        return;
      }
      case 'reveal': {
        const secrets = await this.mySecrets(d.phase);
        const stamp = await this.stamp(dutyKey(d));
        if (stamp === null) return;
        this.refresh();
        await this.append(revealBallot(id, this.gameId, this.state.view, this.messages, (c) => secrets.get(c) ?? null, stamp));
        return;
      }
      case 'clock':
        await this.append(claimClock(id, this.gameId, d.phase, 'orders', await this.stamp()));
        return;
    }
  }

  /** Commit ids this phone sealed for a power in a phase, oldest first (from its store). */
  private async mySeals(phase: string, power: Power): Promise<string[]> {
    const record = await this.o.store.getDraft({ gameId: this.gameId, phase, power });
    return [...(record?.seals ?? [])].sort((a, b) => a.created - b.created).map((s) => s.hash);
  }

  /** The secret of every commit this phone made in the ballot (phase seals, or the lot secret). */
  private async mySecrets(phase: string): Promise<Map<string, bigint>> {
    const out = new Map<string, bigint>();
    if (phase === 'lot') {
      const bytes = this.record.lotSecret === undefined ? null : fromBase64(this.record.lotSecret);
      const s = bytes === null ? null : scalarFromBytes(bytes);
      if (s !== null) for (const id of this.state.view.lot?.ballot.commits[this.o.identity.id] ?? []) out.set(id, s);
      return out;
    }
    for (const power of this.state.me.powers) {
      const record = await this.o.store.getDraft({ gameId: this.gameId, phase, power });
      for (const seal of record?.seals ?? []) {
        const s = scalarFromBytes(seal.key);
        if (s !== null) out.set(seal.hash, s);
      }
    }
    return out;
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
    const k = { gameId: this.gameId, phase: current.key, power };
    const sealed = this.sealed[power] ?? null;
    this.drafts = { ...this.drafts, [power]: orders };
    this.publish({ ...this.state, drafts: this.drafts });
    await this.o.store.saveDraftOrders(k, { draft: [...orders], sealed: sealed === null ? null : [...sealed], ...(this.drawVotes[power] === true ? { draw: true } : {}) } satisfies StoredOrders, this.o.now());
  }

  seal(power: Power, orders: readonly Order[]): Promise<void> {
    return this.enqueue(() => this.sealNow(power, orders, undefined));
  }

  /** Seals (or re-seals) a power's orders, with its draw vote in movement phases. */
  private async sealNow(power: Power, orders: readonly Order[], draw: boolean | undefined): Promise<void> {
    const current = this.openPhaseFor(power);
    if (!current.required.includes(power)) throw new Error(`${power} has nothing to order in this phase`);
    const lang = this.lang();
    // After its FINAL (signed by this phone once every power had sealed) a power's orders are fixed.
    const finalized = current.finalized.includes(power) || (this.record.once ?? []).includes(`final|${current.key}|${power}`);
    if (finalized) throw new Error(lang === 'es' ? 'Todas las potencias han sellado: las órdenes ya no pueden cambiar' : 'every power has sealed: orders can no longer change');
    const random = { secret: this.o.random(32), nonce: this.o.random(24), entropy: this.o.random(32), coin: this.o.random(32) };
    const options = draw === undefined ? { draw: this.drawVote(power) } : { draw };
    // commitTurn checks before anything is stored or a sequence number is reserved.
    const check = commitTurn(this.o.identity, this.gameId, this.state.view, power, orders, random, { seq: 0, time: 0 }, options);
    if (!check.ok) {
      if (check.reason === 'missing-orders') throw new MissingOrdersError(power, check.missing, this.unitNames(check.missing, lang), lang);
      throw new Error('no phase is open');
    }
    const stamp = await this.stamp();
    const turn = commitTurn(this.o.identity, this.gameId, this.state.view, power, orders, random, stamp, options);
    if (!turn.ok) throw new Error('no phase is open');
    const signed = turn.message;
    // A re-seal over the quota is refused by every phone (commits per power per phase): say so, store nothing.
    this.check(signed);
    const k = { gameId: this.gameId, phase: current.key, power };
    // The secret first: a commit whose secret is lost can only be opened by the others' shares.
    await this.o.store.addSeal(k, { key: secretBytes(turn.secret), nonce: random.nonce, hash: signed.id, created: stamp.time });
    await this.o.store.saveDraftOrders(k, { draft: [...orders], sealed: [...orders], ...(options.draw ? { draw: true } : {}) } satisfies StoredOrders, stamp.time);
    this.drafts = { ...this.drafts, [power]: orders };
    this.sealed = { ...this.sealed, [power]: orders };
    this.drawVotes = { ...this.drawVotes, [power]: options.draw };
    this.draftsPhase = current.key;
    this.publish({ ...this.state, drafts: this.drafts, sealed: this.sealed, drawVotes: this.drawVotes });
    await this.append(signed);
  }

  /** The draw vote this phone sealed last for a power in the open phase (no, until it votes). */
  private drawVote(power: Power): boolean {
    return this.drawVotes[power] === true;
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
      for (const p of survivors) await this.sealNow(p, this.sealed[p] ?? this.drafts[p] ?? [], yes);
    });
  }

  declareAlliance(power: Power, powers: readonly Power[], yes: boolean): Promise<void> {
    return this.enqueue(async () => {
      const current = this.openPhaseFor(power);
      if (!powers.includes(power)) throw new Error(`${power} is not a member of the alliance`);
      if (new Set(powers).size < 2) throw new Error('an alliance needs at least two powers');
      await this.append(allianceMessage(this.o.identity, this.gameId, current.key, power, powers, yes, await this.stamp()));
    });
  }

  concede(power: Power): Promise<void> {
    return this.enqueue(async () => {
      const current = this.openPhaseFor(power);
      await this.append(concedeMessage(this.o.identity, this.gameId, current.key, power, await this.stamp()));
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
      await this.append(timeoutMessage(this.o.identity, this.gameId, current.key, [...new Set([...already, ...targets])], await this.stamp()));
    });
  }

  sendChat(to: readonly Power[] | 'all', text: string): Promise<void> {
    return this.enqueue(async () => {
      this.refresh();
      const { view } = this.state;
      if (view.settings?.rules.gunboat === true) throw new Error('press is off in this game (gunboat)');
      const me = this.o.identity.id;
      const roster = view.holders ?? view.roster;
      const players = chatPlayers(view);
      const keys = to === 'all' ? 'all' : roster === undefined ? [] : [...new Set(to.map((p) => roster[p]))].filter((k) => k !== me);
      if (keys !== 'all' && keys.length === 0) throw new Error('no recipients');
      if (!players.some((p) => p.key === me)) throw new Error('only the players of the game can send messages');
      const stamp = await this.stamp();
      const sealed = sealChat({ to: keys, text, time: stamp.time }, this.o.identity, players, this.o.random);
      await this.append(chatMessage(this.o.identity, this.gameId, sealed, stamp.seq));
    });
  }

  markChatsRead(): void {
    const incoming = this.state.chats.filter((c) => c.from !== this.o.identity.id).length;
    if (incoming === (this.record.chatsRead ?? 0)) return;
    void this.enqueue(async () => {
      await this.patchRecord({ chatsRead: incoming, unread: 0 });
      this.publish({ ...this.state, unread: 0 });
    });
  }

  // ---- The lobby ------------------------------------------------------------------------------

  /** Joins (or changes name or claim: the latest JOIN counts). */
  join(name: string, power: Power | null): Promise<void> {
    return this.enqueue(async () => {
      this.refresh();
      if (this.state.view.status !== 'lobby') throw new Error('the game has already started');
      await this.append(joinGame(this.o.identity, this.gameId, name, power, await this.stamp()));
    });
  }

  /** Creator only: fixes the roster ('choice' games). */
  start(roster: Readonly<Record<Power, string>>): Promise<void> {
    return this.enqueue(async () => {
      this.refresh();
      if (this.state.view.creator !== this.o.identity.id) throw new Error('only the creator starts the game');
      const stamp = await this.stamp('start');
      if (stamp === null) throw new Error('this device has already started the game');
      await this.append(startGame(this.o.identity, this.gameId, roster, stamp));
    });
  }

  /** Creator only, lot games: fixes who draws the seats (before any value exists); the lot then runs by itself. */
  startLot(participants: readonly string[]): Promise<void> {
    return this.enqueue(async () => {
      this.refresh();
      if (this.state.view.creator !== this.o.identity.id) throw new Error('only the creator starts the game');
      const stamp = await this.stamp('start');
      if (stamp === null) throw new Error('this device has already started the game');
      await this.append(startLot(this.o.identity, this.gameId, participants, stamp));
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
      if (fork === undefined) throw new Error('no such start');
      await this.patchRecord({ anchor: startId });
      const me = this.o.identity.id;
      const acked = this.state.view.acceptances[me] !== undefined;
      if (fork.members.some((m) => m.key === me) && !acked && this.state.view.creator !== me) {
        const stamp = await this.stamp('accept-start');
        if (stamp !== null) await this.append(acceptStart(this.o.identity, this.gameId, startId, stamp));
      }
      this.refresh();
    });
  }
}

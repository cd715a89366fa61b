// The plumbing of one game on this phone, without React: reads the game's admitted entries (the
// GameReplica's set, the truth; the Y.Doc only carries them), reduces them to a GameView, performs
// the duties of an honest phone (duties.ts) and signs what the player asks for. Keys and drafts
// reach the store before any message that depends on them is published, and a message is stored
// before it is published, so a reload at any moment loses nothing. The network is the caller's
// business: it only ever sees the replica.
import {
  acceptStart,
  acknowledge,
  commitLot,
  commitTurn,
  concede as concedeMessage,
  fromBase64,
  joinGame,
  openChat,
  openMessage,
  QUOTAS,
  reduceLog,
  revealDue,
  revealLot,
  revealOrders,
  sealChat,
  sendChat as chatMessage,
  startGame,
  toBase64,
  voteDraw as drawMessage,
  declareAlliance as allianceMessage,
  revealDraw,
  drawRevealDue,
  voteTimeout as timeoutMessage,
  type GameView,
  type Identity,
  type Message,
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
  readonly chats: readonly DecryptedChat[];
  readonly unread: number;
}

/** What a draft record's `orders` field holds for a game phase. */
interface StoredOrders {
  readonly draft: readonly Order[];
  readonly sealed: readonly Order[] | null;
}

function storedOrders(value: unknown): StoredOrders {
  if (Array.isArray(value)) return { draft: value as Order[], sealed: null };
  if (typeof value === 'object' && value !== null && Array.isArray((value as StoredOrders).draft)) {
    const v = value as StoredOrders;
    return { draft: v.draft, sealed: Array.isArray(v.sealed) ? v.sealed : null };
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
  private readonly chatText = new Map<string, string | null>();
  private record: AppGameRecord;
  private state: RunnerState;
  private draftsPhase = '';
  private drafts: Partial<Record<Power, readonly Order[]>> = {};
  private sealed: Partial<Record<Power, readonly Order[]>> = {};
  private work: Promise<void> = Promise.resolve();
  private scheduled = false;
  private closed = false;
  private unsubscribe: () => void = () => undefined;
  private seqReserved = 0;

  private constructor(o: RunnerOptions, record: AppGameRecord) {
    this.o = o;
    this.gameId = o.gameId;
    this.record = record;
    this.state = this.compute(reduceLog(o.gameId, [], { verifier: o.log.verifier }));
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
    const view = reduceLog(this.gameId, log, { verifier });
    this.publish(this.compute(view));
    this.enqueue(() => this.afterChange());
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
      chats,
      unread: Math.max(0, incoming - (this.record.chatsRead ?? 0)),
    };
  }

  private decryptChats(view: GameView): DecryptedChat[] {
    const me = this.o.identity;
    const roster = view.holders ?? view.roster;
    const neutral = view.neutral ?? [];
    const powerOf = (k: string): Power | undefined => (roster === undefined ? undefined : POWERS.find((p) => roster[p] === k && !neutral.includes(p)));
    const others = view.players.map((p) => p.key).filter((k) => k !== me.id);
    return view.chats.map((c) => {
      let text = this.chatText.get(c.id);
      if (text === undefined) {
        const m = this.messages.get(c.id);
        const sender = view.players.find((p) => p.key === c.from);
        text = m?.payload.type === 'chat' && sender !== undefined ? openChat(m.payload, sender.box, me) : null;
        this.chatText.set(c.id, text);
      }
      const to = c.recipients.filter((k) => k !== c.from);
      const toAll = others.length > 0 && [...view.players.map((p) => p.key)].filter((k) => k !== c.from).every((k) => to.includes(k));
      const toPowers = POWERS.filter((p) => roster !== undefined && !neutral.includes(p) && to.includes(roster[p]));
      const fromPower = powerOf(c.from);
      return { ...c, text, to: toAll ? 'all' : toPowers, ...(fromPower === undefined ? {} : { fromPower }) };
    });
  }

  private async afterChange(): Promise<void> {
    await this.loadDrafts();
    const work = duties({ view: this.state.view, me: this.o.identity.id, messages: this.messages, closeLot: this.record.closeLot === true });
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
    for (const power of this.state.me.powers) {
      const r = await this.o.store.getDraft({ gameId: this.gameId, phase, power });
      if (r === undefined) continue;
      const s = storedOrders(r.orders);
      drafts[power] = s.draft;
      if (s.sealed !== null) sealed[power] = s.sealed;
    }
    this.draftsPhase = phase;
    this.drafts = drafts;
    this.sealed = sealed;
    this.publish({ ...this.state, drafts, sealed });
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
  private async stamp(): Promise<Stamp> {
    const me = this.o.identity.id;
    const reserve = async (): Promise<number> => {
      const fresh = asAppRecord(await this.o.store.getGame(this.gameId)) ?? this.record;
      let seq = Math.max(fresh.nextSeq ?? 0, this.record.nextSeq ?? 0, this.seqReserved);
      for (const m of this.messages.values()) if (m.payload.from === me) seq = Math.max(seq, m.payload.seq + 1);
      this.seqReserved = seq + 1;
      await this.patchRecord({ nextSeq: seq + 1 });
      return seq;
    };
    const seq = await withLock(`pacto-seq-${this.o.store.name}-${this.gameId}`, reserve);
    return { seq, time: this.o.now() };
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
  }

  private async perform(d: Duty): Promise<void> {
    const id = this.o.identity;
    switch (d.kind) {
      case 'accept-start':
        await this.append(acceptStart(id, this.gameId, d.startId, await this.stamp()));
        return;
      case 'ack':
        await this.append(acknowledge(id, this.gameId, d.phase, d.hash, await this.stamp()));
        return;
      case 'reveal':
        await this.reveal(d.power);
        return;
      case 'draw-reveal': {
        this.refresh();
        const current = this.state.view.current;
        if (current === undefined || !drawRevealDue(this.state.view, d.power)) return;
        await this.append(revealDraw(id, this.gameId, current, d.power, await this.stamp()));
        return;
      }
      case 'lot-commit': {
        const value = this.o.random(32);
        await this.patchRecord({ lotValue: toBase64(value) });
        await this.append(commitLot(id, this.gameId, 'powers', value, await this.stamp()));
        return;
      }
      case 'lot-reveal': {
        const value = this.record.lotValue === undefined ? null : fromBase64(this.record.lotValue);
        if (value === null) throw new Error('this device lost its lot value');
        await this.append(revealLot(id, this.gameId, 'powers', value, await this.stamp()));
        return;
      }
    }
  }

  private async reveal(power: Power): Promise<void> {
    this.refresh();
    const current = this.state.view.current;
    if (current === undefined || !revealDue(this.state.view, power)) return;
    const record = await this.o.store.getDraft({ gameId: this.gameId, phase: current.key, power });
    const commits = new Set(
      [...this.messages.values()].filter((m) => m.payload.type === 'commit' && m.payload.phase === current.key && m.payload.power === power).map((m) => m.id),
    );
    const keys: Record<string, Uint8Array> = {};
    for (const s of record?.seals ?? []) if (commits.has(s.hash)) keys[s.hash] = s.key;
    if (Object.keys(keys).length === 0) throw new Error(`no sealing key on this device for ${power} in ${current.key}`);
    await this.append(revealOrders(this.o.identity, this.gameId, current, power, keys, await this.stamp()));
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
    await this.o.store.saveDraftOrders(k, { draft: [...orders], sealed: sealed === null ? null : [...sealed] } satisfies StoredOrders, this.o.now());
  }

  seal(power: Power, orders: readonly Order[]): Promise<void> {
    return this.enqueue(async () => {
      const current = this.openPhaseFor(power);
      if (!current.required.includes(power)) throw new Error(`${power} has nothing to order in this phase`);
      if (current.revealed.includes(power) || revealDue(this.state.view, power)) throw new Error('every power has sealed: orders can no longer change');
      const key = this.o.random(32);
      const nonce = this.o.random(24);
      // Only sealed in the two-player toss phase (commitTurn decides); drawn every time so the
      // random stream does not depend on the phase.
      const coin = this.o.random(32);
      const lang = this.lang();
      // commitTurn checks before anything is stored or a sequence number is reserved.
      const check = commitTurn(this.o.identity, this.gameId, this.state.view, power, orders, { key, nonce, coin }, { seq: 0, time: 0 });
      if (!check.ok) {
        if (check.reason === 'missing-orders') throw new MissingOrdersError(power, check.missing, this.unitNames(check.missing, lang), lang);
        throw new Error('no phase is open');
      }
      const stamp = await this.stamp();
      const turn = commitTurn(this.o.identity, this.gameId, this.state.view, power, orders, { key, nonce, coin }, stamp);
      if (!turn.ok) throw new Error('no phase is open');
      const signed = turn.message;
      // A 33rd re-seal is refused by every phone (commits per power per phase): say so, store nothing.
      this.check(signed);
      const k = { gameId: this.gameId, phase: current.key, power };
      // The key first: a commit whose key is lost can never be revealed.
      await this.o.store.addSeal(k, { key, nonce, hash: signed.id, created: stamp.time });
      await this.o.store.saveDraftOrders(k, { draft: [...orders], sealed: [...orders] } satisfies StoredOrders, stamp.time);
      this.drafts = { ...this.drafts, [power]: orders };
      this.sealed = { ...this.sealed, [power]: orders };
      this.draftsPhase = current.key;
      await this.append(signed);
    });
  }

  voteDraw(yes: boolean): Promise<void> {
    return this.enqueue(async () => {
      this.refresh();
      const { view, me } = this.state;
      const current = view.current;
      if (current === undefined) throw new Error('no phase is open');
      const survivors = me.powers.filter((p) => current.drawVoters.includes(p));
      for (const p of survivors) await this.append(drawMessage(this.o.identity, this.gameId, current.key, p, yes, await this.stamp()));
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
      for (const p of voters) await this.append(timeoutMessage(this.o.identity, this.gameId, current.key, p, targets, await this.stamp()));
    });
  }

  sendChat(to: readonly Power[] | 'all', text: string): Promise<void> {
    return this.enqueue(async () => {
      this.refresh();
      const { view } = this.state;
      if (view.settings?.rules.gunboat === true) throw new Error('press is off in this game (gunboat)');
      const me = this.o.identity.id;
      const roster = view.holders ?? view.roster;
      const keys = to === 'all' || roster === undefined ? view.players.map((p) => p.key) : to.map((p) => roster[p]);
      const recipients = view.players.filter((p) => p.key !== me && keys.includes(p.key)).map((p) => ({ key: p.key, box: p.box }));
      if (recipients.length === 0) throw new Error('no recipients');
      const sealed = sealChat(text, this.o.identity, recipients, this.o.random(32), this.o.random(24));
      await this.append(chatMessage(this.o.identity, this.gameId, sealed, await this.stamp()));
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

  /** Creator only: fixes the roster. */
  start(roster: Readonly<Record<Power, string>>, lotReveals: readonly string[] = []): Promise<void> {
    return this.enqueue(async () => {
      this.refresh();
      if (this.state.view.creator !== this.o.identity.id) throw new Error('only the creator starts the game');
      await this.append(startGame(this.o.identity, this.gameId, roster, lotReveals, await this.stamp()));
    });
  }

  /** Creator only, lot games: reveal this device's value so everyone reveals theirs. */
  closeLot(): Promise<void> {
    return this.enqueue(async () => {
      await this.patchRecord({ closeLot: true });
    }).then(() => this.refresh());
  }
}

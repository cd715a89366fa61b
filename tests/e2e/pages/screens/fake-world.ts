// A fake but honest game for the screens' tests and harness page: real identities sign real
// protocol messages (src/protocol client functions) into a shared log, and every GameView comes
// from reduceLog over it. Bots play their powers with random legal orders; each phone takes the
// automatic steps (FINAL, LOCK, REVEAL) when due, as the runner does. Deterministic: seeded bytes,
// caller-supplied clock.
import { parseOrders, randomOrders, type Order, type Power, POWERS } from '../../../../src/rules';
import {
  acceptStart,
  ballotDuties,
  chatPlayers,
  commitTurn,
  concede,
  declareAlliance,
  createGame,
  createIdentity,
  finalOrders,
  joinGame,
  lockBallot,
  openChat,
  openMessage,
  reduceLog,
  revealBallot,
  revealDeadlineFor,
  RULES_ENGINE_VERSION,
  sealChat,
  sendChat,
  startGame,
  voteTimeout,
  type GameView,
  type Identity,
  type Message,
  type Settings,
} from '../../../../src/protocol';
import type { DecryptedChat, GameSession, NetStatus } from '../../../../src/ui/game/session';

export const HOUR = 3_600_000;
export const T0 = 1_800_000_000_000;

/** mulberry32: the same bytes on every run and in every page. */
export function rng(seed: number): { int: (n: number) => number; bytes: (n: number) => Uint8Array } {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { int: (n) => Math.floor(next() * n), bytes: (n) => Uint8Array.from({ length: n }, () => Math.floor(next() * 256)) };
}

export interface Scenario {
  readonly seed: number;
  /** Powers per phone; phone 0 creates the game. */
  readonly holdings: readonly (readonly Power[])[];
  /** Phones played by bots (random legal orders, sealed at once). */
  readonly bots: readonly number[];
  /** Phases played (all powers random) before the screens open. */
  readonly played: number;
  readonly gunboat?: boolean;
  readonly endYear?: number | null;
  readonly movementHours?: number;
  /** A variant id (src/rules/variants); standard when absent. */
  readonly variant?: string;
  /** Orders played instead of random ones in the pre-played phases, by phase key (see OPENING_1901). */
  readonly script?: Readonly<Record<string, string>>;
}

/**
 * 1901 with every power's orders written out, so its winter is the same whatever random bytes the
 * protocol draws per seal (each seal draws from the phone's seeded stream, and so do random orders:
 * when protocol v2 drew 120 bytes a seal instead of 56, the random 1901 changed and France ended it
 * removing a unit). No unit is dislodged, so no retreat phase. Winter 1901: Austria −1 (Italy takes
 * Vienna); England +1; France +3 with Brest, Marseilles and Paris free (Brest is coastal: army or
 * fleet); Germany +2; Italy +2; Russia +2; Turkey +1.
 */
export const OPENING_1901: Readonly<Record<string, string>> = {
  '1901-spring-movement': [
    'Austria: A vie - gal; A bud H; F tri H',
    'England: F lon - nth; F edi - nwg; A lvp - yor',
    'France: F bre - mao; A par - bur; A mar - spa',
    'Germany: A ber - kie; F kie - den; A mun - ruh',
    'Italy: A ven - tyr; A rom - apu; F nap - ion',
    'Russia: F stp/sc - bot; A mos - ukr; A war H; F sev - rum',
    'Turkey: F ank - bla; A con - bul; A smy - arm',
  ].join('\n'),
  '1901-fall-movement': [
    'Austria: A gal H; A bud H; F tri H',
    'England: F nth - nwy; F nwg H; A yor H',
    'France: F mao - por; A bur - bel; A spa H',
    'Germany: F den H; A kie - hol; A ruh H',
    'Italy: A tyr - vie; A apu H; F ion - tun',
    'Russia: F bot - swe; A ukr H; A war H; F rum H',
    'Turkey: F bla H; A bul H; A arm H',
  ].join('\n'),
};

/** Three phones: a bot with five powers, England and France for people. */
export const THREE_PHONES: Scenario = {
  seed: 7,
  holdings: [['austria', 'germany', 'italy', 'russia', 'turkey'], ['england'], ['france']],
  bots: [0],
  played: 0,
};

export class Phone {
  seq = 0;
  /** commit id -> the secret its REVEAL releases. */
  readonly secrets = new Map<string, bigint>();
  /** `${phase}|${power}` -> this phone's commits, oldest first. */
  readonly commits = new Map<string, string[]>();
  /** `${phase}|${power}` -> the orders and draw vote sealed last (a draw vote re-seals them). */
  readonly last = new Map<string, { orders: readonly Order[]; draw: boolean }>();
  constructor(
    readonly me: Identity,
    readonly name: string,
    readonly powers: readonly Power[],
    readonly random: ReturnType<typeof rng>,
  ) {}
  stamp(time: number) {
    return { seq: this.seq++, time };
  }
}

export class FakeWorld {
  readonly log: Uint8Array[] = [];
  readonly phones: Phone[];
  readonly gameId: string;
  private cached: { length: number; view: GameView } | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly scenario: Scenario,
    /** Phones this copy of the world acts for (bots and reveals); another page acts for the rest. */
    readonly drives: readonly number[] = scenario.holdings.map((_, i) => i),
  ) {
    const r = rng(scenario.seed);
    const names = ['Ana', 'Bruno', 'Carmen', 'Diego', 'Elena', 'Fede', 'Gema'];
    this.phones = scenario.holdings.map((powers, i) => {
      const pr = rng(scenario.seed * 100 + i);
      return new Phone(createIdentity(pr.bytes(32), pr.bytes(32)), names[i] ?? `P${i}`, powers, pr);
    });
    const settings: Settings = {
      variant: scenario.variant ?? 'standard',
      engine: RULES_ENGINE_VERSION,
      rules: scenario.gunboat ? { gunboat: true } : {},
      deadlines: {
        movement: (scenario.movementHours ?? 24) * HOUR,
        retreat: 6 * HOUR,
        adjustment: 6 * HOUR,
        lot: HOUR,
        reveal: revealDeadlineFor({ movement: (scenario.movementHours ?? 24) * HOUR }),
      },
      endYear: scenario.endYear ?? null,
      signaling: 'ws://127.0.0.1:1',
      assignment: 'choice',
    };
    const creator = this.phones[0]!;
    const { gameId, message } = createGame(creator.me, r.bytes(16), settings, creator.stamp(T0));
    this.gameId = gameId;
    this.log.push(message.bytes);
    for (const ph of this.phones) this.log.push(joinGame(ph.me, gameId, ph.name, ph.powers[0] ?? null, ph.stamp(T0 + 1)).bytes);
    const roster = Object.fromEntries(this.phones.flatMap((ph) => ph.powers.map((p) => [p, ph.me.id]))) as Record<Power, string>;
    const start = startGame(creator.me, gameId, roster, Object.fromEntries(this.phones.map((ph) => [ph.me.id, ph.me.escrowPublicKey])), creator.stamp(T0 + 2));
    this.log.push(start.bytes);
    for (const ph of this.phones.slice(1)) this.log.push(acceptStart(ph.me, gameId, start, ph.stamp(T0 + 3)).bytes);
    for (let i = 0; i < scenario.played && this.view().current; i++) this.playAll(T0 + (i + 1) * HOUR);
    this.settle(T0 + (scenario.played + 1) * HOUR);
  }

  view(): GameView {
    if (this.cached?.length !== this.log.length) this.cached = { length: this.log.length, view: reduceLog(this.gameId, this.log) };
    return this.cached.view;
  }

  private openedCache = new WeakMap<Uint8Array, Message | null>();

  /** Every valid entry, by id (what a phone's runner holds). */
  messages(): Map<string, Message> {
    const out = new Map<string, Message>();
    for (const b of this.log) {
      let m = this.openedCache.get(b);
      if (m === undefined) {
        const o = openMessage(b);
        m = o.ok ? o.message : null;
        this.openedCache.set(b, m);
      }
      if (m !== null) out.set(m.id, m);
    }
    return out;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds entries from elsewhere (another page); duplicates are harmless, the reducer drops them. */
  receive(entries: readonly Uint8Array[]): void {
    this.log.push(...entries);
    this.settle(this.now());
    this.emit();
  }

  /** What this world appended since `from`, for passing on to another page. */
  since(from: number): Uint8Array[] {
    return this.log.slice(from);
  }

  now(): number {
    return this.clock();
  }
  clock: () => number = () => this.view().current?.openedAt ?? T0;

  private emit(): void {
    for (const l of this.listeners) l();
  }

  append(bytes: Uint8Array | null, time: number): void {
    if (bytes) this.log.push(bytes);
    this.settle(time);
    this.emit();
  }

  commit(phoneIndex: number, power: Power, orders: readonly Order[], time: number, draw?: boolean): void {
    const ph = this.phones[phoneIndex]!;
    const v = this.view();
    const c = v.current;
    if (!c) throw new Error('no open phase');
    if (!c.required.includes(power)) throw new Error(`${power} gives no orders in this phase`);
    if (c.finalized.includes(power)) throw new Error('every power has sealed: orders can no longer change');
    const slot = `${c.key}|${power}`;
    const vote = draw ?? ph.last.get(slot)?.draw ?? false;
    const random = { secret: ph.random.bytes(32), nonce: ph.random.bytes(24), entropy: ph.random.bytes(32), coin: ph.random.bytes(32) };
    const r = commitTurn(ph.me, this.gameId, v, power, orders, random, ph.stamp(time), { draw: vote });
    if (!r.ok) throw new Error(`seal refused: ${r.reason}`);
    ph.secrets.set(r.message.id, r.secret);
    ph.commits.set(slot, [...(ph.commits.get(slot) ?? []), r.message.id]);
    ph.last.set(slot, { orders, draw: vote });
    this.log.push(r.message.bytes);
  }

  /** Every required power seals random orders (or the scenario's script) and reveals: one whole phase, for pre-played history. */
  playAll(time: number): void {
    const v = this.view();
    const c = v.current!;
    const script = this.scenario.script?.[c.key];
    const scripted =
      script === undefined ? null : parseOrders(script, { power: c.required[0]!, phase: c.position.phase.kind, lang: 'en', position: c.position });
    if (scripted && scripted.errors.length > 0) throw new Error(`script for ${c.key}: ${scripted.errors.map((e) => e.text).join(', ')}`);
    for (const p of c.required) {
      const i = this.phones.findIndex((ph) => ph.powers.includes(p));
      const orders = scripted ? scripted.orders.filter((o) => o.power === p) : randomOrders(c.position, p, this.phones[i]!.random.int);
      this.commit(i, p, orders, time);
    }
    this.settle(
      time + 1,
      this.phones.map((_, i) => i),
    );
  }

  /** Bots seal what is due and every driven phone takes its automatic steps, until nothing changes. */
  settle(time: number, drives: readonly number[] = this.drives): void {
    for (let guard = 0; guard < 200; guard++) {
      const v = this.view();
      const c = v.current;
      if (!c) return;
      let acted = false;
      for (const i of drives) {
        const ph = this.phones[i]!;
        for (const p of ph.powers) {
          if (this.scenario.bots.includes(i) && c.required.includes(p) && !c.committed.includes(p)) {
            this.commit(i, p, randomOrders(c.position, p, ph.random.int), time);
            acted = true;
            break;
          }
        }
        if (acted) break;
        const messages = this.messages();
        const due = ballotDuties(v, ph.me.id);
        if (due.finals.length > 0) {
          for (const p of due.finals as Power[])
            this.log.push(finalOrders(ph.me, this.gameId, c.key, p, ph.commits.get(`${c.key}|${p}`)?.at(-1) ?? c.ballot.heads[p]!, ph.stamp(time)).bytes);
        } else if (due.lock) this.log.push(lockBallot(ph.me, this.gameId, v, messages, ph.stamp(time)).bytes);
        else if (due.reveal) this.log.push(revealBallot(ph.me, this.gameId, v, messages, (id) => ph.secrets.get(id) ?? null, ph.stamp(time)).bytes);
        else continue;
        acted = true;
        break;
      }
      if (!acted) return;
    }
  }

  /** Every bot power still in the game votes for a draw. */
  botsVoteDraw(time: number): void {
    const c = this.view().current;
    if (!c) return;
    for (const i of this.drives.filter((d) => this.scenario.bots.includes(d))) {
      const ph = this.phones[i]!;
      for (const p of ph.powers.filter((x) => c.drawVoters.includes(x) && !c.finalized.includes(x)))
        this.commit(i, p, ph.last.get(`${c.key}|${p}`)?.orders ?? [], time, true);
    }
    this.append(null, time);
  }

  private chatCache = new Map<number, { length: number; chats: DecryptedChat[] }>();

  /** The chat texts this phone can open (remembered per log length: screens ask every second). */
  chatsFor(phoneIndex: number): DecryptedChat[] {
    const hit = this.chatCache.get(phoneIndex);
    if (hit?.length === this.log.length) return hit.chats;
    const chats = this.openChats(phoneIndex);
    this.chatCache.set(phoneIndex, { length: this.log.length, chats });
    return chats;
  }

  private openChats(phoneIndex: number): DecryptedChat[] {
    const me = this.phones[phoneIndex]!.me;
    const v = this.view();
    const roster = v.roster ?? ({} as Record<Power, string>);
    const payloads = new Map<string, { keys: Record<string, string>; nonce: string; sealed: string }>();
    for (const bytes of this.log) {
      const opened = openMessage(bytes);
      if (opened.ok && opened.message.payload.type === 'chat') payloads.set(opened.message.id, opened.message.payload);
    }
    return v.chats.map((c) => {
      const payload = payloads.get(c.id);
      const sender = v.players.find((p) => p.key === c.from);
      const content = payload && sender ? openChat(payload, sender.box, me) : null;
      const to =
        content === null
          ? []
          : content.to === 'all'
            ? 'all'
            : POWERS.filter((p) => content.to !== 'all' && content.to.includes(roster[p]) && roster[p] !== c.from);
      const fromPower = POWERS.find((p) => roster[p] === c.from);
      return { ...c, text: content?.text ?? null, to, time: content?.time ?? 0, ...(fromPower ? { fromPower } : {}) };
    });
  }
}

/** Mutable bits of one phone's screen state that the real plumbing keeps in the store. */
export interface PhoneState {
  drafts: Partial<Record<Power, readonly Order[]>>;
  sealed: Partial<Record<Power, readonly Order[]>>;
  sealedPhase: string;
  draftPhase: string;
  read: number;
}

export function newPhoneState(): PhoneState {
  return { drafts: {}, sealed: {}, sealedPhase: '', draftPhase: '', read: 0 };
}

/** A GameSession snapshot for one phone of the world; `changed` is called after every action. */
export function fakeSession(
  world: FakeWorld,
  phoneIndex: number,
  state: PhoneState,
  now: number,
  changed: () => void,
  net: NetStatus = { peers: 2, synced: true, online: true },
): GameSession {
  const ph = world.phones[phoneIndex]!;
  const view = world.view();
  const chats = world.chatsFor(phoneIndex);
  const phaseOf = () => world.view().current?.key ?? '';
  const me = { key: ph.me.id, name: ph.name, powers: ph.powers };
  const done = (): void => changed();
  return {
    gameId: world.gameId,
    view,
    me,
    net,
    now,
    drafts: state.draftPhase === view.current?.key ? state.drafts : {},
    sealed: state.sealedPhase === view.current?.key ? state.sealed : {},
    drawVotes: Object.fromEntries(ph.powers.map((p) => [p, ph.last.get(`${view.current?.key ?? ''}|${p}`)?.draw === true])),
    chats,
    unread: Math.max(0, chats.filter((c) => c.from !== ph.me.id).length - state.read),
    async saveDraft(power, orders) {
      const phase = phaseOf();
      state.drafts = { ...(state.draftPhase === phase ? state.drafts : {}), [power]: orders };
      state.draftPhase = phase;
      done();
    },
    async seal(power, orders) {
      const phase = phaseOf();
      world.commit(phoneIndex, power, orders, now);
      state.sealed = { ...(state.sealedPhase === phase ? state.sealed : {}), [power]: orders };
      state.sealedPhase = phase;
      world.append(null, now);
      done();
    },
    async declareAlliance(power, powers, yes) {
      const c = world.view().current;
      if (!c) throw new Error('no open phase');
      world.append(declareAlliance(ph.me, world.gameId, c.key, power, powers, yes, ph.stamp(now)).bytes, now);
      done();
    },
    async voteDraw(yes) {
      const c = world.view().current;
      if (!c) throw new Error('no open phase');
      // The vote travels inside the sealed orders: re-seal each surviving power with it.
      for (const p of ph.powers.filter((x) => c.drawVoters.includes(x) && c.required.includes(x)))
        world.commit(phoneIndex, p, ph.last.get(`${c.key}|${p}`)?.orders ?? state.drafts[p] ?? [], now, yes);
      world.append(null, now);
      done();
    },
    async concede(power) {
      const c = world.view().current;
      if (!c) throw new Error('no open phase');
      world.append(concede(ph.me, world.gameId, c.key, power, ph.stamp(now)).bytes, now);
      done();
    },
    async voteTimeout(against) {
      const c = world.view().current;
      if (!c) throw new Error('no open phase');
      const voter = ph.powers.find((p) => c.active.includes(p));
      if (!voter) throw new Error('no active power');
      world.append(
        voteTimeout(
          ph.me,
          world.gameId,
          c.key,
          against.filter((p) => !ph.powers.includes(p)),
          ph.stamp(now),
        ).bytes,
        now,
      );
      done();
    },
    async sendChat(to, text) {
      const v = world.view();
      const roster = v.roster;
      if (!roster) throw new Error('no roster');
      const keys = to === 'all' ? 'all' : [...new Set(to.map((p) => roster[p]))];
      const sealed = sealChat({ to: keys, text, time: now }, ph.me, chatPlayers(v), ph.random.bytes);
      world.append(sendChat(ph.me, world.gameId, sealed, ph.stamp(now).seq).bytes, now);
      done();
    },
    markChatsRead() {
      const count = world.chatsFor(phoneIndex).filter((c) => c.from !== ph.me.id).length;
      if (count !== state.read) {
        state.read = count;
        done();
      }
    },
  };
}

// reduceLog: the whole game as a pure function of the set of log entries and of this phone's
// anchor (the START it signed or accepted). Entries are opened, deduplicated by id and sorted
// canonically before anything is folded, so delivery order and duplicates cannot matter; anything
// that does not fit is listed in `ignored`, never thrown.
import {
  allianceWinners,
  centreCounts,
  missingOrders,
  POWERS,
  variantPhase,
  variantWinners,
  type Loc,
  type Order,
  type Position,
  type Power,
  type Seat,
  type Variant,
  type VariantRules,
} from '../rules';
import { tallyBallot, escrowHolders, type BallotCommit, type BallotFinal, type BallotResult, type WorkCounter } from './ballot';
import { compareText, utf8 } from './bytes';
import { canonicalEncode, canonicalText, hashHex, stateHash } from './canonical';
import { standardEngine, phaseKey, type Engine } from './engine';
import { legacyEntry, signatureVerifier, openMessage, type Message, type Opened, type Verifier } from './envelope';
import { escrowShape } from './escrow';
import { reduceLobby, type Lobby } from './lobby';
import { lotOrder, lotRoster } from './lot';
import {
  LOT_PHASE,
  PROTOCOL_VERSION,
  TYPE_ORDER,
  type AckPayload,
  type AlliancePayload,
  type ChatPayload,
  type ClockPayload,
  type CommitPayload,
  type ConcedePayload,
  type FinalPayload,
  type HandoverPayload,
  type LockPayload,
  type LotCommitPayload,
  type Payload,
  type RevealPayload,
  type Settings,
  type TimeoutPayload,
} from './messages';
import { memoAdjudicate, memoFacts, memoOpen, memoPhase, memoView } from './memo';
import { lotValueFromPlain, ordersFromPlain, paddingUnits, sealedSizeAllowed } from './seal';
import { countTimeouts, openingTime, upperMedian, type TimeoutCount } from './timeout';
import { Alliances, handoversDone, isTossPhase, tossWinner, variantOf } from './variants';
import type { GameResult, GameView, HashMismatch, Ignored, LotView, Misconduct, OpenPhase, ResolvedPhase, TossView } from './view';

export interface ReduceOptions {
  readonly engine?: Engine;
  readonly verifier?: Verifier;
  /** This phone's key: its own START or acceptance anchors the view (lobby.ts). */
  readonly me?: string;
  /** A START chosen on this device from a `forked` view. */
  readonly anchor?: string;
  /**
   * Counts the entries the reducer visits when it does fold (nothing when the same entries gave
   * the last view): tests assert that it grows linearly with the log (issue 10: a phase with
   * thousands of commits must not cost quadratic time).
   */
  readonly work?: WorkCounter;
}

/** Entries the lobby (or the chat list) accounts for; everything else belongs to a phase or the lot. */
const LOBBY_TYPES: ReadonlySet<string> = new Set(['create', 'join', 'start', 'chat']);

/** A long game is a few hundred phases; this only guards against an engine that never advances. */
const MAX_PHASES = 2000;

interface PhaseGroup {
  commits: Message<CommitPayload>[];
  finals: Message<FinalPayload>[];
  locks: Message<LockPayload>[];
  reveals: Message<RevealPayload>[];
  timeouts: Message<TimeoutPayload>[];
  clocks: Message<ClockPayload>[];
  concedes: Message<ConcedePayload>[];
  alliances: Message<AlliancePayload>[];
  handovers: Message<HandoverPayload>[];
  lotCommits: Message<LotCommitPayload>[];
}

const emptyGroup = (): PhaseGroup => ({ commits: [], finals: [], locks: [], reveals: [], timeouts: [], clocks: [], concedes: [], alliances: [], handovers: [], lotCommits: [] });

const sortKeys = new WeakMap<Message, string>();

/** The canonical order of entries: by type, phase, author, sequence number, id (remembered per entry). */
function sortKey(m: Message): string {
  const have = sortKeys.get(m);
  if (have !== undefined) return have;
  const p = m.payload as Payload & { phase?: string };
  const order = String(TYPE_ORDER.indexOf(p.type)).padStart(2, '0');
  const key = `${order}|${p.phase ?? ''}|${p.from}|${String(p.seq).padStart(16, '0')}|${m.id}`;
  sortKeys.set(m, key);
  return key;
}

class IgnoredList {
  private readonly seen = new Map<string, Ignored>();
  add(id: string, reason: string): void {
    this.seen.set(`${id}|${reason}`, { id, reason });
  }
  addAll(items: readonly Ignored[]): void {
    for (const i of items) this.add(i.id, i.reason);
  }
  list(): Ignored[] {
    return [...this.seen.values()].sort((a, b) => compareText(a.id, b.id) || compareText(a.reason, b.reason));
  }
}

export function reduceLog(gameId: string, log: readonly unknown[], options: ReduceOptions = {}): GameView {
  const engine = options.engine ?? standardEngine;
  const verifier = options.verifier ?? signatureVerifier;

  // The view is a function of what each entry opens to: the same entries in the same order as the
  // last reduce of this game on this phone give the same view, remembered (phones re-reduce often).
  const openedList = log.map((raw) => memoOpen(raw, verifier, () => openMessage(raw, verifier)));
  const keys = openedList.map((opened) => (opened.ok ? opened.message.id : `${opened.id}!${opened.reason}`));
  const viewSlot = `${gameId}|${options.me ?? ''}|${options.anchor ?? ''}`;
  const remembered = memoView.get(engine, viewSlot) as { keys: readonly string[]; view: GameView; sorted: SortedEntries } | undefined;
  // How many leading entries open to what the last reduce's did (compared entry by entry, no key string built).
  let same = 0;
  if (remembered !== undefined) {
    const before = remembered.keys;
    const n = Math.min(before.length, keys.length);
    while (same < n && before[same] === keys[same]) same++;
    if (same === keys.length && same === before.length) return remembered.view;
  }
  // Entries only ever arrive: when this log extends the last one, its sorted entries extend too.
  const grown = remembered !== undefined && same === remembered.keys.length ? remembered.sorted : undefined;
  const out: { sorted?: SortedEntries } = {};
  const view = reduceOpened(gameId, log, openedList, options, engine, grown, out);
  memoView.set(engine, viewSlot, { keys, view, sorted: out.sorted! });
  return view;
}

/** The game's entries in canonical order (sortKey), with their ids and how many log entries gave them. */
interface SortedEntries {
  readonly messages: readonly Message[];
  readonly ids: ReadonlySet<string>;
  readonly count: number;
}

/** Entries in canonical order: the previous order with the new ones inserted (binary search), or sorted afresh. */
function sortEntries(candidates: readonly Message[], count: number, previous: SortedEntries | undefined): SortedEntries {
  if (previous === undefined || previous.count > count) {
    const byId = new Map<string, Message>();
    for (const m of candidates) byId.set(m.id, m);
    const messages = [...byId.values()].map((m) => [sortKey(m), m] as const).sort((a, b) => compareText(a[0], b[0])).map(([, m]) => m);
    return { messages, ids: new Set(byId.keys()), count };
  }
  const messages = [...previous.messages];
  const ids = new Set(previous.ids);
  for (const m of candidates) {
    if (ids.has(m.id)) continue;
    ids.add(m.id);
    const key = sortKey(m);
    let lo = 0;
    let hi = messages.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareText(sortKey(messages[mid]!), key) < 0) lo = mid + 1;
      else hi = mid;
    }
    messages.splice(lo, 0, m);
  }
  return { messages, ids, count };
}

function reduceOpened(gameId: string, log: readonly unknown[], openedList: readonly Opened[], options: ReduceOptions, engine: Engine, previous: SortedEntries | undefined, out: { sorted?: SortedEntries }): GameView {
  const work = options.work ?? { steps: 0 };
  work.steps += log.length;
  const ignored = new IgnoredList();
  const misconduct: Misconduct[] = [];
  const candidates: Message[] = [];
  // With a previous order, only the entries past its count are new (the rest are in it already).
  const fresh: Message[] = [];
  let legacy: number | undefined;
  for (let i = 0; i < log.length; i++) {
    const raw = log[i];
    const opened = openedList[i]!;
    if (opened.ok) {
      if (opened.message.payload.game !== gameId) ignored.add(opened.message.id, 'wrong-game');
      else if (previous === undefined) candidates.push(opened.message);
      else if (i >= previous.count) fresh.push(opened.message);
      continue;
    }
    ignored.add(opened.id, opened.reason);
    if (opened.reason === 'unknown-protocol-version') {
      const old = legacyEntry(raw);
      if (old !== null && old.game === gameId && old.type === 'create') legacy = old.version;
    }
  }
  const sorted = sortEntries(previous === undefined ? candidates : fresh, log.length, previous);
  out.sorted = sorted;
  const messages = sorted.messages;

  // Two entries of one author with one sequence number: misconduct (only the duplicates are sorted).
  const bySeq = new Map<string, Map<number, string[]>>();
  const twice: [string, number][] = [];
  for (const m of messages) {
    const mine = bySeq.get(m.payload.from) ?? new Map<number, string[]>();
    bySeq.set(m.payload.from, mine);
    const ids = mine.get(m.payload.seq);
    if (ids === undefined) mine.set(m.payload.seq, [m.id]);
    else {
      if (ids.length === 1) twice.push([m.payload.from, m.payload.seq]);
      ids.push(m.id);
    }
  }
  twice.sort((a, b) => compareText(a[0], b[0]) || compareText(String(a[1]), String(b[1])));
  for (const [author, seq] of twice) misconduct.push({ author, kind: 'same-seq', ids: [...bySeq.get(author)!.get(seq)!].sort() });

  const lobby = reduceLobby(gameId, messages, { ...(options.me === undefined ? {} : { me: options.me }), ...(options.anchor === undefined ? {} : { anchor: options.anchor }) });
  ignored.addAll(lobby.ignored);
  misconduct.push(...lobby.misconduct);
  const joined = new Set(lobby.players.map((p) => p.key));
  const base = {
    gameId,
    players: lobby.players,
    accepted: lobby.accepted,
    anchored: lobby.anchored,
    forks: lobby.forks,
    members: lobby.members,
    spectators: [] as string[],
    ...(lobby.start === undefined ? {} : { start: lobby.start.id }),
    phases: [] as ResolvedPhase[],
    chats: [] as GameView['chats'][number][],
    hashMismatches: [] as HashMismatch[],
  };
  const finish = (view: Omit<GameView, 'ignored' | 'misconduct' | keyof typeof base> & Partial<typeof base>): GameView => ({
    ...base,
    ...view,
    misconduct: sortMisconduct(misconduct),
    ignored: ignored.list(),
  });

  const create = lobby.create;
  if (create === undefined) {
    if (legacy !== undefined) {
      return finish({ status: 'incompatible', incompatible: { reason: 'protocol-version', game: `protocol ${legacy}`, ours: `protocol ${PROTOCOL_VERSION}` } });
    }
    for (const m of messages) if (m.payload.type !== 'create') ignored.add(m.id, 'no-game');
    return finish({ status: 'no-game' });
  }
  const settings = create.payload.settings;
  const header = { creator: create.payload.from, settings };
  const startPosition = engine.start(settings.variant);
  if (settings.engine !== engine.version || startPosition === null) {
    const reason = startPosition === null ? 'unknown-variant' : 'engine-version';
    return finish({ ...header, status: 'incompatible', incompatible: { reason, game: `${settings.engine} ${settings.variant}`, ours: engine.version } });
  }
  const start = lobby.start;
  const phaseMessages = messages.filter((m) => !LOBBY_TYPES.has(m.payload.type) && !(m.payload.type === 'ack' && m.payload.phase === 'start'));
  const chatMessages = messages.filter((m): m is Message<ChatPayload> => m.payload.type === 'chat');
  if (start === undefined) {
    for (const m of phaseMessages) ignored.add(m.id, 'game-not-started');
    base.chats = checkChats(chatMessages, joined, joined, ignored);
    return finish({ ...header, status: lobby.forks.length > 0 ? 'forked' : 'lobby' });
  }
  const variant = variantOf(settings.variant);
  const members = new Set(lobby.members);
  base.spectators = [...joined].filter((k) => !members.has(k)).sort(compareText);
  if (lobby.accepted.length < lobby.members.length) {
    for (const m of phaseMessages) ignored.add(m.id, 'game-not-started');
    base.chats = checkChats(chatMessages, members, members, ignored);
    return finish({ ...header, ...(start.payload.roster === null ? {} : { roster: start.payload.roster }), status: 'starting' });
  }

  const groups = new Map<string, PhaseGroup>();
  const acks: Message<AckPayload>[] = [];
  for (const m of phaseMessages) {
    const p = m.payload;
    if (p.type === 'ack') {
      acks.push(m as Message<AckPayload>);
      continue;
    }
    const phase = p.type === 'lot-commit' ? LOT_PHASE : 'phase' in p ? p.phase : undefined;
    if (phase === undefined) continue;
    const group = groups.get(phase) ?? emptyGroup();
    groups.set(phase, group);
    if (p.type === 'commit') group.commits.push(m as Message<CommitPayload>);
    else if (p.type === 'final') group.finals.push(m as Message<FinalPayload>);
    else if (p.type === 'lock') group.locks.push(m as Message<LockPayload>);
    else if (p.type === 'reveal') group.reveals.push(m as Message<RevealPayload>);
    else if (p.type === 'timeout') group.timeouts.push(m as Message<TimeoutPayload>);
    else if (p.type === 'clock') group.clocks.push(m as Message<ClockPayload>);
    else if (p.type === 'concede') group.concedes.push(m as Message<ConcedePayload>);
    else if (p.type === 'alliance') group.alliances.push(m as Message<AlliancePayload>);
    else if (p.type === 'handover') group.handovers.push(m as Message<HandoverPayload>);
    else if (p.type === 'lot-commit') group.lotCommits.push(m as Message<LotCommitPayload>);
  }

  // The first opening time: the upper median of the START's and its acceptances' claims.
  const lobbyOpening = upperMedian([...lobby.startClaims.values()]) ?? start.payload.time;
  let roster: Record<Power, string>;
  let firstOpening = lobbyOpening;
  let lotView: LotView | undefined;
  if (start.payload.roster === null) {
    const lot = lotBallot(lobby, settings, groups.get(LOT_PHASE) ?? emptyGroup(), lobbyOpening, ignored, misconduct, work);
    lotView = lot.view;
    if (lot.roster === undefined) {
      for (const [key, g] of groups) if (key !== LOT_PHASE) for (const m of Object.values(g).flat() as Message[]) ignored.add(m.id, 'game-not-started');
      base.chats = checkChats(chatMessages, members, members, ignored);
      return finish({ ...header, status: 'lot', lot: lotView });
    }
    roster = lot.roster;
    firstOpening = lot.opening;
  } else {
    roster = { ...start.payload.roster };
    if (groups.has(LOT_PHASE)) for (const m of Object.values(groups.get(LOT_PHASE)!).flat() as Message[]) ignored.add(m.id, 'no-lot-in-this-game');
  }

  const fold = foldPhases({
    gameId,
    startId: start.id,
    startPosition,
    openedAt: firstOpening,
    settings,
    variant,
    roster,
    joined,
    escrowKeys: lobby.escrowKeys,
    groups,
    engine,
    ignored,
    misconduct,
    work,
  });
  const players = new Set([...members, ...fold.handedTo]);
  base.members = [...players].sort(compareText);
  base.spectators = [...joined].filter((k) => !players.has(k)).sort(compareText);
  base.chats = checkChats(chatMessages, players, members, ignored);
  const resolvedHashes = new Map(fold.phases.map((ph) => [ph.key, ph.stateHash]));
  for (const ack of acks) {
    const expected = resolvedHashes.get(ack.payload.phase);
    if (!players.has(ack.payload.from)) ignored.add(ack.id, 'ack-by-non-player');
    else if (expected === undefined) ignored.add(ack.id, 'ack-for-unresolved-phase');
    else if (expected !== ack.payload.hash) base.hashMismatches.push({ phase: ack.payload.phase, author: ack.payload.from, claimed: ack.payload.hash, expected });
  }
  base.hashMismatches.sort((a, b) => compareText(a.phase, b.phase) || compareText(a.author, b.author) || compareText(a.claimed, b.claimed));
  base.phases = fold.phases;
  return finish({
    ...header,
    roster,
    ...(lotView === undefined ? {} : { lot: lotView }),
    status: fold.result !== undefined ? 'finished' : 'playing',
    rules: fold.rules,
    current: fold.current,
    position: fold.position,
    stateHash: stateHash(fold.position),
    result: fold.result,
    holders: fold.holders,
    neutral: fold.neutral,
    seats: fold.seats,
    alliances: fold.alliances,
    ...(fold.toss === undefined ? {} : { toss: fold.toss }),
  });
}

/**
 * Chats everyone can list: by a player of the game, with a box for every member of the START and
 * for no one but players (so the recipients, always the same set, say nothing), public time 0.
 */
function checkChats(chats: readonly Message<ChatPayload>[], players: ReadonlySet<string>, members: ReadonlySet<string>, ignored: IgnoredList): GameView['chats'][number][] {
  const out: GameView['chats'][number][] = [];
  for (const m of chats) {
    const keys = Object.keys(m.payload.keys);
    const reason =
      !players.has(m.payload.from) ? 'chat-by-non-player'
      : m.payload.time !== 0 ? 'chat-public-time'
      : keys.some((k) => !players.has(k)) || [...members].some((k) => m.payload.keys[k] === undefined) ? 'chat-bad-recipients'
      : null;
    if (reason !== null) ignored.add(m.id, reason);
    else out.push({ id: m.id, from: m.payload.from });
  }
  return out;
}

function sortMisconduct(list: readonly Misconduct[]): Misconduct[] {
  const key = (m: Misconduct) => `${m.kind}|${m.phase ?? ''}|${m.author}|${m.slot ?? ''}|${m.ids.join(',')}`;
  const unique = new Map(list.map((m) => [key(m), m]));
  return [...unique.entries()].sort((a, b) => compareText(a[0], b[0])).map(([, m]) => m);
}

/**
 * When the seats finished sealing: once every key has a commit, the upper median of each key's
 * earliest commit claim (no single clock sets it); +Infinity while a key has none. Commits only
 * add, so it only ever comes earlier.
 */
function sealedAt(keys: readonly string[], claims: readonly { key: string; time: number }[]): number {
  const earliest = new Map<string, number>();
  for (const c of claims) earliest.set(c.key, Math.min(earliest.get(c.key) ?? Infinity, c.time));
  if (keys.some((k) => !earliest.has(k))) return Infinity;
  return upperMedian(keys.map((k) => earliest.get(k)!)) ?? Infinity;
}

/**
 * For the players: from when a seat that has sealed may be voted out for not finishing the
 * automatic steps (what the phones suggest; a vote counts from the deadline that applies). While a
 * seat has not sealed, that is after the orders deadline. Otherwise each automatic step gets the
 * whole reveal duration from when the step before it was complete (the upper median of the claims
 * that completed it, so no single clock sets it), and from any vote that unblocked it.
 */
function stepsGrace(revealDeadline: number, deadline: number, reveal: number, slots: readonly string[], committed: ReadonlySet<string>, timeouts: TimeoutCount, tally: BallotResult): number {
  const out = new Set(timeouts.timedOut);
  if (!slots.every((s) => out.has(s) || committed.has(s))) return deadline + reveal;
  const unblocked = slots.filter((s) => out.has(s)).map((s) => timeouts.at[s]! + reveal);
  const base = Number.isFinite(revealDeadline) ? revealDeadline : deadline + reveal;
  const stage = tally.view.stage;
  const steps = [stage === 'lock' || stage === 'reveal' ? tally.finalsAt : -Infinity, stage === 'reveal' ? tally.locksAt : -Infinity].filter(Number.isFinite).map((t) => t + reveal);
  return Math.max(base, ...unblocked, ...steps);
}

function clocksOf(list: readonly Message<ClockPayload>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of list) out.set(c.payload.from, Math.max(out.get(c.payload.from) ?? -Infinity, c.payload.time));
  return out;
}

type LotOutcome = { view: LotView; roster?: Record<Power, string>; opening: number };

/**
 * The lot ballot, remembered like a resolved phase (PhaseMemo): the same participants, escrow keys,
 * creator, settings, opening time and lot entries give the same outcome and reports.
 */
function lotBallot(lobby: Lobby, settings: Settings, group: PhaseGroup, openedAt: number, ignored: IgnoredList, misconduct: Misconduct[], work: WorkCounter): LotOutcome {
  const inKey = `${canonicalText({ participants: lobby.members, escrow: [...lobby.escrowKeys].sort((a, b) => compareText(a[0], b[0])), creator: lobby.create!.payload.from, settings })}|${openedAt}|${groupIds(group)}`;
  const slot = `${lobby.create!.payload.game}|${LOT_PHASE}`;
  const hit = memoPhase.get(slot) as { inKey: string; outcome: LotOutcome; ignored: Ignored[]; misconduct: Misconduct[] } | undefined;
  if (hit !== undefined && hit.inKey === inKey) {
    ignored.addAll(hit.ignored);
    misconduct.push(...hit.misconduct);
    return hit.outcome;
  }
  const ownIgnored = new IgnoredList();
  const ownMisconduct: Misconduct[] = [];
  const outcome = foldLot(lobby, settings, group, openedAt, ownIgnored, ownMisconduct, work);
  memoPhase.set(slot, { inKey, outcome, ignored: ownIgnored.list(), misconduct: ownMisconduct });
  ignored.addAll(ownIgnored.list());
  misconduct.push(...ownMisconduct);
  return outcome;
}

function foldLot(
  lobby: Lobby,
  settings: Settings,
  group: PhaseGroup,
  openedAt: number,
  ignored: IgnoredList,
  misconduct: Misconduct[],
  work: WorkCounter,
): LotOutcome {
  const participants = lobby.members;
  const isParticipant = new Set(participants);
  const commits: BallotCommit[] = [];
  const holders = (from: string) => escrowHolders(participants, from).length;
  for (const m of group.lotCommits) {
    const p = m.payload;
    const shape = escrowShape(holders(p.from));
    const reason =
      !isParticipant.has(p.from) ? 'lot-by-non-participant'
      : p.escrow.c.length !== shape.commitments || p.escrow.s.length !== shape.shares || (p.escrow.e !== null) !== shape.ephemeral ? 'commit-bad-escrow'
      : !sealedSizeAllowed(p.sealed, 0) ? 'commit-bad-size'
      : null;
    if (reason !== null) ignored.add(m.id, reason);
    else commits.push({ id: m.id, slot: p.from, from: p.from, seq: p.seq, time: p.time, sealed: p.sealed, escrow: p.escrow });
  }
  const finals: BallotFinal[] = commits.map((c) => ({ id: c.id, slot: c.slot, from: c.from, seq: c.seq, time: c.time, commit: c.id }));
  const deadline = openedAt + settings.deadlines.lot;
  const revealDeadline = sealedAt(participants, commits.map((c) => ({ key: c.from, time: c.time }))) + settings.deadlines.reveal;
  const committed = new Set(commits.map((c) => c.slot));
  const timeouts = countTimeouts({
    slots: participants,
    holderOf: (s) => s,
    players: participants,
    threshold: (s) => (committed.has(s) ? Math.min(deadline, revealDeadline) : deadline),
    votes: group.timeouts,
    clocks: clocksOf(group.clocks.filter((c) => isParticipant.has(c.payload.from))),
  });
  ignored.addAll(timeouts.ignored);
  const tally = tallyBallot({
    phase: LOT_PHASE,
    required: participants,
    holderOf: (s) => s,
    ballotKeys: participants,
    timedOut: new Set(timeouts.timedOut),
    commits,
    finals,
    locks: group.locks,
    reveals: group.reveals,
    escrowKeys: lobby.escrowKeys,
    work,
  });
  ignored.addAll(tally.ignored);
  misconduct.push(...tally.misconduct);
  const view: LotView = {
    participants,
    openedAt,
    deadline,
    revealDeadline: stepsGrace(revealDeadline, deadline, settings.deadlines.reveal, participants, committed, timeouts, tally),
    ballot: tally.view,
    timedOut: timeouts.timedOut,
    timeoutVotes: timeouts.votes,
  };
  if (!tally.closed) return { view, opening: openedAt };
  const values = new Map<string, Uint8Array>();
  for (const [slot, o] of tally.outcomes) {
    if (o.kind !== 'opened') continue;
    const value = lotValueFromPlain(o.plain);
    if (value !== null) values.set(slot, value);
    else misconduct.push({ author: slot, phase: LOT_PHASE, slot, kind: 'bad-orders', ids: [o.commit] });
  }
  const order = lotOrder(participants, values);
  const roster = lotRoster(order, values, variantOf(settings.variant), lobby.create!.payload.from);
  return { view: { ...view, order }, roster, opening: openingTime(openedAt, [...tally.revealClaims.values()]) };
}

interface FoldInput {
  readonly gameId: string;
  readonly startId: string;
  readonly startPosition: Position;
  readonly openedAt: number;
  readonly settings: Settings;
  readonly variant: Variant;
  readonly roster: Readonly<Record<Power, string>>;
  readonly joined: ReadonlySet<string>;
  readonly escrowKeys: ReadonlyMap<string, string | null>;
  readonly groups: ReadonlyMap<string, PhaseGroup>;
  readonly engine: Engine;
  readonly ignored: IgnoredList;
  readonly misconduct: Misconduct[];
  readonly work: WorkCounter;
}

interface Fold {
  rules: VariantRules;
  phases: ResolvedPhase[];
  current?: OpenPhase;
  position: Position;
  result?: GameResult;
  holders: Record<Power, string>;
  neutral: Power[];
  seats: Seat[];
  alliances: GameView['alliances'];
  toss?: TossView;
  handedTo: string[];
}

/** Messages of a phase signed by whoever holds the power they name in that phase. */
function byHolder<P extends Payload & { power: Power }>(
  list: readonly Message<P>[],
  holders: Readonly<Record<Power, string>>,
  neutral: readonly Power[],
  ignored: IgnoredList,
): Message<P>[] {
  return list.filter((m) => {
    if (neutral.includes(m.payload.power)) return ignored.add(m.id, 'neutral-power'), false;
    if (holders[m.payload.power] !== m.payload.from) return ignored.add(m.id, 'not-your-power'), false;
    return true;
  });
}

const uniqueSorted = (keys: Iterable<string>): string[] => [...new Set(keys)].sort(compareText);

/**
 * What one resolved phase of the fold took in and gave out, remembered so that re-reducing a log
 * (phones do it on every entry) re-runs only the open phase. `inKey` names everything the phase
 * reads: the game's fixed inputs, the state carried in from the phases before it (the position
 * through its chained key, opening time, holders, concessions, toss, alliances) and the ids of
 * its entries (an id fixes its payload). Same inKey, same outcome: results are identical with or
 * without the memo.
 */
interface PhaseMemo {
  readonly inKey: string;
  readonly phase?: ResolvedPhase;
  readonly ignored: readonly Ignored[];
  readonly misconduct: readonly Misconduct[];
  readonly position: Position;
  readonly openedAt: number;
  readonly memoKey: string;
  readonly holders: Readonly<Record<Power, string>>;
  readonly conceded: readonly Power[];
  readonly toss?: TossView;
  readonly alliances: Alliances;
  readonly handedTo: readonly string[];
  readonly result?: GameResult;
}


const groupIds = (g: PhaseGroup): string => (Object.values(g) as Message[][]).map((list) => list.map((m) => m.id).join(',')).join(';');

function foldPhases(input: FoldInput): Fold {
  const { settings, variant, engine } = input;
  // Everything fixed for the whole fold that a phase reads, as one string (see PhaseMemo).
  const fixedKey = canonicalText({
    game: input.gameId,
    start: input.startId,
    settings,
    engine: engine.version,
    roster: input.roster,
    joined: [...input.joined].sort(compareText),
    escrow: [...input.escrowKeys].sort((a, b) => compareText(a[0], b[0])),
  });
  // The variant's switches, then the game's own (settings.rules) on top.
  const rules = { ...variant.rules, ...settings.rules };
  const playing: Variant = { ...variant, rules, victory: variant.victory.by === 'power' ? { ...variant.victory, needed: rules.victoryCentres } : variant.victory };
  const phases: ResolvedPhase[] = [];
  const conceded = new Set<Power>();
  const visited = new Set<string>();
  const holders: Record<Power, string> = { ...input.roster };
  const handedTo = new Set<string>();
  let alliances = new Alliances();
  let toss: TossView | undefined;
  let position = input.startPosition;
  let openedAt = input.openedAt;
  let memoKey = `${engine.version}|${hashHex(canonicalEncode([input.startPosition, rules, variant.id]))}`;
  let current: OpenPhase | undefined;
  let result: GameResult | undefined;
  let setup = variantPhase(variant, position.phase, null);

  for (let guard = 0; guard < MAX_PHASES; guard++) {
    const key = phaseKey(position.phase);
    if (visited.has(key)) break;
    visited.add(key);
    setup = variantPhase(variant, position.phase, toss?.winner ?? null);
    const neutral = setup.neutral;
    if (toss?.winner != null && variant.toss !== undefined && !neutral.includes(variant.toss.power)) {
      const side = setup.seats.find((s) => s.id === toss!.winner);
      const lead = side?.powers.find((p) => p !== variant.toss!.power);
      if (lead !== undefined && holders[variant.toss.power] === input.roster[variant.toss.power]) holders[variant.toss.power] = holders[lead];
    }
    const raw = input.groups.get(key) ?? emptyGroup();
    const inKey = `${fixedKey}|${memoKey}|${openedAt}|${canonicalText(holders)}|${[...conceded].sort().join(',')}|${toss === undefined ? '-' : canonicalText(toss)}|${alliances.key()}|${groupIds(raw)}`;
    const memoSlot = `${input.gameId}|${key}`;
    const hit = memoPhase.get(memoSlot) as PhaseMemo | undefined;
    if (hit !== undefined && hit.inKey === inKey) {
      input.ignored.addAll(hit.ignored);
      input.misconduct.push(...hit.misconduct);
      if (hit.phase !== undefined) phases.push(hit.phase);
      position = hit.position;
      openedAt = hit.openedAt;
      memoKey = hit.memoKey;
      Object.assign(holders, hit.holders);
      conceded.clear();
      for (const p of hit.conceded) conceded.add(p);
      toss = hit.toss;
      alliances = hit.alliances.clone();
      for (const k of hit.handedTo) handedTo.add(k);
      if (hit.result !== undefined) {
        result = hit.result;
        break;
      }
      continue;
    }
    // This phase's own reports, kept apart so that they can be remembered with its outcome.
    const ignored = new IgnoredList();
    const misconduct: Misconduct[] = [];
    const handedHere: string[] = [];
    const remember = (phase: ResolvedPhase | undefined) => {
      input.ignored.addAll(ignored.list());
      input.misconduct.push(...misconduct);
      memoPhase.set(memoSlot, {
        inKey,
        ...(phase === undefined ? {} : { phase }),
        ignored: ignored.list(),
        misconduct: [...misconduct],
        position,
        openedAt,
        memoKey,
        holders: { ...holders },
        conceded: [...conceded],
        ...(toss === undefined ? {} : { toss }),
        alliances: alliances.clone(),
        handedTo: handedHere,
        ...(result === undefined ? {} : { result }),
      });
    };
    const concededBefore = new Set(conceded);
    for (const c of byHolder(raw.concedes, holders, neutral, ignored)) conceded.add(c.payload.power);
    ignored.addAll(alliances.add(byHolder(raw.alliances, holders, neutral, ignored), position.phase));

    const here = position;
    const facts = memoFacts(memoKey, () => {
      const centres = centreCounts(here);
      return {
        ordersNeeded: engine.ordersNeeded(here),
        withUnits: POWERS.filter((p) => here.units.some((u) => u.power === p)),
        withCentres: POWERS.filter((p) => centres[p] > 0),
      };
    });
    const inPlay = (p: Power, gone: ReadonlySet<Power>) => !gone.has(p) && !neutral.includes(p) && (facts.withUnits.includes(p) || facts.withCentres.includes(p));
    const active = POWERS.filter((p) => inPlay(p, conceded));
    // The players of the phase (who may vote) and its ballot keys (the escrow community) are fixed
    // at its opening; concessions signed in the phase only stop the conceding power being awaited.
    const players = uniqueSorted(POWERS.filter((p) => inPlay(p, concededBefore)).map((p) => holders[p]));
    const requiredAtOpening = facts.ordersNeeded.filter((p) => !concededBefore.has(p) && !neutral.includes(p));
    const ballotKeys = uniqueSorted(requiredAtOpening.map((p) => holders[p]));
    const required = requiredAtOpening.filter((p) => !conceded.has(p));
    const survivors = facts.withUnits.filter((p) => !conceded.has(p) && !neutral.includes(p));
    if (survivors.length <= 1 && conceded.size > 0) {
      result = { kind: 'concession', winners: survivors, phase: key };
      remember(undefined);
      break;
    }

    const commits: BallotCommit[] = [];
    for (const m of byHolder(raw.commits, holders, neutral, ignored)) {
      const p = m.payload;
      const shape = escrowShape(escrowHolders(ballotKeys, p.from).length);
      const reason =
        !requiredAtOpening.includes(p.power) ? 'commit-for-power-not-required'
        : p.escrow.c.length !== shape.commitments || p.escrow.s.length !== shape.shares || (p.escrow.e !== null) !== shape.ephemeral ? 'commit-bad-escrow'
        : !sealedSizeAllowed(p.sealed, paddingUnits(position, p.power)) ? 'commit-bad-size'
        : null;
      if (reason !== null) ignored.add(m.id, reason);
      else commits.push({ id: m.id, slot: p.power, from: p.from, seq: p.seq, time: p.time, sealed: p.sealed, escrow: p.escrow });
    }
    const finals: BallotFinal[] = byHolder(raw.finals, holders, neutral, ignored).map((m) => ({ id: m.id, slot: m.payload.power, from: m.payload.from, seq: m.payload.seq, time: m.payload.time, commit: m.payload.commit }));

    const duration = settings.deadlines[position.phase.kind];
    const deadline = openedAt + duration;
    const revealDeadline = sealedAt(ballotKeys, commits.map((c) => ({ key: c.from, time: c.time }))) + settings.deadlines.reveal;
    const isPlayer = new Set(players);
    const committed = new Set(commits.map((c) => c.slot));
    const timeouts = countTimeouts({
      slots: required,
      holderOf: (s) => holders[s as Power],
      players,
      threshold: (s) => (committed.has(s) ? Math.min(deadline, revealDeadline) : deadline),
      votes: raw.timeouts,
      clocks: clocksOf(raw.clocks.filter((c) => isPlayer.has(c.payload.from))),
    });
    ignored.addAll(timeouts.ignored);
    const timedOut = new Set(timeouts.timedOut as Power[]);
    const tally: BallotResult = tallyBallot({
      phase: key,
      required,
      holderOf: (s) => holders[s as Power],
      ballotKeys,
      timedOut,
      commits,
      finals,
      locks: raw.locks,
      reveals: raw.reveals,
      escrowKeys: input.escrowKeys,
      work: input.work,
    });
    ignored.addAll(tally.ignored);
    misconduct.push(...tally.misconduct);
    const drawVoters = position.phase.kind === 'movement' ? survivors : [];

    if (!tally.closed) {
      current = {
        key,
        position,
        map: setup.map,
        openedAt,
        deadline,
        // For the players: when the automatic steps' grace ends. While a seat has not sealed, the
        // orders deadline comes first, and the steps get the whole reveal stage after it.
        revealDeadline: stepsGrace(revealDeadline, deadline, settings.deadlines.reveal, required, committed, timeouts, tally),
        required,
        active,
        players,
        ballotKeys,
        committed: POWERS.filter((p) => committed.has(p)),
        finalized: POWERS.filter((p) => tally.view.finals[p] !== undefined),
        timedOut: [...timedOut].sort(),
        ballot: tally.view,
        timeoutVotes: timeouts.votes as OpenPhase['timeoutVotes'],
        drawVoters,
      };
      // The open phase is not remembered: it is the one that changes as entries arrive.
      input.ignored.addAll(ignored.list());
      input.misconduct.push(...misconduct);
      break;
    }

    const orders: Partial<Record<Power, readonly Order[]>> = {};
    const used: Partial<Record<Power, string>> = {};
    const coins = new Map<Power, Uint8Array>();
    const drawYes = new Set<Power>();
    const disorder = new Set<Power>(conceded);
    for (const power of required) {
      const outcome = tally.outcomes.get(power);
      if (outcome?.kind !== 'opened') {
        disorder.add(power);
        continue;
      }
      const content = ordersFromPlain(outcome.plain);
      if (content === null) {
        misconduct.push({ author: holders[power], slot: power, phase: key, kind: 'bad-orders', ids: [outcome.commit] });
        disorder.add(power);
        continue;
      }
      used[power] = outcome.commit;
      orders[power] = content.orders.filter((o) => o.power === power);
      if (content.coin !== null) coins.set(power, content.coin);
      if (content.draw) drawYes.add(power);
    }
    // A commit replaced by a later one of its slot is simply superseded; the latest, when it is not
    // the one that counts (made after the FINAL, or never finalized), is listed.
    for (const [slot, id] of Object.entries(tally.view.heads)) if (used[slot as Power] !== id && !timedOut.has(slot as Power)) ignored.add(id, 'commit-not-counted');

    // Rulebook II: every survivor's sealed vote opened and yes ends the game in a draw (not adjudicated).
    if (drawVoters.length > 0 && drawVoters.every((p) => drawYes.has(p))) {
      result = { kind: 'draw', winners: drawVoters, phase: key };
      remember(undefined);
      break;
    }

    const civilDisorder = [...disorder].sort();
    const flat = POWERS.flatMap((p) => orders[p] ?? []);
    // "1914" rules: a commit that leaves units without orders (made without the seal helper) is
    // still used as it is; those units hold, as any unit without an order does, and are listed.
    const unordered: Loc[] = rules.allOrdersRequired === true
      ? POWERS.filter((p) => orders[p] !== undefined).flatMap((p) => missingOrders(position, p, orders[p]!).map((u) => u.loc))
      : [];
    // The position is a function of the start and every earlier phase, and a commit id fixes the
    // orders inside it, so chained ids name the board without encoding it.
    memoKey = hashHex(utf8(`${memoKey}|${civilDisorder.join(',')}|${POWERS.map((p) => used[p] ?? '-').join(',')}|${neutral.join(',')}|${toss?.winner ?? '-'}`));
    const before = position;
    const phaseOptions = { civilDisorder, rules, map: setup.map, neutral };
    const { adjudication, nextHash } = memoAdjudicate(memoKey, () => {
      const a = engine.adjudicate(before, flat, phaseOptions);
      return { adjudication: a, nextHash: stateHash(a.next) };
    });
    // The coin holders come from the board alone (not from who conceded or was timed out), so a
    // side cannot switch to another power's coin after seeing the other side's.
    if (isTossPhase(variant, position.phase)) toss = { phase: key, ...tossWinner(variant.seats, facts.ordersNeeded, coins) };
    const resolved: ResolvedPhase = {
      key,
      position,
      openedAt,
      deadline,
      orders,
      commits: used,
      civilDisorder,
      timedOut: [...timedOut].sort(),
      conceded: [...conceded].sort(),
      results: adjudication.results,
      dislodged: adjudication.dislodged,
      contested: adjudication.contested,
      stateHash: nextHash,
      ...(drawVoters.length > 0 ? { drawVotes: drawVoters.filter((p) => drawYes.has(p)), drawVoters } : {}),
      ...(unordered.length > 0 ? { unordered: [...unordered].sort() } : {}),
    };
    phases.push(resolved);
    position = adjudication.next;
    openedAt = openingTime(openedAt, [...tally.revealClaims.values()]);

    const handovers = handoversDone({
      messages: raw.handovers,
      holders,
      players,
      absent: new Set([...timedOut, ...conceded]),
      joined: input.joined,
      startId: input.startId,
    });
    ignored.addAll(handovers.ignored);
    for (const [power, to] of handovers.done) {
      holders[power] = to;
      handedTo.add(to);
      handedHere.push(to);
      // A conceded power handed over is played again by its new holder.
      conceded.delete(power);
    }

    const victors = variantWinners(playing, position, setup.seats);
    const allied = victors.length > 0 ? [] : allianceWinners(playing, position, alliances.standing());
    if (victors.length > 0) result = { kind: 'victory', winners: victors, phase: key, ...(playing.victory.by === 'seat' ? { by: 'seat' as const } : {}) };
    else if (allied.length > 0) result = { kind: 'victory', winners: allied, phase: key, by: 'alliance' };
    else if (settings.endYear !== null && position.phase.year > settings.endYear) result = { kind: 'short-game', winners: shortGameLeaders(position, setup.seats), phase: key };
    remember(resolved);
    if (result !== undefined) break;
  }

  for (const [key, group] of input.groups) {
    if (visited.has(key) || key === LOT_PHASE) continue;
    for (const m of Object.values(group).flat() as Message[]) input.ignored.add(m.id, 'phase-not-reached');
  }
  const alliancesView = alliances.standing().map((a) => ({ powers: a.powers, since: phaseKey(a.since) }));
  return {
    rules,
    phases,
    current,
    position,
    result,
    holders,
    neutral: [...setup.neutral],
    seats: setup.seats.map((s) => ({ id: s.id, powers: [...s.powers] })),
    alliances: alliancesView,
    ...(toss === undefined ? {} : { toss }),
    handedTo: [...handedTo].sort(compareText),
  };
}

/**
 * Rulebook III: the player with most units in play wins a short game ("el jugador que posea más
 * unidades"); a player is a seat, so a seat's powers are added up. Centres break ties, a full tie
 * is shared. With one power per seat this is the power with most units.
 */
function shortGameLeaders(position: Position, seats: readonly Seat[]): Power[] {
  const centres = centreCounts(position);
  const score = (s: Seat) => s.powers.reduce((n, p) => n + position.units.filter((u) => u.power === p).length * 100 + centres[p], 0);
  const best = Math.max(...seats.map(score));
  return POWERS.filter((p) => seats.some((s) => score(s) === best && s.powers.includes(p)));
}

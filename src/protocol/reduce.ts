// reduceLog: the whole game as a pure function of the set of log entries and of this phone's
// anchor (the START it signed or accepted). Entries are opened, deduplicated by id and sorted
// canonically before anything is folded, so delivery order and duplicates cannot matter; anything
// that does not fit is listed in `ignored`, never thrown.
import { centreCounts, POWERS, variantPhase, type Position, type Power, type Seat, type Variant, type VariantPhaseSetup, type VariantRules } from '../rules';
import { tallyBallot, escrowHolders, type BallotCommit, type BallotFinal, type WorkCounter } from './ballot';
import { compareText } from './bytes';
import { canonicalEncode, canonicalText, hashHex, stateHash } from './canonical';
import { standardEngine, phaseKey, type Engine } from './engine';
import { namesAuthorByPlace, type WireContext } from './codec';
import { legacyEntry, signatureVerifier, openMessage, SIGNATURE_BYTES, type Message, type Opened, type Verifier } from './envelope';
import { escrowShape } from './escrow';
import {
  adjudicationStep,
  ballotStep,
  chosenOrdersStep,
  clocksOf,
  concessionEnding,
  drawEnding,
  endingStep,
  escrowPointsChecked,
  handoverStep,
  phaseEscrowKeys,
  holdersStep,
  openPhaseStep,
  sealedAt,
  seatsStep,
  signalsStep,
  stepsGrace,
  uniqueSorted,
  type FoldState,
} from './fold';
import { gameIdFor, gameVersionOf, reduceLobby, wireContextOf, withEscrowKeys, type Lobby } from './lobby';
import { lotOrder, lotRoster } from './lot';
import {
  DERIVED_ESCROW_VERSION,
  LOT_PHASE,
  PROTOCOL_VERSION,
  revealComplaintsAllowed,
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
import { escrowChecksOf, memoChain, memoFixed, memoOpen, memoOpenedLog, memoPhase, memoPositionHash, memoFacts, memoView, type EscrowChecks } from './memo';
import { lotValueFromPlain, sealedSizeAllowed } from './seal';
import { clockMedian, countTimeouts, nextOpening } from './timeout';
import { Alliances, variantOf } from './variants';
import type {
  AllianceView,
  FinishedView,
  GameResult,
  GameView,
  HashMismatch,
  Ignored,
  IncompatibleView,
  LobbyView,
  LotStageView,
  LotView,
  Misconduct,
  NoGameView,
  OpenPhase,
  PlayingView,
  ResolvedPhase,
  StartingView,
  TossView,
  ViewCommon,
} from './view';

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

const emptyGroup = (): PhaseGroup => ({
  commits: [],
  finals: [],
  locks: [],
  reveals: [],
  timeouts: [],
  clocks: [],
  concedes: [],
  alliances: [],
  handovers: [],
  lotCommits: [],
});

/** A group whose lists are copies (so growing it changes nothing the old one holds). */
const copyGroup = (g: PhaseGroup): PhaseGroup => ({
  commits: [...g.commits],
  finals: [...g.finals],
  locks: [...g.locks],
  reveals: [...g.reveals],
  timeouts: [...g.timeouts],
  clocks: [...g.clocks],
  concedes: [...g.concedes],
  alliances: [...g.alliances],
  handovers: [...g.handovers],
  lotCommits: [...g.lotCommits],
});

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
  const openedList = openLog(gameId, log, verifier);
  const keys = openedList.map((opened) => (opened.ok ? opened.message.id : `${opened.id}!${opened.reason}`));
  const viewSlot = `${gameId}|${options.me ?? ''}|${options.anchor ?? ''}`;
  const remembered = memoView.get(engine, viewSlot) as { keys: readonly string[]; view: GameView; index: EntryIndex } | undefined;
  // How many leading entries open to what the last reduce's did (compared entry by entry, no key string built).
  let same = 0;
  if (remembered !== undefined) {
    const before = remembered.keys;
    const n = Math.min(before.length, keys.length);
    while (same < n && before[same] === keys[same]) same++;
    if (same === keys.length && same === before.length) return remembered.view;
  }
  // Entries only ever arrive: when this log extends the last one, its index takes in the new
  // entries only. The index is changed in place, so it is forgotten until this reduce is done.
  const grown = remembered !== undefined && same === remembered.keys.length ? remembered.index : undefined;
  memoView.forget(engine, viewSlot);
  const out: { index?: EntryIndex } = {};
  const view = reduceOpened(gameId, log, openedList, options, engine, grown, out);
  memoView.set(engine, viewSlot, { keys, view, index: out.index! });
  return view;
}

/**
 * Every entry of a game's log opened (remembered per entry). A version 6 entry is read with the
 * game's id; one naming its author by place, with the key lists of the STARTs of the game's
 * creator the log holds (README.md "The compact wire form"): those are opened first, in full form.
 * An entry whose place no START names is listed as ignored until one comes.
 */
export function openLog(gameId: string, log: readonly unknown[], verifier: Verifier = signatureVerifier): Opened[] {
  const plain: WireContext = { game: gameId, keyLists: [] };
  const byPlace = (raw: unknown) => raw instanceof Uint8Array && raw.length > SIGNATURE_BYTES && namesAuthorByPlace(raw.subarray(SIGNATURE_BYTES));
  const openFirst = (raw: unknown) => (byPlace(raw) ? null : memoOpen(raw, verifier, () => openMessage(raw, verifier, plain), gameId));
  // A log that extends the last one opened for this game (the same byte objects first) opens only
  // its new entries, with the last one's key lists, unless a new entry is a CREATE or a START
  // (which may change them): see OpenedLog.
  const last = memoOpenedLog.get(verifier, gameId) as OpenedLog | undefined;
  if (last !== undefined && last.log.length <= log.length && last.log.every((raw, i) => raw === log[i])) {
    const fresh: Opened[] = [];
    let anchors = false;
    for (let i = last.log.length; i < log.length && !anchors; i++) {
      const o = openFirst(log[i]);
      if (o?.ok === true && (o.message.payload.type === 'create' || o.message.payload.type === 'start')) anchors = true;
      fresh.push(o ?? memoOpen(log[i], verifier, () => openMessage(log[i], verifier, last.ctx), last.slot));
    }
    if (!anchors) {
      const opened = fresh.length === 0 ? last.opened : [...last.opened, ...fresh];
      if (fresh.length > 0) memoOpenedLog.set(verifier, gameId, { ...last, log: [...log], opened });
      return [...opened];
    }
  }
  const first = log.map(openFirst);
  const ctx = wireContextOf(
    gameId,
    first.flatMap((o) => (o?.ok === true ? [o.message] : [])),
  );
  const slot = `${gameId}|${ctx.startIds.join(',')}`;
  const opened = first.map((o, i) => o ?? memoOpen(log[i], verifier, () => openMessage(log[i], verifier, ctx), slot));
  memoOpenedLog.set(verifier, gameId, { log: [...log], opened, ctx, slot } satisfies OpenedLog);
  return [...opened];
}

/**
 * The last log opened for a game with a verifier (a copy: callers may grow their array in place),
 * what each entry opened to, and the key lists its compact entries were read with. Each entry's
 * opening is a function of its bytes, the game, the verifier and the STARTs of the game's creator
 * the log holds (memoOpen's slot); those come from the log's CREATEs and STARTs only, so while the
 * new entries hold neither, the entries already opened open as they did.
 */
interface OpenedLog {
  readonly log: readonly unknown[];
  readonly opened: readonly Opened[];
  readonly ctx: WireContext;
  readonly slot: string;
}

/**
 * The game's entries as the reducer opens them (each remembered per entry, so after a reduce this
 * opens nothing again), by id: what a LOCK and a REVEAL name and open (client.ts lockBallot,
 * revealBallot). Entries of other games and entries that do not open are left out.
 */
export function gameMessages(gameId: string, log: readonly unknown[], verifier: Verifier = signatureVerifier): ReadonlyMap<string, Message> {
  const out = new Map<string, Message>();
  for (const opened of openLog(gameId, log, verifier)) {
    if (opened.ok && opened.message.payload.game === gameId) out.set(opened.message.id, opened.message);
  }
  return out;
}

/**
 * The game's entries, indexed the way the fold reads them, kept from one reduce to the next while
 * the log only grows (phones re-reduce on every entry): each new entry is inserted where it goes,
 * so a re-reduce costs the new entries, not the whole log. Lists are in canonical order (sortKey),
 * as sorting the whole set afresh gives them. A phase group is never changed once made: a new
 * entry of a phase replaces its group with a copy, so a group's identity names its entries (the
 * fold's chain of remembered phases compares groups by identity, foldPhases).
 */
interface EntryIndex {
  /** How many log entries the index has taken in. */
  count: number;
  readonly ids: Set<string>;
  readonly messages: Message[];
  /** What opening the log's entries refused (and entries of other games), by id and reason. */
  readonly refused: Map<string, Ignored>;
  /** The protocol version of an unreadable CREATE of this game, if one was seen. */
  legacy: number | undefined;
  /**
   * The game's version from the CREATEs bound to it seen so far (lobby.ts gameVersionOf, their
   * versions in `createVersions`): an entry older than it is not taken in (README.md "Game identity
   * and the START anchor"); minVersion, the lowest version taken in, says whether one came in before
   * such a CREATE, and `lowered` whether the version went down (a CREATE of version 7 after a newer
   * one), which refused entries that count: either means reading afresh.
   */
  floor: number;
  readonly createVersions: Set<number>;
  lowered: boolean;
  minVersion: number;
  /** Per author, per sequence number, the ids signed with it; `twice`: the pairs with two or more. */
  readonly bySeq: Map<string, Map<number, string[]>>;
  readonly twice: Map<string, [string, number]>;
  /** Per author, the highest sequence number. */
  readonly maxSeq: Map<string, number>;
  /** What reduceLobby reads (create, join, start, the start ACKs, hand-overs) and its last answer. */
  readonly lobbyMessages: Message[];
  lobby: { readonly version: number; readonly lobby: Lobby } | undefined;
  lobbyVersion: number;
  readonly chats: Message<ChatPayload>[];
  /** ACKs of phases (not of the START). */
  readonly acks: Message<AckPayload>[];
  /** LOCKs carrying their author's ACK of the phase before theirs (version 5). */
  readonly lockAcks: Message<LockPayload>[];
  readonly groups: Map<string, PhaseGroup>;
}

function emptyIndex(): EntryIndex {
  return {
    count: 0,
    ids: new Set(),
    messages: [],
    refused: new Map(),
    legacy: undefined,
    floor: 0,
    createVersions: new Set(),
    lowered: false,
    minVersion: Infinity,
    bySeq: new Map(),
    twice: new Map(),
    maxSeq: new Map(),
    lobbyMessages: [],
    lobby: undefined,
    lobbyVersion: 0,
    chats: [],
    acks: [],
    lockAcks: [],
    groups: new Map(),
  };
}

/** Inserts m into a list in canonical order (binary search on sortKey). */
function insertSorted<T extends Message>(list: T[], m: T): void {
  const key = sortKey(m);
  // A new index takes entries in canonical order, so most go at the end: one comparison.
  if (list.length === 0 || compareText(sortKey(list[list.length - 1]!), key) < 0) {
    list.push(m);
    return;
  }
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareText(sortKey(list[mid]!), key) < 0) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, m);
}

const LOBBY_READS: ReadonlySet<string> = new Set(['create', 'join', 'start', 'handover']);

/** The group list an entry of a phase goes to, or undefined (not a phase entry). */
function groupList(p: Payload): keyof PhaseGroup | undefined {
  switch (p.type) {
    case 'commit':
      return 'commits';
    case 'final':
      return 'finals';
    case 'lock':
      return 'locks';
    case 'reveal':
      return 'reveals';
    case 'timeout':
      return 'timeouts';
    case 'clock':
      return 'clocks';
    case 'concede':
      return 'concedes';
    case 'alliance':
      return 'alliances';
    case 'handover':
      return 'handovers';
    case 'lot-commit':
      return 'lotCommits';
    default:
      return undefined;
  }
}

/**
 * Takes in one opened entry of this game (a copy of an entry already in is skipped). `made`: the
 * groups made by this same intake, which no fold has read yet, so they may grow in place.
 */
function indexMessage(index: EntryIndex, m: Message, made: Set<PhaseGroup>): void {
  if (index.ids.has(m.id)) return;
  index.ids.add(m.id);
  insertSorted(index.messages, m);
  const p = m.payload;
  index.minVersion = Math.min(index.minVersion, p.v);
  const mine = index.bySeq.get(p.from) ?? new Map<number, string[]>();
  index.bySeq.set(p.from, mine);
  const same = mine.get(p.seq);
  if (same === undefined) mine.set(p.seq, [m.id]);
  else {
    same.push(m.id);
    index.twice.set(`${p.from}|${p.seq}`, [p.from, p.seq]);
  }
  index.maxSeq.set(p.from, Math.max(index.maxSeq.get(p.from) ?? -1, p.seq));
  const startAck = p.type === 'ack' && p.phase === 'start';
  if (LOBBY_READS.has(p.type) || startAck) {
    insertSorted(index.lobbyMessages, m);
    index.lobbyVersion++;
  }
  if (p.type === 'chat') insertSorted(index.chats, m as Message<ChatPayload>);
  else if (p.type === 'ack' && !startAck) insertSorted(index.acks, m as Message<AckPayload>);
  else if (p.type === 'lock' && p.ack != null) insertSorted(index.lockAcks, m as Message<LockPayload>);
  const list = groupList(p);
  if (list === undefined) return;
  const phase = p.type === 'lot-commit' ? LOT_PHASE : 'phase' in p ? p.phase : undefined;
  if (phase === undefined) return;
  const before = index.groups.get(phase);
  if (before !== undefined && made.has(before)) {
    insertSorted(before[list] as Message[], m);
    return;
  }
  // A new group object: the old one may be named by the fold's chain (see EntryIndex).
  const group = before === undefined ? emptyGroup() : copyGroup(before);
  insertSorted(group[list] as Message[], m);
  made.add(group);
  index.groups.set(phase, group);
}

/** Takes in the log entries from index.count on (all of them for a new index), in canonical order. */
function indexLog(index: EntryIndex, gameId: string, log: readonly unknown[], openedList: readonly Opened[]): void {
  const fresh: Message[] = [];
  for (let i = index.count; i < log.length; i++) {
    const opened = openedList[i]!;
    if (opened.ok) {
      if (opened.message.payload.game !== gameId) index.refused.set(`${opened.message.id}|wrong-game`, { id: opened.message.id, reason: 'wrong-game' });
      else fresh.push(opened.message);
      continue;
    }
    index.refused.set(`${opened.id}|${opened.reason}`, { id: opened.id, reason: opened.reason });
    if (opened.reason === 'unknown-protocol-version') {
      const old = legacyEntry(log[i]);
      if (old !== null && old.game === gameId && old.type === 'create') index.legacy = old.version;
    }
  }
  for (const { payload: p } of fresh) if (p.type === 'create' && gameIdFor(p.from, p.salt, p.settings) === gameId) index.createVersions.add(p.v);
  const floor = gameVersionOf(index.createVersions) ?? 0;
  if (floor < index.floor) index.lowered = true;
  index.floor = floor;
  // Sorted first, so a new index's lists grow at their ends.
  const made = new Set<PhaseGroup>();
  for (const m of fresh.map((f) => [sortKey(f), f] as const).sort((a, b) => compareText(a[0], b[0]))) {
    if (m[1].payload.v < index.floor) index.refused.set(`${m[1].id}|older-version-than-game`, { id: m[1].id, reason: 'older-version-than-game' });
    else indexMessage(index, m[1], made);
  }
  index.count = log.length;
}

function reduceOpened(
  gameId: string,
  log: readonly unknown[],
  openedList: readonly Opened[],
  options: ReduceOptions,
  engine: Engine,
  previous: EntryIndex | undefined,
  out: { index?: EntryIndex },
): GameView {
  const work = options.work ?? { steps: 0 };
  work.steps += log.length;
  // Escrow checks are remembered with the verifier, as its signatures are (memo.ts escrowChecksOf).
  const checks = escrowChecksOf(options.verifier ?? signatureVerifier);
  const ignored = new IgnoredList();
  const misconduct: Misconduct[] = [];
  // With a previous index, only the entries past its count are new (the rest are in it already).
  const index = previous ?? emptyIndex();
  indexLog(index, gameId, log, openedList);
  out.index = index;
  for (const i of index.refused.values()) ignored.add(i.id, i.reason);
  const legacy = index.legacy;
  const messages = index.messages;

  // Two entries of one author with one sequence number: misconduct.
  const twice = [...index.twice.values()].sort((a, b) => compareText(a[0], b[0]) || compareText(String(a[1]), String(b[1])));
  for (const [author, seq] of twice) misconduct.push({ author, kind: 'same-seq', ids: [...index.bySeq.get(author)!.get(seq)!].sort() });
  const nextSeq = options.me === undefined ? 0 : (index.maxSeq.get(options.me) ?? -1) + 1;

  // The lobby reads its own kinds of entries only, and is the same while none of them arrives.
  if (index.lobby === undefined || index.lobby.version !== index.lobbyVersion) {
    const fresh = reduceLobby(gameId, index.lobbyMessages, {
      ...(options.me === undefined ? {} : { me: options.me }),
      ...(options.anchor === undefined ? {} : { anchor: options.anchor }),
    });
    index.lobby = { version: index.lobbyVersion, lobby: fresh };
  }
  const lobby = index.lobby.lobby;
  ignored.addAll(lobby.ignored);
  misconduct.push(...lobby.misconduct);
  const joined = new Set(lobby.players.map((p) => p.key));
  const base = {
    gameId,
    players: lobby.players,
    accepted: lobby.accepted,
    starts: lobby.starts,
    acceptances: lobby.acceptances,
    acked: {} as Record<string, string[]>,
    anchored: lobby.anchored,
    forks: lobby.forks,
    members: lobby.members,
    spectators: [] as string[],
    phases: [] as ResolvedPhase[],
    chats: [] as GameView['chats'][number][],
    nextSeq,
    neutral: [] as readonly Power[],
    hashMismatches: [] as HashMismatch[],
  };
  // What every status's view carries, as it stands when the view is returned. Each return below
  // builds its status's member (view.ts) and `satisfies` it: the compiler checks its fields.
  const common = (): ViewCommon => ({ ...base, misconduct: sortMisconduct(misconduct), ignored: ignored.list() });

  const create = lobby.create;
  if (create === undefined) {
    if (legacy !== undefined) {
      const incompatible = { reason: 'protocol-version', game: `protocol ${legacy}`, ours: `protocol ${PROTOCOL_VERSION}` };
      return { ...common(), status: 'incompatible', incompatible } satisfies IncompatibleView;
    }
    for (const m of messages) if (m.payload.type !== 'create') ignored.add(m.id, 'no-game');
    return { ...common(), status: 'no-game' } satisfies NoGameView;
  }
  // The game's version is its CREATE's: an entry of an older one is not read at all (README.md).
  // The index takes none in once it holds the CREATE; one taken in before means reading afresh.
  if (index.lowered) return reduceOpened(gameId, log, openedList, options, engine, undefined, out);
  if (index.minVersion < create.payload.v) {
    const floor = create.payload.v;
    const older = (o: Opened): Opened =>
      o.ok && o.message.payload.game === gameId && o.message.payload.v < floor ? { ok: false, id: o.message.id, reason: 'older-version-than-game' } : o;
    return reduceOpened(gameId, log, openedList.map(older), options, engine, undefined, out);
  }
  const settings = create.payload.settings;
  const header = { creator: create.payload.from, settings };
  const startPosition = engine.start(settings.variant);
  if (settings.engine !== engine.version || startPosition === null) {
    const reason = startPosition === null ? 'unknown-variant' : 'engine-version';
    const incompatible = { reason, game: `${settings.engine} ${settings.variant}`, ours: engine.version };
    const counted = lobby.start === undefined ? {} : { start: lobby.start.id };
    return { ...common(), ...header, ...counted, status: 'incompatible', incompatible } satisfies IncompatibleView;
  }
  // From here the variant is known: who starts neutral, for every status (the fold says it once playing).
  base.neutral = variantOf(settings.variant).neutral;
  const start = lobby.start;
  // Only a game not under way lists every phase entry (as not started).
  const phaseMessages = () => messages.filter((m) => !LOBBY_TYPES.has(m.payload.type) && !(m.payload.type === 'ack' && m.payload.phase === 'start'));
  const chatMessages = index.chats;
  if (start === undefined) {
    for (const m of phaseMessages()) ignored.add(m.id, 'game-not-started');
    base.chats = checkChats(chatMessages, joined, joined, ignored);
    return { ...common(), ...header, status: lobby.forks.length > 0 ? 'forked' : 'lobby' } satisfies LobbyView;
  }
  const variant = variantOf(settings.variant);
  const members = new Set(lobby.members);
  base.spectators = [...joined].filter((k) => !members.has(k)).sort(compareText);
  if (lobby.accepted.length < lobby.members.length) {
    for (const m of phaseMessages()) ignored.add(m.id, 'game-not-started');
    base.chats = checkChats(chatMessages, members, members, ignored);
    // Until the first phase opens, the powers are held as the START names them.
    const named = start.payload.roster === null ? {} : { roster: start.payload.roster, holders: start.payload.roster };
    return { ...common(), ...header, start: start.id, ...named, status: 'starting' } satisfies StartingView;
  }

  const groups = index.groups;
  const acks = index.acks;

  // The game's version, its CREATE's (lobby.ts gameVersionOf), says its clock (messages.ts CLOCK_VERSION).
  const gameVersion = create.payload.v;
  // The first opening time: the clock median of the START's and its acceptances' claims.
  const lobbyOpening = clockMedian([...lobby.startClaims.values()], gameVersion) ?? start.payload.time;
  let roster: Record<Power, string>;
  let firstOpening = lobbyOpening;
  let lotView: LotView | undefined;
  if (start.payload.roster === null) {
    const lot = lotBallot(lobby, settings, gameVersion, groups.get(LOT_PHASE) ?? emptyGroup(), lobbyOpening, ignored, misconduct, work, checks);
    lotView = lot.view;
    if (lot.roster === undefined) {
      for (const [key, g] of groups) if (key !== LOT_PHASE) for (const m of Object.values(g).flat() as Message[]) ignored.add(m.id, 'game-not-started');
      base.chats = checkChats(chatMessages, members, members, ignored);
      return { ...common(), ...header, start: start.id, status: 'lot', lot: lotView } satisfies LotStageView;
    }
    roster = lot.roster;
    firstOpening = lot.opening;
  } else {
    roster = { ...start.payload.roster };
    if (groups.has(LOT_PHASE)) for (const m of Object.values(groups.get(LOT_PHASE)!).flat() as Message[]) ignored.add(m.id, 'no-lot-in-this-game');
  }

  const fold = foldPhases({
    lobby,
    gameId,
    startId: start.id,
    startPosition,
    openedAt: firstOpening,
    settings,
    variant,
    roster,
    joined,
    escrowKeys: lobby.escrowKeys,
    ...(lobby.pinned ? { joinEscrows: lobby.joinEscrows } : {}),
    groups,
    chainSlot: `${options.me ?? ''}|${options.anchor ?? ''}`,
    engine,
    ignored,
    misconduct,
    work,
    checks,
    revealComplaints: revealComplaintsIn(lobby),
    gameVersion,
  });
  // The escrow key a hand-over pinned is the one shares are dealt to (view.players' `escrow`).
  base.players = withEscrowKeys(base.players, phaseEscrowKeys(lobby.escrowKeys, fold.handedEscrow));
  const players = new Set([...members, ...fold.handedTo]);
  base.members = [...players].sort(compareText);
  base.spectators = [...joined].filter((k) => !players.has(k)).sort(compareText);
  base.chats = checkChats(chatMessages, players, members, ignored);
  const resolvedHashes = new Map(fold.phases.map((ph) => [ph.key, ph.stateHash]));
  const noteAck = (phase: string, from: string, hash: string, expected: string) => {
    (base.acked[phase] ??= []).push(from);
    if (expected !== hash) base.hashMismatches.push({ phase, author: from, claimed: hash, expected });
  };
  for (const ack of acks) {
    const expected = resolvedHashes.get(ack.payload.phase);
    if (!players.has(ack.payload.from)) ignored.add(ack.id, 'ack-by-non-player');
    else if (expected === undefined) ignored.add(ack.id, 'ack-for-unresolved-phase');
    else noteAck(ack.payload.phase, ack.payload.from, ack.payload.hash, expected);
  }
  // Version 5: a LOCK of phase k carries its author's ACK of the phase resolved just before k (the
  // open phase's LOCK: of the last resolved one). It is the LOCK's author's, as its signature says;
  // it changes nothing else (the LOCK is read by the ballot as any LOCK), and one that names no
  // resolved phase counts for none.
  const order = fold.phases.map((ph) => ph.key);
  // Each resolved phase's place in the fold (keys are distinct: the fold visits a phase once).
  const placeOf = new Map(order.map((key, i) => [key, i]));
  const openKey = fold.current?.key;
  for (const lock of index.lockAcks) {
    const at = placeOf.get(lock.payload.phase) ?? -1;
    const before = at > 0 ? order[at - 1] : at === -1 && lock.payload.phase === openKey ? order.at(-1) : undefined;
    const expected = before === undefined ? undefined : resolvedHashes.get(before);
    if (before !== undefined && expected !== undefined && players.has(lock.payload.from)) noteAck(before, lock.payload.from, lock.payload.ack!, expected);
  }
  for (const [phase, keys] of Object.entries(base.acked)) base.acked[phase] = uniqueSorted(keys);
  base.hashMismatches.sort((a, b) => compareText(a.phase, b.phase) || compareText(a.author, b.author) || compareText(a.claimed, b.claimed));
  base.phases = fold.phases;
  base.neutral = fold.neutral;
  const played = {
    ...common(),
    ...header,
    start: start.id,
    roster,
    ...(lotView === undefined ? {} : { lot: lotView }),
    rules: fold.rules,
    position: fold.position,
    stateHash: memoPositionHash(fold.position, () => stateHash(fold.position)),
    holders: fold.holders,
    seats: fold.seats,
    alliances: fold.alliances,
    ...(fold.toss === undefined ? {} : { toss: fold.toss }),
  };
  if (fold.result !== undefined) return { ...played, status: 'finished', result: fold.result } satisfies FinishedView;
  return { ...played, status: 'playing', ...(fold.current === undefined ? {} : { current: fold.current }) } satisfies PlayingView;
}

/**
 * Chats everyone can list: by a player of the game, with a box for every member of the START and
 * for no one but players (so the recipients, always the same set, say nothing), public time 0.
 */
function checkChats(
  chats: readonly Message<ChatPayload>[],
  players: ReadonlySet<string>,
  members: ReadonlySet<string>,
  ignored: IgnoredList,
): GameView['chats'][number][] {
  const out: GameView['chats'][number][] = [];
  for (const m of chats) {
    const keys = Object.keys(m.payload.keys);
    const reason = !players.has(m.payload.from)
      ? 'chat-by-non-player'
      : m.payload.time !== 0
        ? 'chat-public-time'
        : keys.some((k) => !players.has(k)) || [...members].some((k) => m.payload.keys[k] === undefined)
          ? 'chat-bad-recipients'
          : null;
    if (reason !== null) ignored.add(m.id, reason);
    else out.push({ id: m.id, from: m.payload.from, box: { keys: m.payload.keys, nonce: m.payload.nonce, sealed: m.payload.sealed } });
  }
  return out;
}

function sortMisconduct(list: readonly Misconduct[]): Misconduct[] {
  const key = (m: Misconduct) => `${m.kind}|${m.phase ?? ''}|${m.author}|${m.slot ?? ''}|${m.ids.join(',')}`;
  const unique = new Map(list.map((m) => [key(m), m]));
  return [...unique.entries()].sort((a, b) => compareText(a[0], b[0])).map(([, m]) => m);
}

type LotOutcome = { view: LotView; roster?: Record<Power, string>; opening: number };

/**
 * The lot ballot, remembered like a resolved phase (PhaseMemo): the same participants, escrow keys,
 * creator, settings, opening time and lot entries give the same outcome and reports.
 */
function lotBallot(
  lobby: Lobby,
  settings: Settings,
  gameVersion: number,
  group: PhaseGroup,
  openedAt: number,
  ignored: IgnoredList,
  misconduct: Misconduct[],
  work: WorkCounter,
  checks: EscrowChecks,
): LotOutcome {
  const revealComplaints = revealComplaintsIn(lobby);
  const inKey = `${canonicalText({ participants: lobby.members, escrow: [...lobby.escrowKeys].sort((a, b) => compareText(a[0], b[0])), creator: lobby.create!.payload.from, settings })}|${openedAt}|${revealComplaints}|${gameVersion}|${groupIds(group)}`;
  const slot = `${lobby.create!.payload.game}|${LOT_PHASE}`;
  const hit = memoPhase.get(slot) as { inKey: string; outcome: LotOutcome; ignored: Ignored[]; misconduct: Misconduct[] } | undefined;
  if (hit !== undefined && hit.inKey === inKey) {
    ignored.addAll(hit.ignored);
    misconduct.push(...hit.misconduct);
    return hit.outcome;
  }
  const ownIgnored = new IgnoredList();
  const ownMisconduct: Misconduct[] = [];
  const outcome = foldLot(lobby, settings, gameVersion, group, openedAt, ownIgnored, ownMisconduct, work, checks);
  memoPhase.set(slot, { inKey, outcome, ignored: ownIgnored.list(), misconduct: ownMisconduct });
  ignored.addAll(ownIgnored.list());
  misconduct.push(...ownMisconduct);
  return outcome;
}

/** The START's version decides whether REVEALs may complain (ballot.ts revealOwes). */
const revealComplaintsIn = (lobby: Lobby) => revealComplaintsAllowed(lobby.start?.payload);

function foldLot(
  lobby: Lobby,
  settings: Settings,
  gameVersion: number,
  group: PhaseGroup,
  openedAt: number,
  ignored: IgnoredList,
  misconduct: Misconduct[],
  work: WorkCounter,
  checks: EscrowChecks,
): LotOutcome {
  const participants = lobby.members;
  const isParticipant = new Set(participants);
  const commits: BallotCommit[] = [];
  const holders = (from: string) => escrowHolders(participants, from).length;
  for (const m of group.lotCommits) {
    const p = m.payload;
    const derived = p.v >= DERIVED_ESCROW_VERSION;
    const shape = escrowShape(holders(p.from), derived);
    const reason = !isParticipant.has(p.from)
      ? 'lot-by-non-participant'
      : p.escrow.c.length !== shape.commitments ||
          p.escrow.s.length !== shape.shares ||
          (p.escrow.e !== null) !== shape.ephemeral ||
          !escrowPointsChecked(p.escrow, checks, derived)
        ? 'commit-bad-escrow'
        : !sealedSizeAllowed(p.sealed, 0, p.v)
          ? 'commit-bad-size'
          : null;
    if (reason !== null) ignored.add(m.id, reason);
    else commits.push({ id: m.id, slot: p.from, from: p.from, seq: p.seq, time: p.time, sealed: p.sealed, escrow: p.escrow, derived });
  }
  const finals: BallotFinal[] = commits.map((c) => ({ id: c.id, slot: c.slot, from: c.from, seq: c.seq, time: c.time, commit: c.id }));
  const deadline = openedAt + settings.deadlines.lot;
  const revealDeadline =
    sealedAt(
      participants,
      commits.map((c) => ({ key: c.from, time: c.time })),
      gameVersion,
    ) + settings.deadlines.reveal;
  const committed = new Set(commits.map((c) => c.slot));
  const clocks = clocksOf(group.clocks.filter((c) => isParticipant.has(c.payload.from)));
  const timeouts = countTimeouts({
    slots: participants,
    holderOf: (s) => s,
    players: participants,
    threshold: (s) => (committed.has(s) ? Math.min(deadline, revealDeadline) : deadline),
    votes: group.timeouts,
    clocks,
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
    revealComplaints: revealComplaintsIn(lobby),
    gameVersion,
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
    clocked: [...clocks.keys()].sort(compareText),
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
  return { view: { ...view, order }, roster, opening: nextOpening(openedAt, participants, tally, deadline, gameVersion) };
}

interface FoldInput {
  /** The lobby's answer every input below but the roster, the opening time, the groups and the reports comes from (FixedKeys). */
  readonly lobby: Lobby;
  readonly gameId: string;
  readonly startId: string;
  readonly startPosition: Position;
  readonly openedAt: number;
  readonly settings: Settings;
  readonly variant: Variant;
  readonly roster: Readonly<Record<Power, string>>;
  readonly joined: ReadonlySet<string>;
  readonly escrowKeys: ReadonlyMap<string, string | null>;
  /** Given when the START pins escrow keys (version 5 on): each key's JOINs' escrow keys, what a hand-over may pin. */
  readonly joinEscrows?: ReadonlyMap<string, ReadonlySet<string>>;
  readonly groups: ReadonlyMap<string, PhaseGroup>;
  /** Names the fold's chain of remembered phases (the view's slot: game, me, anchor). */
  readonly chainSlot: string;
  readonly engine: Engine;
  readonly ignored: IgnoredList;
  readonly misconduct: Misconduct[];
  readonly work: WorkCounter;
  readonly checks: EscrowChecks;
  /** The START is of version 6 or later: REVEALs may complain (ballot.ts revealOwes); fixed by startId. */
  readonly revealComplaints: boolean;
  /** The game's version (its CREATE's: lobby.ts gameVersionOf), which says its clock (messages.ts CLOCK_VERSION). */
  readonly gameVersion: number;
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
  alliances: AllianceView[];
  toss?: TossView;
  handedTo: string[];
  /** Escrow keys pinned by counted hand-overs (recipient -> key). */
  handedEscrow: Readonly<Record<string, string>>;
}

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
  /** The state carried out of the phase (its alliances a copy no later phase changes). */
  readonly state: FoldState;
  readonly handedTo: readonly string[];
  readonly result?: GameResult;
}

/** One resolved phase of a fold: its key, the group it read (by identity; undefined: no entries) and its outcome. */
interface ChainLink {
  readonly key: string;
  readonly raw: PhaseGroup | undefined;
  readonly memo: PhaseMemo;
}

/**
 * The resolved phases of the last fold of a game, in order, with what the whole fold was given
 * (fixedKey, the first opening time and position). Phase i's outcome is a function of those, of
 * the state entering it (phase i-1's outcome) and of its group; groups are never changed (a new
 * entry makes a new group, EntryIndex), so while every group up to phase i is the same object,
 * phase i's outcome is the remembered one. An entry for an old phase (a late reveal, an ACK's
 * phase is not a group, a second FINAL) makes a new group there: the fold resumes from that phase.
 */
interface PhaseChain {
  readonly fixedKey: string;
  readonly openedAt: number;
  readonly memoKey: string;
  readonly links: readonly ChainLink[];
}

const groupIds = (g: PhaseGroup): string => (Object.values(g) as Message[][]).map((list) => list.map((m) => m.id).join(',')).join(';');

/**
 * What a fold reads that is fixed for the whole game, as strings (see PhaseMemo): `fixedKey` names
 * the game's inputs, `memoKey` the starting position with the rules in force. Both are functions
 * of the lobby's answer (game, START, settings, players, escrow keys), of the engine and of the
 * roster, so they are remembered by the lobby answer's identity and checked against the engine
 * and the roster (a lot game's roster comes from the lot, not the lobby).
 */
interface FixedKeys {
  readonly engine: Engine;
  readonly roster: string;
  readonly fixedKey: string;
  readonly memoKey: string;
}

function fixedKeysOf(input: FoldInput, rules: VariantRules): FixedKeys {
  const { settings, variant, engine } = input;
  const roster = canonicalText(input.roster);
  const have = memoFixed.get(input.lobby) as FixedKeys | undefined;
  if (have !== undefined && have.engine === engine && have.roster === roster) return have;
  // Everything fixed for the whole fold that a phase reads, as one string (see PhaseMemo).
  const fixedKey = canonicalText({
    game: input.gameId,
    start: input.startId,
    version: input.gameVersion,
    settings,
    engine: engine.version,
    roster: input.roster,
    joined: [...input.joined].sort(compareText),
    escrow: [...input.escrowKeys].sort((a, b) => compareText(a[0], b[0])),
    ...(input.joinEscrows === undefined
      ? {}
      : { joinEscrows: [...input.joinEscrows].map(([k, e]) => [k, [...e].sort(compareText)]).sort((a, b) => compareText(a[0] as string, b[0] as string)) }),
  });
  const memoKey = `${engine.version}|${hashHex(canonicalEncode([input.startPosition, rules, variant.id]))}`;
  const fresh: FixedKeys = { engine, roster, fixedKey, memoKey };
  memoFixed.set(input.lobby, fresh);
  return fresh;
}

function foldPhases(input: FoldInput): Fold {
  const { settings, variant } = input;
  // The variant's switches, then the game's own (settings.rules) on top.
  const rules = { ...variant.rules, ...settings.rules };
  const playing: Variant = {
    ...variant,
    rules,
    victory: variant.victory.by === 'power' ? { ...variant.victory, needed: rules.victoryCentres } : variant.victory,
  };
  const { fixedKey, memoKey: initialMemoKey } = fixedKeysOf(input, rules);
  const phases: ResolvedPhase[] = [];
  const visited = new Set<string>();
  const handedTo = new Set<string>();
  let state: FoldState = {
    position: input.startPosition,
    openedAt: input.openedAt,
    memoKey: initialMemoKey,
    holders: { ...input.roster },
    conceded: new Set(),
    alliances: new Alliances(),
    handedEscrow: {},
  };
  let current: OpenPhase | undefined;
  let result: GameResult | undefined;
  let setup = variantPhase(variant, state.position.phase, null);
  // The chain of the last fold of this game: while each phase's group is the very object the last
  // fold read, the state entering the next phase is the one it remembered, so the fold resumes
  // at the first phase whose entries changed (see PhaseChain).
  const chainSlot = `${input.gameId}|${input.chainSlot}`;
  const before = memoChain.get(chainSlot) as PhaseChain | undefined;
  const reusable =
    before !== undefined && before.fixedKey === fixedKey && before.openedAt === input.openedAt && before.memoKey === initialMemoKey ? before.links : [];
  const links: ChainLink[] = [];
  /** Whether every phase so far was taken from the chain (then the state entering this one is the chain's). */
  let resuming = true;

  /** Takes a remembered phase's outcome as the fold's own; true when the game ended there. */
  const replay = (hit: PhaseMemo): boolean => {
    input.ignored.addAll(hit.ignored);
    input.misconduct.push(...hit.misconduct);
    if (hit.phase !== undefined) phases.push(hit.phase);
    // The remembered alliances are shared, not copied: nothing changes an Alliances in place (the
    // signals step clones it before adding, a remembered phase keeps its own clone).
    state = hit.state;
    for (const k of hit.handedTo) handedTo.add(k);
    if (hit.result === undefined) return false;
    result = hit.result;
    return true;
  };

  for (let guard = 0; guard < MAX_PHASES; guard++) {
    const key = phaseKey(state.position.phase);
    if (visited.has(key)) break;
    visited.add(key);
    setup = variantPhase(variant, state.position.phase, state.toss?.winner ?? null);
    const link = resuming ? reusable[guard] : undefined;
    if (link !== undefined && link.key === key && link.raw === input.groups.get(key)) {
      links.push(link);
      if (replay(link.memo)) break;
      continue;
    }
    resuming = false;
    state = { ...state, holders: holdersStep(state.holders, input.roster, variant, setup, state.toss) };
    const group = input.groups.get(key);
    const raw = group ?? emptyGroup();
    // Built only when needed: to compare with a remembered outcome of this phase, or to remember
    // this one's (the open phase, read at every re-reduce, usually needs neither).
    const entering = state;
    let inKey: string | undefined;
    const inKeyOf = (): string =>
      (inKey ??= `${fixedKey}|${entering.memoKey}|${entering.openedAt}|${canonicalText(entering.holders)}|${[...entering.conceded].sort().join(',')}|${entering.toss === undefined ? '-' : canonicalText(entering.toss)}|${entering.alliances.key()}|${canonicalText(entering.handedEscrow)}|${groupIds(raw)}`);
    const memoSlot = `${input.gameId}|${key}`;
    const hit = memoPhase.get(memoSlot) as PhaseMemo | undefined;
    if (hit !== undefined && hit.inKey === inKeyOf()) {
      if (links.length === guard) links.push({ key, raw: group, memo: hit });
      if (replay(hit)) break;
      continue;
    }
    const step = foldPhase({ key, state, raw, setup, input, rules, playing });
    input.ignored.addAll(step.ignored);
    input.misconduct.push(...step.misconduct);
    state = step.state;
    for (const k of step.handedTo) handedTo.add(k);
    if (step.phase !== undefined) phases.push(step.phase);
    if (step.open !== undefined) {
      // The open phase is not remembered: it is the one that changes as entries arrive.
      current = step.open;
      break;
    }
    const memo: PhaseMemo = {
      inKey: inKeyOf(),
      ...(step.phase === undefined ? {} : { phase: step.phase }),
      ignored: step.ignored,
      misconduct: step.misconduct,
      state: { ...state, alliances: state.alliances.clone() },
      handedTo: step.handedTo,
      ...(step.result === undefined ? {} : { result: step.result }),
    };
    memoPhase.set(memoSlot, memo);
    if (links.length === guard) links.push({ key, raw: group, memo });
    if (step.result !== undefined) {
      result = step.result;
      break;
    }
  }

  memoChain.set(chainSlot, { fixedKey, openedAt: input.openedAt, memoKey: initialMemoKey, links } satisfies PhaseChain);
  for (const [key, group] of input.groups) {
    if (visited.has(key) || key === LOT_PHASE) continue;
    for (const m of Object.values(group).flat() as Message[]) input.ignored.add(m.id, 'phase-not-reached');
  }
  const alliancesView = state.alliances.standing().map((a) => ({ powers: a.powers, since: phaseKey(a.since) }));
  return {
    rules,
    phases,
    current,
    position: state.position,
    result,
    holders: { ...state.holders },
    neutral: [...setup.neutral],
    seats: setup.seats.map((s) => ({ id: s.id, powers: [...s.powers] })),
    alliances: alliancesView,
    ...(state.toss === undefined ? {} : { toss: state.toss }),
    handedTo: [...handedTo].sort(compareText),
    handedEscrow: state.handedEscrow,
  };
}

/** What one phase of the fold gave: the state carried out, and the phase resolved, left open, or ending the game. */
interface PhaseStep {
  readonly state: FoldState;
  readonly phase?: ResolvedPhase;
  readonly open?: OpenPhase;
  readonly result?: GameResult;
  readonly handedTo: string[];
  readonly ignored: Ignored[];
  readonly misconduct: Misconduct[];
}

/** One phase, not remembered: the steps of fold.ts in order (godip's Next()). */
function foldPhase(args: {
  readonly key: string;
  readonly state: FoldState;
  readonly raw: PhaseGroup;
  readonly setup: VariantPhaseSetup;
  readonly input: FoldInput;
  readonly rules: VariantRules;
  readonly playing: Variant;
}): PhaseStep {
  const { key, raw, setup, input, rules } = args;
  const { engine, settings } = input;
  const neutral = setup.neutral;
  const ignored = new IgnoredList();
  const misconduct: Misconduct[] = [];
  const done = (state: FoldState, rest: Partial<PhaseStep> = {}): PhaseStep => ({ handedTo: [], ...rest, state, ignored: ignored.list(), misconduct });

  const concededBefore = args.state.conceded;
  const signals = signalsStep(args.state, raw.concedes, raw.alliances, neutral);
  ignored.addAll(signals.ignored);
  const state: FoldState = { ...args.state, conceded: signals.conceded, alliances: signals.alliances };

  const here = state.position;
  const facts = memoFacts(state.memoKey, () => {
    const centres = centreCounts(here);
    return {
      ordersNeeded: engine.ordersNeeded(here),
      withUnits: POWERS.filter((p) => here.units.some((u) => u.power === p)),
      withCentres: POWERS.filter((p) => centres[p] > 0),
    };
  });
  const seats = seatsStep(facts, neutral, state.holders, concededBefore, state.conceded);
  const conceding = concessionEnding(seats.survivors, state.conceded, key);
  if (conceding !== undefined) return done(state, { result: conceding });

  const escrowKeys = phaseEscrowKeys(input.escrowKeys, state.handedEscrow);
  const ballot = ballotStep({
    key,
    position: state.position,
    openedAt: state.openedAt,
    settings,
    holders: state.holders,
    neutral,
    seats,
    entries: raw,
    escrowKeys,
    work: input.work,
    checks: input.checks,
    revealComplaints: input.revealComplaints,
    gameVersion: input.gameVersion,
  });
  ignored.addAll(ballot.ignored);
  misconduct.push(...ballot.misconduct);
  const drawVoters = state.position.phase.kind === 'movement' ? seats.survivors : [];
  if (!ballot.tally.closed) return done(state, { open: openPhaseStep({ key, state, setup, settings, seats, ballot, drawVoters }) });

  const chosen = chosenOrdersStep({
    key,
    required: seats.required,
    conceded: state.conceded,
    holders: state.holders,
    tally: ballot.tally,
    timedOut: ballot.timedOut,
  });
  ignored.addAll(chosen.ignored);
  misconduct.push(...chosen.misconduct);
  const drawn = drawEnding(drawVoters, chosen.drawYes, key);
  if (drawn !== undefined) return done(state, { result: drawn });

  const adjudged = adjudicationStep({ key, state, variant: input.variant, rules, setup, engine, facts, chosen, ballot, drawVoters });
  const handed = handoverStep({
    messages: raw.handovers,
    holders: state.holders,
    conceded: state.conceded,
    players: seats.players,
    timedOut: ballot.timedOut,
    joined: input.joined,
    startId: input.startId,
    ...(input.joinEscrows === undefined ? {} : { pins: { joinEscrows: input.joinEscrows, pinned: escrowKeys } }),
    handedEscrow: state.handedEscrow,
  });
  ignored.addAll(handed.ignored);
  const next: FoldState = {
    position: adjudged.next,
    openedAt: nextOpening(state.openedAt, seats.ballotKeys, ballot.tally, ballot.deadline, input.gameVersion),
    memoKey: adjudged.memoKey,
    holders: handed.holders,
    conceded: handed.conceded,
    handedEscrow: handed.handedEscrow,
    ...(adjudged.toss === undefined ? {} : { toss: adjudged.toss }),
    alliances: state.alliances,
  };
  const result = endingStep({ key, playing: args.playing, position: next.position, seats: setup.seats, alliances: next.alliances, endYear: settings.endYear });
  return done(next, { phase: adjudged.resolved, handedTo: handed.handedTo, ...(result === undefined ? {} : { result }) });
}

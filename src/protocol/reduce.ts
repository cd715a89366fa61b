// reduceLog: the whole game as a pure function of the set of log entries. Entries are opened,
// deduplicated by id and sorted canonically before anything is folded, so delivery order and
// duplicates cannot matter; anything that does not fit is listed in `ignored`, never thrown.
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
} from '../rules';
import { compareText, fromBase64, utf8 } from './bytes';
import { canonicalEncode, hashHex, stateHash } from './canonical';
import { ancestry, chainedCommits, commonAncestor, forkedCommits } from './commits';
import { standardEngine, phaseKey, type Engine } from './engine';
import { naclVerifier, openMessage, type Message, type Verifier } from './envelope';
import { reduceLobby } from './lobby';
import {
  TYPE_ORDER,
  type AckPayload,
  type AlliancePayload,
  type HandoverPayload,
  type ChatPayload,
  type CommitPayload,
  type ConcedePayload,
  type DrawPayload,
  type DrawRevealPayload,
  type Payload,
  type RevealPayload,
  type Settings,
  type TimeoutPayload,
} from './messages';
import { memoAdjudicate, memoFacts, memoOpen, memoUnseal, type Unsealed } from './memo';
import { coinFromPlain, openSealed, ordersFromPlain } from './seal';
import { tallyDraw } from './draw';
import { countTimeouts, openingTime, revealGrace } from './timeout';
import { Alliances, handoversDone, isTossPhase, tossWinner, variantOf } from './variants';
import type { GameResult, GameView, HashMismatch, Ignored, Misconduct, OpenPhase, ResolvedPhase, TossView } from './view';

export interface ReduceOptions {
  readonly engine?: Engine;
  readonly verifier?: Verifier;
}

/** Entries the lobby (or the chat list) accounts for; everything else belongs to a phase. */
const LOBBY_TYPES: ReadonlySet<string> = new Set(['create', 'join', 'start', 'chat', 'lot-commit', 'lot-reveal']);

/** A long game is a few hundred phases; this only guards against an engine that never advances. */
const MAX_PHASES = 2000;

interface PhaseGroup {
  commits: Message<CommitPayload>[];
  reveals: Message<RevealPayload>[];
  timeouts: Message<TimeoutPayload>[];
  draws: Message<DrawPayload>[];
  drawReveals: Message<DrawRevealPayload>[];
  concedes: Message<ConcedePayload>[];
  alliances: Message<AlliancePayload>[];
  handovers: Message<HandoverPayload>[];
}

const emptyGroup = (): PhaseGroup => ({ commits: [], reveals: [], timeouts: [], draws: [], drawReveals: [], concedes: [], alliances: [], handovers: [] });

function sortKey(m: Message): string {
  const p = m.payload as Payload & { phase?: string };
  const order = String(TYPE_ORDER.indexOf(p.type)).padStart(2, '0');
  return `${order}|${p.phase ?? ''}|${p.from}|${String(p.seq).padStart(16, '0')}|${m.id}`;
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
  const verifier = options.verifier ?? naclVerifier;
  const ignored = new IgnoredList();
  const misconduct: Misconduct[] = [];

  const byId = new Map<string, Message>();
  for (const raw of log) {
    const opened = memoOpen(raw, verifier, () => openMessage(raw, verifier));
    if (!opened.ok) ignored.add(opened.id, opened.reason);
    else if (opened.message.payload.game !== gameId) ignored.add(opened.message.id, 'wrong-game');
    else byId.set(opened.message.id, opened.message);
  }
  const messages = [...byId.values()].map((m) => [sortKey(m), m] as const).sort((a, b) => compareText(a[0], b[0])).map(([, m]) => m);

  const bySeq = new Map<string, string[]>();
  for (const m of messages) {
    const key = `${m.payload.from}|${m.payload.seq}`;
    bySeq.set(key, [...(bySeq.get(key) ?? []), m.id]);
  }
  for (const [key, ids] of [...bySeq].sort((a, b) => compareText(a[0], b[0]))) {
    if (ids.length > 1) misconduct.push({ author: key.split('|')[0]!, kind: 'same-seq', ids: [...ids].sort() });
  }

  const lobby = reduceLobby(gameId, messages);
  ignored.addAll(lobby.ignored);
  misconduct.push(...lobby.misconduct);
  const base = {
    gameId,
    players: lobby.players,
    accepted: lobby.accepted,
    lots: lobby.lots,
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
    for (const m of messages) if (m.payload.type !== 'create') ignored.add(m.id, 'no-game');
    return finish({ status: 'no-game' });
  }
  const settings = create.payload.settings;
  const players = new Set(lobby.players.map((p) => p.key));
  base.chats = messages
    .filter((m): m is Message<ChatPayload> => m.payload.type === 'chat')
    .filter((m) => players.has(m.payload.from) || (ignored.add(m.id, 'chat-by-non-player'), false))
    .map((m) => ({ id: m.id, from: m.payload.from, time: m.payload.time, recipients: Object.keys(m.payload.keys).sort(compareText) }));
  const header = { creator: create.payload.from, settings };

  const startPosition = engine.start(settings.variant);
  if (settings.engine !== engine.version || startPosition === null) {
    const reason = startPosition === null ? 'unknown-variant' : 'engine-version';
    return finish({ ...header, status: 'incompatible', incompatible: { reason, game: `${settings.engine} ${settings.variant}`, ours: engine.version } });
  }
  const start = lobby.start;
  const gameMessages = messages.filter((m) => !LOBBY_TYPES.has(m.payload.type) && !(m.payload.type === 'ack' && m.payload.phase === 'start'));
  if (start === undefined) {
    for (const m of gameMessages) ignored.add(m.id, 'game-not-started');
    return finish({ ...header, status: 'lobby' });
  }
  const roster = start.payload.roster;
  const variant = variantOf(settings.variant);
  // The keys that play a seat; a neutral power's placeholder key (the creator's) does not count.
  const members = new Set(variant.seats.flatMap((seat) => seat.powers.map((p) => roster[p])));
  if ([...members].some((k) => !lobby.accepted.includes(k))) {
    for (const m of gameMessages) ignored.add(m.id, 'game-not-started');
    return finish({ ...header, roster, status: 'starting' });
  }

  const groups = new Map<string, PhaseGroup>();
  const acks: Message<AckPayload>[] = [];
  for (const m of gameMessages) {
    const p = m.payload;
    if (p.type === 'ack') {
      acks.push(m as Message<AckPayload>);
      continue;
    }
    if (!('power' in p) || !('phase' in p)) continue;
    // Who holds a power can change (toss, hand-over), so authorship is checked phase by phase in the fold.
    const group = groups.get(p.phase) ?? emptyGroup();
    groups.set(p.phase, group);
    if (p.type === 'commit') group.commits.push(m as Message<CommitPayload>);
    else if (p.type === 'reveal') group.reveals.push(m as Message<RevealPayload>);
    else if (p.type === 'timeout') group.timeouts.push(m as Message<TimeoutPayload>);
    else if (p.type === 'draw') group.draws.push(m as Message<DrawPayload>);
    else if (p.type === 'draw-reveal') group.drawReveals.push(m as Message<DrawRevealPayload>);
    else if (p.type === 'concede') group.concedes.push(m as Message<ConcedePayload>);
    else if (p.type === 'alliance') group.alliances.push(m as Message<AlliancePayload>);
    else if (p.type === 'handover') group.handovers.push(m as Message<HandoverPayload>);
  }

  const joined = new Set(lobby.players.map((p) => p.key));
  const fold = foldPhases(gameId, startPosition, start.payload.time, settings, variant, roster, joined, groups, engine, ignored, misconduct);
  for (const key of Object.values(fold.holders)) members.add(key);
  const resolvedHashes = new Map(fold.phases.map((ph) => [ph.key, ph.stateHash]));
  for (const ack of acks) {
    const expected = resolvedHashes.get(ack.payload.phase);
    if (!members.has(ack.payload.from)) ignored.add(ack.id, 'ack-by-non-player');
    else if (expected === undefined) ignored.add(ack.id, 'ack-for-unresolved-phase');
    else if (expected !== ack.payload.hash) base.hashMismatches.push({ phase: ack.payload.phase, author: ack.payload.from, claimed: ack.payload.hash, expected });
  }
  base.hashMismatches.sort((a, b) => compareText(a.phase, b.phase) || compareText(a.author, b.author) || compareText(a.claimed, b.claimed));
  base.phases = fold.phases;
  return finish({
    ...header,
    roster,
    status: fold.result !== undefined ? 'finished' : 'playing',
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

function sortMisconduct(list: readonly Misconduct[]): Misconduct[] {
  const key = (m: Misconduct) => `${m.kind}|${m.phase ?? ''}|${m.author}|${m.power ?? ''}|${m.ids.join(',')}`;
  const unique = new Map(list.map((m) => [key(m), m]));
  return [...unique.entries()].sort((a, b) => compareText(a[0], b[0])).map(([, m]) => m);
}

interface Fold {
  phases: ResolvedPhase[];
  current?: OpenPhase;
  position: Position;
  result?: GameResult;
  holders: Record<Power, string>;
  neutral: Power[];
  seats: Seat[];
  alliances: GameView['alliances'];
  toss?: TossView;
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

function foldPhases(
  gameId: string,
  startPosition: Position,
  startTime: number,
  settings: Settings,
  variant: Variant,
  roster: Readonly<Record<Power, string>>,
  joined: ReadonlySet<string>,
  groups: ReadonlyMap<string, PhaseGroup>,
  engine: Engine,
  ignored: IgnoredList,
  misconduct: Misconduct[],
): Fold {
  // The variant's switches, then the game's own (settings.rules) on top.
  const rules = { ...variant.rules, ...settings.rules };
  const playing: Variant = { ...variant, rules, victory: variant.victory.by === 'power' ? { ...variant.victory, needed: rules.victoryCentres } : variant.victory };
  const phases: ResolvedPhase[] = [];
  const conceded = new Set<Power>();
  const visited = new Set<string>();
  const holders: Record<Power, string> = { ...roster };
  const alliances = new Alliances();
  let toss: TossView | undefined;
  let position = startPosition;
  let openedAt = startTime;
  let memoKey = `${engine.version}|${hashHex(canonicalEncode([startPosition, rules, variant.id]))}`;
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
      if (lead !== undefined && holders[variant.toss.power] === roster[variant.toss.power]) holders[variant.toss.power] = holders[lead];
    }
    const raw = groups.get(key) ?? emptyGroup();
    const group: PhaseGroup = {
      commits: byHolder(raw.commits, holders, neutral, ignored),
      reveals: byHolder(raw.reveals, holders, neutral, ignored),
      timeouts: byHolder(raw.timeouts, holders, neutral, ignored),
      draws: byHolder(raw.draws, holders, neutral, ignored),
      drawReveals: byHolder(raw.drawReveals, holders, neutral, ignored),
      concedes: byHolder(raw.concedes, holders, neutral, ignored),
      alliances: byHolder(raw.alliances, holders, neutral, ignored),
      handovers: raw.handovers,
    };
    for (const c of group.concedes) conceded.add(c.payload.power);
    ignored.addAll(alliances.add(group.alliances, position.phase));

    const here = position;
    const facts = memoFacts(memoKey, () => {
      const centres = centreCounts(here);
      return {
        ordersNeeded: engine.ordersNeeded(here),
        withUnits: POWERS.filter((p) => here.units.some((u) => u.power === p)),
        withCentres: POWERS.filter((p) => centres[p] > 0),
      };
    });
    const withUnits = facts.withUnits.filter((p) => !neutral.includes(p));
    const active = POWERS.filter((p) => !conceded.has(p) && !neutral.includes(p) && (withUnits.includes(p) || facts.withCentres.includes(p)));
    const survivors = withUnits.filter((p) => !conceded.has(p));
    if (survivors.length <= 1 && conceded.size > 0) {
      result = { kind: 'concession', winners: survivors, phase: key };
      break;
    }
    const ballot = tallyDraw(gameId, survivors, group.draws, group.drawReveals);
    ignored.addAll(ballot.ignored);
    if (survivors.length > 0 && survivors.every((p) => ballot.votes.get(p) === true)) {
      result = { kind: 'draw', winners: survivors, phase: key };
      break;
    }

    const required = facts.ordersNeeded.filter((p) => !conceded.has(p) && !neutral.includes(p));
    const { chained, unchained } = chainedCommits(group.commits);
    for (const c of unchained) ignored.add(c.id, 'commit-prev-unknown');
    const forks = forkedCommits(chained.values());
    for (const power of POWERS) {
      const ids = forks.filter((id) => chained.get(id)!.payload.power === power);
      if (ids.length > 0) misconduct.push({ author: chained.get(ids[0]!)!.payload.from, power, phase: key, kind: 'equivocation', ids });
    }

    const reveals = group.reveals.filter((r) => {
      const reason = checkReveal(r, chained);
      if (reason !== null) ignored.add(r.id, reason);
      return reason === null;
    });
    const revealed = new Set(reveals.map((r) => r.payload.power));
    const witnessed = new Set(POWERS.filter((p) => reveals.some((r) => r.payload.power !== p && r.payload.lock[p] !== undefined)));
    const duration = settings.deadlines[position.phase.kind];
    const deadline = openedAt + duration;
    const timeouts = countTimeouts(required, active, deadline, group.timeouts, witnessed, deadline + revealGrace(duration));
    ignored.addAll(timeouts.ignored);
    const timedOut = new Set(timeouts.timedOut);
    const committed = new Set([...chained.values()].map((c) => c.payload.power));

    const closable = required.every((p) => timedOut.has(p) || revealed.has(p));
    if (!closable) {
      current = {
        key,
        position,
        openedAt,
        deadline,
        revealDeadline: deadline + revealGrace(duration),
        required,
        active,
        committed: POWERS.filter((p) => committed.has(p)),
        revealed: POWERS.filter((p) => revealed.has(p)),
        timedOut: [...timedOut].sort(),
        heads: heads(chained),
        timeoutVotes: timeouts.votes,
        drawVoters: [...survivors],
        drawCommitted: ballot.committed,
        drawRevealed: ballot.revealed,
        drawHeads: ballot.heads,
        // The tally is shown only once every vote is open: a partial one would leak early votes.
        drawVotes: ballot.revealed.length === survivors.length ? survivors.filter((p) => ballot.votes.get(p) === true) : [],
      };
      break;
    }

    const orders: Partial<Record<Power, readonly Order[]>> = {};
    const used: Partial<Record<Power, string>> = {};
    const coins = new Map<Power, Uint8Array>();
    const disorder = new Set<Power>([...conceded, ...timedOut]);
    const lockedAncestry = new Set<string>();
    for (const power of required) {
      const named = (own: boolean) => reveals.filter((r) => (r.payload.power === power) === own).map((r) => r.payload.lock[power]).filter((id): id is string => id !== undefined);
      for (const id of [...named(true), ...named(false)]) for (const a of ancestry(id, chained)) lockedAncestry.add(a);
      if (timedOut.has(power)) continue;
      const others = named(false);
      const chosen = commonAncestor(others.length > 0 ? others : named(true), chained);
      const author = authorOf(chained, power);
      if (chosen === null) {
        disorder.add(power);
        continue;
      }
      const commit = chained.get(chosen)!.payload;
      const plain = keysOf(reveals, power).map((k) => unseal(commit, k)).find((u) => u.opens);
      const opened = plain?.orders ?? null;
      if (plain === undefined || opened === null) {
        misconduct.push({ author: author ?? '', power, phase: key, kind: plain === undefined ? 'unopened-commit' : 'bad-orders', ids: [chosen] });
        disorder.add(power);
        continue;
      }
      used[power] = chosen;
      orders[power] = opened.filter((o) => o.power === power);
      if (plain.coin !== null) coins.set(power, plain.coin);
    }
    for (const c of chained.values()) {
      if (lockedAncestry.has(c.id)) continue;
      ignored.add(c.id, timedOut.has(c.payload.power) ? 'commit-of-timed-out-power' : 'commit-not-locked');
    }

    const civilDisorder = [...disorder].sort();
    const flat = POWERS.flatMap((p) => orders[p] ?? []);
    // "1914" rules: a commit that leaves units without orders (made without the seal helper) is
    // still used as it is; those units hold, as any unit without an order does, and are listed.
    const unordered: Loc[] = rules.allOrdersRequired === true
      ? POWERS.filter((p) => orders[p] !== undefined).flatMap((p) => missingOrders(position, p, orders[p]!).map((u) => u.loc))
      : [];
    // The position is a function of the start and every earlier phase, and a commit id fixes the
    // orders inside it (the key is committed too), so chained ids name the board without encoding it.
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
    const revealTimes = reveals.filter((r) => !timedOut.has(r.payload.power)).map((r) => r.payload.time);
    phases.push({
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
      ...(unordered.length > 0 ? { unordered: [...unordered].sort() } : {}),
    });
    position = adjudication.next;
    openedAt = Math.max(openedAt, openingTime(revealTimes, openedAt));

    const handovers = handoversDone(group.handovers, holders, active, joined);
    ignored.addAll(handovers.ignored);
    for (const [power, to] of handovers.done) holders[power] = to;

    const victors = variantWinners(playing, position, setup.seats);
    if (victors.length > 0) {
      result = { kind: 'victory', winners: victors, phase: key, ...(playing.victory.by === 'seat' ? { by: 'seat' as const } : {}) };
      break;
    }
    const allied = allianceWinners(playing, position, alliances.standing());
    if (allied.length > 0) {
      result = { kind: 'victory', winners: allied, phase: key, by: 'alliance' };
      break;
    }
    if (settings.endYear !== null && position.phase.year > settings.endYear) {
      result = { kind: 'short-game', winners: shortGameLeaders(position, setup.seats), phase: key };
      break;
    }
  }

  for (const [key, group] of groups) {
    if (visited.has(key)) continue;
    for (const m of [...group.commits, ...group.reveals, ...group.timeouts, ...group.draws, ...group.drawReveals, ...group.concedes, ...group.alliances, ...group.handovers]) {
      ignored.add(m.id, 'phase-not-reached');
    }
  }
  const alliancesView = alliances.standing().map((a) => ({ powers: a.powers, since: phaseKey(a.since) }));
  return {
    phases,
    current,
    position,
    result,
    holders,
    neutral: [...setup.neutral],
    seats: setup.seats.map((s) => ({ id: s.id, powers: [...s.powers] })),
    alliances: alliancesView,
    ...(toss === undefined ? {} : { toss }),
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

function authorOf(chained: ReadonlyMap<string, Message<CommitPayload>>, power: Power): string | undefined {
  for (const c of chained.values()) if (c.payload.power === power) return c.payload.from;
  return undefined;
}

function keysOf(reveals: readonly Message<RevealPayload>[], power: Power): string[] {
  return [...new Set(reveals.filter((r) => r.payload.power === power).flatMap((r) => Object.values(r.payload.keys)))].sort();
}

/** The commit's hash was checked against its sealed bytes when it was opened (envelope.ts). */
function unseal(commit: CommitPayload, keyText: string): Unsealed {
  return memoUnseal(`${commit.hash}|${commit.keyHash}`, keyText, () => {
    const key = fromBase64(keyText);
    const plain = key === null || hashHex(key) !== commit.keyHash ? null : openSealed(commit.sealed, key);
    return { opens: plain !== null, orders: plain === null ? null : ordersFromPlain(plain), coin: plain === null ? null : coinFromPlain(plain) };
  });
}

/** The tip of each power's chain: what an honest reveal puts in its lock. */
function heads(chained: ReadonlyMap<string, Message<CommitPayload>>): Partial<Record<Power, string>> {
  const parents = new Set([...chained.values()].map((c) => c.payload.prev).filter((p): p is string => p !== null));
  const out: Partial<Record<Power, string>> = {};
  const tips = [...chained.values()].filter((c) => !parents.has(c.id));
  tips.sort((a, b) => b.payload.seq - a.payload.seq || compareText(a.id, b.id));
  for (const t of tips) if (out[t.payload.power] === undefined) out[t.payload.power] = t.id;
  return out;
}

/** Why a reveal cannot count, or null. */
function checkReveal(r: Message<RevealPayload>, chained: ReadonlyMap<string, Message<CommitPayload>>): string | null {
  const p = r.payload;
  const own = p.lock[p.power];
  if (own === undefined) return 'reveal-lock-misses-own-commit';
  for (const [power, id] of Object.entries(p.lock)) {
    const c = chained.get(id);
    if (c === undefined || c.payload.power !== power) return 'reveal-lock-names-unknown-commit';
  }
  for (const [id, key] of Object.entries(p.keys)) {
    const c = chained.get(id);
    if (c === undefined || c.payload.power !== p.power) return 'reveal-key-for-unknown-commit';
    if (!unseal(c.payload, key).opens) return 'reveal-key-does-not-open-commit';
  }
  if (ancestry(own, chained).some((id) => !(id in p.keys))) return 'reveal-missing-keys';
  return null;
}

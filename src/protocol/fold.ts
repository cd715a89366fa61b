// The steps of one phase of the game's fold (reduce.ts foldPhases), each a pure function over the
// state carried from phase to phase (FoldState) and that phase's entries: holders, signals
// (concessions and alliances), seats, ballot, chosen orders, adjudication, handovers, endings.
// A step returns what it found, including the entries it ignored; it changes none of its inputs.
import {
  allianceWinners,
  centreCounts,
  missingOrders,
  POWERS,
  variantWinners,
  type Loc,
  type Order,
  type Position,
  type Power,
  type Seat,
  type Variant,
  type VariantPhaseSetup,
  type VariantRules,
} from '../rules';
import { tallyBallot, escrowHolders, type BallotCommit, type BallotFinal, type BallotResult, type WorkCounter } from './ballot';
import { compareText, utf8 } from './bytes';
import { hashHex, stateHash } from './canonical';
import type { Engine } from './engine';
import type { Message } from './envelope';
import { escrowKeyText, escrowPointsValid, escrowShape, type EscrowFields } from './escrow';
import { DERIVED_ESCROW_VERSION, PROTOCOL_VERSION } from './messages';
import type {
  AlliancePayload,
  ClockPayload,
  CommitPayload,
  ConcedePayload,
  FinalPayload,
  HandoverPayload,
  LockPayload,
  Payload,
  PhaseKey,
  RevealPayload,
  Settings,
  TimeoutPayload,
} from './messages';
import { memoAdjudicate, type EscrowChecks, type PhaseFacts } from './memo';
import { ordersFromPlain, paddingUnits, sealedSizeAllowed } from './seal';
import { clockMedian, countTimeouts, type TimeoutCount } from './timeout';
import { handoversDone, isTossPhase, tossWinner, type HandoverInput } from './variants';
import type { Alliances } from './variants';
import type { GameResult, Ignored, Misconduct, OpenPhase, ResolvedPhase, TossView } from './view';

/** What the fold carries from one phase into the next. Alliances is never changed in place: a step clones it. */
export interface FoldState {
  readonly position: Position;
  readonly openedAt: number;
  /** The chained key that names `position` (see memoAdjudicate). */
  readonly memoKey: string;
  readonly holders: Readonly<Record<Power, string>>;
  readonly conceded: ReadonlySet<Power>;
  readonly toss?: TossView;
  readonly alliances: Alliances;
  /** Escrow keys pinned by counted hand-overs (version 5 START on): recipient -> escrow key, for the rest of the game. */
  readonly handedEscrow: Readonly<Record<string, string>>;
}

/** The escrow keys a phase judges complaints with: the lobby's (START pins, or the old rule) and those hand-overs pinned. */
export function phaseEscrowKeys(lobby: ReadonlyMap<string, string | null>, handed: Readonly<Record<string, string>>): ReadonlyMap<string, string | null> {
  const extra = Object.entries(handed);
  return extra.length === 0 ? lobby : new Map([...lobby, ...extra]);
}

export const uniqueSorted = (keys: Iterable<string>): string[] => [...new Set(keys)].sort(compareText);

/** Messages of a phase signed by whoever holds the power they name in that phase; the rest are listed. */
export function byHolder<P extends Payload & { power: Power }>(
  list: readonly Message<P>[],
  holders: Readonly<Record<Power, string>>,
  neutral: readonly Power[],
): { kept: Message<P>[]; ignored: Ignored[] } {
  const ignored: Ignored[] = [];
  const kept = list.filter((m) => {
    if (neutral.includes(m.payload.power)) return (ignored.push({ id: m.id, reason: 'neutral-power' }), false);
    if (holders[m.payload.power] !== m.payload.from) return (ignored.push({ id: m.id, reason: 'not-your-power' }), false);
    return true;
  });
  return { kept, ignored };
}

/**
 * When the seats finished sealing: once every key has a commit, the clock median (of the game's
 * version, timeout.ts clockMedian) of each key's earliest commit claim (no single clock sets it);
 * +Infinity while a key has none. Commits only add, so it only ever comes earlier.
 */
export function sealedAt(keys: readonly string[], claims: readonly { key: string; time: number }[], gameVersion: number): number {
  const earliest = new Map<string, number>();
  for (const c of claims) earliest.set(c.key, Math.min(earliest.get(c.key) ?? Infinity, c.time));
  if (keys.some((k) => !earliest.has(k))) return Infinity;
  return (
    clockMedian(
      keys.map((k) => earliest.get(k)!),
      gameVersion,
    ) ?? Infinity
  );
}

/**
 * For the players: from when a seat that has sealed may be voted out for not finishing the
 * automatic steps (what the phones suggest; a vote counts from the deadline that applies). While a
 * seat has not sealed, that is after the orders deadline. Otherwise each automatic step gets the
 * whole reveal duration from when the step before it was complete (the clock median of the claims
 * that completed it, so no single clock sets it), and from any vote that unblocked it.
 */
export function stepsGrace(
  revealDeadline: number,
  deadline: number,
  reveal: number,
  slots: readonly string[],
  committed: ReadonlySet<string>,
  timeouts: TimeoutCount,
  tally: BallotResult,
): number {
  const out = new Set(timeouts.timedOut);
  if (!slots.every((s) => out.has(s) || committed.has(s))) return deadline + reveal;
  const unblocked = slots.filter((s) => out.has(s)).map((s) => timeouts.at[s]! + reveal);
  const base = Number.isFinite(revealDeadline) ? revealDeadline : deadline + reveal;
  const stage = tally.view.stage;
  const steps = [stage === 'lock' || stage === 'reveal' ? tally.finalsAt : -Infinity, stage === 'reveal' ? tally.locksAt : -Infinity]
    .filter(Number.isFinite)
    .map((t) => t + reveal);
  return Math.max(base, ...unblocked, ...steps);
}

export function clocksOf(list: readonly Message<ClockPayload>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of list) out.set(c.payload.from, Math.max(out.get(c.payload.from) ?? -Infinity, c.payload.time));
  return out;
}

/**
 * Holders: after the toss, Italy is played by the winning side's other power while its START
 * holder still holds it (a handover since then stands).
 */
export function holdersStep(
  holders: Readonly<Record<Power, string>>,
  roster: Readonly<Record<Power, string>>,
  variant: Variant,
  setup: VariantPhaseSetup,
  toss: TossView | undefined,
): Readonly<Record<Power, string>> {
  const italy = variant.toss?.power;
  if (toss?.winner == null || italy === undefined || setup.neutral.includes(italy)) return holders;
  const side = setup.seats.find((s) => s.id === toss.winner);
  const lead = side?.powers.find((p) => p !== italy);
  if (lead === undefined || holders[italy] !== roster[italy]) return holders;
  return { ...holders, [italy]: holders[lead] };
}

/** Signals: the phase's concessions and alliance words, each signed by the power's holder. */
export function signalsStep(
  state: FoldState,
  concedes: readonly Message<ConcedePayload>[],
  alliances: readonly Message<AlliancePayload>[],
  neutral: readonly Power[],
): { conceded: ReadonlySet<Power>; alliances: Alliances; ignored: Ignored[] } {
  const conceding = byHolder(concedes, state.holders, neutral);
  const conceded = new Set(state.conceded);
  for (const c of conceding.kept) conceded.add(c.payload.power);
  const words = byHolder(alliances, state.holders, neutral);
  const next = state.alliances.clone();
  const refused = next.add(words.kept, state.position.phase);
  return { conceded, alliances: next, ignored: [...conceding.ignored, ...words.ignored, ...refused] };
}

export interface PhaseSeats {
  /** Powers still in play (not conceded, not neutral, with a unit or a centre). */
  readonly active: Power[];
  /** Who may vote in the phase: the holders of the powers in play at its opening. */
  readonly players: string[];
  /** Powers whose orders the phase needs, as it opened. */
  readonly requiredAtOpening: Power[];
  /** The escrow community of the phase: the holders of requiredAtOpening. */
  readonly ballotKeys: string[];
  /** requiredAtOpening less the powers conceded in the phase. */
  readonly required: Power[];
  /** Powers with units, not conceded, not neutral. */
  readonly survivors: Power[];
}

/**
 * Seats: the players of the phase (who may vote) and its ballot keys (the escrow community) are
 * fixed at its opening; concessions signed in the phase only stop the conceding power being awaited.
 */
export function seatsStep(
  facts: PhaseFacts,
  neutral: readonly Power[],
  holders: Readonly<Record<Power, string>>,
  concededBefore: ReadonlySet<Power>,
  conceded: ReadonlySet<Power>,
): PhaseSeats {
  const inPlay = (p: Power, gone: ReadonlySet<Power>) => !gone.has(p) && !neutral.includes(p) && (facts.withUnits.includes(p) || facts.withCentres.includes(p));
  const requiredAtOpening = facts.ordersNeeded.filter((p) => !concededBefore.has(p) && !neutral.includes(p));
  return {
    active: POWERS.filter((p) => inPlay(p, conceded)),
    players: uniqueSorted(POWERS.filter((p) => inPlay(p, concededBefore)).map((p) => holders[p])),
    requiredAtOpening,
    ballotKeys: uniqueSorted(requiredAtOpening.map((p) => holders[p])),
    required: requiredAtOpening.filter((p) => !conceded.has(p)),
    survivors: facts.withUnits.filter((p) => !conceded.has(p) && !neutral.includes(p)),
  };
}

/** Ending by concession: once a power has conceded and at most one survivor is left. */
export function concessionEnding(survivors: readonly Power[], conceded: ReadonlySet<Power>, key: PhaseKey): GameResult | undefined {
  return survivors.length <= 1 && conceded.size > 0 ? { kind: 'concession', winners: [...survivors], phase: key } : undefined;
}

export interface BallotEntries {
  readonly commits: readonly Message<CommitPayload>[];
  readonly finals: readonly Message<FinalPayload>[];
  readonly locks: readonly Message<LockPayload>[];
  readonly reveals: readonly Message<RevealPayload>[];
  readonly timeouts: readonly Message<TimeoutPayload>[];
  readonly clocks: readonly Message<ClockPayload>[];
}

export interface PhaseBallot {
  readonly deadline: number;
  /** When every ballot key had sealed, plus the reveal duration (+Infinity until then). */
  readonly revealDeadline: number;
  readonly committed: ReadonlySet<Power>;
  readonly timeouts: TimeoutCount;
  readonly timedOut: ReadonlySet<Power>;
  /** Players who claimed their clock had passed a deadline of the phase (CLOCK), sorted. */
  readonly clocked: readonly string[];
  readonly tally: BallotResult;
  readonly ignored: Ignored[];
  readonly misconduct: Misconduct[];
}

/**
 * Whether every point of a commit's escrow decodes (README "Key escrow": a commit where one does
 * not is refused), remembered where the caller keeps escrow checks (memo.ts escrowChecksOf): each
 * decoding costs a square root, and a phone checks a commit's points once per session, not at
 * every rebuild. The key names everything the answer depends on: E and every commitment.
 */
export function escrowPointsChecked(escrow: EscrowFields, checks: EscrowChecks | undefined, derived = false): boolean {
  if (checks === undefined) return escrowPointsValid(escrow);
  // An opened entry's escrow object is the same at every re-reduce (memo.ts memoOpen) and never
  // changed: its answer is remembered on it too, so a re-reduce builds no key string per commit.
  const have = pointsChecked.get(escrow);
  if (have !== undefined) return have;
  const fresh = checks(`points|${escrow.e}|${escrow.c.join(',')}`, () => escrowPointsValid(escrow));
  pointsChecked.set(escrow, fresh);
  // What the commit's REVEAL is checked against (C_0: for a derived escrow, the sum of its S_i and
  // its encoding), computed now, as the commit arrives, rather than when the REVEALs do: the last
  // round of a phase is the one every phone waits on. Remembered by content (escrowKeyText).
  if (fresh && derived) escrowKeyText(escrow, true);
  return fresh;
}

const pointsChecked = new WeakMap<EscrowFields, boolean>();

const paddings = new WeakMap<Position, Map<Power, number>>();

/** paddingUnits, remembered per position object (positions are never changed once made): an adjustment's count reads the whole board. */
function paddingOf(position: Position, power: Power): number {
  const known = paddings.get(position) ?? new Map<Power, number>();
  paddings.set(position, known);
  const have = known.get(power);
  if (have !== undefined) return have;
  const fresh = paddingUnits(position, power);
  known.set(power, fresh);
  return fresh;
}

/** Ballot: the phase's well-formed commits and finals by the holders, the timeout votes, and the tally. */
export function ballotStep(input: {
  readonly key: PhaseKey;
  readonly position: Position;
  readonly openedAt: number;
  readonly settings: Settings;
  readonly holders: Readonly<Record<Power, string>>;
  readonly neutral: readonly Power[];
  readonly seats: PhaseSeats;
  readonly entries: BallotEntries;
  readonly escrowKeys: ReadonlyMap<string, string | null>;
  readonly work: WorkCounter;
  readonly checks?: EscrowChecks;
  /** The game's START is of version 6 or later: REVEALs may complain (ballot.ts revealOwes). */
  readonly revealComplaints?: boolean;
  /** The game's version (its CREATE's), which says its clock (timeout.ts clockMedian). Default: PROTOCOL_VERSION. */
  readonly gameVersion?: number;
}): PhaseBallot {
  const { key, position, holders, neutral, seats, entries, settings } = input;
  const ignored: Ignored[] = [];
  const commits: BallotCommit[] = [];
  const signed = byHolder(entries.commits, holders, neutral);
  ignored.push(...signed.ignored);
  for (const m of signed.kept) {
    const p = m.payload;
    const derived = p.v >= DERIVED_ESCROW_VERSION;
    const shape = escrowShape(escrowHolders(seats.ballotKeys, p.from).length, derived);
    const reason = !seats.requiredAtOpening.includes(p.power)
      ? 'commit-for-power-not-required'
      : p.escrow.c.length !== shape.commitments ||
          p.escrow.s.length !== shape.shares ||
          (p.escrow.e !== null) !== shape.ephemeral ||
          !escrowPointsChecked(p.escrow, input.checks, derived)
        ? 'commit-bad-escrow'
        : !sealedSizeAllowed(p.sealed, paddingOf(position, p.power), p.v)
          ? 'commit-bad-size'
          : null;
    if (reason !== null) ignored.push({ id: m.id, reason });
    else commits.push({ id: m.id, slot: p.power, from: p.from, seq: p.seq, time: p.time, sealed: p.sealed, escrow: p.escrow, derived });
  }
  const finalsSigned = byHolder(entries.finals, holders, neutral);
  ignored.push(...finalsSigned.ignored);
  const finals: BallotFinal[] = finalsSigned.kept.map((m) => ({
    id: m.id,
    slot: m.payload.power,
    from: m.payload.from,
    seq: m.payload.seq,
    time: m.payload.time,
    commit: m.payload.commit,
  }));

  const gameVersion = input.gameVersion ?? PROTOCOL_VERSION;
  const deadline = input.openedAt + settings.deadlines[position.phase.kind];
  const revealDeadline =
    sealedAt(
      seats.ballotKeys,
      commits.map((c) => ({ key: c.from, time: c.time })),
      gameVersion,
    ) + settings.deadlines.reveal;
  const isPlayer = new Set(seats.players);
  const committed = new Set(commits.map((c) => c.slot as Power));
  const clocks = clocksOf(entries.clocks.filter((c) => isPlayer.has(c.payload.from)));
  const timeouts = countTimeouts({
    slots: seats.required,
    holderOf: (s) => holders[s as Power],
    players: seats.players,
    threshold: (s) => (committed.has(s as Power) ? Math.min(deadline, revealDeadline) : deadline),
    votes: entries.timeouts,
    clocks,
  });
  ignored.push(...timeouts.ignored);
  const timedOut = new Set(timeouts.timedOut as Power[]);
  const tally = tallyBallot({
    phase: key,
    required: seats.required,
    holderOf: (s) => holders[s as Power],
    ballotKeys: seats.ballotKeys,
    timedOut,
    commits,
    finals,
    locks: entries.locks,
    reveals: entries.reveals,
    escrowKeys: input.escrowKeys,
    work: input.work,
    ...(input.checks === undefined ? {} : { checks: input.checks }),
    revealComplaints: input.revealComplaints === true,
    gameVersion,
  });
  ignored.push(...tally.ignored);
  return { deadline, revealDeadline, committed, timeouts, timedOut, clocked: uniqueSorted(clocks.keys()), tally, ignored, misconduct: [...tally.misconduct] };
}

/** The open phase as the players see it (the ballot is not closed yet). */
export function openPhaseStep(input: {
  readonly key: PhaseKey;
  readonly state: FoldState;
  readonly setup: VariantPhaseSetup;
  readonly settings: Settings;
  readonly seats: PhaseSeats;
  readonly ballot: PhaseBallot;
  readonly drawVoters: readonly Power[];
}): OpenPhase {
  const { seats, ballot } = input;
  return {
    key: input.key,
    position: input.state.position,
    map: input.setup.map,
    openedAt: input.state.openedAt,
    deadline: ballot.deadline,
    // For the players: when the automatic steps' grace ends. While a seat has not sealed, the
    // orders deadline comes first, and the steps get the whole reveal stage after it.
    revealDeadline: stepsGrace(
      ballot.revealDeadline,
      ballot.deadline,
      input.settings.deadlines.reveal,
      seats.required,
      ballot.committed,
      ballot.timeouts,
      ballot.tally,
    ),
    required: seats.required,
    active: seats.active,
    players: seats.players,
    ballotKeys: seats.ballotKeys,
    committed: POWERS.filter((p) => ballot.committed.has(p)),
    finalized: POWERS.filter((p) => ballot.tally.view.finals[p] !== undefined),
    timedOut: [...ballot.timedOut].sort(),
    ballot: ballot.tally.view,
    timeoutVotes: ballot.timeouts.votes as OpenPhase['timeoutVotes'],
    clocked: ballot.clocked,
    drawVoters: [...input.drawVoters],
  };
}

export interface ChosenOrders {
  readonly orders: Partial<Record<Power, readonly Order[]>>;
  /** The commit that counted, per power. */
  readonly used: Partial<Record<Power, string>>;
  readonly coins: ReadonlyMap<Power, Uint8Array>;
  readonly drawYes: ReadonlySet<Power>;
  /** Powers in civil disorder: conceded, or required with no readable orders opened; sorted. */
  readonly civilDisorder: Power[];
  readonly ignored: Ignored[];
  readonly misconduct: Misconduct[];
}

/** Chosen orders: what each required power's counted commit opened to (orders for itself only, coin, draw vote). */
export function chosenOrdersStep(input: {
  readonly key: PhaseKey;
  readonly required: readonly Power[];
  readonly conceded: ReadonlySet<Power>;
  readonly holders: Readonly<Record<Power, string>>;
  readonly tally: BallotResult;
  readonly timedOut: ReadonlySet<Power>;
}): ChosenOrders {
  const { key, tally } = input;
  const orders: Partial<Record<Power, readonly Order[]>> = {};
  const used: Partial<Record<Power, string>> = {};
  const coins = new Map<Power, Uint8Array>();
  const drawYes = new Set<Power>();
  const disorder = new Set<Power>(input.conceded);
  const misconduct: Misconduct[] = [];
  const ignored: Ignored[] = [];
  for (const power of input.required) {
    const outcome = tally.outcomes.get(power);
    if (outcome?.kind !== 'opened') {
      disorder.add(power);
      continue;
    }
    const content = ordersFromPlain(outcome.plain);
    if (content === null) {
      misconduct.push({ author: input.holders[power], slot: power, phase: key, kind: 'bad-orders', ids: [outcome.commit] });
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
  for (const [slot, id] of Object.entries(tally.view.heads))
    if (used[slot as Power] !== id && !input.timedOut.has(slot as Power)) ignored.push({ id, reason: 'commit-not-counted' });
  return { orders, used, coins, drawYes, civilDisorder: [...disorder].sort(), ignored, misconduct };
}

/** Rulebook II: every survivor's sealed vote opened and yes ends the game in a draw (not adjudicated). */
export function drawEnding(drawVoters: readonly Power[], drawYes: ReadonlySet<Power>, key: PhaseKey): GameResult | undefined {
  return drawVoters.length > 0 && drawVoters.every((p) => drawYes.has(p)) ? { kind: 'draw', winners: [...drawVoters], phase: key } : undefined;
}

/** Adjudication: the phase's orders applied to its position; the resolved phase, the next position and its chained key, and the toss when this is its phase. */
export function adjudicationStep(input: {
  readonly key: PhaseKey;
  readonly state: FoldState;
  readonly variant: Variant;
  readonly rules: VariantRules;
  readonly setup: VariantPhaseSetup;
  readonly engine: Engine;
  readonly facts: PhaseFacts;
  readonly chosen: ChosenOrders;
  readonly ballot: PhaseBallot;
  readonly drawVoters: readonly Power[];
}): { resolved: ResolvedPhase; next: Position; memoKey: string; toss?: TossView } {
  const { key, state, rules, setup, chosen } = input;
  const { position } = state;
  const neutral = setup.neutral;
  const { orders, used, civilDisorder } = chosen;
  const flat = POWERS.flatMap((p) => orders[p] ?? []);
  // "1914" rules: a commit that leaves units without orders (made without the seal helper) is
  // still used as it is; those units hold, as any unit without an order does, and are listed.
  const unordered: Loc[] =
    rules.allOrdersRequired === true
      ? POWERS.filter((p) => orders[p] !== undefined).flatMap((p) => missingOrders(position, p, orders[p]!).map((u) => u.loc))
      : [];
  // The position is a function of the start and every earlier phase, and a commit id fixes the
  // orders inside it, so chained ids name the board without encoding it.
  const memoKey = hashHex(
    utf8(`${state.memoKey}|${civilDisorder.join(',')}|${POWERS.map((p) => used[p] ?? '-').join(',')}|${neutral.join(',')}|${state.toss?.winner ?? '-'}`),
  );
  const phaseOptions = { civilDisorder, rules, map: setup.map, neutral };
  const { adjudication, nextHash } = memoAdjudicate(memoKey, () => {
    const a = input.engine.adjudicate(position, flat, phaseOptions);
    return { adjudication: a, nextHash: stateHash(a.next) };
  });
  // The coin holders come from the board alone (not from who conceded or was timed out), so a
  // side cannot switch to another power's coin after seeing the other side's.
  const toss = isTossPhase(input.variant, position.phase)
    ? { phase: key, ...tossWinner(input.variant.seats, input.facts.ordersNeeded, chosen.coins) }
    : state.toss;
  const drawVoters = input.drawVoters;
  const resolved: ResolvedPhase = {
    key,
    position,
    openedAt: state.openedAt,
    deadline: input.ballot.deadline,
    orders,
    commits: used,
    civilDisorder,
    timedOut: [...input.ballot.timedOut].sort(),
    conceded: [...state.conceded].sort(),
    results: adjudication.results,
    dislodged: adjudication.dislodged,
    contested: adjudication.contested,
    stateHash: nextHash,
    ...(drawVoters.length > 0 ? { drawVotes: drawVoters.filter((p) => chosen.drawYes.has(p)), drawVoters: [...drawVoters] } : {}),
    ...(unordered.length > 0 ? { unordered: [...unordered].sort() } : {}),
  };
  return { resolved, next: adjudication.next, memoKey, ...(toss === undefined ? {} : { toss }) };
}

/** Handovers: absent powers (timed out or conceded) passed to a joined key; a conceded power handed over is played again. */
export function handoverStep(input: {
  readonly messages: readonly Message<HandoverPayload>[];
  readonly holders: Readonly<Record<Power, string>>;
  readonly conceded: ReadonlySet<Power>;
  readonly players: readonly string[];
  readonly timedOut: ReadonlySet<Power>;
  readonly joined: ReadonlySet<string>;
  readonly startId: string;
  /** Under a version 5 START: what a hand-over may pin (handoversDone's `pins`), and the pins so far. */
  readonly pins?: HandoverInput['pins'];
  readonly handedEscrow: Readonly<Record<string, string>>;
}): {
  holders: Readonly<Record<Power, string>>;
  conceded: ReadonlySet<Power>;
  handedTo: string[];
  handedEscrow: Readonly<Record<string, string>>;
  ignored: Ignored[];
} {
  const handovers = handoversDone({
    messages: input.messages,
    holders: input.holders,
    players: input.players,
    absent: new Set([...input.timedOut, ...input.conceded]),
    joined: input.joined,
    startId: input.startId,
    ...(input.pins === undefined ? {} : { pins: input.pins }),
  });
  const holders = { ...input.holders };
  const conceded = new Set(input.conceded);
  const handedTo: string[] = [];
  // A recipient's escrow key is pinned once, by the first hand-over that counts for it.
  const handedEscrow = { ...input.handedEscrow };
  for (const [power, to] of handovers.done) {
    holders[power] = to;
    handedTo.push(to);
    conceded.delete(power);
    const escrow = handovers.escrow.get(to);
    if (escrow !== undefined && input.pins?.pinned.has(to) !== true) handedEscrow[to] = escrow;
  }
  return { holders, conceded, handedTo, handedEscrow, ignored: handovers.ignored };
}

/** Endings after adjudication: a victory (by power or seat, else by a standing alliance), or the end year passed (short game). */
export function endingStep(input: {
  readonly key: PhaseKey;
  readonly playing: Variant;
  readonly position: Position;
  readonly seats: readonly Seat[];
  readonly alliances: Alliances;
  readonly endYear: number | null;
}): GameResult | undefined {
  const { key, playing, position, seats } = input;
  const victors = variantWinners(playing, position, seats);
  if (victors.length > 0) return { kind: 'victory', winners: victors, phase: key, ...(playing.victory.by === 'seat' ? { by: 'seat' as const } : {}) };
  const allied = allianceWinners(playing, position, input.alliances.standing());
  if (allied.length > 0) return { kind: 'victory', winners: allied, phase: key, by: 'alliance' };
  if (input.endYear !== null && position.phase.year > input.endYear) return { kind: 'short-game', winners: shortGameLeaders(position, seats), phase: key };
  return undefined;
}

/**
 * Rulebook III: the player with most units in play wins a short game ("el jugador que posea más
 * unidades"); a player is a seat, so a seat's powers are added up. Centres break ties, a full tie
 * is shared. With one power per seat this is the power with most units.
 */
export function shortGameLeaders(position: Position, seats: readonly Seat[]): Power[] {
  const centres = centreCounts(position);
  const score = (s: Seat) => s.powers.reduce((n, p) => n + position.units.filter((u) => u.power === p).length * 100 + centres[p], 0);
  const best = Math.max(...seats.map(score));
  return POWERS.filter((p) => seats.some((s) => score(s) === best && s.powers.includes(p)));
}

// Issue 31's finality over random interleavings (tests/protocol/interleave.test.ts, and at scale
// `npm run fuzz -- interleave`): a four-key game with a colluding pair (each holding two powers)
// whose log holds, besides the honest play, late and replayed entries of closed phases and entries
// of older protocol versions. Honest phones that follow it live (each its own arrival order), a
// spectator (a joined key with no power), a reader with no identity and a cold re-read from scratch
// must reach the same game, and a phase once resolved on a live phone must never change there.
import {
  canonicalText,
  clearMemos,
  compactEntry,
  finalOrders,
  lockBallot,
  reduceLog,
  startKeys,
  voteTimeout,
  type GameView,
  type PhaseKey,
  type Signed,
} from '../../src/protocol';
import { DAY, FOUR, FUTURE, HOUR, REAL, resigned } from './clock-helpers';
import { rng } from './helpers';
import {
  fork,
  honestSteps,
  nativeVerifier,
  opened,
  payloadOf,
  powersHeld,
  reduceAs,
  sealAll,
  settle,
  table,
  voteOut,
  type Device,
  type Table,
} from './sealed-adapter';

/** What an entry of the scenario is, for the arrival orders. */
export type Kind = 'play' | 'late' | 'old' | 'copy';

export interface Scenario {
  gameId: string;
  /** Every entry, in the order the honest play made them (late ones after the close of their phase). */
  entries: { bytes: Uint8Array; kind: Kind; /** index in `entries` from which the entry may arrive in a causal order */ after: number }[];
  /** The keys of the honest players (not the pair, not the withholder), and of the joined spectator. */
  honest: string[];
  spectator: string;
  /** How many phases resolved in the honest play. */
  resolved: number;
}

/** Bumps a forked device's counter far from the original's, so a held entry never shares a number with one sent. */
const apart = (d: Device, by: number): Device => {
  d.seq += by;
  return d;
};

/**
 * Spring 1901: the liar (key 0) claims a hundred years ahead and keeps a second LOCK; the
 * withholder (key 1, its partner) keeps its REVEAL; the phase closes on the other three REVEALs.
 * Then, signed after the close and for spring: the withholder's REVEAL, the liar's second LOCK, a
 * second REVEAL of the liar (replayed with another claim), a commit of the liar re-signed for spring
 * with a FINAL naming it, and an honest key's TIMEOUT vote against the withholder. Fall 1901: the
 * withholder is voted out and the phase resolves; then the liar's late TIMEOUT vote of fall against the
 * honest powers, claiming a hundred years ahead. (Late votes are one key's: a quorum's late votes
 * can still time a key out after the close, the README's residual.) Older versions, signed at any time: a version 6 CREATE, START and JOIN, a
 * version 4 START giving every power to the creator, version 6 copies of a commit and a TIMEOUT vote.
 * Replays: exact copies and compact forms of entries.
 */
export function lateScenario(seed: number): Scenario {
  const t: Table = table({ seed, seats: FOUR, spares: 1 });
  const [liar, withholder, ...honest] = t.devices as [Device, Device, Device, Device];
  const entries: Scenario['entries'] = t.log.map((bytes) => ({ bytes, kind: 'play' as Kind, after: 0 }));
  const push = (kind: Kind, msgs: readonly Signed[], after = entries.length) => {
    for (const m of msgs) entries.push({ bytes: m.bytes, kind, after });
  };
  const played = (from: number) =>
    push(
      'play',
      t.log.slice(from).map((bytes) => ({ id: '', bytes })),
    );

  let mark = t.log.length;
  sealAll(t, t.devices, {}, REAL);
  settle(t, t.devices, REAL + 1, { hold: t.devices, clock: (d) => (d === liar ? FUTURE : undefined) });
  played(mark);
  const spring = reduceAs(t, null).current!.key as PhaseKey;
  // Held back in a fork of the table (same keys, their own numbers).
  const side = fork(t);
  const heldReveal = honestSteps(side, apart(side.devices[1]!, 1000), REAL + 1);
  const sideLiar = apart(side.devices[0]!, 1000);
  const heldLock = lockBallot(sideLiar.me, t.gameId, reduceAs(side, sideLiar), opened(side.log), sideLiar.stamp(REAL + 3));

  mark = t.log.length;
  settle(t, [liar], FUTURE);
  settle(t, honest, REAL + 2);
  played(mark);
  const closed = entries.length;
  const afterSpring = reduceAs(t, null);
  if (afterSpring.phases.length !== 1) throw new Error('spring did not close');

  // Late and replayed entries of spring, signed after it closed.
  const liarReveal = t.log.find((b) => payloadOf(b).type === 'reveal' && payloadOf(b).from === liar.key)!;
  const liarCommit = t.log.find((b) => payloadOf(b).type === 'commit' && payloadOf(b).from === liar.key)!;
  const p = payloadOf(liarCommit);
  const lateCommit = resigned(liar.me, liarCommit, 7, { seq: liar.seq + 2000, time: FUTURE });
  // One key's late votes (a quorum's are the README's residual, tests/protocol/clock-finality.test.ts).
  const springVotes = honest
    .slice(0, 1)
    .map((d) => voteTimeout(d.me, t.gameId, spring, powersHeld(afterSpring, withholder), d.stamp(afterSpring.current!.deadline + DAY)));
  push(
    'late',
    [
      ...heldReveal,
      heldLock,
      resigned(liar.me, liarReveal, 7, { seq: liar.seq + 2001, time: 2 * FUTURE }),
      lateCommit,
      finalOrders(liar.me, t.gameId, spring, p.power, lateCommit.id, liar.stamp(FUTURE + 1)),
      ...springVotes,
    ],
    closed,
  );

  // Fall: the withholder does nothing and is voted out.
  mark = t.log.length;
  const others = t.devices.filter((d) => d !== withholder);
  sealAll(t, others, {}, REAL + HOUR);
  const fall = reduceAs(t, null).current!;
  const target = powersHeld(reduceAs(t, null), withholder).filter((x) => fall.required.includes(x));
  voteOut(t, others, target, fall.deadline + HOUR);
  settle(t, others, fall.deadline + 2 * HOUR);
  played(mark);
  if (reduceAs(t, null).phases.length !== 2) throw new Error('fall did not close');
  const fallClosed = entries.length;
  push(
    'late',
    [liar].map((d) =>
      voteTimeout(
        d.me,
        t.gameId,
        fall.key,
        honest.flatMap((h) => powersHeld(reduceAs(t, null), h)).filter((x) => fall.required.includes(x)),
        d.stamp(FUTURE),
      ),
    ),
    fallClosed,
  );

  // Entries of older versions, signed by the creator (the liar) and its partner at any time.
  const creator = liar;
  const start = t.log.find((b) => payloadOf(b).type === 'start')!;
  const join = t.log.find((b) => payloadOf(b).type === 'join' && payloadOf(b).from === withholder.key)!;
  const allMine = Object.fromEntries(Object.keys(payloadOf(start).roster as object).map((power) => [power, creator.key]));
  const anyVote = t.log.find((b) => payloadOf(b).type === 'timeout')!;
  const voter = t.devices.find((d) => d.key === payloadOf(anyVote).from)!;
  push(
    'old',
    [
      resigned(creator.me, t.log[0]!, 6, { seq: 90 }),
      resigned(creator.me, start, 6, { seq: 91 }),
      resigned(creator.me, start, 4, { roster: allMine, seq: 92, escrow: undefined }),
      resigned(withholder.me, join, 6, { seq: 93 }),
      resigned(liar.me, liarCommit, 6, { seq: 94, time: FUTURE }),
      resigned(voter.me, anyVote, 6, { seq: 95, time: FUTURE }),
    ],
    0,
  );

  // Replays: exact copies and, after the START, compact forms (one message, two byte strings).
  const keys = startKeys(payloadOf(start) as never);
  const startAt = entries.findIndex((e) => e.bytes === start);
  const r = rng(seed);
  const n = entries.length;
  for (let k = 0; k < 8; k++) {
    const i = r.int(n);
    const e = entries[i]!;
    const compact = i > startAt && e.kind !== 'old' && k % 2 === 0;
    entries.push({ bytes: compact ? compactEntry(e.bytes, keys) : Uint8Array.from(e.bytes), kind: 'copy', after: e.after });
  }
  return { gameId: t.gameId, entries, honest: honest.map((d) => d.key), spectator: t.spares[0]!.key, resolved: reduceAs(t, null).phases.length };
}

const reduce = (gameId: string, log: readonly Uint8Array[], me: string | null) =>
  reduceLog(gameId, log, { verifier: nativeVerifier, ...(me === null ? {} : { me }) });

/** What every phone of the game must agree on: the game's state, its resolved phases and the open phase's clock. */
export function shared(v: GameView) {
  return canonicalText({
    status: v.status,
    start: 'start' in v ? v.start : undefined,
    stateHash: 'stateHash' in v ? v.stateHash : undefined,
    phases: v.phases,
    openedAt: v.current?.openedAt,
    deadline: v.current?.deadline,
    revealDeadline: v.current?.revealDeadline,
    timedOut: v.current?.timedOut,
    timeoutVotes: v.current?.timeoutVotes,
  });
}

/**
 * An arrival order of the scenario's entries from `keys` (one number per entry): `causal` keeps the
 * honest play's order but for a local jitter, and lets each late entry come anywhere after the close
 * of its phase and each older-version entry anywhere; otherwise any order at all after the CREATE.
 */
export function arrival(s: Scenario, keys: readonly number[], causal: boolean): Uint8Array[] {
  const n = s.entries.length;
  const at = s.entries.map((e, i) => {
    const k = keys[i % keys.length]!;
    // The game's CREATE comes first on every phone (a phone opens a game from it). Without it, a
    // creator's older CREATE of the same game would be read alone (the version floor needs the
    // newest CREATE held), a creator's residual of the version rule.
    if (i === 0) return -1;
    if (!causal) return k;
    if (e.kind === 'play') return i * 16 + (k % 40);
    return e.after * 16 + (k % ((n - e.after) * 16 + 1));
  });
  return s.entries
    .map((e, i) => ({ b: e.bytes, k: at[i]!, i }))
    .sort((x, y) => x.k - y.k || x.i - y.i)
    .map((x) => x.b);
}

/**
 * One case: each reader (the honest players, the spectator, no identity) follows its own arrival
 * order live, one entry at a time; a phase resolved on it never changes; at the end every reader's
 * shared state is the same, its whole view equals a cold re-read of its entries in another order
 * with nothing remembered, and the honest play's phases are all resolved. Returns the failures.
 */
export function checkCase(s: Scenario, orders: readonly (readonly number[])[], causal: boolean): string[] {
  const failures: string[] = [];
  const readers: (string | null)[] = [...s.honest, s.spectator, null];
  const ends: string[] = [];
  readers.forEach((me, r) => {
    const order = arrival(s, orders[r % orders.length]!, causal);
    const log: Uint8Array[] = [];
    const resolved: string[] = [];
    let v: GameView | undefined;
    for (const bytes of order) {
      log.push(bytes);
      v = reduce(s.gameId, log, me);
      v.phases.forEach((ph, k) => {
        const now = canonicalText(ph);
        if (k < resolved.length && resolved[k] !== now) failures.push(`reader ${r}: phase ${ph.key} changed after it resolved (entry ${log.length})`);
        if (k >= resolved.length) resolved.push(now);
      });
      if (v.phases.length < resolved.length) failures.push(`reader ${r}: ${resolved.length - v.phases.length} resolved phase(s) undone (entry ${log.length})`);
    }
    if (v!.phases.length !== s.resolved) failures.push(`reader ${r}: ${v!.phases.length} phases resolved, not ${s.resolved}`);
    ends.push(shared(v!));
    clearMemos();
    const cold = reduce(s.gameId, [...order].reverse(), me);
    if (canonicalText(cold) !== canonicalText(v!)) failures.push(`reader ${r}: the cold re-read differs from the live view`);
  });
  for (let r = 1; r < ends.length; r++) if (ends[r] !== ends[0]) failures.push(`reader ${r} and reader 0 disagree`);
  return failures;
}

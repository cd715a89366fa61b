// Closing a phase against absent powers.
//
// There is no trusted clock, so no single phone's word about time can matter. What holds:
//  - A power P is timed out in a phase only when TIMEOUT votes naming P for that phase are
//    signed by MORE THAN HALF of the other active powers of that phase (active: rostered, not
//    conceded, still holding units or centres), and by at least two of them unless P faces a
//    single opponent (two active powers: then that one vote is the only way the game can go on).
//  - Every counted vote claims a time (its author's clock) at or after the phase deadline, the
//    deadline being the phase's opening time (see openingTime) plus the settings' duration
//    for that phase kind. A vote claiming an earlier time is ignored, so an honest phone with a
//    sane clock can never be counted early, even by mistake.
//  - Votes exist only for the phase they name; the reducer only counts votes for the phase it is
//    resolving, so no vote reaches back into a phase that is resolved without it, and a vote for
//    a phase that is never reached is ignored.
//  - A power cannot vote on itself, and a power that holds several seats votes once per seat.
//  - Revealing is automatic once a phone sees every commit, so a power whose commit another
//    power's reveal already names gets a grace period (a quarter of the phase duration) after
//    the deadline before votes against it count: a reveal still travelling must not be beaten
//    by votes, or phones that saw it first would resolve the phase one way and later another.
// So: with an honest majority among the other active powers, nobody is timed out before the
// deadline by those honest phones' clocks; a dishonest minority (in particular one player
// alone) can never time anyone out. Once the quorum exists, the timeout wins over a late
// reveal from the absent power: that keeps the absent player from choosing, after seeing how
// the game went on, between their sealed orders and civil disorder. Several absent powers can
// still block the game if they make up half or more of the active powers: the rulebook's
// remedy then (abandoning the game) is left to the players.
import type { Power } from '../rules';
import type { Message } from './envelope';
import type { TimeoutPayload } from './messages';

export interface TimeoutCount {
  readonly timedOut: Power[];
  /** Per named power, the powers whose counted votes name it (sorted). */
  readonly votes: Partial<Record<Power, Power[]>>;
  readonly ignored: { id: string; reason: string }[];
}

/** The lower median of claimed times: no single early or late clock can move it past an honest one. */
export function openingTime(claimedTimes: readonly number[], fallback: number): number {
  if (claimedTimes.length === 0) return fallback;
  const sorted = [...claimedTimes].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** Extra time after the deadline before a power that did commit can be timed out for not revealing. */
export function revealGrace(duration: number): number {
  return Math.floor(duration / 4);
}

export function quorumReached(voters: number, others: number): boolean {
  return voters * 2 > others && (voters >= 2 || others === 1);
}

/** Votes must already be known to be signed by the holder of vote.power. */
export function countTimeouts(
  required: readonly Power[],
  active: readonly Power[],
  deadline: number,
  votes: readonly Message<TimeoutPayload>[],
  /** Powers whose commit another power's reveal names, and the time from which they may be voted out. */
  committed: ReadonlySet<Power> = new Set(),
  revealDeadline: number = deadline,
): TimeoutCount {
  const ignored: { id: string; reason: string }[] = [];
  const named = new Map<Power, Set<Power>>();
  for (const vote of votes) {
    const p = vote.payload;
    const reason =
      p.time < deadline ? 'timeout-before-deadline'
      : !active.includes(p.power) ? 'voter-not-active'
      : p.powers.includes(p.power) ? 'timeout-names-itself'
      : p.powers.some((x) => !required.includes(x)) ? 'timeout-names-power-not-required'
      : null;
    if (reason !== null) {
      ignored.push({ id: vote.id, reason });
      continue;
    }
    const targets = p.powers.filter((t) => !committed.has(t) || p.time >= revealDeadline);
    if (targets.length === 0) {
      ignored.push({ id: vote.id, reason: 'timeout-within-reveal-grace' });
      continue;
    }
    for (const target of targets) {
      const set = named.get(target) ?? new Set<Power>();
      set.add(p.power);
      named.set(target, set);
    }
  }
  const timedOut: Power[] = [];
  const counted: Partial<Record<Power, Power[]>> = {};
  for (const power of [...required].sort()) {
    const voters = [...(named.get(power) ?? [])].sort();
    if (voters.length > 0) counted[power] = voters;
    const others = active.filter((a) => a !== power).length;
    if (quorumReached(voters.length, others)) timedOut.push(power);
  }
  return { timedOut, votes: counted, ignored };
}

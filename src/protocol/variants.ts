// What the variants (src/rules/variants) ask of the protocol, in one place:
//  - START's roster: every power of one seat goes to one key, different seats to different keys,
//    and a neutral power is listed under the creator's key as a placeholder (the START shape
//    always names all seven powers); messages in a neutral power's name are ignored.
//  - The two-player toss for Italy: each side seals a 32-byte coin with its orders in the Fall
//    movement phase of the toss year (client.ts `commitTurn`). The coin of a side is the one sealed
//    by its first power (in POWERS order) that has units to order on that board (a concession or
//    timeout does not move it to another power); Italy goes to the side
//    whose orders there were opened with a coin, and when both were, to the side picked by a hash
//    of both coins (lot.ts coinToss). The usual commit-reveal discipline makes it fair: a coin is
//    sealed before the other side's can be read, the commit used is fixed by the other side's
//    lock, and a side that does not reveal (timed out after the deadline, or a reveal that does
//    not open) has no coin, so it loses the toss; withholding never helps. If neither side has a
//    coin, Italy stays neutral and closed.
//  - Hand-over of a power (civil disorder, seed 000 XV.4 / seed 002 "Desorden civil": another
//    person may replace an absent player with the group's agreement): a HANDOVER naming the
//    power and the new key counts when it is signed, for the same phase, by more than half of the
//    other players (distinct keys holding an active power, the power's current holder excluded).
//    The new key must have sent a JOIN. It holds the power from the next phase on.
//  - Seed 001's alliance: an ALLIANCE with the member list, signed for a phase by every member
//    power; it stands from the first phase in which every member's latest word is yes, and ends
//    when any member signs yes: false.
import { POWERS, variantById, VARIANTS, type Alliance, type Phase, type Power, type Seat, type Variant } from '../rules';
export { isTossPhase } from '../rules';
import { compareText } from './bytes';
import type { Message } from './envelope';
import { coinToss } from './lot';
import type { AlliancePayload, HandoverPayload } from './messages';

/** The variant a game names; an unknown id (an injected test engine's own) plays like 'standard'. */
export function variantOf(id: string): Variant {
  return variantById(id) ?? VARIANTS[0]!;
}

/** Why a START roster does not fit the variant, or null. */
export function rosterProblem(variant: Variant, roster: Readonly<Record<Power, string>>, creator: string): string | null {
  const seen = new Map<string, string>();
  for (const seat of variant.seats) {
    const keys = new Set(seat.powers.map((p) => roster[p]));
    const [key] = keys;
    if (keys.size !== 1 || key === undefined) return 'start-roster-splits-a-seat';
    if (seen.has(key)) return 'start-roster-joins-seats';
    seen.set(key, seat.id);
  }
  if (variant.neutral.some((p) => roster[p] !== creator)) return 'start-roster-neutral-not-creator';
  return null;
}

/** The side that won the toss, or null if neither side sealed a coin that was opened. */
export function tossWinner(seats: readonly Seat[], ordering: readonly Power[], coins: ReadonlyMap<Power, Uint8Array>): { winner: string | null; revealed: string[] } {
  const sides = [...seats].sort((a, b) => compareText(a.id, b.id));
  const values = new Map<string, Uint8Array>();
  for (const seat of sides) {
    const designated = seat.powers.find((p) => ordering.includes(p));
    const coin = designated === undefined ? undefined : coins.get(designated);
    if (coin !== undefined) values.set(seat.id, coin);
  }
  const revealed = [...values.keys()];
  if (revealed.length === 0) return { winner: null, revealed };
  if (revealed.length === 1) return { winner: revealed[0]!, revealed };
  return { winner: coinToss(values) ? sides[0]!.id : sides[1]!.id, revealed };
}


/**
 * Hand-overs that reach their quorum in one phase: power -> new key. `holders` is who holds each
 * power now; `active` the powers still in play; `joined` every key that sent a JOIN.
 */
export function handoversDone(
  messages: readonly Message<HandoverPayload>[],
  holders: Readonly<Record<Power, string>>,
  active: readonly Power[],
  joined: ReadonlySet<string>,
): { done: Map<Power, string>; ignored: { id: string; reason: string }[] } {
  const ignored: { id: string; reason: string }[] = [];
  const players = new Set(active.map((p) => holders[p]));
  const signers = new Map<string, Set<string>>();
  for (const m of messages) {
    const { power, to, from } = m.payload;
    if (!players.has(from)) ignored.push({ id: m.id, reason: 'handover-by-non-player' });
    else if (!joined.has(to) || to === holders[power]) ignored.push({ id: m.id, reason: 'handover-to-invalid-key' });
    else if (from === holders[power]) ignored.push({ id: m.id, reason: 'handover-by-holder' });
    else {
      const key = `${power}|${to}`;
      signers.set(key, (signers.get(key) ?? new Set()).add(from));
    }
  }
  const done = new Map<Power, string>();
  const best = new Map<Power, number>();
  for (const [key, who] of [...signers].sort((a, b) => compareText(a[0], b[0]))) {
    const [power, to] = key.split('|') as [Power, string];
    const others = [...players].filter((k) => k !== holders[power]).length;
    if (who.size * 2 <= others) continue;
    if ((best.get(power) ?? 0) < who.size) {
      best.set(power, who.size);
      done.set(power, to);
    }
  }
  return { done, ignored };
}

/** Alliance bookkeeping across phases (seed 001). */
export class Alliances {
  private readonly word = new Map<string, Map<Power, boolean>>();
  private readonly since = new Map<string, Phase>();

  /** Folds one phase's ALLIANCE messages (already checked to be signed by the member's holder). */
  add(messages: readonly Message<AlliancePayload>[], phase: Phase): { id: string; reason: string }[] {
    const ignored: { id: string; reason: string }[] = [];
    const ordered = [...messages].sort((a, b) => a.payload.seq - b.payload.seq || compareText(a.id, b.id));
    for (const m of ordered) {
      const { power, powers, yes } = m.payload;
      if (!powers.includes(power)) {
        ignored.push({ id: m.id, reason: 'alliance-by-non-member' });
        continue;
      }
      const key = powers.join(',');
      const words = this.word.get(key) ?? new Map<Power, boolean>();
      words.set(power, yes);
      this.word.set(key, words);
    }
    for (const [key, words] of this.word) {
      const members = key.split(',') as Power[];
      const standing = members.every((p) => words.get(p) === true);
      if (!standing) this.since.delete(key);
      else if (!this.since.has(key)) this.since.set(key, phase);
    }
    return ignored;
  }

  /** Alliances standing now, sorted by member list. */
  standing(): Alliance[] {
    return [...this.since.entries()]
      .sort((a, b) => compareText(a[0], b[0]))
      .map(([key, since]) => ({ powers: POWERS.filter((p) => key.split(',').includes(p)), since }));
  }
}

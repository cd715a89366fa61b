// What the variants (src/rules/variants) ask of the protocol, in one place:
//  - START's roster: every power of one seat goes to one key, different seats to different keys,
//    and a neutral power is listed under the creator's key as a placeholder (the START shape
//    always names all seven powers); messages in a neutral power's name are ignored.
//  - The two-player toss for Italy: each side seals a 32-byte coin with its orders in the Fall
//    movement phase of the toss year (client.ts `commitTurn`). The coin of a side is the one sealed
//    by its first power (in POWERS order) that has units to order on that board (a concession or
//    timeout does not move it to another power); Italy goes to the side
//    whose orders there were opened with a coin, and when both were, to the side picked by a hash
//    of both coins (lot.ts coinToss). The sealed ballot makes it fair: a coin is sealed before the
//    other side's can be read, the commit used is fixed by the other side's blind LOCK (ballot.ts),
//    and a side whose coin is not opened has none, so it loses the toss; withholding never helps.
//    If neither side has a coin, Italy stays neutral and closed.
//  - Hand-over of a power (civil disorder, seed 000 XV.4 / seed 002 "Desorden civil": another
//    person may replace an absent player with the group's agreement): handoversDone below, rules
//    in README.md ("Hand-over"). The new key holds the power from the next phase on.
//  - Seed 001's alliance: an ALLIANCE with the member list, signed for a phase by every member
//    power; it stands from the first phase in which every member's latest word is yes, and ends
//    when any member signs yes: false.
import { POWERS, variantById, VARIANTS, type Alliance, type Phase, type Power, type Seat, type Variant } from '../rules';
export { isTossPhase } from '../rules';
import { compareText } from './bytes';
import type { Message } from './envelope';
import { pointFromText } from './escrow';
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

/**
 * Why a lot among this many players cannot deal the variant's seats, or null: nobody draws, or
 * (outside the standard game, where a player holds one seat) fewer players than seats. The lobby's
 * START check and the lobby screen both ask this.
 */
export function lotPlayersProblem(variant: Variant, players: number): 'start-without-participants' | 'start-too-few-participants' | null {
  if (players === 0) return 'start-without-participants';
  return variant.id !== 'standard' && players < variant.seats.length ? 'start-too-few-participants' : null;
}

/** The side that won the toss, or null if neither side sealed a coin that was opened. */
export function tossWinner(
  seats: readonly Seat[],
  ordering: readonly Power[],
  coins: ReadonlyMap<Power, Uint8Array>,
): { winner: string | null; revealed: string[] } {
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

export interface HandoverInput {
  readonly messages: readonly Message<HandoverPayload>[];
  /** Who holds each power in the phase (neutral placeholders included). */
  readonly holders: Readonly<Record<Power, string>>;
  /** The players of the phase: distinct keys holding an active power. */
  readonly players: readonly string[];
  /** Powers absent in the phase: timed out in it, or conceded. */
  readonly absent: ReadonlySet<Power>;
  /** Every key that sent a JOIN. */
  readonly joined: ReadonlySet<string>;
  /** The START this view plays under. */
  readonly startId: string;
  /**
   * Given when the START pins escrow keys (version 5 on): every escrow key each key's own JOINs
   * name, and the keys pinned so far (START and earlier hand-overs). A HANDOVER must then name
   * `to`'s pinned key, or for a key not pinned yet one its JOINs name, and signers count per
   * (power, to, escrow key).
   */
  readonly pins?: { readonly joinEscrows: ReadonlyMap<string, ReadonlySet<string>>; readonly pinned: ReadonlyMap<string, string | null> };
}

/**
 * Hand-overs that count at the close of a phase: power -> new key. A power changes hands only when
 * it is absent, signed by more than half of the other players and at least two of them (so never
 * in a two-player game, never by one key whatever it holds), to a key that joined and holds no
 * power. Competing candidates: the one with strictly most signers; a tie hands over nothing.
 */
export function handoversDone(input: HandoverInput): {
  done: Map<Power, string>;
  /** Under pins: the escrow key each recipient of `done` plays with. */
  escrow: Map<string, string>;
  ignored: { id: string; reason: string }[];
} {
  const ignored: { id: string; reason: string }[] = [];
  const players = new Set(input.players);
  const holding = new Set(Object.values(input.holders));
  const signers = new Map<string, { power: Power; to: string; escrow: string; who: Set<string> }>();
  const pins = input.pins;
  for (const m of input.messages) {
    const { power, to, from, start } = m.payload;
    const escrow = pins === undefined ? '' : (m.payload.escrow ?? null);
    const pinnedTo = pins?.pinned.get(to);
    const reason =
      start !== input.startId
        ? 'handover-under-another-start'
        : !players.has(from)
          ? 'handover-by-non-player'
          : from === input.holders[power]
            ? 'handover-by-holder'
            : !input.absent.has(power)
              ? 'handover-of-present-power'
              : !input.joined.has(to) || holding.has(to)
                ? 'handover-to-invalid-key'
                : escrow === null
                  ? 'handover-without-escrow-key'
                  : pins !== undefined && pointFromText(escrow) === null
                    ? 'handover-escrow-not-a-point'
                    : pins !== undefined && (pinnedTo !== undefined ? pinnedTo !== escrow : pins.joinEscrows.get(to)?.has(escrow) !== true)
                      ? 'handover-escrow-not-the-recipients'
                      : null;
    if (reason !== null || escrow === null) {
      ignored.push({ id: m.id, reason: reason ?? 'handover-without-escrow-key' });
      continue;
    }
    const key = `${power}|${to}|${escrow}`;
    const c = signers.get(key) ?? { power, to, escrow, who: new Set<string>() };
    c.who.add(from);
    signers.set(key, c);
  }
  const done = new Map<Power, string>();
  const escrowOf = new Map<string, string>();
  const given = new Set<string>();
  for (const power of POWERS) {
    const others = [...players].filter((k) => k !== input.holders[power]).length;
    const candidates = [...signers.values()].filter((c) => c.power === power).map((c) => ({ to: c.to, escrow: c.escrow, n: c.who.size }));
    const best = Math.max(0, ...candidates.map((c) => c.n));
    const top = candidates.filter((c) => c.n === best);
    if (top.length !== 1 || best < 2 || best * 2 <= others) continue;
    const to = top[0]!.to;
    // One key takes at most one absent player's place: it would otherwise become a bloc of powers.
    if (given.has(to)) continue;
    given.add(to);
    done.set(power, to);
    if (pins !== undefined) escrowOf.set(to, top[0]!.escrow);
  }
  return { done, escrow: escrowOf, ignored };
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

  /** A copy that later add() calls on this one do not change. */
  clone(): Alliances {
    const copy = new Alliances();
    for (const [key, words] of this.word) copy.word.set(key, new Map(words));
    for (const [key, since] of this.since) copy.since.set(key, since);
    return copy;
  }

  /** The whole state as text (equal texts, equal states). */
  key(): string {
    const words = [...this.word].map(
      ([k, w]) =>
        `${k}:${[...w]
          .sort((a, b) => compareText(a[0], b[0]))
          .map(([p, y]) => `${p}=${y ? 1 : 0}`)
          .join('.')}`,
    );
    const since = [...this.since].map(([k, ph]) => `${k}@${ph.year}-${ph.season}-${ph.kind}`);
    return `${words.sort(compareText).join(';')}/${since.sort(compareText).join(';')}`;
  }

  /** Alliances standing now, sorted by member list. */
  standing(): Alliance[] {
    return [...this.since.entries()]
      .sort((a, b) => compareText(a[0], b[0]))
      .map(([key, since]) => ({ powers: POWERS.filter((p) => key.split(',').includes(p)), since }));
  }
}

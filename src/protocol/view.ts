// What a phone shows: everything here is derived from the log by reduceLog and nothing else.
import type { Dislodged, GameMap, Order, OrderResult, Position, Power, ProvinceId, VariantRules } from '../rules';
import type { ChatPayload, PhaseKey, Settings } from './messages';

export interface Ignored {
  readonly id: string;
  readonly reason: string;
}

export interface Misconduct {
  /** Author's public key. */
  readonly author: string;
  /** The slot concerned: a power, or a participant key in the lot ballot. */
  readonly slot?: string;
  readonly phase?: string;
  /**
   * equivocation: two FINALs for one slot, two LOCKs or two REVEALs of a phase (or, lobby, two
   * STARTs: duplicate-start); escrow-bad-share: a commit whose escrow share drew a valid complaint;
   * escrow-key-conflict: JOINs of one key naming two escrow keys.
   */
  readonly kind: 'equivocation' | 'same-seq' | 'unopened-commit' | 'bad-orders' | 'duplicate-start' | 'escrow-bad-share' | 'escrow-key-conflict';
  /** The messages that show it (sorted). */
  readonly ids: readonly string[];
}

export interface Player {
  readonly key: string;
  readonly fingerprint: string;
  readonly name: string;
  /** curve25519 public key (hex) for chat. */
  readonly box: string;
  /**
   * ristretto255 escrow key (base64url) shares are dealt to: the one a version 5 START or a counted
   * hand-over pinned for it; otherwise the one its JOINs name, null when they disagree.
   */
  readonly escrow: string | null;
  readonly claim: Power | null;
}

export interface ResolvedPhase {
  readonly key: PhaseKey;
  /** The board the orders were given on. */
  readonly position: Position;
  readonly openedAt: number;
  readonly deadline: number;
  /** The orders adjudicated, per power that gave any. */
  readonly orders: Partial<Record<Power, readonly Order[]>>;
  /** The commit whose orders were used, per power. */
  readonly commits: Partial<Record<Power, string>>;
  readonly civilDisorder: readonly Power[];
  readonly timedOut: readonly Power[];
  readonly conceded: readonly Power[];
  readonly results: readonly OrderResult[];
  readonly dislodged: readonly Dislodged[];
  readonly contested: readonly ProvinceId[];
  /** State hash of the position after this phase (what ACKs compare). */
  readonly stateHash: string;
  /** Movement phases: the survivors whose opened orders voted for a draw. */
  readonly drawVotes?: readonly Power[];
  /** Movement phases: the survivors whose sealed vote counted (a draw needs all of them). */
  readonly drawVoters?: readonly Power[];
  /** "1914" rules: units left without an order by a commit made without the seal helper (they held). */
  readonly unordered?: readonly string[];
}

/** Where a sealed ballot (a phase or the lot) stands (ballot.ts). */
export interface BallotView {
  /** orders: a seat has not sealed; final, lock: automatic steps under way; reveal: waiting for openings. */
  readonly stage: 'orders' | 'final' | 'lock' | 'reveal' | 'closed';
  /** Keys holding an awaited slot: each must LOCK, and REVEALs name a LOCK of each. */
  readonly keys: readonly string[];
  /** Latest commit (highest seq) per slot. */
  readonly heads: Readonly<Record<string, string>>;
  /** Every valid commit per slot, oldest (lowest seq) first: what this phone may have to open. */
  readonly commits: Readonly<Record<string, readonly string[]>>;
  /** Every awaited slot (timed-out ones aside) has a commit: from here a later seal does not count. */
  readonly sealed: boolean;
  /** Valid FINALs per slot (two: equivocation). */
  readonly finals: Readonly<Record<string, readonly string[]>>;
  /** Valid LOCKs per key (two: equivocation). */
  readonly locks: Readonly<Record<string, readonly string[]>>;
  /** For a key with two LOCKs, the one the valid REVEALs seen name. */
  readonly lockNamed: Readonly<Record<string, string>>;
  /** Valid REVEALs per key. */
  readonly reveals: Readonly<Record<string, readonly string[]>>;
  /** Keys the ballot waits for now (at the orders and final stages, the holders of the slots concerned). */
  readonly waiting: readonly string[];
  /** Per slot: 'opened', 'pending', or 'void:<reason>'. */
  readonly outcomes: Readonly<Record<string, string>>;
  readonly equivocators: readonly string[];
}

export interface OpenPhase {
  readonly key: PhaseKey;
  readonly position: Position;
  /** The board this phase's orders are given on: the variant's map in this phase (the two-player
   *  games close Italy until the toss). The legal orders and the parser need it. */
  readonly map: GameMap;
  readonly openedAt: number;
  /** Orders deadline: from then a power that has not sealed may be voted out. */
  readonly deadline: number;
  /** From when a seat that has sealed but not finished the automatic steps may be voted out. */
  readonly revealDeadline: number;
  /** Powers whose orders are awaited (sorted; timed-out ones included). */
  readonly required: readonly Power[];
  readonly active: readonly Power[];
  /** The players of the phase (keys holding an active power at its opening): who may vote. */
  readonly players: readonly string[];
  /** Keys holding a power required at the opening: the escrow community (share holders). */
  readonly ballotKeys: readonly string[];
  /** Powers with at least one commit. */
  readonly committed: readonly Power[];
  /** Powers whose holder has signed a FINAL. */
  readonly finalized: readonly Power[];
  readonly timedOut: readonly Power[];
  readonly ballot: BallotView;
  /** Per power named in a counted vote, the keys voting it out. */
  readonly timeoutVotes: Partial<Record<Power, readonly string[]>>;
  /** Players who signed a CLOCK in this phase (two-player games), sorted. */
  readonly clocked: readonly string[];
  /** Movement phases: the powers whose sealed draw vote counts (units, not conceded). */
  readonly drawVoters: readonly Power[];
}

export type GameResult =
  /** by: 'seat' when a two-player side won together, 'alliance' for seed 001's alliance victory. */
  | { readonly kind: 'victory'; readonly winners: readonly Power[]; readonly phase: PhaseKey; readonly by?: 'seat' | 'alliance' }
  | { readonly kind: 'draw'; readonly winners: readonly Power[]; readonly phase: PhaseKey }
  | { readonly kind: 'short-game'; readonly winners: readonly Power[]; readonly phase: PhaseKey }
  | { readonly kind: 'concession'; readonly winners: readonly Power[]; readonly phase: PhaseKey };

/** A chat as everyone sees it: who sent it. Recipients, text and time are inside, for recipients only. */
export interface ChatEntry {
  readonly id: string;
  readonly from: string;
  /** The sealed part as sent (every player gets a key box; only recipients' open): what a phone opens. */
  readonly box: Pick<ChatPayload, 'keys' | 'nonce' | 'sealed'>;
}

export interface HashMismatch {
  readonly phase: string;
  readonly author: string;
  readonly claimed: string;
  readonly expected: string;
}

/** The lot ballot of a lot game: participants seal values, the opened values deal the seats. */
export interface LotView {
  /** The participants, sorted: also the escrow community of the lot. */
  readonly participants: readonly string[];
  readonly openedAt: number;
  readonly deadline: number;
  readonly revealDeadline: number;
  readonly ballot: BallotView;
  readonly timedOut: readonly string[];
  readonly timeoutVotes: Readonly<Record<string, readonly string[]>>;
  /** Participants who signed a CLOCK in the lot, sorted. */
  readonly clocked: readonly string[];
  /** Once closed: participants in lot order (those whose value was not opened last). */
  readonly order?: readonly string[];
}

/** One of several STARTs of a game that this phone has no anchor for (status 'forked'). */
export interface ForkView {
  readonly start: string;
  readonly roster: Readonly<Record<Power, string>> | null;
  readonly members: readonly { readonly key: string; readonly fingerprint: string; readonly name: string }[];
  readonly accepted: readonly string[];
}

/** The two-player toss for Italy (src/protocol/variants.ts). */
export interface TossView {
  /** The phase whose sealed orders carried the coins. */
  readonly phase: PhaseKey;
  /** Seat id that won Italy; null when neither side revealed a coin. */
  readonly winner: string | null;
  /** Seat ids whose coin was revealed (sorted). */
  readonly revealed: readonly string[];
}

export interface AllianceView {
  readonly powers: readonly Power[];
  /** The phase from which every member had declared it. */
  readonly since: PhaseKey;
}

export interface SeatView {
  readonly id: string;
  readonly powers: readonly Power[];
}

export type GameStatus = 'no-game' | 'incompatible' | 'lobby' | 'starting' | 'forked' | 'lot' | 'playing' | 'finished';

/** What every view carries, whatever the status. */
export interface ViewCommon {
  readonly gameId: string;
  /** Everyone who sent a JOIN, sorted by key (names for the screens). */
  readonly players: readonly Player[];
  /** The counted STARTs: every valid START of the creator, lowest seq first. More than one is
   *  misconduct (duplicate-start), and no phone accepts a START on its own then. */
  readonly starts: readonly string[];
  /** Per key, the START its first acceptance names (any START counted; the first one counts). */
  readonly acceptances: Readonly<Record<string, string>>;
  /** Per resolved phase, the players who acknowledged its state hash (whatever hash they claimed), sorted. */
  readonly acked: Readonly<Record<string, readonly string[]>>;
  /** Whether this phone is anchored (it signed or accepted the START, chose it, or was handed a power under it). */
  readonly anchored: boolean;
  /** status 'forked': the competing STARTs, for the person to choose after comparing fingerprints. */
  readonly forks: readonly ForkView[];
  /** Members of the START (roster keys or lot participants) who have accepted it (sorted). */
  readonly accepted: readonly string[];
  /** The players of the game: the START's members and every key a hand-over made a holder (sorted). */
  readonly members: readonly string[];
  /** Keys that joined but play no seat: never chat recipients, only candidates for a hand-over (sorted). */
  readonly spectators: readonly string[];
  /** Resolved phases, oldest first (empty until the game is played). */
  readonly phases: readonly ResolvedPhase[];
  /** Powers nobody plays now: the variant's neutrals from the game's creation on (the toss may
   *  change them once playing); empty while no game is known. */
  readonly neutral: readonly Power[];
  readonly chats: readonly ChatEntry[];
  /** This phone's next sequence number (ReduceOptions.me; 0 without it): one past the highest
   *  among its entries in the game, ignored ones included (a number signed twice is misconduct). */
  readonly nextSeq: number;
  readonly hashMismatches: readonly HashMismatch[];
  readonly misconduct: readonly Misconduct[];
  /** Sorted by id then reason. */
  readonly ignored: readonly Ignored[];
}

/** The fields that only some statuses carry: a member lists the ones it has, the rest are `never`. */
interface ViewOptional {
  /** What the game asks for and what this phone runs. */
  readonly incompatible: { readonly reason: string; readonly game: string; readonly ours: string };
  readonly creator: string;
  readonly settings: Settings;
  /** The rule switches the game is played by (the variant's, then the game's own settings.rules
   *  on top), as the adjudicator and the protocol read them. */
  readonly rules: VariantRules;
  /** The START this view follows (its anchor, or the only candidate). */
  readonly start: string;
  readonly roster: Readonly<Record<Power, string>>;
  /** Lot games: the lot ballot. */
  readonly lot: LotView;
  /** The phase open now. */
  readonly current: OpenPhase;
  /** The board now (after the last resolved phase). */
  readonly position: Position;
  readonly stateHash: string;
  readonly result: GameResult;
  /** Who holds each power now, from the START on (status 'starting': its roster; a lot game once the
   *  lot has dealt): the roster, then the toss and any hand-over (neutral powers keep their
   *  placeholder). */
  readonly holders: Readonly<Record<Power, string>>;
  /** The seats (players' shares of the powers) now. */
  readonly seats: readonly SeatView[];
  /** Seed 001 alliances standing now. */
  readonly alliances: readonly AllianceView[];
  readonly toss: TossView;
}

/** A status's view: `Has` required, `May` optional, every other status-bound field absent. */
type Member<S extends GameStatus, Has extends keyof ViewOptional, May extends keyof ViewOptional = never> = ViewCommon & {
  readonly status: S;
} & Pick<ViewOptional, Has> &
  Partial<Pick<ViewOptional, May>> & { readonly [K in Exclude<keyof ViewOptional, Has | May>]?: never };

/** No CREATE of this game is known. */
export type NoGameView = Member<'no-game', never>;
/** The game asks for a protocol, engine or variant this phone does not run. A game of another
 *  protocol version has no CREATE this phone opens: no creator, settings nor START then. A START
 *  counted by the lobby is kept. */
export type IncompatibleView = Member<'incompatible', 'incompatible', 'creator' | 'settings' | 'start'>;
/** Created, no START followed yet: 'lobby', or 'forked' when several STARTs compete (view.forks). */
export type LobbyView = Member<'lobby' | 'forked', 'creator' | 'settings'>;
/** A START is followed, not every member has accepted it. A lot game has no roster (nor holders)
 *  until its lot has dealt; a chosen-powers game has both (its START's roster). */
export type StartingView = Member<'starting', 'creator' | 'settings' | 'start', 'roster' | 'holders'>;
/** Every participant accepted the START of a lot game; its lot ballot has not dealt yet. */
export type LotStageView = Member<'lot', 'creator' | 'settings' | 'start' | 'lot'>;
type Played = 'creator' | 'settings' | 'start' | 'rules' | 'roster' | 'position' | 'stateHash' | 'holders' | 'seats' | 'alliances';
/** The phases are played. `current` is the open phase; it is missing only when the fold stopped
 *  without one (an engine that does not advance its phase, or the MAX_PHASES guard in reduce.ts).
 *  `lot`: lot games only; `toss`: the two-player games once the toss phase resolved. */
export type PlayingView = Member<'playing', Played, 'current' | 'lot' | 'toss'>;
/** The game has ended (`result`); no phase is open. */
export type FinishedView = Member<'finished', Played | 'result', 'lot' | 'toss'>;

/** What a phone shows, discriminated by `status`: narrow on it to read the status's fields. */
export type GameView = NoGameView | IncompatibleView | LobbyView | StartingView | LotStageView | PlayingView | FinishedView;
/** A game whose phases are played (playing or finished). */
export type StartedView = PlayingView | FinishedView;

// What a phone shows: everything here is derived from the log by reduceLog and nothing else.
import type { Dislodged, Order, OrderResult, Position, Power, ProvinceId } from '../rules';
import type { PhaseKey, Settings } from './messages';

export interface Ignored {
  readonly id: string;
  readonly reason: string;
}

export interface Misconduct {
  /** Author's public key. */
  readonly author: string;
  readonly power?: Power;
  readonly phase?: string;
  readonly kind: 'equivocation' | 'same-seq' | 'unopened-commit' | 'bad-orders' | 'duplicate-create' | 'duplicate-start' | 'start-omits-lot-reveal';
  /** The messages that show it (sorted). */
  readonly ids: readonly string[];
}

export interface Player {
  readonly key: string;
  readonly fingerprint: string;
  readonly name: string;
  /** curve25519 public key (hex) for chat. */
  readonly box: string;
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
  /** "1914" rules: units left without an order by a commit made without the seal helper (they held). */
  readonly unordered?: readonly string[];
}

export interface OpenPhase {
  readonly key: PhaseKey;
  readonly position: Position;
  readonly openedAt: number;
  readonly deadline: number;
  /** From when a power that committed may be voted out for not revealing. */
  readonly revealDeadline: number;
  /** Powers whose orders are awaited (sorted). */
  readonly required: readonly Power[];
  readonly active: readonly Power[];
  readonly committed: readonly Power[];
  readonly revealed: readonly Power[];
  readonly timedOut: readonly Power[];
  /** Latest commit seen per power: the lock a reveal should carry. */
  readonly heads: Partial<Record<Power, string>>;
  /** Per power named in a counted vote, the powers voting it out. */
  readonly timeoutVotes: Partial<Record<Power, readonly Power[]>>;
  /** Powers whose draw vote is needed: those with units that have not conceded (sorted). */
  readonly drawVoters: readonly Power[];
  /** Voters who have committed a secret draw vote (not what they voted). */
  readonly drawCommitted: readonly Power[];
  /** Voters whose counted vote has been opened. */
  readonly drawRevealed: readonly Power[];
  /** Latest draw commit seen per power: the lock a draw reveal carries. */
  readonly drawHeads: Partial<Record<Power, string>>;
  /** Powers that voted yes, filled only once every voter's vote is open (empty before). */
  readonly drawVotes: readonly Power[];
}

export type GameResult =
  /** by: 'seat' when a two-player side won together, 'alliance' for seed 001's alliance victory. */
  | { readonly kind: 'victory'; readonly winners: readonly Power[]; readonly phase: PhaseKey; readonly by?: 'seat' | 'alliance' }
  | { readonly kind: 'draw'; readonly winners: readonly Power[]; readonly phase: PhaseKey }
  | { readonly kind: 'short-game'; readonly winners: readonly Power[]; readonly phase: PhaseKey }
  | { readonly kind: 'concession'; readonly winners: readonly Power[]; readonly phase: PhaseKey };

export interface ChatEntry {
  readonly id: string;
  readonly from: string;
  readonly time: number;
  readonly recipients: readonly string[];
}

export interface HashMismatch {
  readonly phase: string;
  readonly author: string;
  readonly claimed: string;
  readonly expected: string;
}

export interface LotView {
  readonly name: string;
  readonly committed: readonly string[];
  readonly revealed: readonly string[];
  readonly order: readonly string[];
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

export type GameStatus = 'no-game' | 'incompatible' | 'lobby' | 'starting' | 'playing' | 'finished';

export interface GameView {
  readonly gameId: string;
  readonly status: GameStatus;
  /** Set when status is 'incompatible': what the game asks for and what this phone runs. */
  readonly incompatible?: { readonly reason: string; readonly game: string; readonly ours: string };
  readonly creator?: string;
  readonly settings?: Settings;
  /** Sorted by key. */
  readonly players: readonly Player[];
  readonly roster?: Readonly<Record<Power, string>>;
  /** Roster members who have accepted the START (sorted). */
  readonly accepted: readonly string[];
  readonly lots: readonly LotView[];
  readonly phases: readonly ResolvedPhase[];
  readonly current?: OpenPhase;
  /** The board now (after the last resolved phase). */
  readonly position?: Position;
  readonly stateHash?: string;
  readonly result?: GameResult;
  /** Who holds each power now: the roster, then the toss and any hand-over (neutral powers keep their placeholder). */
  readonly holders?: Readonly<Record<Power, string>>;
  /** Powers nobody plays now (the variant's neutrals). */
  readonly neutral?: readonly Power[];
  /** The seats (players' shares of the powers) now. */
  readonly seats?: readonly SeatView[];
  /** Seed 001 alliances standing now. */
  readonly alliances?: readonly AllianceView[];
  readonly toss?: TossView;
  readonly chats: readonly ChatEntry[];
  readonly hashMismatches: readonly HashMismatch[];
  readonly misconduct: readonly Misconduct[];
  /** Sorted by id then reason. */
  readonly ignored: readonly Ignored[];
}

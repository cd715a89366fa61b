// The seam between the app's game plumbing (identity, store, network, protocol: session
// implementation in this folder) and the in-game screens (board, sealing, results, history, press,
// draws). Screens only read a GameSession and call its actions; they never touch the log.
import type { ChatEntry, GameView } from '../../protocol';
import type { Order, Power } from '../../rules';
import type { IceServer } from '../../net/settings';
import type { GameNotifySettings } from './records';

/** A game's own relays and STUN/TURN servers (its record; empty: the device's, else the app's host). */
export interface GameNetwork {
  readonly relays: readonly string[];
  readonly iceServers: readonly IceServer[];
}

/** This game's invite (game id, room password, the game's signaling, relays and ICE servers). */
export interface GameInvite {
  /** The link, as shared and copied. */
  readonly link: string;
  /** The link as a QR code, an SVG document. */
  qrSvg(): Promise<string>;
}

export interface NetStatus {
  /** Peers currently connected (WebRTC, BroadcastChannel or table mode). */
  readonly peers: number;
  /** True once a sync handshake with at least one peer has completed since the last change. */
  readonly synced: boolean;
  readonly online: boolean;
  /** The game's relays: how many, how many connected, and how many of this phone's updates wait
   *  for a relay's acknowledgement (absent: the game has no relay). */
  readonly relays?: {
    readonly total: number;
    readonly connected: number;
    readonly waiting: number;
    /** Relays whose catch-up since connecting is done. */ readonly caughtUp: number;
    /** Relays that sent what no honest relay sends (backed off from; the game goes on without them). */
    readonly misbehaving?: number;
  };
}

/** A chat as this phone reads it (the sealed box stays with the plumbing). */
export interface DecryptedChat extends Omit<ChatEntry, 'box'> {
  /** Null when this phone is not among the recipients or the box did not open. */
  readonly text: string | null;
  /** The sender's clock when it wrote (inside the sealed part; 0 when this phone cannot read it). */
  readonly time: number;
  /** Powers the message went to ('all' when every player). */
  readonly to: readonly Power[] | 'all';
  readonly fromPower?: Power;
}

export interface GameSession {
  readonly gameId: string;
  readonly view: GameView;
  /** This phone's player: its public key, name and the powers it holds (several in small games). */
  readonly me: { readonly key: string; readonly name: string; readonly powers: readonly Power[] };
  readonly net: NetStatus;
  /** The game's relays and ICE servers as stored (absent: this session cannot change them). */
  readonly network?: GameNetwork;
  /** The invite to this game (absent: this session has none to show). */
  readonly invite?: GameInvite;
  /** The clock for countdowns (ms since epoch), ticking once a second. */
  readonly now: number;
  /** The player's unsealed draft for the current phase, per power; survives reloads. */
  readonly drafts: Partial<Record<Power, readonly Order[]>>;
  /** Orders sealed most recently for the current phase, per power (from this phone's own records). */
  readonly sealed: Partial<Record<Power, readonly Order[]>>;
  /** The draw vote this phone sealed last per power in the current phase (movement phases). */
  readonly drawVotes?: Partial<Record<Power, boolean>>;
  readonly chats: readonly DecryptedChat[];
  /** Unread press messages. */
  readonly unread: number;

  saveDraft(power: Power, orders: readonly Order[]): Promise<void>;
  /** Seal (or re-seal while the phase is open) a power's orders. Rejects with a clear Error. */
  seal(power: Power, orders: readonly Order[]): Promise<void>;
  /** Re-seals each surviving power of this player with a draw vote; votes open with the phase's orders. */
  voteDraw(yes: boolean): Promise<void>;
  /** The player marked the open phase's orders final on this device (markFinal). */
  readonly ready?: boolean;
  /**
   * Marks (yes) this player's orders of the open phase final: each power's FINAL is signed as soon
   * as it has sealed, without waiting for the other players, and its orders can no longer change.
   * Taken back (no) only while none is signed; rejects with a clear Error otherwise.
   * Optional: sessions that cannot (a practice board) leave it out.
   */
  markFinal?(yes: boolean): Promise<void>;
  /**
   * "1914" rules: `power` (one of mine) declares (yes) or leaves (no) an alliance of `powers`
   * (members, mine included). It stands once every member has declared the same list.
   * Optional: sessions of games without alliances may leave it out.
   */
  declareAlliance?(power: Power, powers: readonly Power[], yes: boolean): Promise<void>;
  concede(power: Power): Promise<void>;
  voteTimeout(against: readonly Power[]): Promise<void>;
  sendChat(to: readonly Power[] | 'all', text: string): Promise<void>;
  markChatsRead(): void;
  /** This game's notifications on this device (absent: this session cannot change them). */
  readonly notifications?: GameNotifications;
  /** Stores new relays and ICE servers for the game and switches to them (rejects on a bad address, storing nothing). */
  setNetwork?(relays: readonly string[], iceServers: readonly IceServer[]): Promise<void>;
}

export interface GameNotifications {
  load(): Promise<GameNotifySettings>;
  /** From the player's tap only: asks permission, subscribes, registers with the game's relays. */
  enable(quiet?: GameNotifySettings['quiet']): Promise<{ readonly settings: GameNotifySettings; readonly skipped: readonly string[] }>;
  disable(): Promise<GameNotifySettings>;
  setQuiet(quiet: GameNotifySettings['quiet'] | undefined): Promise<GameNotifySettings>;
}

/** The player's name as remembered on this device (typed once, offered again on every form). */
export interface NameMemory {
  /** The name as the device knew it when the page opened. */
  readonly initial: string;
  /** The name stored now (another form of this visit may have changed it). */
  load(): Promise<string>;
  /** Stores a non-empty name; never rejects. */
  remember(name: string): Promise<void>;
}

/** What the lobby screens read and do besides the game: joining, starting, the lot, a forked game. */
export interface LobbySession extends GameSession {
  /** Joins (or changes name or claim: the latest JOIN counts). */
  join(name: string, power: Power | null): Promise<void>;
  /** Creator only: fixes the roster ('choice' games). */
  start(roster: Readonly<Record<Power, string>>): Promise<void>;
  /** Creator only, lot games: fixes who draws the seats; the lot then runs by itself. */
  startLot(participants: readonly string[]): Promise<void>;
  /** A forked game: follows the START the person chose after comparing fingerprints. */
  chooseStart(startId: string): Promise<void>;
  /** Seats the creator asked for (its device only; the settings say once the variant is known). */
  readonly seats?: number;
  /** Created "at the table (no internet)": the lobby opens on pairing phones by QR code. */
  readonly table: boolean;
  readonly names: NameMemory;
}

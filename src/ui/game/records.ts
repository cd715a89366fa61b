// The small open record the home screen lists games from (store 'games'), so it works offline
// without opening any Y.Doc. The session keeps it current; the invite's secrets live here too,
// because the device needs them to reconnect to the game's room.
import type { IceServer } from '../../net/settings';
import type { GameRecord, PactoStore } from '../../store';
import type { GameStatus } from '../../protocol';
import type { Power } from '../../rules';

export interface AppGameRecord extends GameRecord {
  /** Room password from the invite (never leaves the device except in invites it shows). */
  readonly password: string;
  /** Signaling addresses from the invite; empty: the server that served the app. */
  readonly signaling: readonly string[];
  /** STUN/TURN servers from the invite (or chosen at creation); absent: the device's settings. */
  readonly iceServers?: readonly IceServer[];
  /** Relays from the invite (or chosen at creation); absent: the device's, else the app's host. */
  readonly relays?: readonly string[];
  readonly status?: GameStatus;
  readonly powers?: readonly Power[];
  /** Powers of this player whose orders are awaited and not yet sealed. */
  readonly owes?: readonly Power[];
  readonly unread?: number;
  /** How many incoming press messages the player has seen. */
  readonly chatsRead?: number;
  /** Next sequence number for this device's messages in the game, as versions before store version 4
   *  reserved it (now in store.modifyReservation; still a lower bound, see outbox.ts). */
  readonly nextSeq?: number;
  /** The secret (32-byte scalar, base64url) of this device's lot commit, kept until the lot closes. */
  readonly lotSecret?: string;
  /** The phase whose orders the player marked final on this device (its FINALs are signed as soon as its powers have sealed). */
  readonly ready?: string;
  /** The START this device follows, chosen by the person on the forked screen. */
  readonly anchor?: string;
  /** Messages the protocol allows once that this device reserved before store version 4 (now in
   *  store.modifyReservation; still counted, see Outbox.reserved). */
  readonly once?: readonly string[];
  /** Seats the creator asked for (creator's device only). */
  readonly seats?: number;
  readonly creatorName?: string;
  /** Created "at the table (no internet)": the lobby opens on pairing phones by QR code. */
  readonly table?: boolean;
  readonly updated?: number;
  /** Notifications for this game on this device (Game tab): on or off, quiet hours, and the push
   *  subscription's endpoint registered with the game's relays (so a notify skips this device). */
  readonly notify?: GameNotifySettings;
}

export interface GameNotifySettings {
  readonly on: boolean;
  /** Hours of the day (0-23, this phone's clock) between which nothing is shown; from > to wraps midnight. */
  readonly quiet?: { readonly from: number; readonly to: number };
  readonly endpoint?: string;
}

export function asAppRecord(r: GameRecord | undefined): AppGameRecord | undefined {
  if (r === undefined || typeof r.password !== 'string' || !Array.isArray(r.signaling)) return undefined;
  return r as AppGameRecord;
}

/** A game's record as one runner keeps it: the last copy read or written, and writes that update it. */
export class GameRecordRef {
  private value: AppGameRecord;
  constructor(
    private readonly store: PactoStore,
    readonly gameId: string,
    value: AppGameRecord,
  ) {
    this.value = value;
  }

  get current(): AppGameRecord {
    return this.value;
  }

  /** The record as stored now (another tab may have written it), or the last copy if it is unreadable. */
  async fresh(): Promise<AppGameRecord> {
    return asAppRecord(await this.store.getGame(this.gameId)) ?? this.value;
  }

  async patch(patch: Partial<AppGameRecord>): Promise<void> {
    this.value = (await this.store.updateGame(this.gameId, patch)) as AppGameRecord;
  }
}

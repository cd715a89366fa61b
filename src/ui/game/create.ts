// Creating a game and taking an invite in, on this device: the game's record (with the room
// password the invite carries) and, for a new game, the signed CREATE and the creator's JOIN,
// admitted into the game's entry set and stored (entries and Y.Doc updates) before any screen
// opens the game. This is plumbing, like every other signature the app makes: the new-game form
// (src/ui/lobby/NewGame.tsx) only fills NewGameOptions and calls createNewGame, and the invite
// routes call acceptInvite; no screen signs, opens a replica or makes a room password.
import { newRoomPassword, type Invite } from '../../net/invite';
import type { IceServer } from '../../net/settings';
import { createGameDoc } from '../../net/log-doc';
import { GameReplica } from '../../net/replica';
import { createGame, joinGame, revealDeadlineFor, RULES_ENGINE_VERSION, TABLE_DEADLINE_MS, type Settings } from '../../protocol';
import type { Power } from '../../rules';
import { entryStorage, persistDoc } from '../../store';
import type { Device } from './device';
import { randomBytes } from './random';
import type { AppGameRecord } from './records';

export interface NewGameOptions {
  readonly name: string;
  readonly seats: number;
  readonly assignment: 'choice' | 'lot';
  /** The creator's own seat in a 'choice' game, named by one of its powers (null: decide later). */
  readonly claim: Power | null;
  /** A registry id (src/rules/variants). */
  readonly variant: string;
  readonly rules: Readonly<Record<string, number | boolean>>;
  /** Hours per phase kind; 0: a table game without deadlines. */
  readonly movementHours: number;
  readonly retreatHours: number;
  readonly endYear: number | null;
  /** Signaling addresses; empty: the server on the host that served the app. */
  readonly signaling: readonly string[];
  /** Relays (ws[s]://host/relay) every phone of the game uses; carried in the invite. Empty or
   *  absent: each phone's own settings, else the relay on the host that served the app. */
  readonly relays?: readonly string[];
  /** STUN/TURN servers every phone of the game uses; carried in the invite. */
  readonly iceServers?: readonly IceServer[];
  /** Created "at the table (no internet)": the lobby opens on pairing phones by QR code. */
  readonly table?: boolean;
}

/** "No deadline" is a deadline far beyond any game (about 30 years), so no one is ever timed out. */
export const NO_DEADLINE_MS = TABLE_DEADLINE_MS;

const HOUR = 3_600_000;

export function deadlinesFor(o: Pick<NewGameOptions, 'movementHours' | 'retreatHours'>): Settings['deadlines'] {
  const ms = (h: number) => (h > 0 ? Math.round(h * HOUR) : NO_DEADLINE_MS);
  const movement = ms(o.movementHours);
  // The reveal stage (automatic steps after everyone sealed): 10 minutes at a table, 1 hour otherwise.
  return { movement, retreat: ms(o.retreatHours), adjustment: ms(o.retreatHours), lot: ms(o.retreatHours || 1), reveal: revealDeadlineFor({ movement }) };
}

/** The signed settings of a new game (pure, so tests can check the protocol accepts them). */
export function gameSettings(o: Omit<NewGameOptions, 'name' | 'seats' | 'claim' | 'table'>): Settings {
  return {
    variant: o.variant,
    engine: RULES_ENGINE_VERSION,
    rules: o.rules,
    deadlines: deadlinesFor(o),
    endYear: o.endYear,
    signaling: o.signaling[0] ?? '',
    assignment: o.assignment,
  };
}

/** Signs CREATE and the creator's JOIN, stores the game's record and both entries; the game's id. */
export async function createNewGame(
  device: Device,
  o: NewGameOptions,
  random: (n: number) => Uint8Array = randomBytes,
  now: number = Date.now(),
): Promise<string> {
  const settings = gameSettings(o);
  const { gameId, message } = createGame(device.identity, random(16), settings, { seq: 0, time: now });
  const join = joinGame(device.identity, gameId, o.name, o.assignment === 'choice' ? o.claim : null, { seq: 1, time: now });
  const record: AppGameRecord = {
    id: gameId,
    title: o.name,
    created: now,
    password: newRoomPassword((b) => {
      b.set(random(b.length));
      return b;
    }),
    signaling: [...o.signaling],
    ...(o.relays && o.relays.length > 0 ? { relays: [...o.relays] } : {}),
    ...(o.iceServers && o.iceServers.length > 0 ? { iceServers: [...o.iceServers] } : {}),
    seats: o.seats,
    variant: o.variant,
    nextSeq: 2,
    status: 'lobby',
    creatorName: o.name,
    updated: now,
    ...(o.table ? { table: true } : {}),
  };
  await device.store.putGame(record);
  await storeMessages(device, gameId, [message.bytes, join.bytes]);
  return gameId;
}

/** Keeps an invite on this device; the game's messages arrive when the room connects. */
export async function acceptInvite(device: Device, invite: Invite, now: number = Date.now()): Promise<string> {
  const old = await device.store.getGame(invite.gameId);
  if (old === undefined) {
    const record: AppGameRecord = {
      id: invite.gameId,
      title: '',
      created: now,
      password: invite.password,
      signaling: [...invite.signaling],
      ...(invite.relays && invite.relays.length > 0 ? { relays: [...invite.relays] } : {}),
      ...(invite.iceServers && invite.iceServers.length > 0 ? { iceServers: [...invite.iceServers] } : {}),
      updated: now,
    };
    await device.store.putGame(record);
  }
  return invite.gameId;
}

async function storeMessages(device: Device, gameId: string, messages: readonly Uint8Array[]): Promise<void> {
  const doc = createGameDoc();
  const replica = await GameReplica.open({ gameId, doc, self: device.identity.id, storage: entryStorage(device.store, gameId) });
  const persisted = persistDoc(device.store, gameId, doc, { load: (updates, origin) => replica.loadStored(updates, origin) });
  await persisted.ready;
  await replica.publish(messages);
  await persisted.destroy();
  replica.destroy();
  doc.destroy();
}

// Before the first move: who created the game, who joined, which START this phone plays under,
// and whether every member has accepted it. The rules (README.md "Game identity and START") in
// short: the game id binds the creator, the salt and the settings; a START names its members (the
// roster keys, or the participants of a lot); a phone accepts at most one START, ever, and from
// then on that START is its anchor, whatever else the log holds.
import { POWERS } from '../rules';
import { compareText, utf8 } from './bytes';
import { canonicalEncode, hashHex } from './canonical';
import type { WireContext } from './codec';
import type { Message } from './envelope';
import { pointFromText } from './escrow';
import { fingerprint } from './identity';
import {
  FIXED_VERSION,
  PIN_VERSION,
  startKeys,
  type AckPayload,
  type CreatePayload,
  type HandoverPayload,
  type JoinPayload,
  type Payload,
  type Settings,
  type StartPayload,
} from './messages';
import { lotPlayersProblem, rosterProblem, variantOf } from './variants';
import type { ForkView, Ignored, Misconduct, Player } from './view';

/** The game id: creator key, salt and every setting, so a second CREATE cannot change what a game is. */
export function gameIdFor(creatorKey: string, salt: string, settings: Settings): string {
  return hashHex(utf8(`pacto-game-v2:${creatorKey}:${salt}:${hashHex(canonicalEncode(settings))}`));
}

/**
 * A game's protocol version, from the versions of the CREATEs bound to its id (README.md "Game
 * identity and the START anchor"), or undefined with none: the lowest of version FIXED_VERSION or
 * later, so a creator's second CREATE can neither raise nor lower a game created at version 7 on;
 * else (an old game, all its CREATEs older) the newest, as before issue 31. One fact for the lobby
 * and the reducer's index.
 */
export function gameVersionOf(versions: Iterable<number>): number | undefined {
  let newest: number | undefined;
  let fixed: number | undefined;
  for (const v of versions) {
    if (v >= FIXED_VERSION) fixed = Math.min(fixed ?? v, v);
    newest = Math.max(newest ?? v, v);
  }
  return fixed ?? newest;
}

/**
 * What a compact entry is read with (codec.ts expandWire; README.md "The compact wire form"): the
 * game, and the key list (startKeys) of each START of the game's creator among `entries`, each
 * once, `first` (the START the reader is anchored to) first, then lowest (seq, id) first
 * (`startIds` names them). The creator is the author of a CREATE bound to the game id. One fact for
 * the admission (the entries it holds; at restore, also those its store holds) and the reducer (the
 * entries it opened in full form). The order decides only which key is tried first.
 */
export function wireContextOf(
  game: string,
  entries: Iterable<{ readonly id: string; readonly payload: Payload }>,
  first?: string,
): WireContext & { readonly startIds: readonly string[] } {
  let creator: string | undefined;
  const starts = new Map<string, StartPayload>();
  for (const { id, payload: p } of entries) {
    if (p.game !== game) continue;
    if (p.type === 'create' && creator === undefined && gameIdFor(p.from, p.salt, p.settings) === game) creator = p.from;
    else if (p.type === 'start') starts.set(id, p);
  }
  const rank = (id: string) => (id === first ? 0 : 1);
  const startIds = [...starts]
    .flatMap(([id, p]) => (p.from === creator ? [id] : []))
    .sort((a, b) => rank(a) - rank(b) || starts.get(a)!.seq - starts.get(b)!.seq || compareText(a, b));
  return { game, keyLists: startIds.map((id) => startKeys(starts.get(id)!)), startIds };
}

/**
 * The players as the view shows them, each with the escrow key shares are dealt to: the one `keys`
 * names for it (the lobby's: a version 5 START's pins, else the one its JOINs agree on; from the
 * fold on, with those hand-overs pinned, fold.ts phaseEscrowKeys), else the one its JOINs agree
 * on. One place for both the lobby's view and the game's; a player whose key is unchanged is the
 * same object.
 */
export function withEscrowKeys(players: readonly Player[], keys: ReadonlyMap<string, string | null>): Player[] {
  return players.map((p) => {
    const escrow = keys.get(p.key);
    return escrow === undefined || escrow === p.escrow ? p : { ...p, escrow };
  });
}

export interface LobbyOptions {
  /** This phone's key: its own ACK (or its own START, or a hand-over to it) anchors it. */
  readonly me?: string;
  /** A START chosen on this device from a `forked` view (when it has no ACK of its own). */
  readonly anchor?: string;
}

export interface Lobby {
  readonly create?: Message<CreatePayload>;
  /** The START this phone plays under (its anchor, or the only candidate). */
  readonly start?: Message<StartPayload>;
  /** How `start` was found. */
  readonly anchored: boolean;
  /** Two or more STARTs and no anchor: nothing is followed. */
  readonly forks: ForkView[];
  /** Every key that sent a JOIN (sorted by key). */
  readonly players: Player[];
  /** Members of `start` (roster keys or participants) who have accepted it (sorted). */
  readonly accepted: string[];
  /** The creator's valid STARTs, lowest seq first (two or more: duplicate-start). */
  readonly starts: readonly string[];
  /** Per key, the START its first acceptance names (a phone accepts one START, ever). */
  readonly acceptances: Readonly<Record<string, string>>;
  /** Members of `start`: the roster keys (not a neutral power's placeholder) or the participants. */
  readonly members: string[];
  /**
   * Per key, the escrow key its shares are dealt to and its complaints judged with (README.md "Key
   * escrow"). Under a version 5 START: the START's pins, the only keys it holds (a hand-over pins
   * its recipient's in the fold). Under an older START, or none: the one escrow key a key's JOINs
   * name, null when they disagree (the old rule).
   */
  readonly escrowKeys: ReadonlyMap<string, string | null>;
  /** Whether `start` pins escrow keys (version 5 on): hand-overs then pin their recipient's too. */
  readonly pinned: boolean;
  /** Per key, every escrow key its own JOINs name (what a START or a hand-over may pin for it). */
  readonly joinEscrows: ReadonlyMap<string, ReadonlySet<string>>;
  /** Claimed times of the START and of its members' first acceptance (the first opening time's claims). */
  readonly startClaims: ReadonlyMap<string, number>;
  readonly ignored: Ignored[];
  readonly misconduct: Misconduct[];
}

const of = <T extends Payload['type']>(messages: readonly Message[], type: T) =>
  messages.filter((m): m is Message<Extract<Payload, { type: T }>> => m.payload.type === type);

const bySeqThenId = (a: Message, b: Message) => a.payload.seq - b.payload.seq || compareText(a.id, b.id);

/** The members of a START: who must accept it and who plays. */
export function startMembers(start: StartPayload, settings: Settings): string[] {
  if (start.roster === null) return [...start.participants];
  const variant = variantOf(settings.variant);
  return [...new Set(variant.seats.flatMap((seat) => seat.powers.map((p) => start.roster![p])))].sort(compareText);
}

export function reduceLobby(gameId: string, messages: readonly Message[], options: LobbyOptions = {}): Lobby {
  const ignored: Ignored[] = [];
  const misconduct: Misconduct[] = [];
  const empty: Lobby = {
    starts: [],
    acceptances: {},
    anchored: false,
    forks: [],
    players: [],
    accepted: [],
    members: [],
    escrowKeys: new Map(),
    pinned: false,
    joinEscrows: new Map(),
    startClaims: new Map(),
    ignored,
    misconduct,
  };
  // The id binds every field of the CREATE that matters, so every CREATE that counts is the same game.
  const creates = of(messages, 'create').filter((m) => {
    if (gameIdFor(m.payload.from, m.payload.salt, m.payload.settings) === gameId) return true;
    ignored.push({ id: m.id, reason: 'create-not-bound-to-game' });
    return false;
  });
  // The game's version (README.md "Game identity and the START anchor"): no entry of an older
  // version counts, so a START (or a CREATE) cannot downgrade the rules; from version 7 on, a
  // CREATE of another version cannot raise them either.
  const version = gameVersionOf(creates.map((m) => m.payload.v));
  const create = creates.filter((m) => m.payload.v === version).sort(bySeqThenId)[0];
  if (create === undefined) return empty;
  messages = messages.filter((m) => {
    const reason =
      m.payload.v < create.payload.v
        ? 'older-version-than-game'
        : m.payload.type === 'create' && m.payload.v !== create.payload.v
          ? 'create-of-another-version'
          : null;
    if (reason === null) return true;
    ignored.push({ id: m.id, reason });
    return false;
  });
  const creator = create.payload.from;
  const settings = create.payload.settings;

  const joinsBy = new Map<string, Message<JoinPayload>[]>();
  for (const j of of(messages, 'join')) joinsBy.set(j.payload.from, [...(joinsBy.get(j.payload.from) ?? []), j]);
  const players: Player[] = [];
  // The old rule (a START before version 5): the one escrow key all of a key's JOINs name.
  const agreed = new Map<string, string | null>();
  const joinEscrows = new Map<string, ReadonlySet<string>>();
  for (const [key, joins] of joinsBy) {
    joins.sort(bySeqThenId);
    const latest = joins[joins.length - 1]!.payload;
    const escrows = new Set(joins.map((j) => j.payload.escrow));
    joinEscrows.set(key, escrows);
    agreed.set(key, escrows.size === 1 ? joins[0]!.payload.escrow : null);
    if (escrows.size > 1) misconduct.push({ author: key, kind: 'escrow-key-conflict', ids: joins.map((j) => j.id).sort(compareText) });
    players.push({ key, fingerprint: fingerprint(key), name: latest.name, box: latest.box, escrow: agreed.get(key)!, claim: latest.power });
  }
  players.sort((a, b) => compareText(a.key, b.key));
  const joined = new Set(players.map((p) => p.key));

  const starts: Message<StartPayload>[] = [];
  for (const s of of(messages, 'start')) {
    const reason =
      s.payload.from !== creator ? 'start-not-by-creator' : (checkStart(s.payload, settings, creator, joined) ?? checkPins(s.payload, joinEscrows));
    if (reason !== null) ignored.push({ id: s.id, reason });
    else starts.push(s);
  }
  starts.sort(bySeqThenId);
  if (starts.length > 1) misconduct.push({ author: creator, kind: 'duplicate-start', ids: starts.map((s) => s.id).sort(compareText) });
  const startById = new Map(starts.map((s) => [s.id, s]));
  const membersOf = new Map(starts.map((s) => [s.id, startMembers(s.payload, settings)]));

  // Every START acceptance, by author, first (lowest seq) first: a phone accepts one START, ever.
  const acks = of(messages, 'ack')
    .filter((a): a is Message<AckPayload> => a.payload.phase === 'start')
    .sort(bySeqThenId);
  const firstAck = new Map<string, Message<AckPayload>>();
  for (const a of acks) if (!firstAck.has(a.payload.from)) firstAck.set(a.payload.from, a);
  const acceptedBy = (s: Message<StartPayload>): string[] => {
    const members = membersOf.get(s.id)!;
    return members.filter((k) => k === creator || acks.some((a) => a.payload.from === k && a.payload.hash === s.id)).sort(compareText);
  };
  const complete = starts.filter((s) => acceptedBy(s).length === membersOf.get(s.id)!.length);

  // This phone's anchor: the START it signed (creator) or accepted, else one chosen on the device,
  // else one that a hand-over to it names.
  let anchor: Message<StartPayload> | undefined;
  const me = options.me;
  if (me !== undefined) {
    if (me === creator) anchor = starts.find((s) => s.payload.from === me);
    const ack = firstAck.get(me);
    if (anchor === undefined && ack !== undefined) anchor = startById.get(ack.payload.hash);
  }
  if (anchor === undefined && options.anchor !== undefined) anchor = startById.get(options.anchor);
  if (anchor === undefined && me !== undefined) {
    const named = of(messages, 'handover')
      .filter((h): h is Message<HandoverPayload> => h.payload.to === me)
      .map((h) => h.payload.start);
    const candidates = [...new Set(named)].filter((id) => startById.has(id)).sort(compareText);
    if (candidates.length === 1) anchor = startById.get(candidates[0]!);
  }
  // Without an anchor: the complete START whose accepting members (the creator aside) include
  // those of every other complete START (README.md "Game identity and the START anchor"): a START
  // naming only its creator is accepted by nobody and out-ranks nothing; else the only START.
  const acceptors = new Map(complete.map((s) => [s, new Set(acceptedBy(s).filter((k) => k !== creator))]));
  const covers = (s: Message<StartPayload>, o: Message<StartPayload>) => [...acceptors.get(o)!].every((k) => acceptors.get(s)!.has(k));
  const ahead = complete.filter((s) => complete.every((o) => covers(s, o)));
  let start = anchor;
  if (start === undefined) start = ahead.length === 1 ? ahead[0] : complete.length === 0 && starts.length === 1 ? starts[0] : undefined;
  const forks: ForkView[] =
    start === undefined && starts.length > 1
      ? starts.map((s) => ({
          start: s.id,
          roster: s.payload.roster,
          members: membersOf.get(s.id)!.map((k) => ({ key: k, fingerprint: fingerprint(k), name: players.find((p) => p.key === k)?.name ?? '' })),
          accepted: acceptedBy(s),
        }))
      : [];

  for (const a of acks) {
    if (start === undefined || a.payload.hash === start.id) continue;
    ignored.push({ id: a.id, reason: startById.has(a.payload.hash) ? 'accept-of-another-start' : 'accept-of-unknown-start' });
  }
  const members = start === undefined ? [] : membersOf.get(start.id)!;
  const accepted = start === undefined ? [] : acceptedBy(start);
  const startClaims = new Map<string, number>();
  if (start !== undefined) {
    startClaims.set(creator, start.payload.time);
    const memberSet = new Set(members);
    for (const a of acks) {
      const k = a.payload.from;
      if (k === creator || !memberSet.has(k) || a.payload.hash !== start.id) continue;
      startClaims.set(k, Math.min(startClaims.get(k) ?? Infinity, a.payload.time));
    }
  }
  const acceptances: Record<string, string> = {};
  for (const [k, a] of firstAck) if (startById.has(a.payload.hash)) acceptances[k] = a.payload.hash;
  // Escrow keys: pinned by a version 5 START (a later JOIN changes nothing), else the old rule.
  const pins = start?.payload.v !== undefined && start.payload.v >= PIN_VERSION ? start.payload.escrow : undefined;
  const escrowKeys: Map<string, string | null> = pins === undefined ? agreed : new Map(Object.entries(pins));
  const shown = withEscrowKeys(players, escrowKeys);
  return {
    create,
    start,
    starts: starts.map((s) => s.id),
    acceptances,
    anchored: anchor !== undefined,
    forks,
    players: shown,
    accepted,
    members,
    escrowKeys,
    pinned: pins !== undefined,
    joinEscrows,
    startClaims,
    ignored,
    misconduct,
  };
}

/**
 * Version 5 on: why a START's escrow pins cannot count, or null. A version 5 START that reaches
 * here has one pin per key it names and no other: the codec reads exactly one per startKeys entry
 * (`binary-start-escrow-not-one-per-key` otherwise) and the shape check refuses one without pins
 * (`missing-escrow-keys`); a JSON payload is version 2 (tests/protocol/escrow-pin.test.ts). So each
 * pin is checked: a point, and one of the escrow keys its key's JOINs name, so a creator cannot pin
 * for a member a key the member never published (a missing pin would read as no point).
 */
function checkPins(s: StartPayload, joinEscrows: ReadonlyMap<string, ReadonlySet<string>>): string | null {
  if (s.v < PIN_VERSION) return null;
  const pins = s.escrow ?? {};
  const keys = startKeys(s);
  if (keys.some((k) => pointFromText(pins[k] ?? '') === null)) return 'start-escrow-not-a-point';
  if (keys.some((k) => joinEscrows.get(k)?.has(pins[k]!) !== true)) return 'start-escrow-not-joined';
  return null;
}

/** Why a START cannot count, or null. */
function checkStart(s: StartPayload, settings: Settings, creator: string, joined: ReadonlySet<string>): string | null {
  const variant = variantOf(settings.variant);
  if (settings.assignment === 'lot') {
    if (s.roster !== null) return 'start-roster-in-lot-game';
    const count = lotPlayersProblem(variant, s.participants.length);
    if (count === 'start-without-participants') return count;
    if (s.participants.some((k) => !joined.has(k))) return 'start-names-non-player';
    return count;
  }
  if (s.roster === null) return 'start-without-roster';
  if (s.participants.length > 0) return 'start-participants-in-choice-game';
  if (POWERS.some((p) => !joined.has(s.roster![p]))) return 'start-roster-names-non-player';
  // The standard game keeps its old freedom: one player may hold several powers.
  return variant.id === 'standard' ? null : rosterProblem(variant, s.roster, creator);
}

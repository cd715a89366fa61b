// Before the first move: who created the game, who joined, how powers were assigned, and
// whether every player accepted the roster. A game id is bound to its creator's key, so
// nobody else can publish a CREATE (or a START) for it.
import { POWERS, type Power } from '../rules';
import { compareText, fromBase64, utf8 } from './bytes';
import { hashHex } from './canonical';
import type { Message } from './envelope';
import { fingerprint } from './identity';
import { dealSeats, lotCommitment, lotOrder } from './lot';
import type { CreatePayload, JoinPayload, LotCommitPayload, LotRevealPayload, Payload, StartPayload } from './messages';
import { rosterProblem, variantOf } from './variants';
import type { Ignored, LotView, Misconduct, Player } from './view';

export function gameIdFor(creatorKey: string, salt: string): string {
  return hashHex(utf8(`pacto-game:${creatorKey}:${salt}`));
}

export const POWER_LOT = 'powers';

export interface Lobby {
  readonly create?: Message<CreatePayload>;
  readonly start?: Message<StartPayload>;
  readonly players: Player[];
  readonly accepted: string[];
  readonly lots: LotView[];
  readonly ignored: Ignored[];
  readonly misconduct: Misconduct[];
}

const of = <T extends Payload['type']>(messages: readonly Message[], type: T) =>
  messages.filter((m): m is Message<Extract<Payload, { type: T }>> => m.payload.type === type);

/** The message that counts when an author sent several of one kind: highest seq, then lowest id. */
function latestPerAuthor<P extends Payload>(messages: readonly Message<P>[]): Map<string, Message<P>> {
  const out = new Map<string, Message<P>>();
  for (const m of messages) {
    const have = out.get(m.payload.from);
    if (have === undefined || m.payload.seq > have.payload.seq || (m.payload.seq === have.payload.seq && m.id < have.id)) out.set(m.payload.from, m);
  }
  return out;
}

interface LotState {
  readonly view: LotView;
  readonly values: Map<string, Uint8Array>;
  readonly revealIds: Map<string, Message<LotRevealPayload>>;
}

function lotState(name: string, participants: readonly string[], commits: readonly Message<LotCommitPayload>[], reveals: readonly Message<LotRevealPayload>[], ignored: Ignored[], counted?: ReadonlySet<string>): LotState {
  const hashes = new Map<string, Set<string>>();
  for (const c of commits) if (c.payload.lot === name) hashes.set(c.payload.from, (hashes.get(c.payload.from) ?? new Set()).add(c.payload.hash));
  const values = new Map<string, Uint8Array>();
  const revealIds = new Map<string, Message<LotRevealPayload>>();
  for (const r of reveals) {
    if (r.payload.lot !== name) continue;
    const value = fromBase64(r.payload.value);
    if (value === null || !hashes.get(r.payload.from)?.has(lotCommitment(value))) {
      ignored.push({ id: r.id, reason: 'lot-reveal-does-not-match-commit' });
      continue;
    }
    if (counted !== undefined && !counted.has(r.id)) continue;
    if (!values.has(r.payload.from)) {
      values.set(r.payload.from, value);
      revealIds.set(r.payload.from, r);
    }
  }
  const committed = [...hashes.keys()].sort(compareText);
  return {
    view: { name, committed, revealed: [...values.keys()].sort(compareText), order: lotOrder(participants, values) },
    values,
    revealIds,
  };
}

export function reduceLobby(gameId: string, messages: readonly Message[]): Lobby {
  const ignored: Ignored[] = [];
  const misconduct: Misconduct[] = [];
  const creates = of(messages, 'create').filter((m) => {
    if (gameIdFor(m.payload.from, m.payload.salt) === gameId) return true;
    ignored.push({ id: m.id, reason: 'create-not-bound-to-game' });
    return false;
  });
  const create = [...creates].sort((a, b) => compareText(a.id, b.id))[0];
  if (create === undefined) return { players: [], accepted: [], lots: [], ignored, misconduct };
  if (creates.length > 1) {
    for (const c of creates.slice(1)) ignored.push({ id: c.id, reason: 'duplicate-create' });
    misconduct.push({ author: create.payload.from, kind: 'duplicate-create', ids: creates.map((c) => c.id).sort() });
  }
  const creator = create.payload.from;

  const joins = latestPerAuthor(of(messages, 'join'));
  const players: Player[] = [...joins.values()]
    .map((j: Message<JoinPayload>) => ({ key: j.payload.from, fingerprint: fingerprint(j.payload.from), name: j.payload.name, box: j.payload.box, claim: j.payload.power }))
    .sort((a, b) => compareText(a.key, b.key));
  const joined = new Set(players.map((p) => p.key));

  const lotCommits = of(messages, 'lot-commit').filter((m) => joined.has(m.payload.from) || (ignored.push({ id: m.id, reason: 'lot-by-non-player' }), false));
  const lotReveals = of(messages, 'lot-reveal').filter((m) => joined.has(m.payload.from) || (ignored.push({ id: m.id, reason: 'lot-by-non-player' }), false));
  const lotNames = [...new Set(lotCommits.map((c) => c.payload.lot))].sort(compareText);

  const starts = of(messages, 'start').filter((m) => {
    if (m.payload.from === creator) return true;
    ignored.push({ id: m.id, reason: 'start-not-by-creator' });
    return false;
  });
  let start: Message<StartPayload> | undefined;
  for (const s of [...starts].sort((a, b) => compareText(a.id, b.id))) {
    const reason = checkStart(s, joined, create, players, lotCommits, lotReveals);
    if (reason !== null) ignored.push({ id: s.id, reason });
    else if (start === undefined) start = s;
    else ignored.push({ id: s.id, reason: 'duplicate-start' });
  }
  const validStarts = starts.filter((s) => !ignored.some((i) => i.id === s.id && i.reason !== 'duplicate-start'));
  if (validStarts.length > 1) misconduct.push({ author: creator, kind: 'duplicate-start', ids: validStarts.map((s) => s.id).sort() });

  const lotScratch: Ignored[] = [];
  const lots = lotNames.map((name) => lotState(name, players.map((p) => p.key), lotCommits, lotReveals, lotScratch).view);
  ignored.push(...lotScratch);

  const accepted = new Set<string>();
  if (start !== undefined) {
    const members = new Set(Object.values(start.payload.roster));
    accepted.add(creator);
    for (const ack of of(messages, 'ack')) {
      if (ack.payload.phase !== 'start') continue;
      if (ack.payload.hash === start.id && members.has(ack.payload.from)) accepted.add(ack.payload.from);
      else ignored.push({ id: ack.id, reason: 'accept-of-another-start' });
    }
    if (create.payload.settings.assignment === 'lot') {
      const counted = new Set(start.payload.lot);
      const late = lotReveals.filter((r) => r.payload.lot === POWER_LOT && !counted.has(r.id) && r.payload.time < start!.payload.time);
      if (late.length > 0) misconduct.push({ author: creator, kind: 'start-omits-lot-reveal', ids: late.map((r) => r.id).sort() });
    }
  }
  return { create, start, players, accepted: [...accepted].filter((k) => start === undefined || Object.values(start.payload.roster).includes(k)).sort(compareText), lots, ignored, misconduct };
}

function checkStart(
  s: Message<StartPayload>,
  joined: ReadonlySet<string>,
  create: Message<CreatePayload>,
  players: readonly Player[],
  lotCommits: readonly Message<LotCommitPayload>[],
  lotReveals: readonly Message<LotRevealPayload>[],
): string | null {
  const roster = s.payload.roster;
  if (POWERS.some((p) => !joined.has(roster[p]))) return 'start-roster-names-non-player';
  const variant = variantOf(create.payload.settings.variant);
  // The standard game keeps its old freedom: one player may hold several powers.
  const problem = variant.id === 'standard' ? null : rosterProblem(variant, roster, create.payload.from);
  if (problem !== null) return problem;
  if (create.payload.settings.assignment !== 'lot') return s.payload.lot.length === 0 ? null : 'start-lot-in-choice-game';
  const counted = new Set(s.payload.lot);
  const revealsById = new Set(lotReveals.map((r) => r.id));
  if (s.payload.lot.some((id) => !revealsById.has(id))) return 'start-names-unknown-lot-reveal';
  const scratch: Ignored[] = [];
  const state = lotState(POWER_LOT, players.map((p) => p.key), lotCommits, lotReveals, scratch, counted);
  if (state.revealIds.size !== counted.size) return 'start-counts-invalid-lot-reveal';
  const dealt = dealSeats(state.view.order, state.values, variant.seats);
  // With fewer players than seats the remaining seats are the creator's to hand out.
  return (Object.keys(dealt) as Power[]).every((p) => roster[p] === dealt[p]) ? null : 'start-roster-not-the-lot';
}

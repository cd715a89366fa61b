// The view is discriminated by status (src/protocol/view.ts): in each status the fields that
// always exist there are present, the ones that cannot are absent. The compiler checks how
// reduce.ts builds each member; this checks, at run time, every view the reducer gives for the
// recorded games (every prefix of their logs) and for logs in each status built here, and that the
// type stops a read of a status's field without narrowing.
import { readdirSync, readFileSync } from 'node:fs';
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import {
  canonicalEncode,
  createGame,
  joinGame,
  reduceLog,
  standardEngine,
  startGame,
  stateHash,
  type GameStatus,
  type GameView,
  type LobbyView,
  type StartedView,
} from '../../src/protocol';
import { POWERS, type Position, type Power } from '../../src/rules';
import { entriesOf, type Fixture } from '../fixtures/fixture';
import { escrowOf, identity, Phone, playPhase, rng, settings, startedGame, T0 } from './helpers';

type Field =
  | 'incompatible'
  | 'creator'
  | 'settings'
  | 'rules'
  | 'start'
  | 'roster'
  | 'lot'
  | 'current'
  | 'position'
  | 'stateHash'
  | 'result'
  | 'holders'
  | 'seats'
  | 'alliances'
  | 'toss';
const FIELDS: readonly Field[] = [
  'incompatible',
  'creator',
  'settings',
  'rules',
  'start',
  'roster',
  'lot',
  'current',
  'position',
  'stateHash',
  'result',
  'holders',
  'seats',
  'alliances',
  'toss',
];
const COMMON = [
  'gameId',
  'players',
  'starts',
  'acceptances',
  'acked',
  'anchored',
  'forks',
  'accepted',
  'members',
  'spectators',
  'phases',
  'neutral',
  'chats',
  'nextSeq',
  'hashMismatches',
  'misconduct',
  'ignored',
];
const PLAYED: Field[] = ['creator', 'settings', 'start', 'rules', 'roster', 'position', 'stateHash', 'holders', 'seats', 'alliances'];
/** Per status: the fields it always has, and those it may have; every other field is absent. */
const SHAPE: Record<GameStatus, { has: readonly Field[]; may: readonly Field[] }> = {
  'no-game': { has: [], may: [] },
  incompatible: { has: ['incompatible'], may: ['creator', 'settings', 'start'] },
  lobby: { has: ['creator', 'settings'], may: [] },
  forked: { has: ['creator', 'settings'], may: [] },
  starting: { has: ['creator', 'settings', 'start'], may: ['roster', 'holders'] },
  lot: { has: ['creator', 'settings', 'start', 'lot'], may: [] },
  playing: { has: PLAYED, may: ['current', 'lot', 'toss'] },
  finished: { has: [...PLAYED, 'result'], may: ['lot', 'toss'] },
};

const isRoster = (r: unknown): boolean =>
  typeof r === 'object' && r !== null && POWERS.every((p) => typeof (r as Record<Power, unknown>)[p] === 'string') && Object.keys(r).length === POWERS.length;

/** Throws, naming the status and the field, unless the view has its status's shape. */
function assertViewShape(v: GameView, where: string): void {
  const fail = (what: string) => {
    throw new Error(`${where}: status ${v.status}: ${what}`);
  };
  const shape = SHAPE[v.status];
  if (shape === undefined) fail('unknown status');
  const record = v as unknown as Record<string, unknown>;
  for (const k of COMMON) if (record[k] === undefined) fail(`${k} missing`);
  for (const f of FIELDS) {
    const present = record[f] !== undefined;
    if (shape.has.includes(f) && !present) fail(`${f} missing`);
    if (!shape.has.includes(f) && !shape.may.includes(f) && present) fail(`${f} present`);
  }
  // What the present fields say, beyond being there.
  if (v.status === 'forked' && v.forks.length < 2) fail('fewer than two forks');
  if (v.status === 'lobby' && v.forks.length > 0) fail('forks in the lobby');
  if (v.status === 'starting') {
    // A chosen-powers START names its roster, and the powers are held as it names them; a lot
    // game has neither until its lot deals.
    const chosen = v.settings.assignment !== 'lot';
    if ((v.roster !== undefined) !== chosen || (v.holders !== undefined) !== chosen) fail('roster/holders against the assignment');
    if (chosen && !isRoster(v.holders)) fail('holders not a full roster');
  }
  if (v.status === 'playing' || v.status === 'finished') {
    if (!isRoster(v.roster) || !isRoster(v.holders)) fail('roster or holders not naming every power');
    if (v.stateHash !== stateHash(v.position)) fail('stateHash is not the position’s');
    if ((v.lot !== undefined) !== (v.settings.assignment === 'lot')) fail('lot against the assignment');
  }
  if (v.status === 'lot' && v.lot.order !== undefined) fail('a dealt lot still in status lot');
  if (v.status === 'finished' && v.current !== undefined) fail('an open phase in a finished game');
}

const dir = new URL('../fixtures/', import.meta.url);
const fixtures = readdirSync(dir)
  .filter((f) => /^v\d+-.*\.json$/.test(f))
  .sort()
  .map((f) => [f, JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Fixture] as const);

/** A log whose creator signed two STARTs that nobody accepted: a phone without an anchor sees a fork. */
function forkedLog(): { gameId: string; log: Uint8Array[] } {
  const phones = POWERS.map((p, i) => new Phone(identity(i), p, rng(700 + i)));
  const creator = phones[0]!;
  const { gameId, message } = createGame(creator.me, rng(7).bytes(16), settings(), creator.stamp(T0));
  const log: Uint8Array[] = [message.bytes];
  for (const ph of phones) log.push(joinGame(ph.me, gameId, ph.power, ph.power, ph.stamp(T0 + 1)).bytes);
  const roster = Object.fromEntries(phones.map((ph) => [ph.power, ph.me.id])) as Record<Power, string>;
  const swapped = { ...roster, austria: roster.england, england: roster.austria };
  log.push(startGame(creator.me, gameId, roster, escrowOf(phones.map((ph) => ph.me)), creator.stamp(T0 + 2)).bytes);
  log.push(startGame(creator.me, gameId, swapped, escrowOf(phones.map((ph) => ph.me)), creator.stamp(T0 + 3)).bytes);
  return { gameId, log };
}

/** A CREATE of protocol version 1: this phone reads no creator or settings in it. */
function olderProtocol(): { gameId: string; log: Uint8Array[] } {
  const me = identity(3);
  const settingsV1 = { ...settings(), deadlines: { movement: 1, retreat: 1, adjustment: 1, lot: 1 } };
  const body = canonicalEncode({ v: 1, type: 'create', game: 'ab'.repeat(16), from: me.id, seq: 0, time: T0, salt: '00'.repeat(16), settings: settingsV1 });
  return { gameId: 'ab'.repeat(16), log: [new Uint8Array([...nacl.sign.detached(body, me.signSecretKey), ...body])] };
}

/** The statuses the recorded games pass through (a lot game draws its lot), and those built here. */
const RECORDED: readonly GameStatus[] = ['no-game', 'lobby', 'starting', 'playing'];
const BUILT: readonly GameStatus[] = ['forked', 'incompatible', 'finished'];

describe('every view has its status’s shape', () => {
  it('the cases below cover every status', () => {
    expect([...RECORDED, 'lot', ...BUILT].sort()).toEqual(Object.keys(SHAPE).sort());
  });

  for (const [file, f] of fixtures) {
    it(`${file}: the view of every prefix of the log`, () => {
      const log = entriesOf(f);
      const seen = new Set<GameStatus>();
      for (let n = 0; n <= log.length; n++) {
        const v = reduceLog(f.gameId, log.slice(0, n));
        assertViewShape(v, `${file}[0..${n}]`);
        // An honest game always has its phase open while it is played (current is optional in
        // 'playing' only for an engine that stops advancing).
        if (v.status === 'playing') expect(v.current, `${file}[0..${n}]`).toBeDefined();
        seen.add(v.status);
      }
      expect([...seen].sort()).toEqual([...RECORDED, ...(file.includes('-lot') ? ['lot'] : [])].sort());
    });
  }

  it('a fork, an incompatible game (engine and protocol) and a finished game', () => {
    const fork = forkedLog();
    const forked = reduceLog(fork.gameId, fork.log);
    expect(forked.status).toBe('forked');
    assertViewShape(forked, 'fork');
    const old = olderProtocol();
    const older = reduceLog(old.gameId, old.log);
    expect(older.status).toBe('incompatible');
    assertViewShape(older, 'protocol 1');
    const game = startedGame(61, { endYear: 1901 });
    const engine = reduceLog(game.gameId, game.log, { engine: { ...standardEngine, version: 'pacto-rules/999' } });
    expect(engine.status).toBe('incompatible');
    assertViewShape(engine, 'other engine');
    playPhase(game, {}, T0 + 100);
    const finished = playPhase(game, {}, T0 + 200);
    expect(finished.status).toBe('finished');
    assertViewShape(finished, 'short game');
    expect(new Set([forked, older, engine, finished].map((v) => v.status))).toEqual(new Set(BUILT));
  });

  it('the checker refuses a view missing a field of its status or carrying one of another', () => {
    const game = startedGame(62);
    const v = reduceLog(game.gameId, game.log);
    if (v.status !== 'playing') throw new Error(v.status);
    const { holders: _, ...noHolders } = v;
    expect(() => assertViewShape(noHolders as GameView, 'test')).toThrow(/holders missing/);
    expect(() => assertViewShape({ ...v, result: { kind: 'draw', winners: [], phase: 'x' } } as unknown as GameView, 'test')).toThrow(/result present/);
    expect(() => assertViewShape({ ...v, stateHash: 'x' }, 'test')).toThrow(/stateHash/);
  });
});

describe('the type asks for the status first', () => {
  it('a status’s field reads without a fallback once narrowed, and not before', () => {
    const game = startedGame(63);
    const v: GameView = reduceLog(game.gameId, game.log);
    // @ts-expect-error the board exists only in a played game: narrow on status first.
    const unnarrowed: Position = v.position;
    expect(unnarrowed).toBeDefined();
    if (v.status !== 'playing' && v.status !== 'finished') throw new Error(v.status);
    const started: StartedView = v;
    const board: Position = started.position;
    const holders: Readonly<Record<Power, string>> = started.holders;
    expect(board.units.length).toBeGreaterThan(0);
    expect(holders.france).toBe(game.byPower.france.me.id);
    const empty = reduceLog('0'.repeat(32), []);
    if (empty.status !== 'no-game') throw new Error(empty.status);
    const lobby: LobbyView = { ...empty, status: 'lobby', creator: 'k', settings: settings() };
    // @ts-expect-error a lobby has no board.
    const wrong: LobbyView = { ...lobby, position: board };
    expect(wrong.position).toBe(board);
  });
});

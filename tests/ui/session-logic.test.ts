// The pure parts of the game plumbing: what an honest phone does on its own (duties), who holds
// which power (rosters), the app's hash routes, and the outer screens' strings in both languages.
import 'fake-indexeddb/auto';
import nacl from 'tweetnacl';
import { describe, expect, it } from 'vitest';
import {
  createIdentity,
  fingerprint,
  reduceLog,
  standardEngine,
  stateHash,
  variantOf,
  type GameView,
  type Player,
  type PlayingView,
  type StartingView,
} from '../../src/protocol';
import { POWERS } from '../../src/rules';
import { duties, dutyKey, powersOf } from '../../src/ui/game/duties';
import { routeOf } from '../../src/ui/home/route';
import { deadlinesFor, NO_DEADLINE_MS } from '../../src/ui/game/create';
import { defaultRoster, defaultSeats, fillFreeSeats, isComplete } from '../../src/ui/lobby/roster';
import { variantFor } from '../../src/ui/lobby/variants';
import { APP_STRINGS } from '../../src/ui/lobby/strings';
import { LANGS } from '../../src/ui/i18n';

const player = (key: string, claim: Player['claim']): Player => ({
  key,
  fingerprint: fingerprint(key),
  name: key.slice(0, 4),
  box: '00'.repeat(32),
  escrow: null,
  claim,
});
const keyOf = (n: number) => n.toString(16).padStart(64, '0');

describe('rosters', () => {
  it('honours claims, the earliest joiner winning a contested power, and deals the rest evenly', () => {
    const players = [player(keyOf(1), 'france'), player(keyOf(2), 'france'), player(keyOf(3), 'turkey')];
    const r = defaultRoster(players);
    expect(r.france).toBe(keyOf(1));
    expect(r.turkey).toBe(keyOf(3));
    expect(isComplete(r, players)).toBe(true);
    const counts = players.map((p) => POWERS.filter((x) => r[x] === p.key).length).sort();
    expect(counts).toEqual([2, 2, 3]);
  });

  it('is incomplete when a seat names someone who has not joined, or nobody has', () => {
    const players = [player(keyOf(1), null)];
    const standard = variantFor('standard');
    const seats = fillFreeSeats({ france: keyOf(9) }, [keyOf(1)], standard);
    expect(seats.france).toBe(keyOf(9));
    expect(Object.keys(defaultSeats([], standard))).toEqual([]);
    expect(isComplete({ ...defaultRoster(players), france: keyOf(9) }, players)).toBe(false);
    expect(isComplete(defaultRoster([]), [])).toBe(false);
    expect(isComplete(defaultRoster(players), players)).toBe(true);
  });
});

describe('duties of an honest phone', () => {
  const me = createIdentity(nacl.randomBytes(32), nacl.randomBytes(32));

  it('has nothing to do for a game it knows nothing of', () => {
    const view: GameView = reduceLog('0'.repeat(32), []);
    expect(duties({ view, me: me.id })).toEqual([]);
    expect(powersOf(view, me.id)).toEqual([]);
  });

  it('names each duty stably, so one is never performed twice', () => {
    expect(dutyKey({ kind: 'final', phase: '1901-spring-movement', power: 'france' })).toBe('final|1901-spring-movement|france');
    expect(dutyKey({ kind: 'final', phase: '1901-spring-movement', power: 'france' })).not.toBe(
      dutyKey({ kind: 'final', phase: '1901-spring-movement', power: 'italy' }),
    );
    expect(dutyKey({ kind: 'reveal', phase: '1901-spring-movement' })).toBe('reveal|1901-spring-movement');
    expect(dutyKey({ kind: 'lock', phase: '1901-spring-movement' })).not.toBe(dutyKey({ kind: 'reveal', phase: '1901-spring-movement' }));
    expect(dutyKey({ kind: 'ack', phase: '1901-spring-movement', hash: 'x' })).toBe(dutyKey({ kind: 'ack', phase: '1901-spring-movement', hash: 'y' }));
  });
});

describe('routes', () => {
  it('reads hash routes and invite fragments', () => {
    expect(routeOf('')).toEqual({ name: 'home' });
    expect(routeOf('#/')).toEqual({ name: 'home' });
    expect(routeOf('#/new')).toEqual({ name: 'new' });
    expect(routeOf('#/join')).toEqual({ name: 'join' });
    expect(routeOf('#/settings')).toEqual({ name: 'settings' });
    expect(routeOf('#/game/0123456789abcdef')).toEqual({ name: 'game', gameId: '0123456789abcdef' });
    expect(routeOf('#/game/x')).toEqual({ name: 'home' });
    expect(routeOf('#v=1&g=abc&k=def')).toEqual({ name: 'invite', link: 'v=1&g=abc&k=def' });
  });
});

describe('deadlines', () => {
  it('gives a table game no deadline and a weekend game hours', () => {
    expect(deadlinesFor({ movementHours: 0, retreatHours: 0 }).movement).toBe(NO_DEADLINE_MS);
    const weekend = deadlinesFor({ movementHours: 48, retreatHours: 12 });
    expect(weekend.movement).toBe(48 * 3_600_000);
    expect(weekend.retreat).toBe(12 * 3_600_000);
    expect(weekend.adjustment).toBe(12 * 3_600_000);
    // The reveal stage: 10 minutes at a table, an hour otherwise.
    expect(deadlinesFor({ movementHours: 0, retreatHours: 0 }).reveal).toBe(10 * 60_000);
    expect(weekend.reveal).toBe(3_600_000);
  });
});

/** Every key path of a nested string table, with its value; a string that takes words (a name, a
 *  count) is read with sample ones. */
function leaves(table: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (typeof table === 'function') out.set(prefix, (table as (...a: unknown[]) => unknown)('Ana', 2, 'X'));
  else if (typeof table === 'object' && table !== null) {
    for (const [k, v] of Object.entries(table)) for (const [p, x] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(p, x);
  } else out.set(prefix, table);
  return out;
}

describe('outer screens strings', () => {
  it('has every string in Spanish and English, none empty, and they differ between languages', () => {
    const es = leaves(APP_STRINGS.es);
    const en = leaves(APP_STRINGS.en);
    expect([...en.keys()].sort()).toEqual([...es.keys()].sort());
    for (const lang of LANGS) for (const [k, v] of leaves(APP_STRINGS[lang])) expect(typeof v === 'string' && v.trim().length > 0, `${lang}.${k}`).toBe(true);
    const same = [...es.keys()].filter((k) => es.get(k) === en.get(k));
    expect(same.length).toBeLessThan(es.size / 10);
  });
});

describe('powers a key plays', () => {
  it('leaves out neutral powers, whose roster entry is only the creator placeholder', () => {
    const creator = keyOf(1);
    const other = keyOf(2);
    const roster = Object.fromEntries(POWERS.map((p) => [p, ['england', 'france', 'russia'].includes(p) ? other : creator])) as Record<
      (typeof POWERS)[number],
      string
    >;
    const empty = reduceLog('0'.repeat(32), []);
    if (empty.status !== 'no-game') throw new Error(empty.status);
    const { status: _, ...base } = empty;
    const settings = {
      variant: 'two-players',
      engine: 'x',
      rules: {},
      deadlines: { movement: 1, retreat: 1, adjustment: 1, lot: 1, reveal: 1 },
      endYear: null,
      signaling: '',
      assignment: 'choice' as const,
    };
    // As the reducer gives it: the START's roster holds the powers, the variant's neutral is known.
    const starting: StartingView = { ...base, status: 'starting', creator, settings, start: 'a'.repeat(64), roster, holders: roster, neutral: ['italy'] };
    expect(powersOf(starting, creator)).toEqual(['austria', 'germany', 'turkey']);
    expect(powersOf(starting, other)).toEqual(['england', 'france', 'russia']);
    // After the toss the holders say who plays Italy.
    const position = standardEngine.start('two-players')!;
    const played = { rules: variantOf('two-players').rules, position, stateHash: stateHash(position), seats: [], alliances: [] };
    const playing: PlayingView = { ...starting, ...played, status: 'playing', roster, neutral: [], holders: { ...roster, italy: other } };
    expect(powersOf(playing, other)).toEqual(['england', 'france', 'italy', 'russia']);
    expect(powersOf({ ...playing, neutral: ['italy'] }, other)).toEqual(['england', 'france', 'russia']);
  });
});

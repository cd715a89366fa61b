// Adversarial review of the memoised re-reduce (reduce.ts openLog and fold memos, memo.ts): a phone
// re-reduces a growing log after every arrival, and whatever order entries arrive in, its view must
// be, byte for byte, the view of a reduce from scratch (memos cleared, and a verifier the memos have
// never seen, so nothing keyed by it is warm). The orders tried are the ones a memo is most likely
// to get wrong: compact (version 6) entries before the START that names their author's place, a
// CREATE arriving last, late entries of resolved phases, another game's entries in the same log, a
// second START, an equivocating commit, and two phones' logs (not extensions of each other)
// reduced in turn with one verifier.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  canonicalEncode,
  checkSignature,
  clearFoldMemos,
  reduceLog,
  signatureVerifier,
  startGame,
  toHex,
  type GameView,
  type ReduceOptions,
  type Verifier,
} from '../../src/protocol';
import type { Power } from '../../src/rules';
import { entriesOf, type Fixture } from '../fixtures/fixture';
import { escrowOf, playPhase, shuffled, startedGame, T0, typeOf } from './helpers';

const fixture = (name: string): Fixture => JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as Fixture;

// Signatures are a function of the bytes: shared by every cold verifier, so a cold reduce costs
// no signature checks, while each cold verifier is a new object (memos keyed by it start empty).
const signatures = new Map<string, boolean>();
function coldVerifier(): Verifier {
  return {
    verify(id, payload, signature, publicKey) {
      const key = `${id}|${toHex(signature)}|${toHex(publicKey)}`;
      const have = signatures.get(key);
      if (have !== undefined) return have;
      const ok = checkSignature(payload, signature, publicKey);
      signatures.set(key, ok);
      return ok;
    },
  };
}

interface Step {
  readonly gameId: string;
  readonly log: readonly Uint8Array[];
  readonly me?: string;
}

/** Each step from scratch; then all in turn, warm (the default verifier, as the app's runner): equal at every step. */
function checkSteps(steps: readonly Step[]): GameView[] {
  const options = (s: Step, verifier: Verifier): ReduceOptions => ({ verifier, ...(s.me === undefined ? {} : { me: s.me }) });
  const cold = steps.map((s) => {
    clearFoldMemos();
    return canonicalEncode(reduceLog(s.gameId, s.log, options(s, coldVerifier())));
  });
  clearFoldMemos();
  // One verifier for the whole warm run: a phone keeps its verifier (and so its memos) all session.
  const warmVerifier = coldVerifier();
  return steps.map((s, i) => {
    // A fresh array over the same byte objects, as the runner hands the log over.
    const warm = reduceLog(s.gameId, [...s.log], options(s, warmVerifier));
    expect(toHex(canonicalEncode(warm)), `step ${i} (${s.log.length} entries)`).toBe(toHex(cold[i]!));
    return warm;
  });
}

/** Steps growing `order` one entry (or `every` entries) at a time. */
function growing(gameId: string, order: readonly Uint8Array[], every = 1, me?: string): Step[] {
  const steps: Step[] = [];
  for (let n = 1; n <= order.length; n += every) steps.push({ gameId, log: order.slice(0, n), ...(me === undefined ? {} : { me }) });
  if ((order.length - 1) % every !== 0) steps.push({ gameId, log: [...order], ...(me === undefined ? {} : { me }) });
  return steps;
}

describe('memoised re-reduce against a reduce from scratch, entries arriving in hostile orders', () => {
  const year = fixture('v6-standard-year.json');
  const entries = entriesOf(year);
  const two = fixture('v6-two-players.json');
  const twoEntries = entriesOf(two);

  it('version 6: compact entries before their START, the CREATE last, then everything else', () => {
    const lobby = new Set(['create', 'start', 'join']);
    const create = entries.filter((b) => typeOf(b) === 'create');
    const starts = entries.filter((b) => typeOf(b) === 'start');
    const rest = entries.filter((b) => !lobby.has(typeOf(b) ?? ''));
    const joins = entries.filter((b) => typeOf(b) === 'join');
    expect(create).toHaveLength(1);
    expect(starts.length).toBeGreaterThan(0);
    // Phase entries first (compact ones cannot be read yet), then JOINs and STARTs, the CREATE last.
    const order = [...rest.slice(0, 30), ...joins, ...starts, ...rest.slice(30, 50), ...create, ...rest.slice(50)];
    expect(order).toHaveLength(entries.length);
    const views = checkSteps(growing(year.gameId, order, 3));
    expect(views.at(-1)!.stateHash).toBe(year.stateHash);
  });

  it('version 6: two seeded shuffles, one entry at a time for the first, every 4 for the second', () => {
    const a = shuffled(entries, 7);
    const b = shuffled(entries, 8);
    const views = [...checkSteps(growing(year.gameId, a, 1)), ...checkSteps(growing(year.gameId, b, 4))];
    expect(views.at(-1)!.stateHash).toBe(year.stateHash);
  });

  it('another game’s entries in the log, and the two games’ logs reduced in turn with one verifier', () => {
    const mixed = shuffled([...entries, ...twoEntries], 11);
    const steps: Step[] = [];
    const grownA = growing(year.gameId, mixed, 5);
    const grownB = growing(two.gameId, mixed, 5);
    for (let i = 0; i < grownA.length; i++) steps.push(grownA[i]!, grownB[i]!);
    const views = checkSteps(steps);
    expect(views.at(-2)!.stateHash).toBe(year.stateHash);
    expect(views.at(-1)!.stateHash).toBe(two.stateHash);
  });

  it('late entries of resolved phases arrive after the game moved on (the log grows at the front of history)', () => {
    // Everything but every 5th phase entry, in log order; then the held-back ones, one at a time.
    const held = entries.filter((_, i) => i > 12 && i % 5 === 0);
    const first = entries.filter((b) => !held.includes(b));
    const order = [...first, ...held];
    const steps = [...growing(year.gameId, first, 6), ...growing(year.gameId, order, 1).slice(first.length - 1)];
    const views = checkSteps(steps);
    expect(views.at(-1)!.stateHash).toBe(year.stateHash);
  });

  it('two phones’ logs of one game (neither an extension of the other) reduced in turn, each with its own `me`', () => {
    const a = shuffled(entries, 21);
    const b = shuffled(entries, 22);
    const roster = reduceLog(year.gameId, entries).roster!;
    const steps: Step[] = [];
    for (let n = 4; n <= entries.length; n += 4) {
      steps.push({ gameId: year.gameId, log: a.slice(0, n), me: roster.france });
      steps.push({ gameId: year.gameId, log: b.slice(0, n), me: roster.turkey });
    }
    steps.push({ gameId: year.gameId, log: a, me: roster.france }, { gameId: year.gameId, log: b, me: roster.turkey });
    const views = checkSteps(steps);
    expect(views.at(-1)!.stateHash).toBe(year.stateHash);
  });

  it('a second START, an equivocating commit and a same-seq pair arriving during the open phase', () => {
    const game = startedGame(71);
    playPhase(game, {}, T0 + 100);
    const v = reduceLog(game.gameId, game.log);
    const open = v.current!;
    const creator = game.phones[0]!;
    const roster = Object.fromEntries(game.phones.map((ph) => [ph.power, ph.me.id])) as Record<Power, string>;
    // The creator signs another START (duplicate-start misconduct).
    const second = startGame(
      creator.me,
      game.gameId,
      { ...roster, france: roster.germany, germany: roster.france },
      escrowOf(game.phones.map((ph) => ph.me)),
      creator.stamp(T0 + 150),
    );
    // Italy commits twice in the open phase (its second commit replaces the first), and signs two entries with one number.
    const italy = game.byPower.italy;
    const c1 = italy.commit(game.gameId, v, [], T0 + 160);
    const c2 = italy.commit(game.gameId, v, [], T0 + 161);
    const same = italy.commit(game.gameId, v, [], T0 + 162);
    italy.seq -= 1;
    const sameAgain = italy.commit(game.gameId, v, [], T0 + 163);
    const others = open.required.filter((p) => p !== 'italy').map((p) => game.byPower[p].commit(game.gameId, v, [], T0 + 170).bytes);
    const extra = [c1.bytes, ...others.slice(0, 3), second.bytes, c2.bytes, same.bytes, ...others.slice(3), sameAgain.bytes];
    const order = [...game.log, ...shuffled(extra, 5)];
    const me = italy.me.id;
    const steps = growing(game.gameId, order, 1, me).slice(game.log.length - 2);
    const views = checkSteps(steps);
    const kinds = new Set(views.at(-1)!.misconduct.map((m) => m.kind));
    expect(kinds.has('duplicate-start')).toBe(true);
    expect(kinds.has('same-seq')).toBe(true);
  });

  it('the runner’s default verifier too: a log reduced warm with it matches the cold reduce', () => {
    const order = shuffled(entries, 31);
    clearFoldMemos();
    const cold = order.map((_, n) => {
      clearFoldMemos();
      return toHex(canonicalEncode(reduceLog(year.gameId, order.slice(0, n + 1), { verifier: coldVerifier() })));
    });
    clearFoldMemos();
    order.forEach((_, n) => {
      expect(toHex(canonicalEncode(reduceLog(year.gameId, order.slice(0, n + 1), { verifier: signatureVerifier }))), `step ${n}`).toBe(cold[n]);
    });
  });
});

// The reducer re-reduces incrementally (reduce.ts: the entry index takes in only new entries, the
// fold resumes at the first phase whose entries changed): a phone that saw entries arrive in any
// order, a few at a time, must hold exactly the view a phone reducing the same set from scratch
// holds, at every step. Seeded orders over the recorded fixtures and over a built game with
// hostile entries (equivocations, a reused sequence number, a wrong-hash ACK) delivered late.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { POWERS, randomOrders } from '../../src/rules';
import { acknowledge, canonicalEncode, clearFoldMemos, finalOrders, reduceLog, type GameView } from '../../src/protocol';
import { prng } from '../../src/util/prng';
import { entriesOf, type Fixture } from '../fixtures/fixture';
import { rng, settlePhase, startedGame, T0, view, type Game } from './helpers';

const dir = new URL('../fixtures/', import.meta.url);
const fixtures = readdirSync(dir)
  .filter((f) => /^v\d+-.*\.json$/.test(f))
  .sort()
  .map((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as Fixture);

/**
 * Three phases of a standard game with hostile entries: France re-seals after its FINAL and signs
 * a second FINAL (equivocation); in the next phase England signs a second LOCK, kept back and
 * delivered after the phase resolved; Russia reuses a sequence number; Turkey acknowledges with a
 * wrong hash. Honest ACKs follow each phase. Returns the entries in the order they were made,
 * with the late ones last.
 */
function hostileGame(): { gameId: string; entries: Uint8Array[]; late: Uint8Array[] } {
  const game: Game = startedGame(41);
  const r = rng(42);
  const late: Uint8Array[] = [];
  for (let phase = 0; phase < 3; phase++) {
    const v = view(game);
    const c = v.current!;
    for (const p of c.required) game.log.push(game.byPower[p].commit(game.gameId, v, randomOrders(c.position, p, r.int), T0 + 10 * phase + 1).bytes);
    if (phase === 0) {
      const france = game.byPower.france;
      game.log.push(france.final(game.gameId, view(game), T0 + 2).bytes);
      const again = france.commit(game.gameId, view(game), randomOrders(c.position, 'france', r.int), T0 + 3);
      game.log.push(again.bytes);
      game.log.push(finalOrders(france.me, game.gameId, c.key, 'france', again.id, france.stamp(T0 + 4)).bytes);
    }
    if (phase === 1) {
      settlePhase(game, T0 + 15, { hold: [...POWERS] });
      const england = game.byPower.england;
      late.push(england.lock(game.gameId, view(game), game.log, T0 + 16).bytes);
    }
    const done = settlePhase(game, T0 + 10 * phase + 5);
    const last = done.phases.at(-1)!;
    for (const ph of game.phones) game.log.push(acknowledge(ph.me, game.gameId, last.key, last.stateHash, ph.stamp(T0 + 10 * phase + 6)).bytes);
    if (phase === 0) {
      const russia = game.byPower.russia;
      russia.seq -= 1;
      late.push(acknowledge(russia.me, game.gameId, 'start', game.startId, russia.stamp(T0 + 7)).bytes);
      const turkey = game.byPower.turkey;
      late.push(acknowledge(turkey.me, game.gameId, last.key, '00'.repeat(16), turkey.stamp(T0 + 8)).bytes);
    }
  }
  return { gameId: game.gameId, entries: [...game.log], late };
}

/** Logs a phone could hold one after another: `order` delivered a few entries at a time, now and then re-ordered (not an extension). */
function deliveries(order: readonly Uint8Array[], next: () => number): Uint8Array[][] {
  const out: Uint8Array[][] = [];
  let held: Uint8Array[] = [];
  let at = 0;
  while (at < order.length) {
    const n = 1 + Math.floor(next() * 4);
    held = [...held, ...order.slice(at, at + n)];
    at += n;
    if (next() < 0.08) held = shuffled(held, next);
    out.push(held);
  }
  return out;
}

function shuffled<T>(list: readonly T[], next: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The natural order with about one entry in seven held back and delivered later, at a random point. */
function withLateEntries(entries: readonly Uint8Array[], next: () => number): Uint8Array[] {
  const out: Uint8Array[] = [];
  const back: Uint8Array[] = [];
  for (const e of entries) {
    if (next() < 0.15) back.push(e);
    else out.push(e);
    while (back.length > 0 && next() < 0.1) out.push(back.shift()!);
  }
  return [...out, ...back];
}

const encode = (v: GameView) => canonicalEncode(v);

/** Every step's view from scratch (the fold's memos forgotten each time), then the same steps warm. */
function checkSteps(gameId: string, steps: readonly Uint8Array[][], me?: string): number {
  const options = me === undefined ? {} : { me };
  const cold = steps.map((log) => {
    clearFoldMemos();
    return reduceLog(gameId, log, options);
  });
  clearFoldMemos();
  let resolved = 0;
  steps.forEach((log, i) => {
    const warm = reduceLog(gameId, log, options);
    expect(warm.stateHash, `step ${i} of ${steps.length}`).toBe(cold[i]!.stateHash);
    expect(encode(warm), `step ${i} of ${steps.length}`).toEqual(encode(cold[i]!));
    resolved = Math.max(resolved, warm.phases.length);
  });
  return resolved;
}

describe('re-reducing a growing log gives the view of a reduce from scratch', () => {
  const hostile = hostileGame();

  it('the hostile game holds what it claims: both equivocations, the reused sequence number, the wrong hash', () => {
    const v = reduceLog(hostile.gameId, [...hostile.entries, ...hostile.late]);
    expect(v.phases).toHaveLength(3);
    const kinds = v.misconduct.map(
      (m) =>
        `${m.kind}|${m.author === v.roster!.france ? 'france' : m.author === v.roster!.england ? 'england' : m.author === v.roster!.russia ? 'russia' : '?'}`,
    );
    expect(kinds).toContain('equivocation|france');
    expect(kinds).toContain('equivocation|england');
    expect(kinds).toContain('same-seq|russia');
    expect(v.hashMismatches.map((h) => h.author)).toEqual([v.roster!.turkey]);
    // Without the late entries the same phases resolve and none of those reports is made.
    const early = reduceLog(hostile.gameId, hostile.entries);
    expect(early.phases.map((p) => p.stateHash)).toEqual(v.phases.map((p) => p.stateHash));
    expect(early.misconduct.filter((m) => m.author === v.roster!.england || m.author === v.roster!.russia)).toEqual([]);
  });

  for (const f of fixtures) {
    it(`${f.about.split('.')[0]} (${f.entries.length} entries): late entries and random orders, a few at a time`, () => {
      const entries = entriesOf(f);
      const next = prng(entries.length * 7919 + f.phases.length);
      let resolved = 0;
      for (let run = 0; run < 2; run++) {
        const order = run === 1 ? shuffled(entries, next) : withLateEntries(entries, next);
        resolved = Math.max(resolved, checkSteps(f.gameId, deliveries(order, next)));
      }
      expect(resolved).toBe(f.phases.length);
    });
  }

  it('the hostile game: late equivocations and ACKs for old phases, random orders, as a player and as a spectator', () => {
    const next = prng(4242);
    const all = [...hostile.entries, ...hostile.late];
    let resolved = 0;
    for (let run = 0; run < 3; run++) {
      const order = run === 2 ? shuffled(all, next) : [...withLateEntries(hostile.entries, next), ...hostile.late];
      const me = run % 2 === 0 ? undefined : reduceLog(hostile.gameId, hostile.entries).roster!.england;
      resolved = Math.max(resolved, checkSteps(hostile.gameId, deliveries(order, next), me));
    }
    expect(resolved).toBe(3);
  });
});

/** Each step's view from scratch on a copy of the log, then the same steps warm on one array grown in place (as a caller may keep it). */
function checkGrownInPlace(gameId: string, order: readonly Uint8Array[], next: () => number): number {
  const sizes: number[] = [];
  for (let n = 0; n < order.length;) {
    n = Math.min(order.length, n + 1 + Math.floor(next() * 3));
    sizes.push(n);
  }
  const cold = sizes.map((n) => {
    clearFoldMemos();
    return encode(reduceLog(gameId, order.slice(0, n)));
  });
  clearFoldMemos();
  const held: Uint8Array[] = [];
  let resolved = 0;
  sizes.forEach((n, i) => {
    while (held.length < n) held.push(order[held.length]!);
    const warm = reduceLog(gameId, held);
    expect(encode(warm), `step ${i} of ${sizes.length} (${n} entries)`).toEqual(cold[i]);
    resolved = Math.max(resolved, warm.phases.length);
  });
  return resolved;
}

describe('re-reducing reuses what was opened and folded only for the very same entries', () => {
  const hostile = hostileGame();
  const v6 = fixtures.filter((f) => f.about.endsWith('protocol 6'));

  it('one array grown in place, the hostile game with its late equivocations and old-phase entries last', () => {
    const next = prng(777);
    const order = [...withLateEntries(hostile.entries, next), ...hostile.late];
    expect(checkGrownInPlace(hostile.gameId, order, next)).toBe(3);
  });

  for (const f of v6) {
    it(`${f.about.split('.')[0]}, last entry first: compact entries held before the START that names their authors`, () => {
      const next = prng(f.entries.length * 31 + 5);
      expect(checkGrownInPlace(f.gameId, entriesOf(f).reverse(), next)).toBe(f.phases.length);
    });
  }

  it('two games reduced in turn through one verifier, each growing', () => {
    const [a, b] = [fixtures.at(-1)!, fixtures.at(-2)!];
    const ea = entriesOf(a);
    const eb = entriesOf(b);
    const steps = Math.max(ea.length, eb.length);
    const cold: [Uint8Array, Uint8Array][] = [];
    for (let i = 1; i <= steps; i += 3) {
      clearFoldMemos();
      const va = encode(reduceLog(a.gameId, ea.slice(0, i)));
      clearFoldMemos();
      cold.push([va, encode(reduceLog(b.gameId, eb.slice(0, i)))]);
    }
    clearFoldMemos();
    let k = 0;
    for (let i = 1; i <= steps; i += 3, k++) {
      expect(encode(reduceLog(a.gameId, ea.slice(0, i))), `${a.about} at ${i}`).toEqual(cold[k]![0]);
      expect(encode(reduceLog(b.gameId, eb.slice(0, i))), `${b.about} at ${i}`).toEqual(cold[k]![1]);
    }
  });
});

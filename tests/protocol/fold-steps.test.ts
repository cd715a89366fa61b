// One test per step of the phase fold (src/protocol/fold.ts), each on a small hand-built input.
import { describe, expect, it } from 'vitest';
import { POWERS, variantPhase, type Power } from '../../src/rules';
import type { BallotResult } from '../../src/protocol/ballot';
import { canonicalEncode } from '../../src/protocol/canonical';
import { standardEngine } from '../../src/protocol/engine';
import type { Message } from '../../src/protocol/envelope';
import {
  adjudicationStep,
  ballotStep,
  chosenOrdersStep,
  concessionEnding,
  drawEnding,
  endingStep,
  handoverStep,
  holdersStep,
  seatsStep,
  signalsStep,
  type FoldState,
  type PhaseBallot,
} from '../../src/protocol/fold';
import { Alliances, variantOf } from '../../src/protocol/variants';
import { HOUR, settings, T0 } from './helpers';

const roster = Object.fromEntries(POWERS.map((p) => [p, `key-${p}`])) as Record<Power, string>;
const start = standardEngine.start('standard')!;
/** A message as the fold sees it once opened: only the id and payload fields a step reads are filled in. */
const msg = (id: string, payload: object): never => ({ id, payload }) as unknown as Message as never;
const state = (over: Partial<FoldState> = {}): FoldState => ({
  position: start,
  openedAt: T0,
  memoKey: 'm0',
  holders: roster,
  conceded: new Set(),
  alliances: new Alliances(),
  handedEscrow: {},
  ...over,
});
const facts = { ordersNeeded: [...POWERS], withUnits: [...POWERS], withCentres: [...POWERS] };

describe('fold steps', () => {
  it('holdersStep: after the toss Italy goes to the winning side while its START holder still holds it', () => {
    const two = variantOf('two-players');
    const winner = two.seats[0]!;
    const lead = winner.powers.find((p) => p !== 'italy')!;
    const setup = variantPhase(two, { year: 1915, season: 'spring', kind: 'movement' }, winner.id);
    const toss = { phase: 'x', winner: winner.id, revealed: [] };
    expect(holdersStep(roster, roster, two, setup, toss).italy).toBe(roster[lead]);
    const handed = { ...roster, italy: 'someone-else' };
    expect(holdersStep(handed, roster, two, setup, toss)).toBe(handed);
    expect(holdersStep(roster, roster, two, setup, undefined)).toBe(roster);
  });

  it('signalsStep: concessions and alliance words count only from the holder, and the input state is not changed', () => {
    const before = state();
    const out = signalsStep(
      before,
      [msg('c1', { power: 'france', from: roster.france }), msg('c2', { power: 'germany', from: roster.france })],
      [
        msg('a1', { power: 'england', from: roster.england, powers: ['england', 'france'], yes: true, seq: 1 }),
        msg('a2', { power: 'france', from: roster.france, powers: ['england', 'france'], yes: true, seq: 1 }),
      ],
      [],
    );
    expect([...out.conceded]).toEqual(['france']);
    expect(out.ignored).toEqual([{ id: 'c2', reason: 'not-your-power' }]);
    expect(out.alliances.standing().map((a) => a.powers)).toEqual([['england', 'france']]);
    expect(before.conceded.size).toBe(0);
    expect(before.alliances.standing()).toEqual([]);
  });

  it('seatsStep: players and ballot keys are fixed at opening; a power conceded in the phase is no longer required', () => {
    const holders = { ...roster, germany: roster.austria };
    const seats = seatsStep(
      { ...facts, withUnits: POWERS.filter((p) => p !== 'turkey') },
      ['italy'],
      holders,
      new Set<Power>(['russia']),
      new Set<Power>(['russia', 'england']),
    );
    expect(seats.requiredAtOpening).toEqual(POWERS.filter((p) => p !== 'russia' && p !== 'italy'));
    expect(seats.required).toEqual(POWERS.filter((p) => !['russia', 'italy', 'england'].includes(p)));
    expect(seats.players).toEqual(['key-austria', 'key-england', 'key-france', 'key-turkey']);
    expect(seats.ballotKeys).toEqual(['key-austria', 'key-england', 'key-france', 'key-turkey']);
    expect(seats.survivors).toEqual(['austria', 'france', 'germany']);
    expect(seats.active).toEqual(['austria', 'france', 'germany', 'turkey']);
  });

  it('concessionEnding and drawEnding', () => {
    expect(concessionEnding(['france'], new Set<Power>(['england']), 'k')).toEqual({ kind: 'concession', winners: ['france'], phase: 'k' });
    expect(concessionEnding(['france', 'germany'], new Set<Power>(['england']), 'k')).toBeUndefined();
    expect(concessionEnding(['france'], new Set<Power>(), 'k')).toBeUndefined();
    expect(drawEnding(['france', 'germany'], new Set<Power>(['france', 'germany']), 'k')).toEqual({ kind: 'draw', winners: ['france', 'germany'], phase: 'k' });
    expect(drawEnding(['france', 'germany'], new Set<Power>(['france']), 'k')).toBeUndefined();
    expect(drawEnding([], new Set<Power>(), 'k')).toBeUndefined();
  });

  it('ballotStep: deadline from the phase kind, bad commits listed, open while nothing is sealed', () => {
    const seats = seatsStep(facts, [], roster, new Set(), new Set());
    const none = { commits: [], finals: [], locks: [], reveals: [], timeouts: [], clocks: [] };
    const b = ballotStep({
      key: 'k',
      position: start,
      openedAt: T0,
      settings: settings(),
      holders: roster,
      neutral: [],
      seats,
      entries: {
        ...none,
        commits: [
          msg('x1', { power: 'france', from: roster.germany }),
          msg('x2', { power: 'france', from: roster.france, escrow: { c: [], s: [], e: null }, sealed: '' }),
        ],
      },
      escrowKeys: new Map(),
      work: { steps: 0 },
    });
    expect(b.deadline).toBe(T0 + 24 * HOUR);
    expect(b.revealDeadline).toBe(Infinity);
    expect(b.tally.closed).toBe(false);
    expect(b.committed.size).toBe(0);
    expect(b.ignored).toEqual([
      { id: 'x1', reason: 'not-your-power' },
      { id: 'x2', reason: 'commit-bad-escrow' },
    ]);
  });

  it('chosenOrdersStep: opened orders count, unreadable ones are misconduct, missing ones are civil disorder', () => {
    const plain = (r: object) => canonicalEncode({ ...r, pad: '' });
    const tally = {
      outcomes: new Map([
        ['france', { kind: 'opened', commit: 'cf', plain: plain({ orders: [], draw: true }) }],
        ['germany', { kind: 'opened', commit: 'cg', plain: plain({ nonsense: 1 }) }],
      ]),
      view: { heads: { france: 'cf', germany: 'cg', russia: 'cr', turkey: 'ct' } },
    } as unknown as BallotResult;
    const c = chosenOrdersStep({
      key: 'k',
      required: ['france', 'germany', 'russia', 'turkey'],
      conceded: new Set<Power>(['england']),
      holders: roster,
      tally,
      timedOut: new Set<Power>(['turkey']),
    });
    expect(c.used).toEqual({ france: 'cf' });
    expect(c.orders).toEqual({ france: [] });
    expect([...c.drawYes]).toEqual(['france']);
    expect(c.civilDisorder).toEqual(['england', 'germany', 'russia', 'turkey']);
    expect(c.misconduct).toEqual([{ author: roster.germany, slot: 'germany', phase: 'k', kind: 'bad-orders', ids: ['cg'] }]);
    expect(c.ignored.map((i) => i.id).sort()).toEqual(['cg', 'cr']);
  });

  it('adjudicationStep: no orders hold everything; the chained key names the phase; the toss is kept outside its phase', () => {
    const s = state({ toss: { phase: 'earlier', winner: null, revealed: [] } });
    const setup = variantPhase(variantOf('standard'), start.phase, null);
    const chosen = {
      orders: {},
      used: { france: 'cf' },
      coins: new Map(),
      drawYes: new Set<Power>(),
      civilDisorder: [] as Power[],
      ignored: [],
      misconduct: [],
    };
    const ballot = { deadline: T0 + 1, timedOut: new Set<Power>(['russia']) } as unknown as PhaseBallot;
    const a = adjudicationStep({
      key: 'k',
      state: s,
      variant: variantOf('standard'),
      rules: variantOf('standard').rules,
      setup,
      engine: standardEngine,
      facts,
      chosen,
      ballot,
      drawVoters: [],
    });
    expect(a.next.units).toEqual(start.units);
    expect(a.next.phase).not.toEqual(start.phase);
    expect(a.resolved).toMatchObject({ key: 'k', deadline: T0 + 1, commits: { france: 'cf' }, timedOut: ['russia'] });
    expect(a.toss).toBe(s.toss);
    const other = adjudicationStep({
      key: 'k',
      state: s,
      variant: variantOf('standard'),
      rules: variantOf('standard').rules,
      setup,
      engine: standardEngine,
      facts,
      chosen: { ...chosen, used: { france: 'cf2' } },
      ballot,
      drawVoters: [],
    });
    expect(other.memoKey).not.toBe(a.memoKey);
  });

  it('handoverStep: an absent power passes to a joined key and, if conceded, is played again', () => {
    const h = handoverStep({
      messages: [
        msg('h1', { power: 'france', to: 'newcomer', from: roster.germany, start: 'S' }),
        msg('h2', { power: 'france', to: 'newcomer', from: roster.england, start: 'S' }),
      ],
      holders: roster,
      conceded: new Set<Power>(['france']),
      handedEscrow: {},
      players: [roster.france, roster.germany, roster.england],
      timedOut: new Set(),
      joined: new Set(['newcomer']),
      startId: 'S',
    });
    expect(h.ignored).toEqual([]);
    expect(h.holders.france).toBe('newcomer');
    expect([...h.conceded]).toEqual([]);
    expect(h.handedTo).toEqual(['newcomer']);
    expect(roster.france).toBe('key-france');
  });

  it('endingStep: short game after the end year goes to the most units; none before', () => {
    const v = variantOf('standard');
    const seats = v.seats;
    const position = { ...start, phase: { ...start.phase, year: 1902 }, units: start.units.filter((u) => u.power !== 'russia' || u.loc === 'mos') };
    const short = endingStep({ key: 'k', playing: v, position, seats, alliances: new Alliances(), endYear: 1901 });
    expect(short?.kind).toBe('short-game');
    expect(short?.winners).toEqual(['austria', 'england', 'france', 'germany', 'italy', 'turkey']);
    expect(endingStep({ key: 'k', playing: v, position, seats, alliances: new Alliances(), endYear: 1902 })).toBeUndefined();
  });
});

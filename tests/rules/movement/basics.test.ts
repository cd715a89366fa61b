import { describe, expect, it } from 'vitest';
import { adjudicateMovement, type Order } from '../../../src/rules';
import { board, build, dislodgedLocs, resultAt, run } from './helpers';

describe('illegal orders become holds (DATC 6.A)', () => {
  it('6.A.1 a fleet cannot move to a province that is not a neighbour', () => {
    const o = run({ england: ['F nth - pic'] });
    expect(resultAt(o, 'nth')).toMatchObject({ success: false, reason: { kind: 'illegal', why: 'not-adjacent' } });
    expect(board(o)).toEqual(['F nth']);
  });

  it('6.A.2 / 6.A.3 armies stay off the sea and fleets off inland provinces', () => {
    const o = run({ england: ['A lvp - iri'], germany: ['F kie - mun'] });
    expect(resultAt(o, 'lvp').reason).toEqual({ kind: 'illegal', why: 'army-to-sea' });
    expect(resultAt(o, 'kie').reason).toEqual({ kind: 'illegal', why: 'fleet-to-land' });
    expect(board(o)).toEqual(['F kie', 'A lvp']);
  });

  it('6.A.5 a move to its own province is illegal, so a support for it is too', () => {
    const o = run({
      england: ['F nth C A yor - yor', 'A yor - yor', 'A lvp S A yor - yor'],
      germany: ['F lon - yor', 'A wal S F lon - yor'],
    });
    expect(resultAt(o, 'yor').reason).toEqual({ kind: 'illegal', why: 'move-to-self' });
    expect(resultAt(o, 'lvp').success).toBe(false);
    expect(dislodgedLocs(o)).toEqual(['yor']);
    expect(o.dislodged[0]!.attackerFrom).toBe('lon');
  });

  it('6.A.6 an order for a unit of another power is reported and ignored', () => {
    const { position } = build({ england: ['F lon'] });
    const order: Order = { kind: 'move', power: 'germany', unit: { type: 'F', loc: 'lon' }, to: 'nth' };
    const o = adjudicateMovement(position, [order]);
    expect(o.results).toHaveLength(2);
    expect(o.results[0]).toMatchObject({ success: true, reason: { kind: 'no-order' } });
    expect(o.results[1]).toEqual({ order, success: false, reason: { kind: 'illegal', why: 'no-such-unit' } });
    expect(o.units).toEqual(position.units);
  });

  it('6.A.7 only armies can be convoyed', () => {
    const o = run({ england: ['F lon - bel', 'F nth C A lon - bel'] });
    expect(resultAt(o, 'lon').success).toBe(false);
    expect(resultAt(o, 'nth').reason).toEqual({ kind: 'illegal', why: 'convoy-non-army' });
    expect(board(o)).toEqual(['F lon', 'F nth']);
  });

  it('6.A.8 a unit cannot support itself to hold', () => {
    const o = run({ italy: ['A ven - tri', 'A tyr S A ven - tri'], austria: ['F tri S F tri'] });
    expect(resultAt(o, 'tri').reason).toEqual({ kind: 'illegal', why: 'support-self' });
    expect(dislodgedLocs(o)).toEqual(['tri']);
  });

  it('6.A.9 fleets follow the coast', () => {
    expect(run({ italy: ['F rom - ven'] }).ok('rom')).toBe(false);
  });

  it('6.A.10 a support into a province the supporter cannot reach is illegal', () => {
    const o = run({ austria: ['A ven H'], italy: ['F rom S A apu - ven', 'A apu - ven'] });
    expect(resultAt(o, 'rom').reason).toEqual({ kind: 'illegal', why: 'support-unreachable' });
    expect(o.dislodged).toEqual([]);
  });

  it('6.A.11 / 6.A.12 equal attacks bounce and leave the province contested', () => {
    const o = run({ austria: ['A vie - tyr'], italy: ['A ven - tyr'], germany: ['A mun - tyr'] });
    for (const loc of ['vie', 'ven', 'mun']) expect(o.ok(loc)).toBe(false);
    expect(resultAt(o, 'vie').reason).toEqual({ kind: 'bounced', with: ['mun', 'ven'] });
    expect(o.contested).toEqual(['tyr']);
  });
});

describe('bookkeeping', () => {
  it('gives one result per unit sorted by loc, then the orders that command nothing', () => {
    const { position } = build({ france: ['A par', 'F bre', 'A mar'] });
    const first: Order = { kind: 'move', power: 'france', unit: { type: 'A', loc: 'par' }, to: 'bur' };
    const second: Order = { kind: 'move', power: 'france', unit: { type: 'A', loc: 'par' }, to: 'pic' };
    const build_: Order = { kind: 'build', power: 'france', unit: { type: 'A', loc: 'par' } };
    const o = adjudicateMovement(position, [first, second, build_]);
    expect(o.results.slice(0, 3).map((r) => ('unit' in r.order ? r.order.unit.loc : ''))).toEqual(['bre', 'mar', 'par']);
    expect(resultAt(o, 'par').order).toBe(first);
    expect(o.results.slice(3).map((r) => r.reason)).toEqual([
      { kind: 'illegal', why: 'duplicate-order' },
      { kind: 'illegal', why: 'wrong-phase' },
    ]);
    expect(board(o)).toEqual(['F bre', 'A bur', 'A mar']);
  });

  it('makes up a hold for an unordered unit, which can still be dislodged', () => {
    const o = run({ germany: ['A mun'], france: ['A bur - mun', 'A ruh S A bur - mun'] });
    expect(resultAt(o, 'mun')).toEqual({
      order: { kind: 'hold', power: 'germany', unit: { type: 'A', loc: 'mun' } },
      success: false,
      reason: { kind: 'dislodged', by: 'bur' },
    });
  });

  it('does not change its inputs and gives the same answer twice', () => {
    const setup = { france: ['A par - bur', 'A mar S A par - bur'], germany: ['A mun - bur'] };
    const { position, orders } = build(setup);
    const frozen = JSON.stringify({ position, orders });
    const a = adjudicateMovement(position, orders);
    const b = adjudicateMovement(position, orders);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify({ position, orders })).toBe(frozen);
  });

  it('gives the same results whatever order the orders come in', () => {
    const setup = {
      england: ['F nth - hol', 'F bel S F nth - hol'],
      germany: ['F hol - nth', 'F hel S F hol - nth', 'F ska S F hol - nth'],
    };
    const { position, orders } = build(setup);
    const a = adjudicateMovement(position, orders);
    const b = adjudicateMovement(position, [...orders].reverse());
    expect(b).toEqual(a);
  });
});

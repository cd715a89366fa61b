import { describe, expect, it } from 'vitest';
import { board, dislodgedLocs, resultAt, run } from './helpers';

describe('coasts (DATC 6.B, rule choices 4.B)', () => {
  it('6.B.1 a fleet must name the coast when two are reachable', () => {
    const o = run({ france: ['F por - spa'] });
    expect(resultAt(o, 'por').reason).toEqual({ kind: 'illegal', why: 'coast-required' });
  });

  it('6.B.2 the only reachable coast is taken when none is named', () => {
    expect(board(run({ france: ['F gas - spa'] }))).toEqual(['F spa/nc']);
  });

  it('6.B.3 a named coast that cannot be reached makes the move illegal', () => {
    const o = run({ france: ['F gas - spa/sc'] });
    expect(resultAt(o, 'gas').reason).toEqual({ kind: 'illegal', why: 'not-adjacent' });
    expect(board(o)).toEqual(['F gas']);
  });

  it('6.B.4 a fleet may support into a coast it cannot reach', () => {
    const o = run({ france: ['F gas - spa/nc', 'F mar S F gas - spa/nc'], italy: ['F wes - spa/sc'] });
    expect(o.ok('gas')).toBe(true);
    expect(o.ok('wes')).toBe(false);
    expect(board(o)).toContain('F spa/nc');
  });

  it('6.B.5 support from a coast that does not touch the target is illegal', () => {
    const o = run({ france: ['F mar - lyo', 'F spa/nc S F mar - lyo'], italy: ['F lyo H'] });
    expect(resultAt(o, 'spa/nc').reason).toEqual({ kind: 'illegal', why: 'support-unreachable' });
    expect(o.dislodged).toEqual([]);
  });

  it('6.B.6 support can be cut from the other coast', () => {
    const o = run({
      england: ['F iri S F nao - mao', 'F nao - mao'],
      france: ['F spa/nc S F mao', 'F mao H'],
      italy: ['F lyo - spa/sc'],
    });
    expect(resultAt(o, 'spa/nc').reason).toEqual({ kind: 'cut', by: 'lyo' });
    expect(dislodgedLocs(o)).toEqual(['mao']);
  });

  it('6.B.7 / 6.B.8 / 6.B.15 a support need not name the coast', () => {
    const o = run({
      france: ['F por S F mao - spa', 'F mao - spa/nc'],
      italy: ['F lyo S F wes - spa/sc', 'F wes - spa/sc'],
    });
    expect(o.ok('por')).toBe(true);
    expect(o.ok('wes')).toBe(false);
    expect(o.ok('mao')).toBe(false);
  });

  it('6.B.9 a support naming the wrong coast does not match', () => {
    const o = run({
      france: ['F por S F mao - spa/nc', 'F mao - spa/sc'],
      italy: ['F lyo S F wes - spa/sc', 'F wes - spa/sc'],
    });
    expect(resultAt(o, 'por').reason).toEqual({ kind: 'support-not-matched' });
    expect(o.ok('wes')).toBe(true);
    expect(board(o)).toContain('F spa/sc');
  });

  it('6.B.10 / 6.B.11 the coast in the unit designation is ignored; the real coast decides', () => {
    const wrongCoast = run({ france: ['F spa/sc'] });
    expect(wrongCoast.units).toHaveLength(1);
    const o = run({ france: ['F spa/sc - lyo'] });
    expect(board(o)).toEqual(['F lyo']);
    const stuck = run({ france: ['F spa/nc', 'F spa/sc - lyo'] });
    // The order names spa/sc, but the fleet stands on the north coast: Lyon is out of its reach.
    expect(board(stuck)).toEqual(['F spa/nc']);
  });

  it('6.B.12 an army ignores a coast in its destination', () => {
    expect(board(run({ france: ['A gas - spa/nc'] }))).toEqual(['A spa']);
  });

  it('6.B.13 no coastal crawl: leaving one coast while another fleet enters the other is a head-to-head', () => {
    const o = run({ turkey: ['F bul/sc - con', 'F con - bul/ec'] });
    expect(o.ok('bul/sc')).toBe(false);
    expect(o.ok('con')).toBe(false);
  });

  it('retreats of a fleet are coast-specific', () => {
    const o = run({ russia: ['F stp/sc H'], england: ['A nwy - stp', 'F bar S A nwy - stp'] });
    expect(o.dislodged).toEqual([{ unit: { type: 'F', power: 'russia', loc: 'stp/sc' }, attackerFrom: 'nwy', retreats: ['bot', 'fin', 'lvn'] }]);
  });
});

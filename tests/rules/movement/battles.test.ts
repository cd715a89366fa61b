import { describe, expect, it } from 'vitest';
import { board, dislodgedLocs, resultAt, run } from './helpers';

describe('circular movement (DATC 6.C)', () => {
  it('6.C.1 three armies rotate', () => {
    const o = run({ turkey: ['F ank - con', 'A con - smy', 'A smy - ank'] });
    expect(board(o)).toEqual(['A ank', 'F con', 'A smy']);
    expect(o.results.every((r) => r.success)).toBe(true);
  });

  it('6.C.2 a supported rotation still rotates', () => {
    const o = run({ turkey: ['F ank - con', 'A con - smy', 'A smy - ank', 'A bul S F ank - con'] });
    expect(board(o)).toEqual(['A ank', 'A bul', 'F con', 'A smy']);
  });

  it('6.C.3 a bounce breaks the rotation', () => {
    const o = run({ turkey: ['F ank - con', 'A con - smy', 'A smy - ank', 'A bul - con'] });
    expect(['ank', 'con', 'smy', 'bul'].map(o.ok)).toEqual([false, false, false, false]);
  });

  it('6.C.4 a rotation through a convoy that is attacked but not dislodged', () => {
    const o = run({
      austria: ['A tri - ser', 'A ser - bul'],
      turkey: ['A bul - tri', 'F aeg C A bul - tri', 'F ion C A bul - tri', 'F adr C A bul - tri'],
      italy: ['F nap - ion'],
    });
    expect(['tri', 'ser', 'bul'].map(o.ok)).toEqual([true, true, true]);
    expect(o.ok('nap')).toBe(false);
  });

  it('6.C.5 a rotation through a dislodged convoy fails', () => {
    const o = run({
      austria: ['A tri - ser', 'A ser - bul'],
      turkey: ['A bul - tri', 'F aeg C A bul - tri', 'F ion C A bul - tri', 'F adr C A bul - tri'],
      italy: ['F nap - ion', 'F tun S F nap - ion'],
    });
    expect(['tri', 'ser', 'bul'].map(o.ok)).toEqual([false, false, false]);
    expect(resultAt(o, 'bul').reason).toEqual({ kind: 'convoy-disrupted', by: 'nap' });
    expect(dislodgedLocs(o)).toEqual(['ion']);
  });

  it('6.C.6 two armies swap with two convoys', () => {
    const o = run({ england: ['F nth C A lon - bel', 'A lon - bel'], france: ['F eng C A bel - lon', 'A bel - lon'] });
    expect(board(o)).toEqual(['A bel', 'F eng', 'A lon', 'F nth']);
  });

  it('6.C.7 a third army disrupts the swap', () => {
    const o = run({
      england: ['F nth C A lon - bel', 'A lon - bel'],
      france: ['F eng C A bel - lon', 'A bel - lon', 'A bur - bel'],
    });
    expect(['lon', 'bel', 'bur'].map(o.ok)).toEqual([false, false, false]);
  });

  it('6.C.8 no self dislodgement in a disrupted rotation', () => {
    const o = run({
      turkey: ['F con - bla', 'A bul - con', 'A smy S A bul - con'],
      russia: ['F bla - bul/ec'],
      austria: ['A ser - bul'],
    });
    expect(['con', 'bul', 'bla', 'ser'].map(o.ok)).toEqual([false, false, false, false]);
    expect(o.dislodged).toEqual([]);
  });

  it('6.C.9 no help in dislodging an own unit in a disrupted rotation', () => {
    const o = run({
      turkey: ['F con - bla', 'A smy S A bul - con'],
      russia: ['F bla - bul/ec'],
      austria: ['A ser - bul', 'A bul - con'],
    });
    expect(['con', 'bul', 'bla', 'ser'].map(o.ok)).toEqual([false, false, false, false]);
    expect(o.dislodged).toEqual([]);
  });
});

describe('supports (DATC 6.D)', () => {
  it('6.D.1 a supported hold prevents dislodgement', () => {
    const o = run({ austria: ['F adr S A tri - ven', 'A tri - ven'], italy: ['A ven H', 'A tyr S A ven'] });
    expect(o.ok('tri')).toBe(false);
    expect(o.dislodged).toEqual([]);
  });

  it('6.D.2 / 6.D.3 a move cuts support', () => {
    const o = run({
      austria: ['F adr S A tri - ven', 'A tri - ven', 'A vie - tyr'],
      italy: ['A ven H', 'A tyr S A ven'],
    });
    expect(resultAt(o, 'tyr').reason).toEqual({ kind: 'cut', by: 'vie' });
    expect(dislodgedLocs(o)).toEqual(['ven']);
  });

  it('6.D.4 / 6.D.5 / 6.D.6 units that support or convoy can be supported to hold', () => {
    const o = run({
      germany: ['A ber S F kie', 'F kie S A ber'],
      russia: ['F bal S A pru - ber', 'A pru - ber'],
    });
    expect(o.dislodged).toEqual([]);
    const convoy = run({
      germany: ['A ber - swe', 'F bal C A ber - swe', 'F pru S F bal'],
      russia: ['F lvn - bal', 'F bot S F lvn - bal'],
    });
    expect(convoy.dislodged).toEqual([]);
    expect(convoy.ok('ber')).toBe(true);
  });

  it('6.D.7 a moving unit cannot be supported to hold', () => {
    const o = run({
      germany: ['F bal - swe', 'F pru S F bal'],
      russia: ['F lvn - bal', 'F bot S F lvn - bal', 'A fin - swe'],
    });
    expect(resultAt(o, 'pru').reason).toEqual({ kind: 'support-not-matched' });
    expect(dislodgedLocs(o)).toEqual(['bal']);
  });

  it('6.D.8 a failed convoy cannot be supported to hold', () => {
    const o = run({
      austria: ['F ion H', 'A ser S A alb - gre', 'A alb - gre'],
      turkey: ['A gre - nap', 'A bul S A gre'],
    });
    expect(resultAt(o, 'gre').reason).toEqual({ kind: 'no-convoy-route' });
    expect(dislodgedLocs(o)).toEqual(['gre']);
  });

  it('6.D.9 a holding unit cannot be supported to move', () => {
    const o = run({ italy: ['A ven - tri', 'A tyr S A ven - tri'], austria: ['A alb S A tri - ser', 'A tri H'] });
    expect(dislodgedLocs(o)).toEqual(['tri']);
  });

  it('6.D.10 / 6.D.11 no self dislodgement', () => {
    const o = run({ germany: ['A ber H', 'F kie - ber', 'A mun S F kie - ber'] });
    expect(o.ok('kie')).toBe(false);
    const returning = run({ germany: ['A ber - pru', 'F kie - ber', 'A mun S F kie - ber'], russia: ['A war - pru'] });
    expect(returning.dislodged).toEqual([]);
  });

  it('6.D.12 / 6.D.13 no help in dislodging an own unit', () => {
    const o = run({ austria: ['F tri H', 'A vie S A ven - tri'], italy: ['A ven - tri'] });
    expect(o.dislodged).toEqual([]);
    const returning = run({
      austria: ['F tri - adr', 'A vie S A ven - tri'],
      italy: ['A ven - tri', 'F apu - adr'],
    });
    expect(returning.dislodged).toEqual([]);
  });

  it('6.D.14 foreign support cannot save a unit from a stronger attack', () => {
    const o = run({
      austria: ['F tri H', 'A vie S A ven - tri'],
      italy: ['A ven - tri', 'A tyr S A ven - tri', 'F adr S A ven - tri'],
    });
    expect(dislodgedLocs(o)).toEqual(['tri']);
  });

  it('6.D.15 the defender cannot cut the support for the attack on itself', () => {
    const o = run({ russia: ['F con S F bla - ank', 'F bla - ank'], turkey: ['F ank - con'] });
    expect(dislodgedLocs(o)).toEqual(['ank']);
    expect(o.ok('con')).toBe(true);
  });

  it('6.D.16 convoying a foreign army to dislodge an own unit is allowed', () => {
    const o = run({ england: ['A lon H', 'F nth C A bel - lon'], france: ['F eng S A bel - lon', 'A bel - lon'] });
    expect(dislodgedLocs(o)).toEqual(['lon']);
  });

  it('6.D.17 dislodgement cuts supports', () => {
    const o = run({
      russia: ['F con S F bla - ank', 'F bla - ank'],
      turkey: ['F ank - con', 'A smy S F ank - con', 'A arm - ank'],
    });
    expect(dislodgedLocs(o)).toEqual(['con']);
    expect(o.ok('bla')).toBe(false);
  });

  it('6.D.18 / 6.D.19 a surviving unit sustains its support', () => {
    const o = run({
      russia: ['F con S F bla - ank', 'F bla - ank', 'A bul S F con'],
      turkey: ['F ank - con', 'A smy S F ank - con', 'A arm - ank'],
    });
    expect(dislodgedLocs(o)).toEqual(['ank']);
  });

  it('6.D.20 a unit cannot cut the support of its own power', () => {
    const o = run({ england: ['F lon S F nth - eng', 'F nth - eng', 'A yor - lon'], france: ['F eng H'] });
    expect(o.ok('lon')).toBe(true);
    expect(dislodgedLocs(o)).toEqual(['eng']);
  });

  it('6.D.21 dislodging does not undo a support cut', () => {
    const o = run({
      austria: ['F tri H'],
      italy: ['A ven - tri', 'A tyr S A ven - tri'],
      germany: ['A mun - tyr'],
      russia: ['A sil - mun', 'A ber S A sil - mun'],
    });
    expect(o.dislodged.map((d) => d.unit.loc)).toEqual(['mun']);
    expect(resultAt(o, 'tyr').reason).toEqual({ kind: 'cut', by: 'mun' });
  });

  it('6.D.22 / 6.D.24 impossible moves cannot be supported', () => {
    const o = run({
      germany: ['F kie - mun', 'A bur S F kie - mun'],
      russia: ['A mun - kie', 'A ber S A mun - kie'],
    });
    expect(dislodgedLocs(o)).toEqual(['kie']);
  });

  it('6.D.25 / 6.D.26 / 6.D.27 failing supports and convoys can be supported', () => {
    const o = run({ germany: ['A ber S A pru', 'F kie S A ber'], russia: ['F bal S A pru - ber', 'A pru - ber'] });
    expect(o.dislodged).toEqual([]);
    const c = run({
      england: ['F swe - bal', 'F den S F swe - bal'],
      germany: ['A ber H'],
      russia: ['F bal C A ber - lvn', 'F pru S F bal'],
    });
    expect(resultAt(c, 'bal').reason).toEqual({ kind: 'void' });
    expect(c.dislodged).toEqual([]);
  });

  it('6.D.28 / 6.D.29 / 6.D.30 an illegal move is a hold and can be supported to hold', () => {
    const o = run({
      austria: ['A bud S F rum'],
      russia: ['F rum - hol'],
      turkey: ['F bla - rum', 'A bul S F bla - rum'],
    });
    expect(o.dislodged).toEqual([]);
    const coast = run({ italy: ['F aeg S F con'], russia: ['F con - bul'], turkey: ['F bla - con', 'A bul S F bla - con'] });
    expect(resultAt(coast, 'con').reason).toEqual({ kind: 'illegal', why: 'coast-required' });
    expect(coast.dislodged).toEqual([]);
  });

  it('6.D.31 a support for a move only the supporter could convoy is illegal', () => {
    const o = run({ austria: ['A rum - arm'], turkey: ['F bla S A rum - arm'] });
    expect(resultAt(o, 'bla').reason).toEqual({ kind: 'illegal', why: 'support-unreachable' });
    expect(resultAt(o, 'rum').success).toBe(false);
  });

  it('6.D.32 a move that needs a missing fleet is illegal, so the unit can be supported to hold', () => {
    const o = run({
      england: ['F edi S A lvp - yor', 'A lvp - yor'],
      france: ['F lon S A yor'],
      germany: ['A yor - hol'],
    });
    expect(resultAt(o, 'yor').reason).toEqual({ kind: 'illegal', why: 'not-adjacent' });
    expect(o.dislodged).toEqual([]);
  });

  it('6.D.33 an unwanted support breaks a self standoff', () => {
    const o = run({
      austria: ['A ser - bud', 'A vie - bud'],
      russia: ['A gal S A ser - bud'],
      turkey: ['A bul - ser'],
    });
    expect(board(o)).toEqual(['A bud', 'A gal', 'A ser', 'A vie']);
    expect(o.ok('bul')).toBe(true);
  });

  it("6.D.34 a support into the supporter's own province is illegal", () => {
    const o = run({
      germany: ['A ber - pru', 'A sil S A ber - pru', 'F bal S A ber - pru'],
      italy: ['A pru S A lvn - pru'],
      russia: ['A war S A lvn - pru', 'A lvn - pru'],
    });
    expect(resultAt(o, 'pru').reason).toEqual({ kind: 'illegal', why: 'support-unreachable' });
    expect(o.ok('ber')).toBe(true);
  });
});

describe('head-to-head battles and beleaguered garrisons (DATC 6.E)', () => {
  it("6.E.1 a dislodged unit has no effect on the attacker's province", () => {
    const o = run({ germany: ['A ber - pru', 'F kie - ber', 'A sil S A ber - pru'], russia: ['A pru - ber'] });
    expect(o.ok('kie')).toBe(true);
    expect(resultAt(o, 'pru').reason).toEqual({ kind: 'beaten', by: 'ber' });
  });

  it('6.E.2 / 6.E.3 no self dislodgement in a head-to-head battle', () => {
    const o = run({ germany: ['A ber - kie', 'F kie - ber', 'A mun S A ber - kie'] });
    expect(o.ok('ber') || o.ok('kie')).toBe(false);
    const help = run({ germany: ['A ber - kie', 'A mun S F kie - ber'], england: ['F kie - ber'] });
    expect(help.ok('ber') || help.ok('kie')).toBe(false);
  });

  it('6.E.4 a loser that is not dislodged still has effect', () => {
    const o = run({
      germany: ['F hol - nth', 'F hel S F hol - nth', 'F ska S F hol - nth'],
      france: ['F nth - hol', 'F bel S F nth - hol'],
      england: ['F edi S F nwg - nth', 'F yor S F nwg - nth', 'F nwg - nth'],
      austria: ['A kie S A ruh - hol', 'A ruh - hol'],
    });
    expect(o.dislodged).toEqual([]);
    expect(o.ok('ruh')).toBe(false);
  });

  it('6.E.5 a loser dislodged by a third unit still has effect', () => {
    const o = run({
      germany: ['F hol - nth', 'F hel S F hol - nth', 'F ska S F hol - nth'],
      france: ['F nth - hol', 'F bel S F nth - hol'],
      england: ['F edi S F nwg - nth', 'F yor S F nwg - nth', 'F nwg - nth', 'F lon S F nwg - nth'],
      austria: ['A kie S A ruh - hol', 'A ruh - hol'],
    });
    expect(dislodgedLocs(o)).toEqual(['nth']);
    expect(o.dislodged[0]!.attackerFrom).toBe('nwg');
    expect(o.ok('ruh')).toBe(false);
  });

  it('6.E.6 not dislodged because of own support, still has effect', () => {
    const o = run({
      germany: ['F hol - nth', 'F hel S F hol - nth'],
      france: ['F nth - hol', 'F bel S F nth - hol', 'F eng S F hol - nth'],
      austria: ['A kie S A ruh - hol', 'A ruh - hol'],
    });
    expect(o.dislodged).toEqual([]);
    expect(o.ok('ruh')).toBe(false);
  });

  it('6.E.7 / 6.E.8 no self dislodgement with a beleaguered garrison', () => {
    const o = run({
      england: ['F nth H', 'F yor S F nwy - nth'],
      germany: ['F hol S F hel - nth', 'F hel - nth'],
      russia: ['F ska S F nwy - nth', 'F nwy - nth'],
    });
    expect(o.dislodged).toEqual([]);
    expect(o.ok('nwy') || o.ok('hel')).toBe(false);
  });

  it('6.E.9 almost self dislodgement: the garrison moves away', () => {
    const o = run({
      england: ['F nth - nwg', 'F yor S F nwy - nth'],
      germany: ['F hol S F hel - nth', 'F hel - nth'],
      russia: ['F ska S F nwy - nth', 'F nwy - nth'],
    });
    expect(o.ok('nth')).toBe(true);
    expect(o.ok('nwy')).toBe(true);
  });

  it('6.E.10 almost circular movement fails with a beleaguered garrison', () => {
    const o = run({
      england: ['F nth - den', 'F yor S F nwy - nth'],
      germany: ['F hol S F hel - nth', 'F hel - nth', 'F den - hel'],
      russia: ['F ska S F nwy - nth', 'F nwy - nth'],
    });
    expect(['nth', 'hel', 'den', 'nwy'].map(o.ok)).toEqual([false, false, false, false]);
  });

  it('6.E.11 a swap by adjacent convoy ends the beleaguered garrison', () => {
    const o = run({
      france: ['A spa - por via', 'F mao C A spa - por', 'F lyo S F por - spa/nc'],
      germany: ['A mar S A gas - spa', 'A gas - spa'],
      italy: ['F por - spa/nc', 'F wes S F por - spa/nc'],
    });
    expect(o.ok('spa')).toBe(true);
    expect(o.ok('por')).toBe(true);
    expect(o.ok('gas')).toBe(false);
  });

  it('6.E.12 a support for an attack on an own unit still bounces others', () => {
    const o = run({
      austria: ['A bud - rum', 'A ser S A vie - bud'],
      italy: ['A vie - bud'],
      russia: ['A gal - bud', 'A rum S A gal - bud'],
    });
    expect(['bud', 'vie', 'gal'].map(o.ok)).toEqual([false, false, false]);
  });

  it('6.E.13 three-way beleaguered garrison', () => {
    const o = run({
      england: ['F edi S F yor - nth', 'F yor - nth'],
      france: ['F bel - nth', 'F eng S F bel - nth'],
      germany: ['F nth H'],
      russia: ['F nwg - nth', 'F nwy S F nwg - nth'],
    });
    expect(o.dislodged).toEqual([]);
  });

  it('6.E.14 an illegal move still defends', () => {
    const o = run({ england: ['A lvp - edi'], russia: ['F edi - lvp'] });
    expect(o.ok('lvp')).toBe(false);
  });

  it('6.E.15 the friendly head-to-head battle', () => {
    const o = run({
      england: ['F hol S A ruh - kie', 'A ruh - kie'],
      france: ['A kie - ber', 'A mun S A kie - ber', 'A sil S A kie - ber'],
      germany: ['A ber - kie', 'F den S A ber - kie', 'F hel S A ber - kie'],
      russia: ['F bal S A pru - ber', 'A pru - ber'],
    });
    expect(['ruh', 'kie', 'ber', 'pru'].map(o.ok)).toEqual([false, false, false, false]);
    expect(o.dislodged).toEqual([]);
  });
});

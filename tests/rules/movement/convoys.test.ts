import { describe, expect, it } from 'vitest';
import { board, dislodgedLocs, resultAt, run } from './helpers';

describe('convoys (DATC 6.F)', () => {
  it('6.F.1 fleets on coasts cannot convoy', () => {
    const o = run({ turkey: ['A gre - sev', 'F aeg C A gre - sev', 'F con C A gre - sev', 'F bla C A gre - sev'] });
    expect(resultAt(o, 'con').reason).toEqual({ kind: 'illegal', why: 'convoy-from-land' });
    expect(o.ok('gre')).toBe(false);
  });

  it('6.F.2 / 6.F.3 a convoyed army bounces and can be supported like any other', () => {
    const bounce = run({ england: ['F eng C A lon - bre', 'A lon - bre'], france: ['A par - bre'] });
    expect(bounce.ok('lon') || bounce.ok('par')).toBe(false);
    const supported = run({
      england: ['F eng C A lon - bre', 'A lon - bre', 'F mao S A lon - bre'],
      france: ['A par - bre'],
    });
    expect(supported.ok('lon')).toBe(true);
    expect(supported.ok('par')).toBe(false);
  });

  it('6.F.4 / 6.F.5 an attacked or beleaguered convoy is not disrupted', () => {
    expect(run({ england: ['F nth C A lon - hol', 'A lon - hol'], germany: ['F ska - nth'] }).ok('lon')).toBe(true);
    const o = run({
      england: ['F nth C A lon - hol', 'A lon - hol'],
      france: ['F eng - nth', 'F bel S F eng - nth'],
      germany: ['F ska - nth', 'F den S F ska - nth'],
    });
    expect(o.ok('lon')).toBe(true);
  });

  it('6.F.6 a dislodged convoy does not cut support', () => {
    const o = run({
      england: ['F nth C A lon - hol', 'A lon - hol'],
      germany: ['A hol S A bel', 'A bel S A hol', 'F hel S F ska - nth', 'F ska - nth'],
      france: ['A pic - bel', 'A bur S A pic - bel'],
    });
    expect(o.ok('hol')).toBe(true);
    expect(dislodgedLocs(o)).toEqual(['nth']);
  });

  it('6.F.7 a dislodged convoy does not leave its landing contested', () => {
    const o = run({
      england: ['F nth C A lon - hol', 'A lon - hol'],
      germany: ['F hel S F ska - nth', 'F ska - nth'],
    });
    expect(o.contested).toEqual([]);
    expect(o.dislodged[0]!.retreats).toContain('hol');
    expect(resultAt(o, 'lon').reason).toEqual({ kind: 'convoy-disrupted', by: 'ska' });
  });

  it('6.F.8 a dislodged convoy does not cause a bounce', () => {
    const o = run({
      england: ['F nth C A lon - hol', 'A lon - hol'],
      germany: ['F hel S F ska - nth', 'F ska - nth', 'A bel - hol'],
    });
    expect(o.ok('bel')).toBe(true);
  });

  it('6.F.9 / 6.F.10 / 6.F.11 a multi-route convoy survives while one route stays open', () => {
    const own = run({
      england: ['F eng C A lon - bel', 'F nth C A lon - bel', 'A lon - bel'],
      france: ['F bre S F mao - eng', 'F mao - eng'],
    });
    expect(own.ok('lon')).toBe(true);
    expect(dislodgedLocs(own)).toEqual(['eng']);
    const foreign = run({
      england: ['A lon - bel'],
      germany: ['F eng C A lon - bel'],
      russia: ['F nth C A lon - bel'],
      france: ['F bre S F mao - eng', 'F mao - eng'],
    });
    expect(foreign.ok('lon')).toBe(true);
  });

  it('6.F.12 a dislodged convoying fleet off the route does not matter', () => {
    const o = run({
      england: ['F eng C A lon - bel', 'A lon - bel', 'F iri C A lon - bel'],
      france: ['F nao S F mao - iri', 'F mao - iri'],
    });
    expect(o.ok('lon')).toBe(true);
  });

  it('6.F.13 the unwanted alternative', () => {
    const o = run({
      england: ['A lon - bel', 'F nth C A lon - bel'],
      france: ['F eng C A lon - bel'],
      germany: ['F hol S F den - nth', 'F den - nth'],
    });
    expect(o.ok('lon')).toBe(true);
    expect(dislodgedLocs(o)).toEqual(['nth']);
  });

  it('6.F.14 simple convoy paradox: the support is not cut and the convoy fails', () => {
    const o = run({ england: ['F lon S F wal - eng', 'F wal - eng'], france: ['A bre - lon', 'F eng C A bre - lon'] });
    expect(o.ok('lon')).toBe(true);
    expect(o.ok('wal')).toBe(true);
    expect(o.ok('bre')).toBe(false);
    expect(dislodgedLocs(o)).toEqual(['eng']);
  });

  it('6.F.15 the paradox does not touch an unrelated convoy', () => {
    const o = run({
      england: ['F lon S F wal - eng', 'F wal - eng'],
      france: ['A bre - lon', 'F eng C A bre - lon'],
      italy: ['F iri C A naf - wal', 'F mao C A naf - wal', 'A naf - wal'],
    });
    expect(o.ok('wal')).toBe(true);
    expect(o.ok('naf')).toBe(true);
    expect(dislodgedLocs(o)).toEqual(['eng']);
  });

  it("6.F.16 Pandin's paradox", () => {
    const o = run({
      england: ['F lon S F wal - eng', 'F wal - eng'],
      france: ['A bre - lon', 'F eng C A bre - lon'],
      germany: ['F nth S F bel - eng', 'F bel - eng'],
    });
    expect(o.dislodged).toEqual([]);
    expect(['wal', 'bel', 'bre'].map(o.ok)).toEqual([false, false, false]);
    expect(o.ok('lon')).toBe(true);
  });

  it("6.F.17 Pandin's extended paradox (Szykman: the convoy fails)", () => {
    const o = run({
      england: ['F lon S F wal - eng', 'F wal - eng'],
      france: ['A bre - lon', 'F eng C A bre - lon', 'F yor S A bre - lon'],
      germany: ['F nth S F bel - eng', 'F bel - eng'],
    });
    expect(o.dislodged).toEqual([]);
    expect(o.ok('bre')).toBe(false);
    expect(o.ok('eng')).toBe(false);
  });

  it('6.F.18 betrayal paradox', () => {
    const o = run({
      england: ['F nth C A lon - bel', 'A lon - bel', 'F eng S A lon - bel'],
      france: ['F bel S F nth'],
      germany: ['F hel S F ska - nth', 'F ska - nth'],
    });
    expect(o.dislodged).toEqual([]);
    expect(o.ok('lon')).toBe(false);
    expect(o.ok('ska')).toBe(false);
    expect(o.ok('bel')).toBe(true);
  });

  it('6.F.19 multi-route convoy disruption paradox', () => {
    const o = run({
      france: ['A tun - nap', 'F tys C A tun - nap', 'F ion C A tun - nap'],
      italy: ['F nap S F rom - tys', 'F rom - tys'],
    });
    expect(resultAt(o, 'nap').reason).toEqual({ kind: 'cut', by: 'tun' });
    expect(o.dislodged).toEqual([]);
    expect(o.ok('tun')).toBe(false);
  });

  it('6.F.20 unwanted multi-route convoy paradox', () => {
    const o = run({
      france: ['A tun - nap', 'F tys C A tun - nap'],
      italy: ['F nap S F ion', 'F ion C A tun - nap'],
      turkey: ['F aeg S F eas - ion', 'F eas - ion'],
    });
    expect(dislodgedLocs(o)).toEqual(['ion']);
  });

  it("6.F.21 Dad's army convoy", () => {
    const o = run({
      russia: ['A edi S A nwy - cly', 'F nwg C A nwy - cly', 'A nwy - cly'],
      france: ['F iri S F mao - nao', 'F mao - nao'],
      england: ['A lvp - cly via', 'F nao C A lvp - cly', 'F cly S F nao'],
    });
    expect(dislodgedLocs(o)).toEqual(['cly', 'nao']);
    expect(o.ok('nwy')).toBe(true);
  });

  it('6.F.22 second order paradox with two resolutions', () => {
    const o = run({
      england: ['F edi - nth', 'F lon S F edi - nth'],
      france: ['A bre - lon', 'F eng C A bre - lon'],
      germany: ['F bel S F pic - eng', 'F pic - eng'],
      russia: ['A nwy - bel', 'F nth C A nwy - bel'],
    });
    expect(dislodgedLocs(o)).toEqual(['eng', 'nth']);
    expect(o.ok('bre') || o.ok('nwy')).toBe(false);
  });

  it('6.F.23 second order paradox with two exclusive convoys', () => {
    const o = run({
      england: ['F edi - nth', 'F yor S F edi - nth'],
      france: ['A bre - lon', 'F eng C A bre - lon'],
      germany: ['F bel S F eng', 'F lon S F nth'],
      italy: ['F mao - eng', 'F iri S F mao - eng'],
      russia: ['A nwy - bel', 'F nth C A nwy - bel'],
    });
    expect(o.dislodged).toEqual([]);
    expect(['edi', 'bre', 'mao', 'nwy'].map(o.ok)).toEqual([false, false, false, false]);
  });

  it('6.F.24 second order paradox with no resolution', () => {
    const o = run({
      england: ['F edi - nth', 'F lon S F edi - nth', 'F iri - eng', 'F mao S F iri - eng'],
      france: ['A bre - lon', 'F eng C A bre - lon', 'F bel S F eng'],
      russia: ['A nwy - bel', 'F nth C A nwy - bel'],
    });
    expect(dislodgedLocs(o)).toEqual(['nth']);
    expect(o.ok('bre') || o.ok('nwy') || o.ok('iri')).toBe(false);
  });

  it('6.F.25 cut support last', () => {
    const o = run({
      germany: ['A ruh - bel', 'A hol S A ruh - bel', 'A den - nwy', 'F ska C A den - nwy', 'A fin S A den - nwy'],
      england: ['A yor - hol', 'F nth C A yor - hol', 'F hel S A yor - hol', 'A bel H'],
      russia: ['F nwg - nth', 'F nwy S F nwg - nth', 'F swe - ska'],
    });
    expect(o.ok('den')).toBe(true);
    expect(o.ok('yor')).toBe(true);
    expect(o.ok('ruh')).toBe(false);
    expect(o.ok('swe')).toBe(false);
    expect(o.ok('nwg')).toBe(false);
  });
});

describe('convoys to adjacent provinces (DATC 6.G, seed 002 convoy intent)', () => {
  it('6.G.1 an own convoying fleet shows intent: the armies swap', () => {
    const o = run({ england: ['A nwy - swe', 'F ska C A nwy - swe'], russia: ['A swe - nwy'] });
    expect(board(o)).toEqual(['A nwy', 'F ska', 'A swe']);
  });

  it('6.G.2 a foreign fleet cannot kidnap an army', () => {
    const o = run({ england: ['A nwy - swe'], russia: ['F swe - nwy'], germany: ['F ska C A nwy - swe'] });
    expect(o.ok('nwy') || o.ok('swe')).toBe(false);
    expect(resultAt(o, 'ska').reason).toEqual({ kind: 'void' });
  });

  it('6.G.3 / 6.G.4 an unwanted, disrupted convoy does not stop the land move', () => {
    const o = run({
      france: ['F bre - eng', 'A pic - bel', 'A bur S A pic - bel', 'F mao S F bre - eng'],
      england: ['F eng C A pic - bel', 'A bel - pic'],
    });
    expect(o.ok('pic')).toBe(true);
    expect(dislodgedLocs(o)).toEqual(['bel', 'eng']);
  });

  it('6.G.5 one own fleet among several is enough intent', () => {
    const o = run({ italy: ['A rom - apu', 'F tys C A apu - rom'], turkey: ['A apu - rom', 'F ion C A apu - rom'] });
    expect(board(o)).toEqual(['A apu', 'F ion', 'A rom', 'F tys']);
  });

  it('6.G.6 intent holds even when the own fleet is not on the route used', () => {
    const o = run({
      england: ['A lvp - edi', 'F eng C A lvp - edi'],
      germany: ['A edi - lvp'],
      france: ['F iri H', 'F nth H'],
      russia: ['F nwg C A lvp - edi', 'F nao C A lvp - edi'],
    });
    expect(o.ok('lvp')).toBe(true);
    expect(o.ok('edi')).toBe(true);
  });

  it('6.G.7 an impossible convoy order shows no intent', () => {
    const o = run({
      england: ['F ska C A swe - nwy', 'F nwy - swe'],
      russia: ['A swe - nwy', 'F bot C A swe - nwy'],
    });
    expect(resultAt(o, 'bot').reason).toEqual({ kind: 'illegal', why: 'not-adjacent' });
    expect(o.ok('swe') || o.ok('nwy')).toBe(false);
  });

  it('6.G.8 "via convoy" with no convoy does not fall back to the land route', () => {
    const o = run({ france: ['A bel - hol via'], england: ['F nth - hel', 'A hol - kie'] });
    expect(o.ok('bel')).toBe(false);
    expect(resultAt(o, 'bel').reason).toEqual({ kind: 'no-convoy-route' });
  });

  it('6.G.9 swapped, not dislodged', () => {
    const o = run({
      england: ['A nwy - swe', 'F ska C A nwy - swe', 'F fin S A nwy - swe'],
      russia: ['A swe - nwy'],
    });
    expect(o.dislodged).toEqual([]);
    expect(board(o)).toContain('A nwy');
  });

  it('6.G.10 a unit dislodged by a convoyed attacker can still bounce a third unit', () => {
    const o = run({
      england: ['A nwy - swe via', 'F den S A nwy - swe', 'F fin S A nwy - swe'],
      germany: ['F ska C A nwy - swe'],
      russia: ['A swe - nwy', 'F bar S A swe - nwy'],
      france: ['F nwg - nwy', 'F nth S F nwg - nwy'],
    });
    expect(o.ok('nwy')).toBe(true);
    expect(o.ok('nwg')).toBe(false);
    expect(dislodgedLocs(o)).toEqual(['swe']);
  });

  it('6.G.11 a convoy to an adjacent province with a paradox: no land fallback', () => {
    const o = run({
      england: ['F nwy S F nth - ska', 'F nth - ska'],
      russia: ['A swe - nwy', 'F ska C A swe - nwy', 'F bar S A swe - nwy'],
    });
    expect(dislodgedLocs(o)).toEqual(['ska']);
    expect(o.ok('swe')).toBe(false);
  });

  it('6.G.12 two armies swap with two convoys', () => {
    const o = run({
      england: ['A lvp - edi via', 'F nao C A lvp - edi', 'F nwg C A lvp - edi'],
      germany: ['A edi - lvp via', 'F nth C A edi - lvp', 'F eng C A edi - lvp', 'F iri C A edi - lvp'],
    });
    expect(o.ok('lvp')).toBe(true);
    expect(o.ok('edi')).toBe(true);
  });

  it('6.G.13 a convoyed attack does not cut the support against itself', () => {
    const o = run({
      austria: ['F adr C A tri - ven', 'A tri - ven via'],
      italy: ['A ven S F alb - tri', 'F alb - tri'],
    });
    expect(o.ok('ven')).toBe(true);
    expect(dislodgedLocs(o)).toEqual(['tri']);
  });

  it('6.G.14 / 6.G.15 bounce by convoy to an adjacent province', () => {
    const o = run({
      england: ['A nwy - swe', 'F den S A nwy - swe', 'F fin S A nwy - swe'],
      france: ['F nwg - nwy', 'F nth S F nwg - nwy'],
      germany: ['F ska C A swe - nwy'],
      russia: ['A swe - nwy via', 'F bar S A swe - nwy'],
    });
    expect(o.ok('nwy')).toBe(true);
    expect(o.ok('nwg')).toBe(false);
    const double = run({
      england: ['F nth C A lon - bel', 'A hol S A lon - bel', 'A yor - lon', 'A lon - bel via'],
      france: ['F eng C A bel - lon', 'A bel - lon via'],
    });
    expect(double.ok('lon')).toBe(true);
    expect(double.ok('yor')).toBe(false);
    expect(dislodgedLocs(double)).toEqual(['bel']);
  });

  it('6.G.16 / 6.G.17 / 6.G.18 two units never end in one province', () => {
    const a = run({
      england: ['A nwy - swe', 'A den S A nwy - swe', 'F bal S A nwy - swe', 'F nth - nwy'],
      russia: ['A swe - nwy via', 'F ska C A swe - nwy', 'F nwg S A swe - nwy'],
    });
    expect(['nwy', 'swe'].map(a.ok)).toEqual([true, true]);
    expect(a.ok('nth')).toBe(false);
    const c = run({
      england: ['F nth C A lon - bel', 'A hol S A lon - bel', 'A yor - lon', 'A lon - bel', 'A ruh S A lon - bel'],
      france: ['F eng C A bel - lon', 'A bel - lon', 'A wal S A bel - lon'],
    });
    expect(['lon', 'bel', 'yor'].map(c.ok)).toEqual([true, true, false]);
    for (const o of [a, c]) expect(new Set(o.units.map((u) => u.loc.split('/')[0])).size).toBe(o.units.length);
  });

  it('6.G.19 an unnecessary convoy order is illegal and shows no intent', () => {
    const o = run({
      france: ['A mar - spa', 'F wes C A mar - spa'],
      italy: ['F lyo C A mar - spa', 'A spa - mar'],
    });
    expect(resultAt(o, 'wes').reason).toEqual({ kind: 'illegal', why: 'not-adjacent' });
    expect(o.ok('mar') || o.ok('spa')).toBe(false);
  });

  it('6.G.20 an explicit convoy to an adjacent province that is disrupted fails', () => {
    const o = run({
      france: ['F bre - eng', 'A pic - bel via', 'A bur S A pic - bel', 'F mao S F bre - eng'],
      england: ['F eng C A pic - bel'],
    });
    expect(o.ok('pic')).toBe(false);
    expect(resultAt(o, 'pic').reason).toEqual({ kind: 'convoy-disrupted', by: 'bre' });
  });
});

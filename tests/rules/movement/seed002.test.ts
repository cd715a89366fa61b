// The diagrams of seed 002 (the 2000s Avalon Hill rulebook in Spanish) that decide a rule choice,
// in the rulebook's own orders. Abbreviations translated: MNe = bla, MIr = iri, MTi = tys, MJo = ion.
import { describe, expect, it } from 'vitest';
import { board, dislodgedLocs, resultAt, run } from './helpers';

describe('seed 002 diagrams', () => {
  it('12: a dislodged unit still stands off another unit elsewhere', () => {
    const o = run({
      austria: ['A boh - mun', 'A tyr S A boh - mun'],
      germany: ['A mun - sil', 'A ber S A mun - sil'],
      russia: ['A war - sil', 'A pru S A war - sil'],
    });
    expect(dislodgedLocs(o)).toEqual(['mun']);
    expect(o.ok('war')).toBe(false);
    expect(o.contested).toEqual(['sil']);
  });

  it('13 / 14: a unit dislodged from the other side has no effect there', () => {
    const o13 = run({ turkey: ['A bul - rum'], russia: ['A rum - bul', 'A ser S A rum - bul', 'A sev - rum'] });
    expect(board(o13)).toEqual(['A bul', 'A rum', 'A ser']);
    const o14 = run({
      turkey: ['A bul - rum', 'F bla S A bul - rum'],
      russia: ['A rum - bul', 'A gre S A rum - bul', 'A ser S A rum - bul', 'A sev - rum'],
    });
    expect(o14.ok('sev')).toBe(true);
    expect(dislodgedLocs(o14)).toEqual(['bul']);
    // Without Sevastopol's move Rumania is left empty, but by no standoff (p. 18 on retreats).
    const noSev = run({
      turkey: ['A bul - rum', 'F bla S A bul - rum'],
      russia: ['A rum - bul', 'A gre S A rum - bul', 'A ser S A rum - bul'],
    });
    expect(noSev.contested).toEqual([]);
    expect(noSev.dislodged[0]!.retreats).not.toContain('rum');
  });

  it('18: a dislodged unit still cuts support', () => {
    const o = run({
      germany: ['A ber H', 'A mun - sil'],
      russia: ['A pru - ber', 'A sil S A pru - ber', 'A boh - mun', 'A tyr S A boh - mun'],
    });
    expect(dislodgedLocs(o)).toEqual(['mun']);
    expect(resultAt(o, 'sil').reason).toEqual({ kind: 'cut', by: 'mun' });
    expect(o.ok('pru')).toBe(false);
  });

  it('22 / 23 / 24 / 25: no power dislodges its own unit, nor helps to', () => {
    expect(run({ france: ['A par - bur', 'A mar S A par - bur', 'A bur H'] }).dislodged).toEqual([]);
    const d23 = run({ france: ['A par - bur', 'A bur - mar'], germany: ['A ruh S A par - bur'], italy: ['A mar - bur'] });
    expect(d23.dislodged).toEqual([]);
    expect(d23.ok('par')).toBe(false);
    const d24 = run({ germany: ['A ruh - bur', 'A mun H'], france: ['A par S A ruh - bur', 'A bur H'] });
    expect(d24.dislodged).toEqual([]);
    const d24b = run({ germany: ['A ruh - bur', 'A mun S A ruh - bur'], france: ['A par S A ruh - bur', 'A bur H'] });
    expect(dislodgedLocs(d24b)).toEqual(['bur']);
    const d25 = run({
      germany: ['A mun - tyr', 'A ruh - mun', 'A sil - mun'],
      austria: ['A tyr - mun', 'A boh S A sil - mun'],
    });
    expect(d25.results.filter((r) => r.order.kind === 'move').every((r) => !r.success)).toBe(true);
  });

  it('26: a self-dislodging attack still blocks a foreign one', () => {
    const o = run({
      england: ['F den - kie', 'F nth - den', 'F hel S F nth - den'],
      russia: ['A ber - kie', 'F ska - den', 'F bal S F ska - den'],
    });
    expect(['den', 'nth', 'ber', 'ska'].map(o.ok)).toEqual([false, false, false, false]);
    expect(o.dislodged).toEqual([]);
  });

  it('27: an unforeseen support breaks a self standoff', () => {
    const o = run({ austria: ['A ser - bud', 'A vie - bud'], russia: ['A gal S A ser - bud'] });
    expect(o.ok('ser')).toBe(true);
  });

  it('28 / 29: swap by convoy; a convoy with two routes survives one dislodged fleet', () => {
    const o28 = run({ england: ['A lon - bel', 'F nth C A lon - bel'], france: ['A bel - lon', 'F eng C A bel - lon'] });
    expect(o28.results.every((r) => r.success)).toBe(true);
    const o29 = run({
      england: ['A lon - bel', 'F eng C A lon - bel', 'F nth C A lon - bel'],
      france: ['F bre - eng', 'F iri S F bre - eng'],
    });
    expect(o29.ok('lon')).toBe(true);
    expect(dislodgedLocs(o29)).toEqual(['eng']);
  });

  it('30: a convoyed army does not cut the support that dislodges its convoy', () => {
    const o = run({ france: ['A tun - nap', 'F tys C A tun - nap'], italy: ['F ion - tys', 'F nap S F ion - tys'] });
    expect(dislodgedLocs(o)).toEqual(['tys']);
    expect(o.ok('nap')).toBe(true);
    expect(o.ok('tun')).toBe(false);
  });

  it('31 / 32: with one route still open, the landing army cuts the support', () => {
    const o31 = run({
      france: ['A tun - nap', 'F tys C A tun - nap', 'F ion C A tun - nap'],
      italy: ['F rom - tys', 'F nap S F rom - tys'],
    });
    expect(resultAt(o31, 'nap').reason).toEqual({ kind: 'cut', by: 'tun' });
    expect(o31.ok('rom')).toBe(false);
    expect(o31.dislodged).toEqual([]);
    const o32 = run({
      france: ['A tun - nap', 'F tys C A tun - nap', 'F ion C A tun - nap', 'A apu S A tun - nap'],
      italy: ['F rom - tys', 'F nap S F rom - tys'],
    });
    expect(dislodgedLocs(o32)).toEqual(['nap']);
    expect(o32.ok('tun')).toBe(true);
  });
});

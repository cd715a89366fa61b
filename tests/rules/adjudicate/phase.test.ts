// The phase sequence: which phase follows which, when retreats and Winter are skipped, the
// centre update after Fall, elimination and victory.
import { describe, expect, it } from 'vitest';
import { adjudicate, eliminatedPowers, nextPhase, winner, type Phase, type Position } from '../../../src/rules';
import { centres, listUnits, position, retreat, units } from './helpers';
import { hold, mv, sup } from './orders';

const spring = (year = 1901): Phase => ({ year, season: 'spring', kind: 'movement' });
const fall = (year = 1901): Phase => ({ year, season: 'fall', kind: 'movement' });

describe('nextPhase', () => {
  it('walks the full calendar', () => {
    const seen: string[] = [];
    let phase: Phase = spring();
    for (let i = 0; i < 6; i++) {
      seen.push(`${phase.season} ${phase.kind} ${phase.year}`);
      phase = nextPhase(phase);
    }
    expect(seen).toEqual([
      'spring movement 1901',
      'spring retreat 1901',
      'fall movement 1901',
      'fall retreat 1901',
      'winter adjustment 1901',
      'spring movement 1902',
    ]);
  });
});

describe('after a movement phase', () => {
  // France attacks Burgundy with support; the German army there can retreat.
  const attack = (phase: Phase): Position =>
    position(phase, units({ france: 'A par, A mar', germany: 'A bur, A mun' }), centres({ france: 'par mar bre', germany: 'ber kie mun' }));
  const orders = [mv('france', 'A par', 'bur'), sup('france', 'A mar', 'A par', 'bur'), hold('germany', 'A bur'), hold('germany', 'A mun')];

  it('goes to a retreat phase of the same season when a unit is dislodged', () => {
    const adj = adjudicate(attack(spring()), orders);
    expect(adj.dislodged.map((d) => d.unit.loc)).toEqual(['bur']);
    expect(adj.next.phase).toEqual({ year: 1901, season: 'spring', kind: 'retreat' });
    expect(adj.next.dislodged).toEqual(adj.dislodged);
    expect(listUnits(adj.next.units)).toEqual(['A bur', 'A mar', 'A mun']);
    const after = adjudicate(adj.next, [retreat('germany', 'A bur', 'pic')]);
    expect(after.next.phase).toEqual(fall());
    expect(listUnits(after.next.units)).toEqual(['A bur', 'A mar', 'A mun', 'A pic']);
  });

  it('destroys the dislodged unit and skips retreats under the 1914 rule', () => {
    const adj = adjudicate(attack(spring()), orders, { rules: { destroyDislodged: true } });
    expect(adj.dislodged.map((d) => d.unit.loc)).toEqual(['bur']);
    expect(adj.next.phase).toEqual(fall());
    expect(adj.next.dislodged).toEqual([]);
    expect(listUnits(adj.next.units, 'germany')).toEqual(['A mun']);
  });

  it('skips the retreat phase when no dislodged unit has anywhere to go', () => {
    // The army in Rumania is surrounded: Budapest, Galicia, Ukraine, Sevastopol, Serbia occupied; Bulgaria is the attacker's.
    const pos = position(spring(), units({ turkey: 'A bul, F bla', russia: 'A rum', austria: 'A bud, A gal, A ser', germany: 'A ukr, A sev' }), centres({}));
    const adj = adjudicate(pos, [mv('turkey', 'A bul', 'rum'), sup('turkey', 'F bla', 'A bul', 'rum')]);
    expect(adj.dislodged).toEqual([{ unit: { type: 'A', power: 'russia', loc: 'rum' }, attackerFrom: 'bul', retreats: [] }]);
    expect(adj.next.phase).toEqual(fall());
    expect(adj.next.units.some((u) => u.power === 'russia')).toBe(false);
  });

  it('updates centres after Fall only, keeps empty centres with their owner, and goes to Winter', () => {
    const pos = (phase: Phase): Position =>
      position(phase, units({ france: 'A bur, F mao', germany: 'A ruh' }), centres({ france: 'par mar bre', germany: 'ber kie mun bel' }));
    const orders2 = [mv('france', 'A bur', 'bel'), sup('france', 'F mao', 'A bur', 'bel')];
    // Spring: France walks into Belgium (held by nobody, owned by Germany); ownership does not change.
    const s = adjudicate(pos(spring()), orders2);
    expect(s.next.centres.bel).toBe('germany');
    // Fall: the same move takes Belgium; Munich, empty, stays German.
    const f = adjudicate(pos(fall()), orders2);
    expect(f.next.centres).toEqual({ bel: 'france', ber: 'germany', bre: 'france', kie: 'germany', mar: 'france', mun: 'germany', par: 'france' });
    expect(Object.keys(f.next.centres)).toEqual(Object.keys(f.next.centres).sort());
    expect(f.next.phase).toEqual({ year: 1901, season: 'winter', kind: 'adjustment' });
  });

  it('skips Winter when no power can build or must remove', () => {
    // Germany has 4 centres and 2 units, but its only owned home centres are occupied.
    const pos = position(fall(1903), units({ germany: 'A ber, A kie' }), centres({ germany: 'ber kie den hol', russia: 'mun' }));
    const adj = adjudicate(pos, [hold('germany', 'A ber'), hold('germany', 'A kie')]);
    expect(adj.next.phase).toEqual(spring(1904));
    expect(adj.next.centres).toEqual(pos.centres);
  });

  it('does not skip Winter when a removal is due', () => {
    const pos = position(fall(1903), units({ germany: 'A ber, A kie, A sil' }), centres({ germany: 'ber kie', russia: 'mun' }));
    const adj = adjudicate(pos, []);
    expect(adj.next.phase).toEqual({ year: 1903, season: 'winter', kind: 'adjustment' });
    const winter = adjudicate(adj.next, []);
    expect(winter.next.phase).toEqual(spring(1904));
    expect(winter.next.units).toHaveLength(2);
  });
});

describe('elimination and victory', () => {
  it('a power with neither units nor centres is out; one with either is not', () => {
    const pos = position(spring(1905), units({ austria: 'A vie', italy: 'A tun' }), centres({ austria: 'vie', turkey: 'con' }));
    expect(eliminatedPowers(pos)).toEqual(['england', 'france', 'germany', 'russia']);
  });

  it('needs 18 centres by default, or the variant threshold', () => {
    const ids = ['ank', 'bel', 'ber', 'bre', 'bud', 'bul', 'con', 'den', 'edi', 'gre', 'hol', 'kie', 'lon', 'lvp', 'mar', 'mos', 'mun', 'nap'];
    const eighteen = centres({ france: ids.join(' '), england: 'por spa' });
    expect(winner({ centres: eighteen })).toBe('france');
    const seventeen = centres({ france: ids.slice(1).join(' '), england: 'ank' });
    expect(winner({ centres: seventeen })).toBeUndefined();
    expect(winner({ centres: seventeen }, { victoryCentres: 17 })).toBe('france');
    // Two powers level at a low variant threshold: no outright winner.
    expect(winner({ centres: centres({ france: 'par bre', england: 'lon edi' }) }, { victoryCentres: 2 })).toBeUndefined();
  });
});

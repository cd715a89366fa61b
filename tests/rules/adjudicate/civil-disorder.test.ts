// The removal order of seed 000 XV.5 ("Eliminación de unidades de potencias en desorden civil")
// on positions built from its wording, and the 2023 variant that DATC v3.1 §6.J tests.
import { describe, expect, it } from 'vitest';
import { adjudicate, removalDistances, removalPriority, STANDARD_MAP } from '../../../src/rules';
import { WINTER_1901, centres, listUnits, position, units } from './helpers';

const removedBy = (adj: ReturnType<typeof adjudicate>): string[] =>
  adj.results.filter((r) => r.reason?.kind === 'no-order' && r.order.kind === 'remove').map((r) => (r.order.kind === 'remove' ? r.order.unit.loc : ''));

describe('home-centre distance rule (default, seed 000 XV.5)', () => {
  it('removes the unit furthest from the nearest home centre first', () => {
    // Russia keeps 2 centres for 4 units: Moscow 0, Ukraine 1, Galicia 1, Bohemia 2 steps from a home centre.
    const pos = position(WINTER_1901, units({ russia: 'A mos, A ukr, A gal, A boh' }), centres({ russia: 'mos war' }));
    const d = removalDistances(pos, 'russia', STANDARD_MAP, 'home-centres');
    expect(Object.fromEntries(d)).toEqual({ boh: 2, gal: 1, mos: 0, ukr: 1 });
    const adj = adjudicate(pos, [], { civilDisorder: ['russia'] });
    expect(removedBy(adj)).toEqual(['boh', 'gal']);
    expect(listUnits(adj.next.units)).toEqual(['A mos', 'A ukr']);
  });

  it('counts home centres the power no longer owns', () => {
    // Germany lost Berlin but it is still a home centre: Prussia is one step away.
    const pos = position(WINTER_1901, units({ germany: 'A pru, A bur' }), centres({ germany: 'mun', russia: 'ber' }));
    expect(Object.fromEntries(removalDistances(pos, 'germany', STANDARD_MAP, 'home-centres'))).toEqual({ bur: 1, pru: 1 });
    // Counting only owned centres it is Prussia-Silesia-Munich.
    expect(removalDistances(pos, 'germany', STANDARD_MAP, 'owned-centres').get('pru')).toBe(2);
  });

  it('lets armies count a route by convoy across the sea', () => {
    // Italian army in Tunis: no land route home at all; by sea Tunis-Ionian-Naples is 2.
    // English army in Norway: Norway-North Sea-Edinburgh is 2 (overland it is far longer).
    const italy = position(WINTER_1901, units({ italy: 'A tun' }), centres({ italy: 'nap' }));
    expect(removalDistances(italy, 'italy', STANDARD_MAP, 'home-centres').get('tun')).toBe(2);
    const england = position(WINTER_1901, units({ england: 'A nwy' }), centres({ england: 'lon' }));
    expect(removalDistances(england, 'england', STANDARD_MAP, 'home-centres').get('nwy')).toBe(2);
  });

  it('counts fleets by fleet moves, from either coast of a home centre', () => {
    // Gulf of Bothnia touches St Petersburg's south coast; the Barents Sea its north coast.
    // A fleet in the Baltic goes Livonia (or Bothnia) then St Petersburg: 2.
    const pos = position(WINTER_1901, units({ russia: 'F bot, F bar, F bal, F nth' }), centres({ russia: 'mos' }));
    expect(Object.fromEntries(removalDistances(pos, 'russia', STANDARD_MAP, 'home-centres'))).toEqual({
      bal: 2,
      bar: 1,
      bot: 1,
      nth: 2,
    });
    // A fleet cannot cut across land: a fleet in Ukraine's neighbour, the Aegean, must sail to Sevastopol.
    const aegean = position(WINTER_1901, units({ russia: 'F aeg' }), centres({ russia: 'mos' }));
    expect(removalDistances(aegean, 'russia', STANDARD_MAP, 'home-centres').get('aeg')).toBe(3);
  });

  it('removes a fleet before an army at equal distance', () => {
    // Both one step from a Russian home centre; the army's name comes first, the fleet still goes.
    const pos = position(WINTER_1901, units({ russia: 'A arm, F bot, A mos' }), centres({ russia: 'mos' }));
    expect(removedBy(adjudicate(pos, []))).toEqual(['bot', 'arm']);
  });

  it('breaks ties by the Spanish full province name, as the rulebooks say (España before Gascuña; in English Gascony would go first)', () => {
    const pos = position(WINTER_1901, units({ france: 'A gas, A spa' }), centres({ france: 'par' }));
    expect(removedBy(adjudicate(pos, []))).toEqual(['spa']);
    expect(removalPriority(pos, 'france', STANDARD_MAP, 'home-centres').map((u) => u.loc)).toEqual(['spa', 'gas']);
  });

  it('applies to removals a power owes but did not order, not only to civil disorder', () => {
    const pos = position(WINTER_1901, units({ austria: 'A vie, A ser, A gre' }), centres({ austria: 'vie' }));
    const adj = adjudicate(pos, [{ kind: 'remove', power: 'austria', unit: { type: 'A', loc: 'vie' } }]);
    // One ordered (Vienna), one chosen: Greece (2 steps, via Serbia or Albania) before Serbia (1).
    expect(removedBy(adj)).toEqual(['gre']);
    expect(listUnits(adj.next.units)).toEqual(['A ser']);
  });
});

describe('owned-centre distance rule (2023 rulebook, DATC v3.1 §6.J)', () => {
  const opts = { removalRule: 'owned-centres' as const };

  it('counts distance to owned centres, not home centres', () => {
    // Italy owns only Warsaw: the army in Warsaw stays, the one in Tuscany goes (cf. 6.J.11).
    const pos = position(WINTER_1901, units({ italy: 'A war, A tus' }), centres({ italy: 'war' }));
    expect(removedBy(adjudicate(pos, [], opts))).toEqual(['tus']);
    // Under the default rule Tuscany is next to Rome, and Warsaw goes.
    expect(removedBy(adjudicate(pos, []))).toEqual(['war']);
  });

  it('counts every adjacency for fleets as well as armies', () => {
    // Russia owns Munich only: Gulf of Bothnia and North Sea are both 3 away; Bothnia first by name.
    const pos = position(WINTER_1901, units({ russia: 'F bot, F nth' }), centres({ russia: 'mun' }));
    expect(Object.fromEntries(removalDistances(pos, 'russia', STANDARD_MAP, 'owned-centres'))).toEqual({ bot: 3, nth: 3 });
    expect(removedBy(adjudicate(pos, [], opts))).toEqual(['bot']);
  });

  it('keeps units standing on supply centres while others can go', () => {
    // Belgium is 3 from Moscow, Ukraine 1; but Belgium is a centre, so Ukraine goes.
    const pos = position(WINTER_1901, units({ russia: 'A bel, A ukr' }), centres({ russia: 'mos' }));
    expect(removedBy(adjudicate(pos, [], opts))).toEqual(['ukr']);
    expect(removedBy(adjudicate(pos, []))).toEqual(['bel']);
  });
});

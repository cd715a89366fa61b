// Civil disorder as seed 000 XV.4-5 words it, one clause per test (the distance rule itself is
// also covered in tests/rules/adjudicate/civil-disorder.test.ts).
import { describe, expect, it } from 'vitest';
import { adjudicate, type Adjudication } from '../../../src/rules';
import { centres, FALL_RETREAT_1901, listUnits, position, retreat, units, WINTER_1901 } from '../adjudicate/helpers';
import { mv, sup } from '../adjudicate/orders';

const removed = (adj: Adjudication): string[] =>
  adj.results.filter((r) => r.order.kind === 'remove' && r.success).map((r) => ('unit' in r.order ? `${r.order.unit.type} ${r.order.unit.loc}` : ''));

describe('seed 000 XV.5: "Eliminación de unidades de potencias en desorden civil"', () => {
  it('"deberá ser eliminada en primer lugar la unidad más alejada de sus regiones iniciales"', () => {
    // Austria owns Vienna and Budapest, and has three armies: Galicia and Serbia 1 step from a home
    // centre, Ukraine 2 (by Galicia or Rumania). Ukraine goes although its name is last.
    const pos = position(WINTER_1901, units({ austria: 'A gal, A ser, A ukr' }), centres({ austria: 'vie bud' }));
    const adj = adjudicate(pos, [], { civilDisorder: ['austria'] });
    expect(removed(adj)).toEqual(['A ukr']);
  });

  it('"calculado por la ruta más corta, incluyendo un posible transporte marítimo": an army in Brest is 2 from London by sea, Munich 4', () => {
    // Overland Brest never reaches the British Isles; counting the convoy it is the nearer one.
    const pos = position(WINTER_1901, units({ england: 'A bre, A mun' }), centres({ england: 'lon' }));
    const adj = adjudicate(pos, [], { civilDisorder: ['england'] });
    expect(removed(adj)).toEqual(['A mun']);
    expect(listUnits(adj.next.units)).toEqual(['A bre']);
  });

  it('"escogiendo una flota antes que un ejército": at equal distance the fleet goes', () => {
    // Both two steps from a French home centre: the army in Belgium (by Picardy or Burgundy) and the
    // fleet in the Irish Sea (by the Channel or the Mid-Atlantic). By name Bélgica would go first.
    const pos = position(WINTER_1901, units({ france: 'A bel, F iri, A par' }), centres({ france: 'par mar' }));
    const adj = adjudicate(pos, [], { civilDisorder: ['france'] });
    expect(removed(adj)).toEqual(['F iri']);
  });

  it('"las unidades que ocupen regiones cuyos nombres completos figuren en primer lugar en una clasificación alfabética"', () => {
    // Armenia, Bulgaria and Siria are each one step from a Turkish home centre: two go, Armenia and Bulgaria.
    const pos = position(WINTER_1901, units({ turkey: 'A syr, A bul, A arm' }), centres({ turkey: 'con' }));
    const adj = adjudicate(pos, [], { civilDisorder: ['turkey'] });
    expect(removed(adj)).toEqual(['A arm', 'A bul']);
    expect(listUnits(adj.next.units)).toEqual(['A syr']);
  });

  it('applies distance, then fleet before army, then name, across several removals at once', () => {
    // Russia keeps one centre for five units. The fleets in the Norwegian Sea (by the Barents Sea) and
    // the Baltic (by Bothnia or Livonia) are 2 from St Petersburg, the armies in Silesia (Warsaw) and
    // Ukraine 1, Moscow 0: the fleets go first, Mar Báltico before Mar de Noruega, then Silesia
    // before Ucrania.
    const pos = position(WINTER_1901, units({ russia: 'F nwg, A sil, F bal, A ukr, A mos' }), centres({ russia: 'mos' }));
    const adj = adjudicate(pos, [], { civilDisorder: ['russia'] });
    expect(removed(adj)).toEqual(['F bal', 'F nwg', 'A sil', 'A ukr']);
    expect(listUnits(adj.next.units)).toEqual(['A mos']);
  });
});

describe('seed 000 XV.4: "Desorden civil"', () => {
  it('"No se crearán nuevas unidades para esta nación"', () => {
    const pos = position(WINTER_1901, units({ france: 'A par' }), centres({ france: 'par bre mar spa' }));
    const adj = adjudicate(pos, [{ kind: 'build', power: 'france', unit: { type: 'A', loc: 'mar' } }], { civilDisorder: ['france'] });
    expect(listUnits(adj.next.units)).toEqual(['A par']);
    expect(listUnits(adjudicate(pos, [{ kind: 'build', power: 'france', unit: { type: 'A', loc: 'mar' } }]).next.units)).toEqual(['A mar', 'A par']);
  });

  it('"Sus unidades deberán mantenerse en sus posiciones pero sin apoyarse unas a otras"', () => {
    const pos = position({ year: 1901, season: 'spring', kind: 'movement' }, units({ germany: 'A mun, A ber', france: 'A bur, A ruh' }), centres({}));
    const orders = [sup('germany', 'A ber', 'A mun'), mv('germany', 'A mun', 'boh'), mv('france', 'A bur', 'mun'), sup('france', 'A ruh', 'A bur', 'mun')];
    const adj = adjudicate(pos, orders, { civilDisorder: ['germany'] });
    expect(listUnits(adj.next.units, 'france')).toEqual(['A mun', 'A ruh']);
    expect(listUnits(adj.next.units, 'germany')).toEqual(['A ber']);
  });

  it('"Si son obligadas a retirarse deberán ser eliminadas del juego": a retreat order of a power in disorder is void', () => {
    const pos = position(FALL_RETREAT_1901, units({ france: 'A mun' }), centres({}), [
      { unit: { type: 'A', power: 'germany', loc: 'mun' }, attackerFrom: 'bur', retreats: ['boh', 'tyr'] },
    ]);
    const adj = adjudicate(pos, [retreat('germany', 'A mun', 'boh')], { civilDisorder: ['germany'] });
    expect(listUnits(adj.next.units, 'germany')).toEqual([]);
    expect(listUnits(adjudicate(pos, [retreat('germany', 'A mun', 'boh')]).next.units, 'germany')).toEqual(['A boh']);
  });
});

// Winter adjustments in the manner of DATC 6.I (builds) and 6.J.1-2 (removals), on our own positions.
import { describe, expect, it } from 'vitest';
import { adjudicate, adjustmentsNeeded, type Order } from '../../../src/rules';
import { WINTER_1901, build, centres, listUnits, position, remove, units, waive } from './helpers';

const illegal = (why: string) => ({ kind: 'illegal', why });

describe('builds', () => {
  // Germany: 5 centres, 2 units on non-home ground: 3 builds, home centres free.
  const germany = position(WINTER_1901, units({ germany: 'F den, A hol' }), centres({ germany: 'ber kie mun den hol' }));

  it('builds in free owned home centres and advances to next Spring', () => {
    const adj = adjudicate(germany, [build('germany', 'A ber'), build('germany', 'F kie'), build('germany', 'A mun')]);
    expect(adj.results.map((r) => r.success)).toEqual([true, true, true]);
    expect(listUnits(adj.next.units)).toEqual(['A ber', 'F den', 'A hol', 'F kie', 'A mun']);
    expect(adj.next.phase).toEqual({ year: 1902, season: 'spring', kind: 'movement' });
    expect(adj.next.centres).toEqual(germany.centres);
  });

  it('uses the first valid builds when too many are ordered (cf. 6.I.1)', () => {
    const one = position(WINTER_1901, units({ germany: 'F den, A hol, A ruh, A pru' }), centres({ germany: 'ber kie mun den hol' }));
    const adj = adjudicate(one, [build('germany', 'A war'), build('germany', 'A kie'), build('germany', 'A mun')]);
    expect(adj.results.map((r) => [r.success, r.reason])).toEqual([
      [false, illegal('not-home-centre')],
      [true, undefined],
      [false, illegal('no-build-allowed')],
    ]);
    expect(listUnits(adj.next.units, 'germany')).toEqual(['F den', 'A hol', 'A kie', 'A pru', 'A ruh']);
  });

  it('a waive uses up a build', () => {
    const one = position(WINTER_1901, units({ germany: 'F den, A hol, A ruh, A pru' }), centres({ germany: 'ber kie mun den hol' }));
    const adj = adjudicate(one, [waive('germany'), build('germany', 'A ber'), waive('germany')]);
    expect(adj.results.map((r) => [r.success, r.reason])).toEqual([
      [true, undefined],
      [false, illegal('no-build-allowed')],
      [false, illegal('no-build-allowed')],
    ]);
    expect(adj.next.units).toEqual(one.units);
  });

  it('refuses fleets inland, occupied centres, lost home centres and foreign centres (cf. 6.I.2-6.I.6)', () => {
    const pos = position(WINTER_1901, units({ russia: 'A war, F bot', germany: 'A sil' }), centres({ russia: 'mos sev war swe nwy rum', germany: 'stp' }));
    const orders: Order[] = [
      build('russia', 'F mos'),
      build('russia', 'A war'),
      build('russia', 'F stp/nc'),
      build('russia', 'A swe'),
      build('russia', 'A rum'),
    ];
    const adj = adjudicate(pos, orders);
    expect(adj.results.map((r) => r.reason)).toEqual([
      illegal('inland-fleet'),
      illegal('centre-occupied'),
      illegal('centre-not-owned'),
      illegal('not-home-centre'),
      illegal('not-home-centre'),
    ]);
    expect(adj.next.units).toEqual(pos.units);
  });

  it('treats a centre as occupied whatever coast the unit is on (cf. 6.I.4)', () => {
    const pos = position(WINTER_1901, units({ russia: 'F stp/sc' }), centres({ russia: 'stp mos' }));
    const adj = adjudicate(pos, [build('russia', 'A stp'), build('russia', 'F stp/nc'), build('russia', 'A mos')]);
    expect(adj.results.map((r) => r.success)).toEqual([false, false, true]);
    expect(adj.results[1]?.reason).toEqual(illegal('centre-occupied'));
  });

  it('builds once per province (cf. 6.I.7)', () => {
    const pos = position(WINTER_1901, units({ russia: 'F sev' }), centres({ russia: 'mos sev stp war' }));
    const adj = adjudicate(pos, [build('russia', 'A mos'), build('russia', 'F mos'), build('russia', 'A mos'), build('russia', 'A war')]);
    expect(adj.results.map((r) => r.reason)).toEqual([undefined, illegal('duplicate-order'), illegal('duplicate-order'), undefined]);
    expect(listUnits(adj.next.units)).toEqual(['A mos', 'F sev', 'A war']);
  });

  it('needs a coast for a fleet in St Petersburg and ignores it for an army', () => {
    const pos = position(WINTER_1901, [], centres({ russia: 'mos sev stp war' }));
    const first = adjudicate(pos, [build('russia', 'F stp')]);
    expect(first.results[0]?.reason).toEqual(illegal('coast-required'));
    const second = adjudicate(pos, [build('russia', 'F stp/nc'), build('russia', 'A sev/nc')]);
    expect(second.results.map((r) => r.success)).toEqual([true, true]);
    expect(listUnits(second.next.units)).toEqual(['A sev', 'F stp/nc']);
  });

  it('rejects removals from a power that may build and builds from one that may not', () => {
    const pos = position(WINTER_1901, units({ france: 'A bur', italy: 'A ven, A rom, A tun' }), centres({ france: 'par bre', italy: 'rom ven nap' }));
    const adj = adjudicate(pos, [remove('france', 'A bur'), build('italy', 'F nap'), waive('italy')]);
    expect(adj.results.map((r) => r.reason)).toEqual([illegal('no-removal-needed'), illegal('no-build-allowed'), illegal('no-build-allowed')]);
    expect(adj.next.units).toEqual(pos.units);
  });

  it('waives the builds of a power in civil disorder', () => {
    const pos = position(WINTER_1901, [], centres({ austria: 'bud tri vie' }));
    const adj = adjudicate(pos, [build('austria', 'A vie')], { civilDisorder: ['austria'] });
    expect(adj.results).toEqual([{ order: build('austria', 'A vie'), success: false, reason: { kind: 'void' } }]);
    expect(adj.next.units).toEqual([]);
  });

  it('rejects movement orders in the adjustment phase', () => {
    const pos = position(WINTER_1901, units({ austria: 'A ser' }), centres({ austria: 'bud tri vie ser' }));
    const hold: Order = { kind: 'hold', power: 'austria', unit: { type: 'A', loc: 'ser' } };
    const adj = adjudicate(pos, [hold]);
    expect(adj.results).toEqual([{ order: hold, success: false, reason: illegal('wrong-phase') }]);
  });
});

describe('removals', () => {
  // France: 1 centre (Paris), 3 units.
  const france = position(
    WINTER_1901,
    units({ france: 'A par, A pic, F lyo', england: 'F bre', italy: 'A mar' }),
    centres({ france: 'par', england: 'bre', italy: 'mar' }),
  );

  it('takes the first valid removals (cf. 6.J.1)', () => {
    const adj = adjudicate(france, [remove('france', 'F gol'), remove('france', 'A pic'), remove('france', 'F lyo'), remove('france', 'A par')]);
    expect(adj.results.map((r) => [r.success, r.reason])).toEqual([
      [false, illegal('no-such-unit')],
      [true, undefined],
      [true, undefined],
      [false, illegal('no-removal-needed')],
    ]);
    expect(listUnits(adj.next.units, 'france')).toEqual(['A par']);
  });

  it('removes a unit once, and chooses the rest by the distance rule (cf. 6.J.2)', () => {
    const adj = adjudicate(france, [remove('france', 'A par'), remove('france', 'A par')]);
    expect(adj.results).toEqual([
      { order: remove('france', 'A par'), success: true },
      { order: remove('france', 'A par'), success: false, reason: illegal('duplicate-order') },
      // Lyon and Picardy are both one step from a French home centre: the fleet goes first.
      { order: remove('france', 'F lyo'), success: true, reason: { kind: 'no-order' } },
    ]);
    expect(listUnits(adj.next.units, 'france')).toEqual(['A pic']);
  });

  it('removes by the distance rule when no order is given, and accepts disband for remove', () => {
    const none = adjudicate(france, []);
    expect(none.results.map((r) => [r.order.kind === 'remove' && r.order.unit.loc, r.reason])).toEqual([
      ['lyo', { kind: 'no-order' }],
      ['pic', { kind: 'no-order' }],
    ]);
    const disbanding = adjudicate(france, [{ kind: 'disband', power: 'france', unit: { type: 'A', loc: 'par' } }, remove('france', 'A pic')]);
    expect(listUnits(disbanding.next.units, 'france')).toEqual(['F lyo']);
  });

  it('does not check the unit type of a removal', () => {
    const adj = adjudicate(france, [remove('france', 'F pic'), remove('france', 'A lyo')]);
    expect(adj.results.map((r) => r.success)).toEqual([true, true]);
    expect(listUnits(adj.next.units, 'france')).toEqual(['A par']);
  });

  it('ignores the orders of a power in civil disorder', () => {
    const adj = adjudicate(france, [remove('france', 'A par')], { civilDisorder: ['france'] });
    expect(adj.results.map((r) => [r.order.kind === 'remove' && r.order.unit.loc, r.success, r.reason])).toEqual([
      ['par', false, { kind: 'void' }],
      ['lyo', true, { kind: 'no-order' }],
      ['pic', true, { kind: 'no-order' }],
    ]);
  });

  it('removes every unit of a power with no centres left', () => {
    const pos = position(WINTER_1901, units({ turkey: 'A arm, F bla' }), centres({ russia: 'ank con smy' }));
    const adj = adjudicate(pos, []);
    expect(adj.results.map((r) => r.order.kind === 'remove' && r.order.unit.loc)).toEqual(['bla', 'arm']);
    expect(adj.next.units).toEqual([]);
  });

  it('leaves no result for a power with nothing to do and orders results by power', () => {
    const pos = position(WINTER_1901, units({ austria: 'A ser, A gal', turkey: 'A bul' }), centres({ austria: 'ser', turkey: 'bul ank con smy' }));
    const adj = adjudicate(pos, [build('turkey', 'A con'), remove('austria', 'A gal')]);
    expect(adj.results.map((r) => r.order.power)).toEqual(['austria', 'turkey']);
    expect(listUnits(adj.next.units)).toEqual(['A bul', 'A con', 'A ser']);
  });
});

describe('adjustmentsNeeded', () => {
  it('counts builds capped by free owned home centres, and removals', () => {
    const pos = position(
      WINTER_1901,
      units({ germany: 'A ber, A hol', russia: 'A mos, A sev, A stp, A war, A gal', england: 'F nth' }),
      centres({ germany: 'ber kie mun hol den bel', russia: 'mos sev stp war', england: 'lon edi lvp' }),
    );
    expect(adjustmentsNeeded(pos)).toEqual({ austria: 0, england: 2, france: 0, germany: 2, italy: 0, russia: -1, turkey: 0 });
  });
});

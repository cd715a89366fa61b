// Retreat-phase situations in the manner of DATC 6.H, on positions of our own.
import { describe, expect, it } from 'vitest';
import { adjudicate, type Order } from '../../../src/rules';
import { FALL_RETREAT_1901, SPRING_RETREAT_1901, centres, disband, dislodged, listUnits, position, retreat, units } from './helpers';

const HOME = centres({
  austria: 'bud tri vie',
  england: 'edi lon lvp',
  france: 'bre mar par',
  germany: 'ber kie mun',
  italy: 'nap rom ven',
  russia: 'mos sev stp war',
  turkey: 'ank con smy',
});

describe('retreat phase', () => {
  it('moves a unit to a legal retreat and advances Spring retreats to Fall movement', () => {
    const pos = position(SPRING_RETREAT_1901, units({ germany: 'A bur', france: 'A mar' }), HOME, [dislodged('france', 'A gas', 'bur', ['bre', 'spa'])]);
    const adj = adjudicate(pos, [retreat('france', 'A gas', 'spa')]);
    expect(adj.results).toEqual([{ order: retreat('france', 'A gas', 'spa'), success: true }]);
    expect(listUnits(adj.next.units)).toEqual(['A bur', 'A mar', 'A spa']);
    expect(adj.next.phase).toEqual({ year: 1901, season: 'fall', kind: 'movement' });
    expect(adj.next.dislodged).toEqual([]);
    // A Spring retreat into a centre does not take it.
    expect(adj.next.centres.spa).toBeUndefined();
  });

  it('disbands every unit retreating to the same province', () => {
    const pos = position(SPRING_RETREAT_1901, units({ austria: 'A vie', germany: 'A boh' }), HOME, [
      dislodged('italy', 'A tri', 'vie', ['alb', 'tyr', 'ven']),
      dislodged('italy', 'A mun', 'boh', ['kie', 'ruh', 'tyr']),
      dislodged('germany', 'A pie', 'mar', ['tus', 'tyr', 'ven']),
    ]);
    const orders = [retreat('italy', 'A tri', 'tyr'), retreat('italy', 'A mun', 'tyr'), retreat('germany', 'A pie', 'tyr')];
    const adj = adjudicate(pos, orders);
    expect(adj.results.map((r) => [r.order.kind === 'retreat' && r.order.unit.loc, r.success, r.reason])).toEqual([
      ['mun', false, { kind: 'bounced', with: ['pie', 'tri'] }],
      ['pie', false, { kind: 'bounced', with: ['mun', 'tri'] }],
      ['tri', false, { kind: 'bounced', with: ['mun', 'pie'] }],
    ]);
    expect(listUnits(adj.next.units)).toEqual(['A boh', 'A vie']);
  });

  it('lets a second unit retreat where a bounced pair did not land only if alone', () => {
    const pos = position(SPRING_RETREAT_1901, [], HOME, [
      dislodged('italy', 'A tri', 'vie', ['alb', 'tyr']),
      dislodged('italy', 'A mun', 'boh', ['tyr', 'ruh']),
    ]);
    const adj = adjudicate(pos, [retreat('italy', 'A tri', 'alb'), retreat('italy', 'A mun', 'tyr')]);
    expect(adj.results.every((r) => r.success)).toBe(true);
    expect(listUnits(adj.next.units)).toEqual(['A alb', 'A tyr']);
  });

  it('disbands a unit ordered to a place that is not among its retreats', () => {
    // Like 6.H.5/6.H.6: the attacker's province and contested provinces were left out of
    // `retreats` by the movement phase, so a retreat there is illegal.
    const pos = position(SPRING_RETREAT_1901, units({ russia: 'F ank' }), HOME, [dislodged('turkey', 'F ank', 'bla', ['arm', 'con'])]);
    const adj = adjudicate(pos, [retreat('turkey', 'F ank', 'bla')]);
    expect(adj.results).toEqual([{ order: retreat('turkey', 'F ank', 'bla'), success: false, reason: { kind: 'illegal', why: 'retreat-not-allowed' } }]);
    expect(listUnits(adj.next.units)).toEqual(['F ank']);
  });

  it('an illegal retreat does not bounce a legal one to the same place (cf. 6.H.10)', () => {
    const pos = position(SPRING_RETREAT_1901, units({ germany: 'A kie' }), HOME, [
      dislodged('england', 'A kie', 'ber', ['den', 'hol', 'ruh']),
      dislodged('germany', 'A pru', 'war', ['ber', 'lvn']),
    ]);
    const adj = adjudicate(pos, [retreat('england', 'A kie', 'ber'), retreat('germany', 'A pru', 'ber')]);
    expect(adj.results.map((r) => r.success)).toEqual([false, true]);
    expect(adj.results[0]?.reason).toEqual({ kind: 'illegal', why: 'retreat-not-allowed' });
    expect(listUnits(adj.next.units)).toEqual(['A ber', 'A kie']);
  });

  it('disbands a dislodged unit without an order, and one ordered to disband', () => {
    const pos = position(SPRING_RETREAT_1901, [], HOME, [
      dislodged('france', 'A bur', 'mun', ['gas', 'par']),
      dislodged('france', 'F bre', 'eng', ['gas', 'pic']),
    ]);
    const adj = adjudicate(pos, [disband('france', 'F bre')]);
    expect(adj.results).toEqual([
      { order: disband('france', 'F bre'), success: true },
      { order: disband('france', 'A bur'), success: true, reason: { kind: 'no-order' } },
    ]);
    expect(adj.next.units).toEqual([]);
  });

  it('rejects supports, convoys and orders to units that were not dislodged (cf. 6.H.1-6.H.4)', () => {
    const pos = position(SPRING_RETREAT_1901, units({ england: 'F nth, A yor' }), HOME, [dislodged('england', 'A hol', 'ruh', ['bel'])]);
    const orders: Order[] = [
      { kind: 'convoy', power: 'england', unit: { type: 'F', loc: 'nth' }, army: 'hol', to: 'yor' },
      retreat('england', 'F nth', 'nwg'),
      retreat('england', 'A lon', 'wal'),
      retreat('england', 'A hol', 'yor'),
    ];
    const adj = adjudicate(pos, orders);
    expect(adj.results.map((r) => r.reason)).toEqual([
      { kind: 'illegal', why: 'retreat-not-allowed' },
      { kind: 'illegal', why: 'wrong-phase' },
      { kind: 'illegal', why: 'not-dislodged' },
      { kind: 'illegal', why: 'no-such-unit' },
    ]);
    expect(listUnits(adj.next.units)).toEqual(['F nth', 'A yor']);
  });

  it('counts the first of two orders for one unit', () => {
    const pos = position(SPRING_RETREAT_1901, [], HOME, [dislodged('austria', 'A ser', 'bul', ['alb', 'bud'])]);
    const adj = adjudicate(pos, [retreat('austria', 'A ser', 'alb'), retreat('austria', 'A ser', 'bud')]);
    expect(adj.results.map((r) => [r.success, r.reason])).toEqual([
      [true, undefined],
      [false, { kind: 'illegal', why: 'duplicate-order' }],
    ]);
    expect(listUnits(adj.next.units)).toEqual(['A alb']);
  });

  it('an order given by another power for the unit is not its order', () => {
    const pos = position(SPRING_RETREAT_1901, [], HOME, [dislodged('austria', 'A ser', 'bul', ['alb'])]);
    const adj = adjudicate(pos, [retreat('turkey', 'A ser', 'alb')]);
    expect(adj.results).toEqual([
      { order: disband('austria', 'A ser'), success: true, reason: { kind: 'no-order' } },
      { order: retreat('turkey', 'A ser', 'alb'), success: false, reason: { kind: 'illegal', why: 'no-such-unit' } },
    ]);
  });

  describe('coasts', () => {
    it('takes the only open coast when the order names none', () => {
      const pos = position(SPRING_RETREAT_1901, [], HOME, [dislodged('france', 'F por', 'mao', ['spa/nc'])]);
      const adj = adjudicate(pos, [retreat('france', 'F por', 'spa')]);
      expect(adj.results[0]?.success).toBe(true);
      expect(listUnits(adj.next.units)).toEqual(['F spa/nc']);
    });

    it('needs a coast when both are open, and refuses a coast that is not open (cf. 6.H.15)', () => {
      const pos = position(SPRING_RETREAT_1901, [], HOME, [
        dislodged('france', 'F mao', 'nao', ['spa/nc', 'spa/sc']),
        dislodged('england', 'F por', 'spa', ['mao']),
      ]);
      const adj = adjudicate(pos, [retreat('france', 'F mao', 'spa'), retreat('england', 'F por', 'spa/nc')]);
      expect(adj.results.map((r) => r.reason)).toEqual([
        { kind: 'illegal', why: 'coast-required' },
        { kind: 'illegal', why: 'retreat-not-allowed' },
      ]);
      expect(adj.next.units).toEqual([]);
    });

    it('bounces retreats to the two coasts of one province', () => {
      const pos = position(SPRING_RETREAT_1901, [], HOME, [dislodged('russia', 'F bot', 'swe', ['stp/sc']), dislodged('russia', 'F bar', 'nwg', ['stp/nc'])]);
      const adj = adjudicate(pos, [retreat('russia', 'F bot', 'stp/sc'), retreat('russia', 'F bar', 'stp/nc')]);
      expect(adj.results.map((r) => r.reason)).toEqual([
        { kind: 'bounced', with: ['bot'] },
        { kind: 'bounced', with: ['bar'] },
      ]);
    });

    it('ignores a coast in an army retreat', () => {
      const pos = position(SPRING_RETREAT_1901, [], HOME, [dislodged('france', 'A gas', 'bur', ['spa'])]);
      const adj = adjudicate(pos, [retreat('france', 'A gas', 'spa/sc')]);
      expect(listUnits(adj.next.units)).toEqual(['A spa']);
    });
  });

  it('reads a move order as a retreat, but never one via convoy', () => {
    const pos = position(SPRING_RETREAT_1901, [], HOME, [dislodged('england', 'A hol', 'ruh', ['bel']), dislodged('england', 'A pic', 'par', ['bel', 'bre'])]);
    const adj = adjudicate(pos, [
      { kind: 'move', power: 'england', unit: { type: 'A', loc: 'hol' }, to: 'bel', viaConvoy: true },
      { kind: 'move', power: 'england', unit: { type: 'A', loc: 'pic' }, to: 'bre' },
    ]);
    expect(adj.results.map((r) => r.success)).toEqual([false, true]);
    expect(listUnits(adj.next.units)).toEqual(['A bre']);
  });

  it('disbands the units of a power in civil disorder', () => {
    const pos = position(SPRING_RETREAT_1901, [], HOME, [dislodged('italy', 'A ven', 'tri', ['pie', 'tus'])]);
    const adj = adjudicate(pos, [retreat('italy', 'A ven', 'pie')], { civilDisorder: ['italy'] });
    expect(adj.results[0]).toEqual({ order: disband('italy', 'A ven'), success: true, reason: { kind: 'no-order' } });
    expect(adj.next.units).toEqual([]);
  });

  describe('after a Fall retreat', () => {
    it('a unit that retreated into a centre takes it, and Winter follows when someone must adjust', () => {
      const pos = position(
        FALL_RETREAT_1901,
        units({ austria: 'A ser, A vie, A tri', turkey: 'A bul' }),
        centres({ austria: 'bud tri vie', turkey: 'ank con smy' }),
        [dislodged('russia', 'A rum', 'bul', ['bud', 'sev'])],
      );
      const adj = adjudicate(pos, [retreat('russia', 'A rum', 'bud')]);
      expect(adj.next.phase).toEqual({ year: 1901, season: 'winter', kind: 'adjustment' });
      expect(adj.next.centres).toEqual({
        ank: 'turkey',
        bud: 'russia',
        bul: 'turkey',
        con: 'turkey',
        ser: 'austria',
        smy: 'turkey',
        tri: 'austria',
        vie: 'austria',
      });
      expect(Object.keys(adj.next.centres)).toEqual(Object.keys(adj.next.centres).sort());
    });

    it('goes straight to next Spring when nobody has anything to adjust', () => {
      const pos = position(FALL_RETREAT_1901, units({ austria: 'A vie, A tri', turkey: 'A bul' }), centres({ austria: 'vie tri', turkey: 'bul' }), [
        dislodged('austria', 'A ser', 'bul', ['alb', 'bud']),
      ]);
      // Austria keeps 2 units on 2 centres once the Serbian army is gone; Turkey 1 on 1.
      const adj = adjudicate(pos, [disband('austria', 'A ser')]);
      expect(adj.next.phase).toEqual({ year: 1902, season: 'spring', kind: 'movement' });
      expect(listUnits(adj.next.units)).toEqual(['A bul', 'A tri', 'A vie']);
    });
  });
});

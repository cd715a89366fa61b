import { describe, expect, it } from 'vitest';
import { run } from './helpers';

const retreatsOf = (o: ReturnType<typeof run>, loc: string) => {
  const d = o.dislodged.find((x) => x.unit.loc === loc);
  if (!d) throw new Error(`${loc} not dislodged`);
  return d.retreats;
};

describe('dislodged units and where they may retreat (DATC 6.H, movement side)', () => {
  it('6.H.5 not to the province the attack came from', () => {
    const o = run({ russia: ['F con S F bla - ank', 'F bla - ank'], turkey: ['F ank H'] });
    expect(o.dislodged[0]!.attackerFrom).toBe('bla');
    expect(retreatsOf(o, 'ank')).toEqual(['arm']);
  });

  it('6.H.6 not to a contested province', () => {
    const o = run({
      austria: ['A bud S A tri - vie', 'A tri - vie'],
      germany: ['A mun - boh', 'A sil - boh'],
      italy: ['A vie H'],
    });
    expect(o.contested).toEqual(['boh']);
    expect(retreatsOf(o, 'vie')).toEqual(['gal', 'tyr']);
  });

  it("6.H.9 a dislodged unit does not make the attacker's province contested", () => {
    const o = run({
      england: ['F hel - kie', 'F den S F hel - kie'],
      germany: ['A ber - pru', 'F kie H', 'A sil S A ber - pru'],
      russia: ['A pru - ber'],
    });
    expect(o.contested).toEqual([]);
    expect(retreatsOf(o, 'kie')).toContain('ber');
  });

  it("6.H.10 the attacker's origin is closed only to the unit it dislodged", () => {
    const o = run({
      england: ['A kie H'],
      germany: ['A ber - kie', 'A mun S A ber - kie', 'A pru H'],
      russia: ['A war - pru', 'A sil S A war - pru'],
    });
    expect(retreatsOf(o, 'kie')).not.toContain('ber');
    expect(retreatsOf(o, 'pru')).toContain('ber');
    expect(o.contested).toEqual([]);
  });

  it("6.H.11 a unit dislodged by an adjacent convoy may retreat to the attacker's origin", () => {
    const o = run({
      france: ['A gas - mar via', 'A bur S A gas - mar', 'F mao C A gas - mar', 'F wes C A gas - mar', 'F lyo C A gas - mar'],
      italy: ['A mar H'],
    });
    expect(o.dislodged[0]!.attackerFrom).toBe('gas');
    expect(retreatsOf(o, 'mar')).toContain('gas');
  });

  it('6.H.12 ... even when it was itself trying to go there by convoy', () => {
    const o = run({
      england: ['A lvp - edi via', 'F iri C A lvp - edi', 'F eng C A lvp - edi', 'F nth C A lvp - edi'],
      france: ['F bre - eng', 'F mao S F bre - eng'],
      russia: ['A edi - lvp via', 'F nwg C A edi - lvp', 'F nao C A edi - lvp', 'A cly S A edi - lvp'],
    });
    expect(retreatsOf(o, 'lvp')).toContain('edi');
  });

  it('6.H.13 / 6.H.14 retreats are plain adjacency, whatever was ordered', () => {
    const o = run({ england: ['A pic H', 'F eng C A pic - lon'], france: ['A par - pic', 'A bre S A par - pic'] });
    expect(retreatsOf(o, 'pic')).toEqual(['bel', 'bur']);
  });

  it('6.H.15 no coastal crawl in retreat', () => {
    const o = run({ england: ['F por H'], france: ['F spa/sc - por', 'F mao S F spa/sc - por'] });
    expect(retreatsOf(o, 'por')).toEqual([]);
  });

  it('6.H.16 a contested province is closed on both coasts', () => {
    const o = run({
      france: ['F mao - spa/nc', 'F gas - spa/nc', 'F wes H'],
      italy: ['F tun S F tys - wes', 'F tys - wes'],
    });
    expect(o.contested).toEqual(['spa']);
    expect(retreatsOf(o, 'wes')).toEqual(['lyo', 'naf']);
  });

  it('an army does not retreat to sea, and nobody retreats to Switzerland', () => {
    const o = run({ germany: ['A mun H'], france: ['A bur - mun', 'A ruh S A bur - mun'] });
    expect(retreatsOf(o, 'mun')).toEqual(['ber', 'boh', 'kie', 'sil', 'tyr']);
  });

  it('a bounce with a unit that stays put is not a standoff that closes a province', () => {
    const o = run({ germany: ['A mun - bur'], france: ['A bur H'] });
    expect(o.contested).toEqual([]);
  });
});

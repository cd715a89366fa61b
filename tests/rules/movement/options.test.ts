import { describe, expect, it } from 'vitest';
import { dislodgedLocs, resultAt, run } from './helpers';

describe('civil disorder', () => {
  it('units of a power in civil disorder hold, whatever was ordered, and give no support', () => {
    const setup = { germany: ['A mun - bur', 'A ruh S A mun - bur'], france: ['A bur H'] };
    expect(run(setup).ok('mun')).toBe(true);
    const o = run(setup, { civilDisorder: ['germany'] });
    expect(resultAt(o, 'mun')).toEqual({
      order: { kind: 'hold', power: 'germany', unit: { type: 'A', loc: 'mun' } },
      success: true,
      reason: { kind: 'no-order' },
    });
    expect(o.units.map((u) => u.loc)).toEqual(['bur', 'mun', 'ruh']);
    expect(o.results).toHaveLength(3);
  });

  it('they do not support each other to hold', () => {
    const setup = { germany: ['A mun H', 'A ber S A mun'], france: ['A bur - mun', 'A ruh S A bur - mun'] };
    expect(run(setup).dislodged).toEqual([]);
    expect(dislodgedLocs(run(setup, { civilDisorder: ['germany'] }))).toEqual(['mun']);
  });

  it('others may still support them to hold (DATC 4.D.9)', () => {
    const o = run({ germany: ['A mun'], austria: ['A tyr S A mun'], france: ['A bur - mun', 'A ruh S A bur - mun'] }, { civilDisorder: ['germany'] });
    expect(o.dislodged).toEqual([]);
    expect(o.ok('tyr')).toBe(true);
  });
});

describe('1914 rule: a foreign support needs the consent of the supported power', () => {
  const setup = {
    austria: ['A tri H'],
    italy: ['A ven S A tri'],
    turkey: ['A ser - tri', 'A alb S A ser - tri'],
  };

  it('without consent the foreign support does not count', () => {
    expect(run(setup).dislodged).toEqual([]);
    const o = run(setup, { rules: { supportNeedsConsent: true } });
    expect(dislodgedLocs(o)).toEqual(['tri']);
    expect(resultAt(o, 'ven').reason).toEqual({ kind: 'support-not-matched' });
  });

  it('with the supported power writing the same support, it counts', () => {
    const o = run({ ...setup, austria: ['A tri H', 'A ven S A tri'] }, { rules: { supportNeedsConsent: true } });
    expect(o.dislodged).toEqual([]);
    expect(o.ok('ven')).toBe(true);
    const consent = o.results.find((r) => r.order.power === 'austria' && r.order.kind === 'support');
    expect(consent).toMatchObject({ success: true });
  });

  it('supports between units of one power need no consent', () => {
    const o = run({ austria: ['A tri H', 'A vie S A tri'], turkey: ['A ser - tri', 'A alb S A ser - tri'] }, { rules: { supportNeedsConsent: true } });
    expect(o.dislodged).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Order } from '../../../src/rules';
import { parsed } from './helpers';

const power = 'france' as const;
const A = (loc: string) => ({ type: 'A' as const, loc });
const F = (loc: string) => ({ type: 'F' as const, loc });

describe('parseOrder: canonical short form', () => {
  const cases: Array<[string, Order, ('movement' | 'retreat' | 'adjustment')?]> = [
    ['A par - bur', { kind: 'move', power, unit: A('par'), to: 'bur' }],
    ['A par H', { kind: 'hold', power, unit: A('par') }],
    ['F nth C A lon - bel', { kind: 'convoy', power, unit: F('nth'), army: 'lon', to: 'bel' }],
    ['A mun S A ber - kie', { kind: 'support', power, unit: A('mun'), supported: A('ber'), to: 'kie' }],
    ['A mun S A ber', { kind: 'support', power, unit: A('mun'), supported: A('ber') }],
    ['F stp/sc - bot', { kind: 'move', power, unit: F('stp/sc'), to: 'bot' }],
    ['A lon - bel via convoy', { kind: 'move', power, unit: A('lon'), to: 'bel', viaConvoy: true }],
    ['A par R bur', { kind: 'retreat', power, unit: A('par'), to: 'bur' }, 'retreat'],
    ['A par D', { kind: 'disband', power, unit: A('par') }, 'retreat'],
    ['Build F stp/nc', { kind: 'build', power, unit: F('stp/nc') }, 'adjustment'],
    ['Build A par', { kind: 'build', power, unit: A('par') }, 'adjustment'],
    ['Remove A mun', { kind: 'remove', power, unit: A('mun') }, 'adjustment'],
    ['Waive', { kind: 'waive', power }, 'adjustment'],
  ];
  it.each(cases)('%s', (text, order, phase = 'movement') => {
    expect(parsed(text, { phase, lang: 'en' })).toStrictEqual(order);
    // Canonical text needs no language unless an abbreviation clashes.
    expect(parsed(text, { phase })).toStrictEqual(order);
  });
});

describe('parseOrder: English notations', () => {
  const cases: Array<[string, Order, ('movement' | 'retreat' | 'adjustment')?]> = [
    ['A Par - Bur', { kind: 'move', power, unit: A('par'), to: 'bur' }],
    ['A Par-Bur', { kind: 'move', power, unit: A('par'), to: 'bur' }],
    ['A Par -> Bur', { kind: 'move', power, unit: A('par'), to: 'bur' }],
    ['A Par → Bur', { kind: 'move', power, unit: A('par'), to: 'bur' }],
    ['A Par – Bur', { kind: 'move', power, unit: A('par'), to: 'bur' }],
    ['Army Paris moves to Burgundy', { kind: 'move', power, unit: A('par'), to: 'bur' }],
    ['A Par H', { kind: 'hold', power, unit: A('par') }],
    ['A Par Holds', { kind: 'hold', power, unit: A('par') }],
    ['Army in Paris holds', { kind: 'hold', power, unit: A('par') }],
    ['F NTH C A Lon - Bel', { kind: 'convoy', power, unit: F('nth'), army: 'lon', to: 'bel' }],
    ['F nth convoys A lon - bel', { kind: 'convoy', power, unit: F('nth'), army: 'lon', to: 'bel' }],
    ['Fleet in North Sea convoys army in London to Belgium', { kind: 'convoy', power, unit: F('nth'), army: 'lon', to: 'bel' }],
    ['A Mun S A Ber - Kie', { kind: 'support', power, unit: A('mun'), supported: A('ber'), to: 'kie' }],
    ['A Mun S A Ber', { kind: 'support', power, unit: A('mun'), supported: A('ber') }],
    ['A Mun S A Ber H', { kind: 'support', power, unit: A('mun'), supported: A('ber') }],
    ['A Mun supports A Ber -> Kie', { kind: 'support', power, unit: A('mun'), supported: A('ber'), to: 'kie' }],
    ['Army in Munich supports army in Berlin moving to Kiel', { kind: 'support', power, unit: A('mun'), supported: A('ber'), to: 'kie' }],
    ['F Eng S F Nth', { kind: 'support', power, unit: F('eng'), supported: F('nth') }],
    ['A Sil S Russian A War - Pru', { kind: 'support', power, unit: A('sil'), supported: A('war'), to: 'pru' }],
    ['F StP/SC - Bot', { kind: 'move', power, unit: F('stp/sc'), to: 'bot' }],
    ['F stp(sc) - bot', { kind: 'move', power, unit: F('stp/sc'), to: 'bot' }],
    ['F Spa (nc) - MAO', { kind: 'move', power, unit: F('spa/nc'), to: 'mao' }],
    ['F Mid-Atlantic Ocean - Spain (north coast)', { kind: 'move', power, unit: F('mao'), to: 'spa/nc' }],
    ['F St. Petersburg (south coast) - Gulf of Bothnia', { kind: 'move', power, unit: F('stp/sc'), to: 'bot' }],
    ['A Lon - Bel via convoy', { kind: 'move', power, unit: A('lon'), to: 'bel', viaConvoy: true }],
    ['A Lon - Bel by convoy', { kind: 'move', power, unit: A('lon'), to: 'bel', viaConvoy: true }],
    ['Build F StP/NC', { kind: 'build', power, unit: F('stp/nc') }, 'adjustment'],
    ['Build A Par', { kind: 'build', power, unit: A('par') }, 'adjustment'],
    ['B A par', { kind: 'build', power, unit: A('par') }, 'adjustment'],
    ['Build a fleet in Brest', { kind: 'build', power, unit: F('bre') }, 'adjustment'],
    ['Remove A Mun', { kind: 'remove', power, unit: A('mun') }, 'adjustment'],
    ['Disband A Mun', { kind: 'remove', power, unit: A('mun') }, 'adjustment'],
    ['Disband A Mun', { kind: 'disband', power, unit: A('mun') }, 'retreat'],
    ['A Mun D', { kind: 'remove', power, unit: A('mun') }, 'adjustment'],
    ['Waive', { kind: 'waive', power }, 'adjustment'],
    ['waive build', { kind: 'waive', power }, 'adjustment'],
    ['A Par R Bur', { kind: 'retreat', power, unit: A('par'), to: 'bur' }, 'retreat'],
    ['A Par - Bur', { kind: 'retreat', power, unit: A('par'), to: 'bur' }, 'retreat'],
    ['Army in Paris retreats to Burgundy', { kind: 'retreat', power, unit: A('par'), to: 'bur' }, 'retreat'],
    ['A Par D', { kind: 'disband', power, unit: A('par') }, 'retreat'],
    ['A Par disbands', { kind: 'disband', power, unit: A('par') }, 'retreat'],
    ['A Gal - Vie', { kind: 'move', power, unit: A('gal'), to: 'vie' }],
    ['A Berlni - Kiel', { kind: 'move', power, unit: A('ber'), to: 'kie' }],
  ];
  it.each(cases)('%s', (text, order, phase = 'movement') => {
    expect(parsed(text, { phase, lang: 'en' })).toStrictEqual(order);
  });
});

describe('parseOrder: coasts a fleet order leaves out', () => {
  it('takes the only coast a fleet can reach', () => {
    expect(parsed('F lyo - spa')).toStrictEqual({ kind: 'move', power, unit: F('lyo'), to: 'spa/sc' });
    expect(parsed('F bot - stp')).toStrictEqual({ kind: 'move', power, unit: F('bot'), to: 'stp/sc' });
    expect(parsed('F bla - bul')).toStrictEqual({ kind: 'move', power, unit: F('bla'), to: 'bul/ec' });
  });
  it('takes the coast of a split-coast fleet from where it is going', () => {
    expect(parsed('F stp - bot')).toStrictEqual({ kind: 'move', power, unit: F('stp/sc'), to: 'bot' });
    expect(parsed('F stp - bar')).toStrictEqual({ kind: 'move', power, unit: F('stp/nc'), to: 'bar' });
  });
  it('leaves an army without a coast', () => {
    expect(parsed('A mos - stp/nc')).toStrictEqual({ kind: 'move', power, unit: A('mos'), to: 'stp' });
  });
  it('keeps an unreachable split-coast destination bare for the adjudicator to judge', () => {
    expect(parsed('F nth - spa')).toStrictEqual({ kind: 'move', power, unit: F('nth'), to: 'spa' });
  });
});

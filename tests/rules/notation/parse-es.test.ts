import { describe, expect, it } from 'vitest';
import type { Order } from '../../../src/rules';
import { parsed } from './helpers';

const power = 'france' as const;
const A = (loc: string) => ({ type: 'A' as const, loc });
const F = (loc: string) => ({ type: 'F' as const, loc });

describe('parseOrder: Spanish rulebook notation (seeds 000 and 002)', () => {
  const cases: Array<[string, Order]> = [
    ['E Par-Bor', { kind: 'move', power, unit: A('par'), to: 'bur' }],
    ['E Par - Bor', { kind: 'move', power, unit: A('par'), to: 'bur' }],
    ['E París-Borgoña', { kind: 'move', power, unit: A('par'), to: 'bur' }],
    ['E Boh–Mun', { kind: 'move', power, unit: A('boh'), to: 'mun' }],
    ['E Par M', { kind: 'hold', power, unit: A('par') }],
    ['F Londres se mantiene', { kind: 'hold', power, unit: F('lon') }],
    ['F MNt T E Lon-Bel', { kind: 'convoy', power, unit: F('nth'), army: 'lon', to: 'bel' }],
    ['F MOr T E Inglés Lon–Tun', { kind: 'convoy', power, unit: F('eas'), army: 'lon', to: 'tun' }],
    ['E Bor A E Tir - Mun', { kind: 'support', power, unit: A('bur'), supported: A('tyr'), to: 'mun' }],
    ['E Sil A E rus Var - Pru', { kind: 'support', power, unit: A('sil'), supported: A('war'), to: 'pru' }],
    ['E Kie A E Austríaco Boh-Mun', { kind: 'support', power, unit: A('kie'), supported: A('boh'), to: 'mun' }],
    ['E Ruh A E francés Par–Bor', { kind: 'support', power, unit: A('ruh'), supported: A('par'), to: 'bur' }],
    ['E Mun A E Ber', { kind: 'support', power, unit: A('mun'), supported: A('ber') }],
    ['F Hel A F MNt-Din', { kind: 'support', power, unit: F('hel'), supported: F('nth'), to: 'den' }],
    ['F Con-CE Bul', { kind: 'move', power, unit: F('con'), to: 'bul/ec' }],
    ['E Lon-Bel vía transporte', { kind: 'move', power, unit: A('lon'), to: 'bel', viaConvoy: true }],
    ['E Lon-Bel via convoy', { kind: 'move', power, unit: A('lon'), to: 'bel', viaConvoy: true }],
    ['Flota en Londres mueve a Mar del Norte', { kind: 'move', power, unit: F('lon'), to: 'nth' }],
    ['Ejerecito en Viena mueve a Galicia', { kind: 'move', power, unit: A('vie'), to: 'gal' }],
    ['Ejército en Viena apoya movimiento ejército en Budapest a Galicia', { kind: 'support', power, unit: A('vie'), supported: A('bud'), to: 'gal' }],
    ['Ejército en Borgoña apoya movimiento de ejército en Tirol a Munich', { kind: 'support', power, unit: A('bur'), supported: A('tyr'), to: 'mun' }],
    ['Ejército en Viena apoya ejército en Budapest', { kind: 'support', power, unit: A('vie'), supported: A('bud') }],
    ['Flota en Mar del Norte transporta ejército en Londres a Bélgica', { kind: 'convoy', power, unit: F('nth'), army: 'lon', to: 'bel' }],
    ['Flota inglesa en North Sea transporta a ejercito turco en Holland a Norway', { kind: 'convoy', power, unit: F('nth'), army: 'hol', to: 'nwy' }],
    ['Ejército en París se mantiene', { kind: 'hold', power, unit: A('par') }],
    ['E Gal M', { kind: 'hold', power, unit: A('wal') }],
    ['E Gli M', { kind: 'hold', power, unit: A('gal') }],
  ];
  it.each(cases)('%s', (text, order) => {
    expect(parsed(text, { lang: 'es' })).toStrictEqual(order);
  });
});

describe('parseOrder: Spanish retreats and adjustments (seeds 002 and 003)', () => {
  const cases: Array<[string, Order, 'retreat' | 'adjustment']> = [
    ['E Par - Bor', { kind: 'retreat', power, unit: A('par'), to: 'bur' }, 'retreat'],
    ['Ejército en París se retira a Borgoña', { kind: 'retreat', power, unit: A('par'), to: 'bur' }, 'retreat'],
    ['Disuelvo E Par', { kind: 'disband', power, unit: A('par') }, 'retreat'],
    ['disolver ejército en París', { kind: 'disband', power, unit: A('par') }, 'retreat'],
    ['Destruyo ejército en París', { kind: 'disband', power, unit: A('par') }, 'retreat'],
    ['Ejército en París se disuelve', { kind: 'disband', power, unit: A('par') }, 'retreat'],
    ['Creo flota en San Petersburgo costa norte', { kind: 'build', power, unit: F('stp/nc') }, 'adjustment'],
    ['Creo ejército en París', { kind: 'build', power, unit: A('par') }, 'adjustment'],
    ['Creo un ejército en París', { kind: 'build', power, unit: A('par') }, 'adjustment'],
    ['Creo F CN SPT', { kind: 'build', power, unit: F('stp/nc') }, 'adjustment'],
    ['Destruyo ejército en Munich', { kind: 'remove', power, unit: A('mun') }, 'adjustment'],
    ['Destruyo flota en Kiel', { kind: 'remove', power, unit: F('kie') }, 'adjustment'],
    ['Renuncio', { kind: 'waive', power }, 'adjustment'],
    ['Renuncio a construir', { kind: 'waive', power }, 'adjustment'],
  ];
  it.each(cases)('%s (%s)', (text, order, phase) => {
    expect(parsed(text, { lang: 'es', phase })).toStrictEqual(order);
  });
});

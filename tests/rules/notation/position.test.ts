import { describe, expect, it } from 'vitest';
import { STARTING_POSITION, type Position } from '../../../src/rules';
import { errorCode, parsed } from './helpers';

const position = STARTING_POSITION;

describe('parseOrder with a position: omitted unit types', () => {
  it('fills the type of the ordered unit from the unit there (seed 002)', () => {
    expect(parsed('Par-Bor', { position, power: 'france', lang: 'es' })).toStrictEqual({
      kind: 'move',
      power: 'france',
      unit: { type: 'A', loc: 'par' },
      to: 'bur',
    });
    expect(parsed('Bre - MAO', { position })).toStrictEqual({
      kind: 'move',
      power: 'france',
      unit: { type: 'F', loc: 'bre' },
      to: 'mao',
    });
    expect(parsed('Londres se mantiene', { position, power: 'england' })).toStrictEqual({
      kind: 'hold',
      power: 'england',
      unit: { type: 'F', loc: 'lon' },
    });
  });

  it('fills supported and convoyed units too', () => {
    expect(parsed('Mun A Ber', { position, power: 'germany', lang: 'es' })).toStrictEqual({
      kind: 'support',
      power: 'germany',
      unit: { type: 'A', loc: 'mun' },
      supported: { type: 'A', loc: 'ber' },
    });
    expect(parsed('kie S ber - mun', { position, power: 'germany' })).toStrictEqual({
      kind: 'support',
      power: 'germany',
      unit: { type: 'F', loc: 'kie' },
      supported: { type: 'A', loc: 'ber' },
      to: 'mun',
    });
  });

  it('takes the coast of a fleet on a split coast from the position', () => {
    expect(parsed('F stp - bot', { position, power: 'russia' })).toStrictEqual({
      kind: 'move',
      power: 'russia',
      unit: { type: 'F', loc: 'stp/sc' },
      to: 'bot',
    });
    expect(parsed('stp H', { position, power: 'russia' })).toStrictEqual({
      kind: 'hold',
      power: 'russia',
      unit: { type: 'F', loc: 'stp/sc' },
    });
    expect(parsed('F bot S F stp', { position, power: 'russia' })).toStrictEqual({
      kind: 'support',
      power: 'russia',
      unit: { type: 'F', loc: 'bot' },
      supported: { type: 'F', loc: 'stp/sc' },
    });
  });

  it('keeps the unit type the player wrote even if the unit there differs', () => {
    expect(parsed('F par H', { position })).toStrictEqual({ kind: 'hold', power: 'france', unit: { type: 'F', loc: 'par' } });
  });

  it('rejects an omitted type where there is no unit, or no position', () => {
    expect(errorCode('Bur - Par', { position })).toBe('no-unit');
    expect(errorCode('Par - Bur')).toBe('unit-type-required');
    expect(errorCode('Mun A Ber', { lang: 'es' })).toBe('unit-type-required');
  });

  it('rejects orders for provinces that are not on the map', () => {
    expect(errorCode('Atlantis - Par', { position })).toBe('unknown-province');
    expect(errorCode('A Par - Narnia', { position })).toBe('unknown-province');
  });
});

describe('parseOrder in a retreat phase: the ordered unit is the dislodged one', () => {
  const retreat: Position = {
    ...STARTING_POSITION,
    phase: { year: 1901, season: 'spring', kind: 'retreat' },
    units: [
      { type: 'A', power: 'germany', loc: 'bur' },
      { type: 'F', power: 'england', loc: 'mao' },
    ],
    dislodged: [
      { unit: { type: 'F', power: 'france', loc: 'bur' }, attackerFrom: 'mun', retreats: ['gas'] },
      { unit: { type: 'F', power: 'france', loc: 'spa/nc' }, attackerFrom: 'mao', retreats: ['gas'] },
    ],
  };
  it('fills type and coast from the dislodged unit, not the one that took its place', () => {
    expect(parsed('bur - gas', { position: retreat, phase: 'retreat' })).toStrictEqual({
      kind: 'retreat',
      power: 'france',
      unit: { type: 'F', loc: 'bur' },
      to: 'gas',
    });
    expect(parsed('Esp D', { position: retreat, phase: 'retreat', lang: 'es' })).toStrictEqual({
      kind: 'disband',
      power: 'france',
      unit: { type: 'F', loc: 'spa/nc' },
    });
  });
});

describe('parseOrder: coasts that cannot be worked out', () => {
  it('rejects a fleet move to a split coast with two reachable coasts', () => {
    expect(errorCode('F mao - spa')).toBe('coast-required');
    expect(errorCode('F por - spa')).toBe('coast-required');
    expect(errorCode('F mao - spa/nc')).toBe('ok');
  });
  it('rejects a fleet on a split coast named without its coast and without a position', () => {
    expect(errorCode('F stp H')).toBe('coast-required');
    expect(errorCode('Build F stp', { phase: 'adjustment' })).toBe('coast-required');
    expect(errorCode('Build F stp', { phase: 'adjustment', position: STARTING_POSITION })).toBe('coast-required');
  });
  it('rejects a build without a unit type', () => {
    expect(errorCode('Build par', { phase: 'adjustment', position: STARTING_POSITION })).toBe('unit-type-required');
  });
});

describe('parseOrder in adjustments: a unit alone (seed 002 sample game)', () => {
  const winter: Position = { ...STARTING_POSITION, phase: { year: 1901, season: 'winter', kind: 'adjustment' } };
  it('is a build where no unit stands and a removal where one does', () => {
    const emptyVie: Position = { ...winter, units: winter.units.filter((u) => u.loc !== 'vie') };
    expect(parsed('E Vie', { position: emptyVie, phase: 'adjustment', power: 'austria', lang: 'es' })).toStrictEqual({
      kind: 'build',
      power: 'austria',
      unit: { type: 'A', loc: 'vie' },
    });
    expect(parsed('E Vie', { position: winter, phase: 'adjustment', power: 'austria', lang: 'es' })).toStrictEqual({
      kind: 'remove',
      power: 'austria',
      unit: { type: 'A', loc: 'vie' },
    });
    expect(parsed('Vie', { position: winter, phase: 'adjustment', power: 'austria' })).toStrictEqual({
      kind: 'remove',
      power: 'austria',
      unit: { type: 'A', loc: 'vie' },
    });
  });
  it('is a build without a position, and no order in other phases', () => {
    expect(parsed('F Edi', { phase: 'adjustment', power: 'england' })).toStrictEqual({
      kind: 'build',
      power: 'england',
      unit: { type: 'F', loc: 'edi' },
    });
    expect(errorCode('F Edi', { phase: 'movement' })).toBe('incomplete');
    expect(errorCode('F Edi', { phase: 'retreat' })).toBe('incomplete');
  });
});

describe('parseOrder: rulebook oddities kept as printed', () => {
  it("reads seed 000's 'E Var P' as a hold", () => {
    expect(parsed('E Var P', { lang: 'es', power: 'russia' })).toStrictEqual({
      kind: 'hold',
      power: 'russia',
      unit: { type: 'A', loc: 'war' },
    });
  });
});

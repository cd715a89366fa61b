// Movement orders as plain objects for the phase tests (the parser is tested elsewhere).
import type { Loc, Order, Power, ProvinceId } from '../../../src/rules';

function ref(text: string): { type: 'A' | 'F'; loc: Loc } {
  const [type, loc] = text.split(' ');
  if ((type !== 'A' && type !== 'F') || loc === undefined) throw new Error(`bad unit ${text}`);
  return { type, loc };
}

export const mv = (power: Power, unit: string, to: Loc): Order => ({ kind: 'move', power, unit: ref(unit), to });
export const hold = (power: Power, unit: string): Order => ({ kind: 'hold', power, unit: ref(unit) });
export const sup = (power: Power, unit: string, supported: string, to?: ProvinceId): Order =>
  to === undefined
    ? { kind: 'support', power, unit: ref(unit), supported: ref(supported) }
    : { kind: 'support', power, unit: ref(unit), supported: ref(supported), to };
export const conv = (power: Power, unit: string, army: ProvinceId, to: ProvinceId): Order => ({
  kind: 'convoy',
  power,
  unit: ref(unit),
  army,
  to,
});

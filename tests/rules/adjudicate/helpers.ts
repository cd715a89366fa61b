// Small builders for hand-made positions in the adjudication tests: 'A vie', 'F stp/sc'.
import type { Dislodged, Loc, Order, Phase, Position, Power, ProvinceId, Unit } from '../../../src/rules';

export function unit(power: Power, text: string): Unit {
  const [type, loc] = text.trim().split(/\s+/);
  if ((type !== 'A' && type !== 'F') || loc === undefined) throw new Error(`bad unit ${text}`);
  return { type, power, loc };
}

export function units(spec: Partial<Record<Power, string>>): Unit[] {
  const out: Unit[] = [];
  for (const [power, list] of Object.entries(spec) as [Power, string][]) {
    for (const text of list.split(',')) if (text.trim() !== '') out.push(unit(power, text));
  }
  return out.sort((a, b) => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0));
}

export function centres(spec: Partial<Record<Power, string>>): Partial<Record<ProvinceId, Power>> {
  const out: Partial<Record<ProvinceId, Power>> = {};
  for (const [power, list] of Object.entries(spec) as [Power, string][]) {
    for (const id of list.split(/[\s,]+/)) if (id !== '') out[id] = power;
  }
  return out;
}

export const WINTER_1901: Phase = { year: 1901, season: 'winter', kind: 'adjustment' };
export const SPRING_RETREAT_1901: Phase = { year: 1901, season: 'spring', kind: 'retreat' };
export const FALL_RETREAT_1901: Phase = { year: 1901, season: 'fall', kind: 'retreat' };

export function position(phase: Phase, u: Unit[], c: Partial<Record<ProvinceId, Power>>, dislodged: Dislodged[] = []): Position {
  return { phase, units: u, centres: c, dislodged };
}

export function dislodged(power: Power, text: string, attackerFrom: ProvinceId, retreats: Loc[]): Dislodged {
  return { unit: unit(power, text), attackerFrom, retreats };
}

export const retreat = (power: Power, u: string, to: Loc): Order => ({ kind: 'retreat', power, unit: ref(u), to });
export const disband = (power: Power, u: string): Order => ({ kind: 'disband', power, unit: ref(u) });
export const build = (power: Power, u: string): Order => ({ kind: 'build', power, unit: ref(u) });
export const remove = (power: Power, u: string): Order => ({ kind: 'remove', power, unit: ref(u) });
export const waive = (power: Power): Order => ({ kind: 'waive', power });

function ref(text: string): { type: 'A' | 'F'; loc: Loc } {
  const u = unit('england', text);
  return { type: u.type, loc: u.loc };
}

/** Units as 'A vie' strings of one power, sorted: compact to compare. */
export function listUnits(list: readonly Unit[], power?: Power): string[] {
  return list.filter((u) => power === undefined || u.power === power).map((u) => `${u.type} ${u.loc}`);
}

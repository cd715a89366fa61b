// The command line's JSON interface: positions and results in lower-case English ids
// ('par', 'stp/sc'), units written 'A par' / 'F stp/sc'. A stable shape others script against;
// README.md documents it. Input is checked field by field with errors that say what is wrong.
import { POWERS, STANDARD_MAP, isValidLoc, provinceOf } from '../rules';
import type { Dislodged, Order, Phase, Position, Power, Unit, UnitType } from '../rules';

export class InputError extends Error {}

export function unitText(u: { type: UnitType; loc: string }): string {
  return `${u.type} ${u.loc}`;
}

/** 'A par' -> unit ref; throws InputError naming the problem. */
export function parseUnitText(text: unknown, where: string): { type: UnitType; loc: string } {
  if (typeof text !== 'string') throw new InputError(`${where}: expected a unit like "A par" or "F stp/sc"`);
  const m = /^\s*([AF])\s+([a-z]{3}(?:\/[a-z]{2})?)\s*$/.exec(text);
  if (!m) throw new InputError(`${where}: "${text}" is not a unit like "A par" or "F stp/sc"`);
  const loc = m[2]!;
  if (!isValidLoc(STANDARD_MAP, loc)) throw new InputError(`${where}: "${loc}" is not a place on the map`);
  return { type: m[1] as UnitType, loc };
}

export function canonicalOrder(o: Order): string {
  switch (o.kind) {
    case 'hold':
      return `${unitText(o.unit)} H`;
    case 'move':
      return `${unitText(o.unit)} - ${o.to}${o.viaConvoy ? ' via convoy' : ''}`;
    case 'support':
      return `${unitText(o.unit)} S ${unitText(o.supported)}${o.to ? ` - ${o.to}` : ''}`;
    case 'convoy':
      return `${unitText(o.unit)} C A ${o.army} - ${o.to}`;
    case 'retreat':
      return `${unitText(o.unit)} R ${o.to}`;
    case 'disband':
      return `${unitText(o.unit)} D`;
    case 'build':
      return `Build ${unitText(o.unit)}`;
    case 'remove':
      return `Remove ${unitText(o.unit)}`;
    case 'waive':
      return 'Waive';
  }
}

const SEASONS = ['spring', 'fall', 'winter'] as const;
const KINDS = ['movement', 'retreat', 'adjustment'] as const;

function parsePhase(v: unknown): Phase {
  if (typeof v === 'string') {
    // "spring 1901 movement", "1901 fall retreat": three words in any order.
    const words = v.toLowerCase().split(/\s+/).filter(Boolean);
    const year = Number(words.find((w) => /^\d{4}$/.test(w)));
    const season = SEASONS.find((s) => words.includes(s));
    const kind = KINDS.find((k) => words.includes(k)) ?? (season === 'winter' ? 'adjustment' : 'movement');
    if (!year || !season) throw new InputError(`phase: "${v}" should look like "spring 1901 movement"`);
    return { year, season, kind };
  }
  if (typeof v === 'object' && v !== null) {
    const p = v as Record<string, unknown>;
    if (typeof p.year === 'number' && SEASONS.includes(p.season as never) && KINDS.includes(p.kind as never)) {
      return { year: p.year, season: p.season as Phase['season'], kind: p.kind as Phase['kind'] };
    }
  }
  throw new InputError('phase: expected {"year": 1901, "season": "spring|fall|winter", "kind": "movement|retreat|adjustment"} or "spring 1901 movement"');
}

function asPower(key: string, where: string): Power {
  if (!POWERS.includes(key as Power)) throw new InputError(`${where}: "${key}" is not a power (${POWERS.join(', ')})`);
  return key as Power;
}

function asRecord(v: unknown, where: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new InputError(`${where}: expected an object keyed by power`);
  return v as Record<string, unknown>;
}

function asArray(v: unknown, where: string): unknown[] {
  if (!Array.isArray(v)) throw new InputError(`${where}: expected a list`);
  return v;
}

const byLoc = (a: { loc: string }, b: { loc: string }) => (a.loc < b.loc ? -1 : a.loc > b.loc ? 1 : 0);

/** Reads the position part of an input document, defaulting each missing part to `base`. */
export function positionFromJson(doc: Record<string, unknown>, base: Position): Position {
  const phase = doc.phase === undefined ? base.phase : parsePhase(doc.phase);
  let units: Unit[] = [...base.units];
  if (doc.units !== undefined) {
    units = [];
    const seen = new Set<string>();
    for (const [key, list] of Object.entries(asRecord(doc.units, 'units'))) {
      const power = asPower(key, 'units');
      for (const t of asArray(list, `units.${key}`)) {
        const u = parseUnitText(t, `units.${key}`);
        const prov = provinceOf(u.loc);
        if (seen.has(prov)) throw new InputError(`units: two units in "${prov}"`);
        seen.add(prov);
        units.push({ ...u, power });
      }
    }
    units.sort(byLoc);
  }
  let centres: Partial<Record<string, Power>> = { ...base.centres };
  if (doc.centres !== undefined) {
    centres = {};
    for (const [key, list] of Object.entries(asRecord(doc.centres, 'centres'))) {
      const power = asPower(key, 'centres');
      for (const c of asArray(list, `centres.${key}`)) {
        if (typeof c !== 'string' || !STANDARD_MAP.provinces[c]?.supplyCentre) throw new InputError(`centres.${key}: "${String(c)}" is not a supply centre`);
        if (centres[c]) throw new InputError(`centres: "${c}" is owned twice`);
        centres[c] = power;
      }
    }
  }
  let dislodged: Dislodged[] = doc.units === undefined && doc.phase === undefined ? [...base.dislodged] : [];
  if (doc.dislodged !== undefined) {
    dislodged = asArray(doc.dislodged, 'dislodged').map((d, i) => {
      const r = asRecord(d, `dislodged[${i}]`);
      const u = parseUnitText(r.unit, `dislodged[${i}].unit`);
      const power = asPower(String(r.power), `dislodged[${i}].power`);
      const retreats = asArray(r.retreats ?? [], `dislodged[${i}].retreats`).map((l) => {
        if (typeof l !== 'string' || !isValidLoc(STANDARD_MAP, l)) throw new InputError(`dislodged[${i}].retreats: "${String(l)}" is not a place`);
        return l;
      });
      const attackerFrom = typeof r.attackerFrom === 'string' ? r.attackerFrom : '';
      return { unit: { ...u, power }, attackerFrom, retreats };
    });
  }
  if (phase.kind === 'retreat' && dislodged.length === 0) throw new InputError('a retreat phase needs "dislodged" units');
  return { phase, units, centres: sortKeys(centres), dislodged };
}

function sortKeys<T>(o: Partial<Record<string, T>>): Partial<Record<string, T>> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function groupByPower<T>(items: readonly T[], power: (t: T) => Power, f: (t: T) => string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of POWERS) {
    const mine = items.filter((i) => power(i) === p).map(f);
    if (mine.length) out[p] = mine;
  }
  return out;
}

export function dislodgedToJson(d: Dislodged) {
  return { unit: unitText(d.unit), power: d.unit.power, attackerFrom: d.attackerFrom, retreats: [...d.retreats] };
}

export function positionToJson(p: Position) {
  const centres: Record<string, string[]> = {};
  for (const [c, owner] of Object.entries(p.centres)) if (owner) (centres[owner] ??= []).push(c);
  for (const list of Object.values(centres)) list.sort();
  return {
    phase: p.phase,
    units: groupByPower(p.units, (u) => u.power, unitText),
    centres: Object.fromEntries(POWERS.filter((x) => centres[x]).map((x) => [x, centres[x]!])),
    dislodged: p.dislodged.map(dislodgedToJson),
  };
}

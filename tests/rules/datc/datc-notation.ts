// Reads the order and unit notation of datc.json ("ENG: F nth -> pic", "FRA: A bur Supports A pic -> bel",
// "RUS: F stp(nc) build") into the engine's Order and Unit values. Orders are built as written: an
// order naming a unit that does not exist, or a wrong coast, must reach the engine unchanged.
import type { Order, Power, Unit, UnitRef, UnitType } from '../../../src/rules';

export type DatcPhase = 'Main' | 'Retreat' | 'Build';

const POWER_CODES: Readonly<Record<string, Power>> = {
  AUS: 'austria',
  ENG: 'england',
  FRA: 'france',
  GER: 'germany',
  ITA: 'italy',
  RUS: 'russia',
  TUR: 'turkey',
};

export function powerOfCode(code: string): Power {
  const power = POWER_CODES[code];
  if (power === undefined) throw new Error(`unknown power code ${code}`);
  return power;
}

/** 'spa(nc)' -> 'spa/nc'; 'spa' -> 'spa'. */
export function locOf(text: string): string {
  const m = /^([a-z]{3})(?:\((nc|sc|ec)\))?$/.exec(text);
  if (!m) throw new Error(`bad location ${text}`);
  return m[2] === undefined ? m[1]! : `${m[1]}/${m[2]}`;
}

/** A support names a province: the engine's Order type carries no coast there (types.ts). */
function provinceOf(text: string): string {
  return locOf(text).split('/')[0]!;
}

function unitType(text: string): UnitType {
  if (text !== 'A' && text !== 'F') throw new Error(`bad unit type ${text}`);
  return text;
}

/** "ENG: F lon" -> the unit. */
export function parseUnit(text: string): Unit {
  const m = /^([A-Z]{3}): ([AF]) ([a-z]{3}(?:\([a-z]{2}\))?)$/.exec(text.trim());
  if (!m) throw new Error(`bad unit ${text}`);
  return { power: powerOfCode(m[1]!), type: unitType(m[2]!), loc: locOf(m[3]!) };
}

const LOC = '[a-z]{3}(?:\\([a-z]{2}\\))?';
const HEAD = new RegExp(`^([A-Z]{3}): ([AF]) (${LOC}) (.*)$`);
const MOVE = new RegExp(`^-> (${LOC})( via convoy)?$`, 'i');
const SUPPORT = new RegExp(`^supports ([AF]) (${LOC})(?: -> (${LOC}))?$`, 'i');
// datc.json writes convoys with or without the army's type: "convoys A yor -> yor", "convoys lon -> bel".
const CONVOY = new RegExp(`^convoys (?:([AF]) )?(${LOC}) -> (${LOC})$`, 'i');

/**
 * One order in datc.json notation. "disband" means a removal in a Build phase and a disband in a
 * Retreat phase; "->" means a retreat in a Retreat phase.
 */
export function parseOrder(text: string, phase: DatcPhase): Order {
  const head = HEAD.exec(text.trim());
  if (!head) throw new Error(`bad order ${text}`);
  const power = powerOfCode(head[1]!);
  const unit: UnitRef = { type: unitType(head[2]!), loc: locOf(head[3]!) };
  const rest = head[4]!.trim();

  if (/^holds?$/i.test(rest)) return { kind: 'hold', power, unit };
  if (/^build$/i.test(rest)) return { kind: 'build', power, unit };
  if (/^disband$/i.test(rest)) return phase === 'Build' ? { kind: 'remove', power, unit } : { kind: 'disband', power, unit };

  const move = MOVE.exec(rest);
  if (move) {
    const to = locOf(move[1]!);
    if (phase === 'Retreat') return { kind: 'retreat', power, unit, to };
    return move[2] === undefined ? { kind: 'move', power, unit, to } : { kind: 'move', power, unit, to, viaConvoy: true };
  }

  const support = SUPPORT.exec(rest);
  if (support) {
    const supported: UnitRef = { type: unitType(support[1]!), loc: locOf(support[2]!) };
    return support[3] === undefined ? { kind: 'support', power, unit, supported } : { kind: 'support', power, unit, supported, to: locOf(support[3]) };
  }

  const convoy = CONVOY.exec(rest);
  if (convoy) return { kind: 'convoy', power, unit, army: provinceOf(convoy[2]!), to: provinceOf(convoy[3]!) };

  throw new Error(`bad order ${text}`);
}

/** The unit an order names, as it would stand on the board: "ENG: F nth -> pic" -> England's fleet in nth. */
export function unitOfOrder(text: string): Unit {
  const head = HEAD.exec(text.trim());
  if (!head) throw new Error(`bad order ${text}`);
  return { power: powerOfCode(head[1]!), type: unitType(head[2]!), loc: locOf(head[3]!) };
}

export function unitKey(unit: Unit): string {
  return `${unit.power} ${unit.type} ${unit.loc}`;
}

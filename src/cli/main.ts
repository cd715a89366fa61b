// `pacto`: the rules engine for people who run games by hand or by forum.
//   pacto adjudicate [FILE|-] [--position POS.json] [--json] [--lang es|en]
//   pacto start [--json] [--lang es|en]
// FILE is either a JSON document (README "Command line") or an order sheet in the rulebooks'
// notations, e.g. "Austria: E Vie-Tri, E Bud-Gli" / "England: F Lon - NTH; A Lvp - Yor".
import { readFileSync } from 'node:fs';
import {
  POWERS,
  STARTING_POSITION,
  adjudicate,
  describeParseError,
  explainResult,
  formatLoc,
  formatOrder,
  formatUnit,
  parseOrder,
  parseOrders,
} from '../rules';
import type { Adjudication, Order, Position, Power } from '../rules';
import { InputError, canonicalOrder, dislodgedToJson, positionFromJson, positionToJson } from './json';

type Lang = 'es' | 'en';

const USAGE = `usage:
  pacto adjudicate [FILE|-] [--position POS.json] [--json] [--lang es|en]
      FILE (or standard input): a JSON document {phase, units, centres, dislodged, orders}
      or an order sheet such as "England: F Lon - NTH; A Lvp - Yor" (one power per line).
      The position defaults to Spring 1901.
  pacto start [--json] [--lang es|en]      print the starting position`;

interface Args {
  command?: string;
  file?: string;
  position?: string;
  json: boolean;
  lang: Lang;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { json: false, lang: 'en' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') args.json = true;
    else if (a === '--lang') {
      const l = argv[++i];
      if (l !== 'es' && l !== 'en') throw new InputError('--lang takes es or en');
      args.lang = l;
    } else if (a === '--position') {
      const p = argv[++i];
      if (!p) throw new InputError('--position needs a file');
      args.position = p;
    } else if (a.startsWith('--')) throw new InputError(`unknown option ${a}`);
    else if (!args.command) args.command = a;
    else if (!args.file) args.file = a;
    else throw new InputError(`unexpected argument ${a}`);
  }
  return args;
}

function readInput(file: string | undefined): string {
  return readFileSync(file === undefined || file === '-' ? 0 : file, 'utf8');
}

function parseJson(text: string, what: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new InputError(`${what}: expected a JSON object`);
    return v as Record<string, unknown>;
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${what}: not valid JSON (${(e as Error).message})`);
  }
}

/** Orders from a JSON document: {"orders": {"england": ["F lon - nth", ...]}} in either language. */
function ordersFromJson(doc: Record<string, unknown>, position: Position, lang: Lang): Order[] {
  if (doc.orders === undefined) return [];
  if (typeof doc.orders !== 'object' || doc.orders === null || Array.isArray(doc.orders)) throw new InputError('orders: expected an object keyed by power');
  const out: Order[] = [];
  const problems: string[] = [];
  for (const [key, list] of Object.entries(doc.orders as Record<string, unknown>)) {
    if (!POWERS.includes(key as Power)) throw new InputError(`orders: "${key}" is not a power (${POWERS.join(', ')})`);
    if (!Array.isArray(list)) throw new InputError(`orders.${key}: expected a list of order strings`);
    for (const text of list) {
      if (typeof text !== 'string') throw new InputError(`orders.${key}: expected order strings`);
      const r = parseOrder(text, { power: key as Power, phase: position.phase.kind, lang, position });
      if (r.ok) out.push(r.order);
      else problems.push(`orders.${key}: "${text}": ${describeParseError(r.error, lang)}`);
    }
  }
  if (problems.length) throw new InputError(problems.join('\n'));
  return out;
}

function ordersFromSheet(text: string, position: Position, lang: Lang): Order[] {
  // The rulebooks list a power's orders on one line separated by commas.
  const sheet = text.replace(/,/g, ';');
  const parsed = parseOrders(sheet, { power: POWERS[0]!, phase: position.phase.kind, lang, position });
  if (parsed.errors.length) {
    throw new InputError(parsed.errors.map((e) => `line ${e.line}: "${e.text}": ${describeParseError(e.error, lang)}`).join('\n'));
  }
  return [...parsed.orders];
}

const SEASON: Record<Lang, Record<string, string>> = {
  es: { spring: 'Primavera', fall: 'Otoño', winter: 'Invierno', movement: 'movimientos', retreat: 'retiradas', adjustment: 'ajustes' },
  en: { spring: 'Spring', fall: 'Fall', winter: 'Winter', movement: 'movement', retreat: 'retreats', adjustment: 'adjustments' },
};
const POWER_NAME: Record<Lang, Record<Power, string>> = {
  es: { austria: 'Austria', england: 'Inglaterra', france: 'Francia', germany: 'Alemania', italy: 'Italia', russia: 'Rusia', turkey: 'Turquía' },
  en: { austria: 'Austria', england: 'England', france: 'France', germany: 'Germany', italy: 'Italy', russia: 'Russia', turkey: 'Turkey' },
};

function phaseText(p: Position['phase'], lang: Lang): string {
  return `${SEASON[lang][p.season]} ${p.year} (${SEASON[lang][p.kind]})`;
}

function positionText(p: Position, lang: Lang): string[] {
  const lines = [phaseText(p.phase, lang)];
  for (const power of POWERS) {
    const units = p.units.filter((u) => u.power === power).map((u) => formatUnit(u, lang));
    const centres = Object.entries(p.centres)
      .filter(([, o]) => o === power)
      .map(([c]) => formatLoc(c, lang))
      .sort();
    if (units.length || centres.length) {
      lines.push(`  ${POWER_NAME[lang][power]}: ${units.join(', ') || '-'}  [${centres.length}: ${centres.join(' ')}]`);
    }
  }
  for (const d of p.dislodged) {
    lines.push(
      `  ${lang === 'es' ? 'desalojada' : 'dislodged'}: ${formatUnit(d.unit, lang)} -> ${d.retreats.map((l) => formatLoc(l, lang)).join(', ') || '-'}`,
    );
  }
  return lines;
}

function resultText(a: Adjudication, lang: Lang): string {
  const name = (l: string) => formatLoc(l, lang);
  const out = [phaseText(a.before.phase, lang)];
  for (const power of POWERS) {
    const mine = a.results.filter((r) => r.order.power === power);
    if (!mine.length) continue;
    out.push(POWER_NAME[lang][power]);
    for (const r of mine) out.push(`  ${formatOrder(r.order, lang).padEnd(26)} ${explainResult(r, lang, name)}`);
  }
  if (a.dislodged.length) {
    out.push(lang === 'es' ? 'Desalojadas' : 'Dislodged');
    for (const d of a.dislodged) {
      const to = d.retreats.map(name).join(', ') || (lang === 'es' ? 'ninguna retirada: se disuelve' : 'no retreat: disbanded');
      out.push(
        `  ${formatUnit(d.unit, lang)} (${POWER_NAME[lang][d.unit.power]}) ← ${name(d.attackerFrom)}; ${lang === 'es' ? 'retiradas' : 'retreats'}: ${to}`,
      );
    }
  }
  if (a.contested.length) out.push(`${lang === 'es' ? 'Regiones en disputa' : 'Contested'}: ${a.contested.map(name).join(', ')}`);
  out.push('', (lang === 'es' ? 'Siguiente: ' : 'Next: ') + positionText(a.next, lang).join('\n'));
  return out.join('\n');
}

function adjudicationJson(a: Adjudication) {
  return {
    phase: a.before.phase,
    results: a.results.map((r) => ({
      power: r.order.power,
      order: canonicalOrder(r.order),
      success: r.success,
      ...(r.reason ? { reason: r.reason } : {}),
    })),
    dislodged: a.dislodged.map(dislodgedToJson),
    contested: [...a.contested],
    next: positionToJson(a.next),
  };
}

export async function main(
  argv: readonly string[],
  out: (s: string) => void = (s) => process.stdout.write(s + '\n'),
  err: (s: string) => void = (s) => process.stderr.write(s + '\n'),
): Promise<number> {
  try {
    const args = parseArgs(argv);
    if (args.command === 'start') {
      out(args.json ? JSON.stringify(positionToJson(STARTING_POSITION), null, 2) : positionText(STARTING_POSITION, args.lang).join('\n'));
      return 0;
    }
    if (args.command !== 'adjudicate') {
      err(USAGE);
      return args.command === undefined || args.command === 'help' ? 0 : 2;
    }
    const base = args.position ? positionFromJson(parseJson(readFileSync(args.position, 'utf8'), args.position), STARTING_POSITION) : STARTING_POSITION;
    const input = readInput(args.file);
    const isJson = input.trimStart().startsWith('{');
    let position = base;
    let orders: Order[];
    if (isJson) {
      const doc = parseJson(input, args.file ?? 'input');
      position = positionFromJson(doc, base);
      orders = ordersFromJson(doc, position, args.lang);
    } else {
      orders = ordersFromSheet(input, position, args.lang);
    }
    const result = adjudicate(position, orders);
    out(args.json ? JSON.stringify(adjudicationJson(result), null, 2) : resultText(result, args.lang));
    return 0;
  } catch (e) {
    if (e instanceof InputError) {
      err(`pacto: ${e.message}`);
      return 2;
    }
    throw e;
  }
}

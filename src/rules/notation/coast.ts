// Coast designations, written before or after the province: 'stp/nc', 'Spa (sc)', 'StP/SC',
// 'San Petersburgo costa norte', 'north coast', and the rulebook's 'CE Bul' (seed 000's
// `F Con-CE Bul`: costa este de Bulgaria).
import type { Coast } from '../types';

const PHRASES: ReadonlyArray<readonly [Coast, readonly string[]]> = [
  ['nc', ['nc']],
  ['nc', ['cn']],
  ['nc', ['n', 'c']],
  ['nc', ['north', 'coast']],
  ['nc', ['northern', 'coast']],
  ['nc', ['costa', 'norte']],
  ['nc', ['costa', 'septentrional']],
  ['nc', ['costa', 'del', 'norte']],
  ['sc', ['sc']],
  ['sc', ['cs']],
  ['sc', ['s', 'c']],
  ['sc', ['south', 'coast']],
  ['sc', ['southern', 'coast']],
  ['sc', ['costa', 'sur']],
  ['sc', ['costa', 'meridional']],
  ['sc', ['costa', 'del', 'sur']],
  ['ec', ['ec']],
  ['ec', ['ce']],
  ['ec', ['e', 'c']],
  ['ec', ['east', 'coast']],
  ['ec', ['eastern', 'coast']],
  ['ec', ['costa', 'este']],
  ['ec', ['costa', 'oriental']],
  ['ec', ['costa', 'del', 'este']],
];

// Bare directions count only after a '/' or inside brackets ('Spa/N', 'stp (north)'): on their
// own, single letters such as 's' or 'e' are order words ('S' = supports, 'E' = ejército).
const BARE: ReadonlyArray<readonly [Coast, readonly string[]]> = [
  ['nc', ['n']],
  ['nc', ['north']],
  ['nc', ['norte']],
  ['sc', ['s']],
  ['sc', ['south']],
  ['sc', ['sur']],
  ['ec', ['e']],
  ['ec', ['east']],
  ['ec', ['este']],
];

export interface CoastSplit {
  /** The folded words naming the province. */
  readonly words: readonly string[];
  readonly coast?: Coast;
}

function endsWith(ws: readonly string[], tail: readonly string[]): boolean {
  if (tail.length >= ws.length) return false;
  return tail.every((t, k) => ws[ws.length - tail.length + k] === t);
}

function startsWith(ws: readonly string[], head: readonly string[]): boolean {
  if (head.length >= ws.length) return false;
  return head.every((h, k) => ws[k] === h);
}

const longestFirst = (phrases: ReadonlyArray<readonly [Coast, readonly string[]]>) => [...phrases].sort((a, b) => b[1].length - a[1].length);
/** The phrases longest first (a stable sort: equal lengths keep their order), without and with the bare ones. */
const PLAIN_BY_LENGTH = longestFirst(PHRASES);
const MARKED_BY_LENGTH = longestFirst([...PHRASES, ...BARE]);

/** Separates a coast designation from the province words. Only one designation is taken, the
 *  longest phrase first, so 'costa del norte' wins over a shorter reading. */
export function splitCoast(folded: readonly string[], marked: boolean): CoastSplit {
  const byLength = marked ? MARKED_BY_LENGTH : PLAIN_BY_LENGTH;
  for (const [coast, phrase] of byLength) {
    if (endsWith(folded, phrase)) {
      let ws = folded.slice(0, folded.length - phrase.length);
      if (ws.length > 1 && ws[ws.length - 1] === 'de') ws = ws.slice(0, -1);
      return { words: ws, coast };
    }
  }
  for (const [coast, phrase] of byLength) {
    if (startsWith(folded, phrase)) {
      let ws = folded.slice(phrase.length);
      if (ws.length > 1 && (ws[0] === 'de' || ws[0] === 'of')) ws = ws.slice(1);
      return { words: ws, coast };
    }
  }
  return { words: folded };
}

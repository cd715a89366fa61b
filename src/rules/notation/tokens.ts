// Splits order text into words and the few symbols that carry meaning: dashes and arrows
// (a move), '/' and brackets (a coast). Dots, commas and colons only separate words
// ('St. Petersburg', 'C.Ing'). Each token keeps its place in the original text so that
// province spans and error messages can quote exactly what the player typed.
import { fold } from './text';

export type TokenKind = 'word' | 'dash' | 'slash' | 'open' | 'close';

export interface Token {
  readonly kind: TokenKind;
  /** Folded, alphanumeric form of a word ('' for words in other scripts); the symbol otherwise. */
  readonly norm: string;
  readonly start: number;
  readonly end: number;
}

const TOKEN = /[\p{L}\p{N}\p{M}]+|->|=>|[-\u2010-\u2015\u2212\u2192>]|\/|\(|\)|\[|\]/gu;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const raw = m[0];
    const start = m.index ?? 0;
    const end = start + raw.length;
    if (raw === '/') tokens.push({ kind: 'slash', norm: '/', start, end });
    else if (raw === '(' || raw === '[') tokens.push({ kind: 'open', norm: '(', start, end });
    else if (raw === ')' || raw === ']') tokens.push({ kind: 'close', norm: ')', start, end });
    else if (/^[\p{L}\p{N}\p{M}]/u.test(raw)) {
      tokens.push({ kind: 'word', norm: fold(raw).replace(/[^a-z0-9]/g, ''), start, end });
    } else tokens.push({ kind: 'dash', norm: '-', start, end });
  }
  return tokens;
}

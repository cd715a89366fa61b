// Shorthands for the notation tests.
import { expect } from 'vitest';
import { parseOrder, type Order, type ParseContext, type PhaseKind, type Power } from '../../../src/rules';

export type Ctx = Partial<ParseContext>;

export function ctxOf(ctx: Ctx = {}): ParseContext {
  return { power: 'france' as Power, phase: 'movement' as PhaseKind, ...ctx };
}

/** Parses and fails the test with the parser's error if the text is rejected. */
export function parsed(text: string, ctx: Ctx = {}): Order {
  const r = parseOrder(text, ctxOf(ctx));
  if (!r.ok) expect.fail(`${JSON.stringify(text)} rejected: ${JSON.stringify(r.error)}`);
  return r.order;
}

/** The error code the parser gives, or 'ok'. */
export function errorCode(text: string, ctx: Ctx = {}): string {
  const r = parseOrder(text, ctxOf(ctx));
  return r.ok ? 'ok' : r.error.code;
}

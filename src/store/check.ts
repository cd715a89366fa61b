// Shape checks for records read back from IndexedDB: another version of the app, a browser
// extension or a broken disk may have left anything there. Each returns a problem or null.

import { yjs } from './yjs';

export type Check = (value: unknown) => string | null;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function field(value: unknown, name: string, kind: 'string' | 'number', optional = false): string | null {
  if (!isRecord(value)) return 'not an object';
  const v = value[name];
  if (v === undefined && optional) return null;
  if (kind === 'number' ? typeof v !== 'number' || !Number.isFinite(v) : typeof v !== kind) return `${name} is not a ${kind}`;
  return null;
}

function bytes(value: unknown, name: string, length?: number): string | null {
  if (!isRecord(value)) return 'not an object';
  const v = value[name];
  if (!(v instanceof Uint8Array)) return `${name} is not a Uint8Array`;
  if (length !== undefined && v.length !== length) return `${name} has ${v.length} bytes, not ${length}`;
  return null;
}

function first(...problems: (string | null)[]): string | null {
  return problems.find((p) => p !== null) ?? null;
}

export const checkGame: Check = (v) =>
  first(
    field(v, 'id', 'string'),
    field(v, 'title', 'string'),
    field(v, 'created', 'number'),
    field(v, 'myPower', 'string', true),
    field(v, 'lastPhase', 'string', true),
  );

export const checkIdentity: Check = (v) => first(bytes(v, 'signSeed', 32), bytes(v, 'boxSecret', 32), field(v, 'created', 'number'));

/** Also decodes the update, so corrupt bytes are caught before they reach a Y.Doc (callers await
 *  loadYjs() first). */
export const checkUpdate: Check = (v) => {
  const shape = first(field(v, 'gameId', 'string'), field(v, 'seq', 'number'), bytes(v, 'update'), field(v, 'merged', 'number'));
  if (shape !== null) return shape;
  // Outside the try: Yjs not loaded yet is a bug to throw, never a record to call corrupt.
  const Y = yjs();
  try {
    Y.decodeUpdate((v as { update: Uint8Array }).update);
    return null;
  } catch (e) {
    return `update bytes do not decode (${e instanceof Error ? e.message : String(e)})`;
  }
};

const checkSeal: Check = (v) =>
  first(
    bytes(v, 'key', 32),
    isRecord(v) && v.nonce !== undefined ? bytes(v, 'nonce') : null,
    field(v, 'hash', 'string'),
    field(v, 'created', 'number'),
    isRecord(v) && v.entry !== undefined ? bytes(v, 'entry') : null,
  );

export const checkDraft: Check = (v) => {
  const shape = first(field(v, 'gameId', 'string'), field(v, 'phase', 'string'), field(v, 'power', 'string'), field(v, 'updated', 'number'));
  if (shape !== null) return shape;
  const seals = (v as { seals?: unknown }).seals;
  if (!Array.isArray(seals)) return 'seals is not an array';
  for (const [i, s] of seals.entries()) {
    const p = checkSeal(s);
    if (p !== null) return `seals[${i}]: ${p}`;
  }
  return null;
};

const hex32 = (v: unknown, name: string): string | null => {
  const problem = field(v, name, 'string');
  if (problem !== null) return problem;
  return /^[0-9a-f]{32}$/.test((v as Record<string, string>)[name]!) ? null : `${name} is not a 32-digit hex id`;
};

export const checkEntry: Check = (v) => first(field(v, 'gameId', 'string'), hex32(v, 'id'), bytes(v, 'bytes'));

export const checkFailed: Check = (v) => first(field(v, 'gameId', 'string'), hex32(v, 'hash'));

export const checkOutbox: Check = (v) => {
  const shape = first(field(v, 'gameId', 'string'), field(v, 'seq', 'number'), bytes(v, 'update'));
  if (shape !== null) return shape;
  const acked = (v as { acked?: unknown }).acked;
  return Array.isArray(acked) && acked.every((r) => typeof r === 'string') ? null : 'acked is not a list of relays';
};

export const checkRelayCursor: Check = (v) => first(field(v, 'gameId', 'string'), field(v, 'relay', 'string'), field(v, 'cursor', 'string'));

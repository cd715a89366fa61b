// Bad data is reported, never repaired behind the user's back: the error names each bad record
// and carries whatever good data was read, and nothing is deleted.
import type { StoreName } from './schema';

export interface BadRecord {
  readonly store: StoreName;
  /** The record's key as IndexedDB holds it, e.g. ['game-1', 7]. */
  readonly key: unknown;
  readonly problem: string;
}

export function describeKey(key: unknown): string {
  return JSON.stringify(key) ?? String(key);
}

export class StoreDataError<T = unknown> extends Error {
  override readonly name = 'StoreDataError';
  constructor(
    readonly records: readonly BadRecord[],
    /** The good part of what was asked for, so a caller can still show it. */
    readonly partial: T,
  ) {
    super(`pacto store: ${records.length} bad record(s) left untouched: ` + records.map((r) => `${r.store} ${describeKey(r.key)}: ${r.problem}`).join('; '));
  }
}

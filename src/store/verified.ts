// Messages whose signature this device has already checked, so reopening a long game does not
// verify every signature again. A cache: the log in the Y.Doc stays the source of truth.
import { checkVerified } from './check';
import { StoreDataError } from './errors';
import { readGame } from './records';
import type { PactoDB, VerifiedRecord } from './schema';

export async function putVerified(db: PactoDB, records: readonly VerifiedRecord[]): Promise<void> {
  for (const r of records) {
    const problem = checkVerified(r);
    if (problem !== null) throw new TypeError(`putVerified: ${problem}`);
  }
  // Relaxed durability: losing the tail of a cache in a crash only costs a re-verification.
  const tx = db.transaction('verified', 'readwrite', { durability: 'relaxed' });
  await Promise.all([...records.map((r) => tx.store.put(r)), tx.done]);
}

/** A game's verified messages sorted by id. */
export async function listVerified(db: PactoDB, gameId: string): Promise<VerifiedRecord[]> {
  const tx = db.transaction('verified', 'readonly');
  const { good, bad } = await readGame('verified', tx.store.index('byGame'), gameId, checkVerified);
  await tx.done;
  if (bad.length > 0) throw new StoreDataError(bad, good);
  return good;
}

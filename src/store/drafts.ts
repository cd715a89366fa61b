// Drafts: a power's orders being written this phase and the keys of every commit it sealed.
// Kept per (game, phase, power) so a reload or crash mid-phase loses neither; the keys must
// survive until the reveal, or the sealed orders can never be opened.
import { checkDraft } from './check';
import { StoreDataError } from './errors';
import { readGame } from './records';
import type { DraftRecord, PactoDB, SealRecord } from './schema';
import { DURABLE } from './updates';

export interface DraftKey {
  readonly gameId: string;
  readonly phase: string;
  readonly power: string;
}

function keyOf(k: DraftKey): [string, string, string] {
  return [k.gameId, k.phase, k.power];
}

export async function getDraft(db: PactoDB, k: DraftKey): Promise<DraftRecord | undefined> {
  const draft = await db.get('drafts', keyOf(k));
  if (draft === undefined) return undefined;
  const problem = checkDraft(draft);
  if (problem !== null) throw new StoreDataError([{ store: 'drafts', key: keyOf(k), problem }], undefined);
  return draft;
}

/** Replaces the draft orders, keeping the seals already stored for this phase. */
export async function saveDraftOrders(db: PactoDB, k: DraftKey, orders: unknown, now: number): Promise<DraftRecord> {
  return modify(db, k, (old) => ({ ...k, orders, seals: old?.seals ?? [], updated: now }));
}

/**
 * Adds a sealing key; stored (durably) before the commit should be published. With `orders`, the
 * draft's orders are replaced in the same transaction (what saveDraftOrders would do after it):
 * sealing costs one strict write. `replaces`: the hash of a seal this one stands for from now on
 * (the same key kept ahead of its commit under another name), removed in the same write.
 */
export async function addSeal(
  db: PactoDB,
  k: DraftKey,
  seal: SealRecord,
  orders?: { readonly orders: unknown; readonly now: number },
  replaces?: string,
): Promise<DraftRecord> {
  return modify(db, k, (old) => ({
    ...k,
    orders: orders === undefined ? (old?.orders ?? null) : orders.orders,
    seals: [...(old?.seals ?? []).filter((s) => s.hash !== seal.hash && s.hash !== replaces), seal],
    updated: orders === undefined ? Math.max(old?.updated ?? 0, seal.created) : orders.now,
  }));
}

async function modify(db: PactoDB, k: DraftKey, change: (old: DraftRecord | undefined) => DraftRecord): Promise<DraftRecord> {
  const tx = db.transaction('drafts', 'readwrite', DURABLE);
  const old = await tx.store.get(keyOf(k));
  const oldProblem = old === undefined ? null : checkDraft(old);
  const next = oldProblem === null ? change(old) : undefined;
  const problem = oldProblem ?? checkDraft(next);
  if (problem !== null || next === undefined) {
    tx.abort();
    await tx.done.catch(() => undefined);
    throw new StoreDataError([{ store: 'drafts', key: keyOf(k), problem: oldProblem === null ? `new draft: ${problem}` : (problem ?? '') }], old);
  }
  await Promise.all([tx.store.put(next), tx.done]);
  return next;
}

/** Every draft of a game, sorted by phase then power. */
export async function listDrafts(db: PactoDB, gameId: string): Promise<DraftRecord[]> {
  const tx = db.transaction('drafts', 'readonly');
  const { good, bad } = await readGame('drafts', tx.store.index('byGame'), gameId, checkDraft);
  await tx.done;
  if (bad.length > 0) throw new StoreDataError(bad, good);
  return good;
}

export async function deleteDraft(db: PactoDB, k: DraftKey): Promise<void> {
  const tx = db.transaction('drafts', 'readwrite', DURABLE);
  await Promise.all([tx.store.delete(keyOf(k)), tx.done]);
}

// The device's secret keys. They never leave the device: the store hands them to the caller
// (which derives the Identity with protocol's createIdentity) and has no way to export them.
import { checkIdentity } from './check';
import { StoreDataError } from './errors';
import type { IdentityKeysRecord, PactoDB } from './schema';
import { DURABLE } from './updates';

const DEVICE = 'device';

export async function getIdentityKeys(db: PactoDB): Promise<IdentityKeysRecord | undefined> {
  const keys = await db.get('identity', DEVICE);
  if (keys === undefined) return undefined;
  const problem = checkIdentity(keys);
  if (problem !== null) throw new StoreDataError([{ store: 'identity', key: DEVICE, problem }], undefined);
  return keys;
}

/** The stored keys, or new ones made from `randomBytes` (e.g. nacl.randomBytes) on first run.
 * Checked and created in one transaction: two tabs starting together end up with one identity. */
export async function ensureIdentityKeys(db: PactoDB, randomBytes: (n: number) => Uint8Array, now: number): Promise<IdentityKeysRecord> {
  const tx = db.transaction('identity', 'readwrite', DURABLE);
  const old = await tx.store.get(DEVICE);
  if (old !== undefined) {
    await tx.done;
    const problem = checkIdentity(old);
    // Never overwrite a damaged identity: the user may still recover it; say so instead.
    if (problem !== null) throw new StoreDataError([{ store: 'identity', key: DEVICE, problem }], undefined);
    return old;
  }
  const keys: IdentityKeysRecord = { signSeed: randomBytes(32), boxSecret: randomBytes(32), created: now };
  const problem = checkIdentity(keys);
  if (problem !== null) {
    tx.abort();
    await tx.done.catch(() => undefined);
    throw new TypeError(`ensureIdentityKeys: ${problem}`);
  }
  await Promise.all([tx.store.add(keys, DEVICE), tx.done]);
  return keys;
}

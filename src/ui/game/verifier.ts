// Signature checks cost milliseconds each with tweetnacl, and a long game has thousands of
// messages: each (id, signature) pair is checked once on this device and remembered, in memory
// and in the store's 'verified' cache, so reopening a game does not check them all again.
import nacl from 'tweetnacl';
import { toHex, type Verifier } from '../../protocol';
import type { PactoStore, VerifiedRecord } from '../../store';

export interface StoredVerifier extends Verifier {
  /** Writes the pairs checked since the last flush (relaxed durability: it is only a cache). */
  flush(): Promise<void>;
}

export async function storedVerifier(store: PactoStore, gameId: string, check = (m: Uint8Array, s: Uint8Array, k: Uint8Array) => nacl.sign.detached.verify(m, s, k)): Promise<StoredVerifier> {
  const known = new Set<string>();
  try {
    for (const r of await store.listVerified(gameId)) if (typeof r.message === 'string') known.add(`${r.id}|${r.message}`);
  } catch {
    // A damaged cache only costs re-verification.
  }
  let pending: VerifiedRecord[] = [];
  return {
    verify(id, payload, signature, publicKey) {
      const sig = toHex(signature);
      const key = `${id}|${sig}`;
      if (known.has(key)) return true;
      if (!check(payload, signature, publicKey)) return false;
      known.add(key);
      pending.push({ gameId, id, message: sig });
      return true;
    },
    async flush() {
      if (pending.length === 0) return;
      const batch = pending;
      pending = [];
      await store.putVerified(batch).catch(() => undefined);
    },
  };
}

// The page's store, opened once. Its own module, apart from device.ts: the home screen lists games
// from the store alone, and this keeps the identity's cryptography (the protocol, tweetnacl) out of
// the app's first chunk.
import { openPactoStore, type PactoStore } from '../../store/open';

let store: Promise<PactoStore> | null = null;

/** The page's store, opened once: the home screen lists games from it without waiting for the
 *  identity (on a first run, making and storing the keys is two more IndexedDB round trips). */
export function pageStore(): Promise<PactoStore> {
  store ??= openPactoStore();
  return store;
}

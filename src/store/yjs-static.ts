// The service worker's src/store/yjs.ts (vite.config.ts swaps it in for that build only): the
// worker is one classic script, which may use no import() and no import.meta, and it carries
// Yjs anyway (it opens games), so it takes Yjs statically.
import * as Y from 'yjs';

type Yjs = typeof import('yjs');

export function loadYjs(): Promise<Yjs> {
  return Promise.resolve(Y);
}

export function yjs(): Yjs {
  return Y;
}

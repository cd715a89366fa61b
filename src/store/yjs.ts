// Yjs, loaded on first use: opening the store, listing games and reading settings (all the home
// screen does) need none of it, so the app's first screen does not download it. The functions
// that read or merge Y.Doc updates await loadYjs() before they open a transaction (an await inside
// one would let IndexedDB commit it early), then use yjs() synchronously.
type Yjs = typeof import('yjs');

let loaded: Yjs | undefined;
let loading: Promise<Yjs> | undefined;

export function loadYjs(): Promise<Yjs> {
  loading ??= import('yjs').then((m) => (loaded = m));
  return loading;
}

/** Yjs, once loadYjs() has resolved. */
export function yjs(): Yjs {
  if (loaded === undefined) throw new Error('store: Yjs used before loadYjs() resolved');
  return loaded;
}

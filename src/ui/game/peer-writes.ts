// When a game's peers' entries and doc updates are written (GameReplica and persistDoc
// `peerWrites`): once none came for a quarter of a second, and at most two seconds after the first
// that waits. A ballot's rounds (the last seal's burst, the LOCKs, the REVEALs) come closer than
// that, so the writes of the whole phase land after it resolves instead of slowing every phone's
// once-only reservations during it (bench/phase.ts). This phone's own entries are written at once,
// and whatever waits is written when the page is hidden or closed (writeOnHide).
// src/net/README.md "Writing peers' entries later" says why waiting is safe.

export const PEER_WRITES = { quietMs: 250, maxMs: 2000 } as const;

/** Writes what waits when the page is hidden or left; returns the unsubscribe. */
export function writeOnHide(targets: readonly { writeNow(): void }[]): () => void {
  return onPageHidden(() => {
    for (const t of targets) t.writeNow();
  });
}

/** Calls `now` whenever the page is hidden or left (visibilitychange to hidden, pagehide); returns the unsubscribe. */
export function onPageHidden(now: () => void): () => void {
  if (typeof document === 'undefined' || typeof window === 'undefined') return () => undefined;
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') now();
  };
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pagehide', now);
  return () => {
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('pagehide', now);
  };
}

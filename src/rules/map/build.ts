// Builds symmetric, sorted adjacency records from an each-edge-once source.
// Sorting keeps every iteration over the map deterministic, as the rules engine requires.

/** Expands `{ a: 'b c' }` into `{ a: ['b', 'c'], b: ['a'], c: ['a'] }`, every list sorted and
 *  without duplicates, and with an (empty) entry for every key of `nodes`. */
export function buildSymmetric(source: Readonly<Record<string, string>>, nodes: readonly string[]): Record<string, readonly string[]> {
  const sets = new Map<string, Set<string>>();
  const link = (a: string, b: string): void => {
    let set = sets.get(a);
    if (!set) sets.set(a, (set = new Set()));
    set.add(b);
  };
  for (const from of Object.keys(source).sort()) {
    for (const to of (source[from] ?? '').split(/\s+/).filter((s) => s.length > 0)) {
      link(from, to);
      link(to, from);
    }
  }
  const out: Record<string, readonly string[]> = {};
  for (const node of [...new Set([...nodes, ...sets.keys()])].sort()) {
    out[node] = [...(sets.get(node) ?? [])].sort();
  }
  return out;
}

// Which sealed commit counts for a power. Each commit names the one it replaces (`prev`), so
// the commits of a power in a phase form a chain whose order nobody can fake afterwards; a
// reveal names, per power, the latest commit its author had seen (the "lock").
//
// The rule: a power's orders are the deepest common ancestor-or-self of its commits named by
// the OTHER powers' reveals (its own reveals count only if no other reveal names any of its
// commits). Every commit named by a reveal existed before that reveal was signed, so the chosen
// commit existed before the first key of any other power was published: re-committing after
// seeing someone's orders changes nothing. Without forks this is "the earliest named commit".
// A fork (two commits with the same prev) is equivocation: it is reported, and if the named
// commits have no common ancestor at all the power's orders are void (civil disorder).
import type { Message } from './envelope';
import type { CommitPayload } from './messages';

export type CommitMap = ReadonlyMap<string, Message<CommitPayload>>;

/** Commits whose chain reaches a first commit through commits that are present; the rest are listed. */
export function chainedCommits(commits: readonly Message<CommitPayload>[]): {
  chained: Map<string, Message<CommitPayload>>;
  unchained: Message<CommitPayload>[];
} {
  const chained = new Map<string, Message<CommitPayload>>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const c of commits) {
      if (chained.has(c.id)) continue;
      const prev = c.payload.prev;
      if (prev === null || (chained.has(prev) && chained.get(prev)!.payload.power === c.payload.power)) {
        chained.set(c.id, c);
        grew = true;
      }
    }
  }
  return { chained, unchained: commits.filter((c) => !chained.has(c.id)) };
}

/** From the commit back to the first one. */
export function ancestry(id: string, commits: CommitMap): string[] {
  const out: string[] = [];
  let cursor: string | null = id;
  while (cursor !== null) {
    const c = commits.get(cursor);
    if (c === undefined) break;
    out.push(cursor);
    cursor = c.payload.prev;
  }
  return out;
}

/** The deepest commit that is an ancestor-or-self of every named one, or null if they share none. */
export function commonAncestor(named: readonly string[], commits: CommitMap): string | null {
  const [first, ...rest] = [...new Set(named)].sort();
  if (first === undefined) return null;
  const restChains = rest.map((id) => new Set(ancestry(id, commits)));
  return ancestry(first, commits).find((id) => restChains.every((chain) => chain.has(id))) ?? null;
}

/** Ids of commits that share their prev with another commit of the same power (sorted). */
export function forkedCommits(commits: Iterable<Message<CommitPayload>>): string[] {
  const byParent = new Map<string, string[]>();
  for (const c of commits) {
    const key = `${c.payload.power}:${c.payload.prev ?? 'first'}`;
    byParent.set(key, [...(byParent.get(key) ?? []), c.id]);
  }
  return [...byParent.values()].filter((ids) => ids.length > 1).flat().sort();
}

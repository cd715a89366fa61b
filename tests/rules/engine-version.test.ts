// Every phone of a game must adjudicate to the same bytes, and a game names the engine version
// it was created with (RULES_ENGINE_VERSION); a phone with another version refuses to guess.
// So a change that alters any adjudication's bytes must bump the version. This test plays
// seeded random games through every kind of phase and compares a digest of all the results with
// the digest recorded for the current version: it fails when the bytes change and the version
// did not (or when the version changed and nobody recorded the new digest). The orders come from
// randomOrders (legal.ts): if only the way it draws changes, re-record the digest under the same
// version after checking that the previous engine gives the same digest for the new draws.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adjudicate, POWERS, RULES_ENGINE_VERSION, STARTING_POSITION, randomOrders, type Position } from '../../src/rules';
import { picker } from '../../src/util/prng';

/** Digest of every adjudication, per engine version. Version 1 was recorded with commit a6306cd,
 *  and re-recorded when randomOrders stopped drawing illegal convoys and supports (legal.ts): the
 *  engine before that change gives this digest for the new draws, and the old digest
 *  (13554b14...) for the old ones, as does the engine after it. */
const DIGESTS: Readonly<Record<string, string>> = {
  'pacto-rules/1': '569ac8695f7ff4736d6c4135e71393577d0d4ca0760ce9b33cfc3bf682eeea59',
};

function playDigest(games: number, years: number): { digest: string; phases: number; kinds: Set<string> } {
  const hash = createHash('sha256');
  let phases = 0;
  const kinds = new Set<string>();
  for (let g = 0; g < games; g++) {
    const pick = picker(1000 + g);
    let position: Position = STARTING_POSITION;
    while (position.phase.year < 1901 + years) {
      const orders = POWERS.flatMap((p) => randomOrders(position, p, pick));
      // Now and then a power sends nothing and is in civil disorder.
      const civilDisorder = pick(6) === 0 ? [POWERS[pick(POWERS.length)]!] : [];
      const adj = adjudicate(position, orders, { civilDisorder });
      hash.update(JSON.stringify(adj));
      kinds.add(position.phase.kind);
      phases += 1;
      position = adj.next;
    }
  }
  return { digest: hash.digest('hex'), phases, kinds };
}

describe('engine version', () => {
  it(`adjudicates seeded games to the bytes recorded for ${RULES_ENGINE_VERSION}`, () => {
    const { digest, phases, kinds } = playDigest(6, 12);
    expect(phases).toBeGreaterThan(200);
    expect([...kinds].sort()).toEqual(['adjustment', 'movement', 'retreat']);
    expect(digest, `adjudication bytes changed: bump RULES_ENGINE_VERSION and record ${digest}`).toBe(DIGESTS[RULES_ENGINE_VERSION]);
  });
});

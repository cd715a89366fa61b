// Issue 10's cost item that the issue-12 rework owns: the reducer indexes commits so a phase with a
// long run of commits by one power costs linear work per re-reduce (phones re-reduce on every entry).
// The figure (4k commits re-reduce in under 50 ms) is a wall time, so it lives in
// `npm run bench`; here the reducer's own count of entry visits (ReduceOptions.work) must grow
// linearly: four times the commits, about four times the visits (quadratic would be sixteen).
import { describe, expect, it } from 'vitest';
import { reduceLog, signMessage, type WorkCounter } from '../../src/protocol';
import { T0 } from './helpers';
import { commitChain, fastSign, nativeVerifier, reduceAs, table } from './sealed-adapter';

describe('a long chain of commits', () => {
  it('the fast test signer gives the protocol’s own bytes', () => {
    const t = table({ seed: 801 });
    const d = t.devices[2]!;
    const body = { type: 'ack', game: t.gameId, seq: 99, time: 5, phase: 'start', hash: t.startId } as const;
    expect(fastSign(d.me, body).bytes).toEqual(signMessage(d.me, body));
  });

  it('re-reducing after one more entry visits entries linearly in the number of commits (1k, 4k)', () => {
    const t = table({ seed: 802 });
    const france = t.devices[2]!;
    const steps: Record<number, number> = {};
    for (const n of [1000, 4000]) {
      const chain = commitChain(t, france, 'france', n + 1, T0 + 10).map((m) => m.bytes);
      const log = [...t.log, ...chain.slice(1)];
      const first = reduceAs(t, null, log); // opens and verifies every entry once (remembered)
      expect(first.current?.committed).toEqual(['france']);
      // One more entry arrives: the reducer folds again (the open phase is never remembered).
      const work: WorkCounter = { steps: 0 };
      const again = reduceLog(t.gameId, [...log, chain[0]!], { verifier: nativeVerifier, work });
      expect(again.current?.ballot.heads.france).toBeDefined();
      steps[n] = work.steps;
    }
    const figures = `1k: ${steps[1000]} visits, 4k: ${steps[4000]}`;
    // Each commit is visited a bounded number of times, whatever the length of the run.
    for (const n of [1000, 4000]) expect(steps[n]! / n, figures).toBeLessThan(4);
    expect(steps[4000]! / steps[1000]!, figures).toBeLessThan(4.2);
  });
});

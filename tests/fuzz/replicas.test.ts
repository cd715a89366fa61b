// 10^4 fuzz cases in `npm test` (tests/fuzz/harness.ts says what is checked); `npm run fuzz` runs 10^6.
import { describe, expect, it } from 'vitest';
import { fuzz } from './harness';

describe('three phones fed mutated updates, mutated entries and floods', () => {
  it('10^4 cases: nothing throws, no honest entry is lost, the phones agree after a clean catch-up', async () => {
    const { cases, failures } = await fuzz({ seed: 10, episodes: 100, casesPerEpisode: 100 });
    expect(failures).toEqual([]);
    expect(cases).toBe(10_000);
  }, 600_000);
});

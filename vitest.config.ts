import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Test files run in path order, the same on every machine, with load tests last: by default
 *  vitest orders files by the durations it cached on earlier runs, so a clean clone (CI) ran them in
 *  an order no developer had seen, and a WebRTC test right after the 30-second signaling load test
 *  timed out. */
class ByPath extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const key = (f: TestSpecification) => `${f.moduleId.includes('-load.') ? 1 : 0}:${f.moduleId}`;
    return [...files].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  }
}

// Two projects: pure logic runs in parallel; tests that drive real browsers, WebRTC, processes and
// servers run one file at a time, because on a 2-core machine running them side by side starves
// their network timers and makes them flaky rather than faster. `npm test` runs both, in turn.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    sequence: { sequencer: ByPath },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          // A hang guard, not a speed check (speed lives in `npm run bench`): the protocol's
          // seeded attack and property tests do seconds of curve arithmetic each, and with another
          // suite beside them on 2 cores one took 31 s against the 30 s default.
          testTimeout: 120_000,
          include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
          exclude: ['tests/e2e/**', 'tests/net/**', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'system',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts', 'tests/net/**/*.test.ts'],
          fileParallelism: false,
          // A hang guard, not a speed check, as in the unit project: a browser test that takes 20 s
          // on a quiet machine took over 30 s (the default) in a fresh-clone run beside another one.
          testTimeout: 120_000,
          // expect.poll waits for something a browser, a peer or a server does: its 1 s default is
          // a wall-clock bet a loaded machine loses (a table test's first check failed so, beside
          // another suite). A poll that never succeeds still fails, after 30 s.
          expect: { poll: { timeout: 30_000 } },
        },
      },
    ],
  },
});

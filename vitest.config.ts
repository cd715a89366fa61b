import { defineConfig } from 'vitest/config';

// Two projects: pure logic runs in parallel; tests that drive real browsers, WebRTC, processes and
// servers run one file at a time, because on a 2-core machine running them side by side starves
// their network timers and makes them flaky rather than faster. `npm test` runs both, in turn.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
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
        },
      },
    ],
  },
});

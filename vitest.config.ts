import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // The cluster group starts whole clusters of its own: tests/cluster/vitest.config.ts, run apart by .ci/run.
    exclude: ['**/node_modules/**', 'tests/cluster/**'],
    globalSetup: ['tests/setup/global.ts'],
    setupFiles: ['tests/setup/quiet-runtime.ts'],
    // Temporal's native bridge must load in separate processes, not worker threads.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
    // expect.poll's own default (1 s) is shorter than a page can take to settle on a busy 2-core machine.
    expect: { poll: { timeout: 15_000 } },
    reporters: ['default'],
  },
});

import { defineConfig } from 'vitest/config';

/**
 * The cluster group (`node tests/run.mjs --config tests/cluster/vitest.config.ts`, after `npm test` in
 * .ci/run): each file starts what it needs itself (the whole `npm run start:cluster` shape, or
 * nothing), so there is no global setup, and files run one at a time: two clusters at once would
 * not fit a small machine.
 */
export default defineConfig({
  test: {
    include: ['tests/cluster/**/*.test.ts'],
    setupFiles: ['tests/setup/quiet-runtime.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 900_000,
    teardownTimeout: 120_000,
    expect: { poll: { timeout: 60_000 } },
    reporters: ['default'],
  },
});

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// One file, one cluster, one KServe manager: the specs of a configuration group are applied at
// once and compared in turn; the test timeouts are only a backstop (each wait is bounded in the test).
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/oracle/**/*.oracle.ts'],
    maxWorkers: 1,
    testTimeout: 300_000,
    hookTimeout: 1_800_000,
    teardownTimeout: 120_000,
  },
});

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Examples import the package as users do (`modelhooks/kit`); here that is the source.
const source = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      'modelhooks/kit': source('./hooks/kit/index.ts'),
      'modelhooks/testing': source('./hooks/testing/index.ts'),
      'modelhooks/server': source('./hooks/server/api.ts'),
    },
  },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    // Two cores: forks in parallel, but no more than the machine has.
    pool: 'forks',
    maxWorkers: 2,
    // Tests never fail on timing: the property tests take ~25 s on a loaded 2-core machine and
    // timed out at 30 s. The limit only catches a hang.
    testTimeout: 300_000,
    hookTimeout: 120_000,
  },
});

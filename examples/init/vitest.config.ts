import { defineConfig } from 'vitest/config';

// The tests are the TypeScript sources': dist/ holds what `npm run build` compiled, and no test runs twice.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    exclude: ['dist/**', 'node_modules/**'],
  },
});

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The package tier: the packed tarball installed into a fresh project, as a user has it.
// No aliases here: `modelhooks/*` must resolve through the installed package's exports.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/package/**/*.package.ts'],
    testTimeout: 300_000,
    hookTimeout: 600_000,
  },
});

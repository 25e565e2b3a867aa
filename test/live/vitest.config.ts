import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// One cluster for every file; files run two at a time in their own namespaces (2 cores: the
// cluster's processes need the rest). Each assertion's time bound is measured in the test from
// the user's action, so the test timeouts are only a backstop.
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/live/**/*.live.ts'],
    globalSetup: ['test/live/globalSetup.ts'],
    maxWorkers: 2,
    testTimeout: 240_000,
    hookTimeout: 600_000,
    // Stopping six processes (each SIGTERM, SIGKILL after 10 s) outlasts vitest's default 10 s.
    teardownTimeout: 60_000,
  },
});

// `npm run test:live [-- files…]`: the live tier, or one line saying why it cannot run here.
import { spawnSync } from 'node:child_process';
import { fromRoot } from '../e2e/support/files.js';
import { skipReason } from './support/skip.js';

const reason = skipReason();
if (reason) {
  console.log(`live tier skipped: ${reason}`);
  process.exit(0);
}
const vitest = spawnSync(fromRoot('node_modules/.bin/vitest'), ['run', '--config', 'test/live/vitest.config.ts', ...process.argv.slice(2)], {
  cwd: fromRoot(),
  stdio: 'inherit',
});
process.exit(vitest.status ?? 1);

// `npm run test:oracle [-- vitest args…]`: the differential tier (KServe's own controller as the
// judge), or one line saying why it cannot run here.
import { spawnSync } from 'node:child_process';
import { fromRoot } from '../e2e/support/files.js';
import { skipReason } from './support/skip.js';

const reason = skipReason();
if (reason) {
  console.log(`oracle tier skipped: ${reason}`);
  process.exit(0);
}
const vitest = spawnSync(fromRoot('node_modules/.bin/vitest'), ['run', '--config', 'test/oracle/vitest.config.ts', ...process.argv.slice(2)], {
  cwd: fromRoot(),
  stdio: 'inherit',
});
process.exit(vitest.status ?? 1);

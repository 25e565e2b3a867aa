import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHART_DIR } from '../../release/chart.js';
import { tarGz } from '../../release/package.js';
import { repoRoot } from '../support/reference.js';

// `npm run release` without helm: the chart package made in Node must be what tar reads back,
// file for file, under the chart's name (as `helm package` lays it out).
const root = repoRoot();
const scratch = mkdtempSync(path.join(tmpdir(), 'modelhooks-package-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the chart package made in Node', () => {
  it('is a .tgz that tar extracts to the chart directory, byte for byte, and the same input gives the same bytes', () => {
    const chart = path.join(root, CHART_DIR);
    const tgz = tarGz(chart, 'modelhooks');
    expect(tarGz(chart, 'modelhooks').equals(tgz)).toBe(true);
    writeFileSync(path.join(scratch, 'chart.tgz'), tgz);
    execFileSync('tar', ['-xzf', 'chart.tgz'], { cwd: scratch });
    const files = (dir: string) => (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.includes('.')).sort();
    expect(files(path.join(scratch, 'modelhooks'))).toEqual(files(chart));
    for (const f of files(chart)) expect(readFileSync(path.join(scratch, 'modelhooks', f), 'utf8'), f).toBe(readFileSync(path.join(chart, f), 'utf8'));
  });
});

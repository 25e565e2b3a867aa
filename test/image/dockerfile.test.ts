import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
const smoke = readFileSync(path.join(root, 'test/image/smoke.sh'), 'utf8');
const engines = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

/** `^20.19.0 || ^22.19.0` → [[20, 19, 0], [22, 19, 0]]: the only form `engines` is written in. */
const claimed = engines.split('||').map((part) => {
  const m = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
  if (!m) throw new Error(`engines: "${part}" is not a ^major.minor.patch range`);
  return [Number(m[1]), Number(m[2]), Number(m[3])] as const;
});
const satisfies = (version: string) => {
  const [major, minor, patch] = version.replace(/^v/, '').split('.').map(Number) as [number, number, number];
  return claimed.some(([M, m, p]) => major === M && (minor > m || (minor === m && patch >= p)));
};
const stages = [...dockerfile.matchAll(/^FROM (\S+)(?: AS (\S+))?$/gm)].map((m) => ({ image: m[1] as string, name: m[2] }));

describe('Dockerfile and engines', () => {
  it('builds and runs on Node 26, the Active LTS since 2026-10-28, on Alpine', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    const majors = new Set(stages.map((s) => /^node:(\d+)-alpine$/.exec(s.image)?.[1]));
    expect([...majors]).toEqual(['26']);
  });

  it("`engines` claims 20, 22, 24 and 26; the machine's and the image's among them", () => {
    const imageMajor = Number(/^node:(\d+)-/.exec(stages[0]?.image ?? '')?.[1]);
    expect(satisfies(process.version), `${process.version} within ${engines}`).toBe(true);
    expect(claimed.map(([major]) => major)).toContain(imageMajor);
    // 24.11.0 is 24's first LTS release (the floors of 20 and 22 are as before); 26.10.0 is the newest
    // 26 the npm registry's `node` package serves here, the one test/image/smoke.sh runs.
    expect(claimed).toEqual([
      [20, 19, 0],
      [22, 19, 0],
      [24, 11, 0],
      [26, 10, 0],
    ]);
  });

  it('test/image/smoke.sh runs every major `engines` claims (so none is claimed that CI does not run)', () => {
    expect(smoke).toContain('require("./package.json").engines.node');
    expect(smoke).toContain('for major in $majors; do smoke "$major"; done');
    // The image's major must be one of them.
    expect(smoke).toContain('is not in engines');
  });

  it('the runtime stage installs and copies what the smoke test installs and copies', () => {
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtime).toContain('COPY package.json package-lock.json ./');
    expect(runtime).toContain('RUN npm ci --omit=dev --ignore-scripts');
    expect(runtime).toContain('COPY --from=build /app/dist ./dist');
    expect(runtime).toMatch(/ENTRYPOINT \["node", "dist\/hooks\/cli\/main\.js"\]/);
    expect(smoke).toContain('cp package.json package-lock.json "$app/"');
    expect(smoke).toContain('cp -r dist "$app/dist"');
    expect(smoke).toContain('ci --omit=dev --ignore-scripts');
    expect(smoke).toContain('dist/hooks/cli/main.js serve');
  });
});

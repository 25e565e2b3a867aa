// The comments in deploy/ tell users where to look (`components/openshift removes it`, `see
// deploy/kustomization.yaml`): every such path must exist, so a renamed directory (overlays/ →
// components/) cannot leave a comment pointing nowhere.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const deployDir = path.join(root, 'deploy');

const yamlFiles = readdirSync(deployDir, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && /\.ya?ml$/.test(e.name))
  .map((e) => path.join(e.parentPath, e.name));

/** The deploy/ paths a file's comments name: `overlays/…`, `components/…`, `base/…`, `tls-server`, maybe after `deploy/` (not `../` ones, kustomize's own; not globs such as `tls-*`). */
function namedPaths(file: string): string[] {
  const comments = readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => (line.includes('#') ? [line.slice(line.indexOf('#'))] : []));
  return comments.flatMap((c) =>
    [...c.matchAll(/(?<![./\w-])(?:deploy\/)?((?:overlays|components|base|tls-server)(?:\/[\w.-]*\w)?)(?![\w.*-])/g)].map((m) => m[1] as string),
  );
}

describe('deploy/ comments', () => {
  it('name some paths (the check below checks something)', () => {
    expect(yamlFiles.flatMap(namedPaths).length).toBeGreaterThan(10);
  });

  it.each(yamlFiles.map((f) => [path.relative(root, f), f]))('%s: every deploy/ path its comments name exists', (_name, file) => {
    const missing = namedPaths(file).filter((p) => !existsSync(path.join(deployDir, p)));
    expect(missing).toEqual([]);
  });
});

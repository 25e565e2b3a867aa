import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What `init` and `--version` read of this package's package.json. */
export interface PackageManifest {
  name: string;
  version: string;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

let found: { root: string; pkg: PackageManifest } | undefined;

/** The version in this package's package.json. */
export function packageVersion(): string {
  return packageRoot().pkg.version;
}

/**
 * This package's directory and package.json, found upwards from this file (hooks/ from
 * source, dist/hooks/ when built, node_modules/modelhooks/dist/hooks/ when installed).
 */
export function packageRoot(): { root: string; pkg: PackageManifest } {
  if (found !== undefined) return found;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as Partial<PackageManifest>;
      if (pkg.name === 'modelhooks' && pkg.version) return (found = { root: dir, pkg: pkg as PackageManifest });
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`package.json of modelhooks not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

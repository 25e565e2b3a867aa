import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let found: string | undefined;

/**
 * The version in this package's package.json, found upwards from this file (hooks/ from
 * source, dist/hooks/ when built, node_modules/modelhooks/dist/hooks/ when installed).
 */
export function packageVersion(): string {
  if (found !== undefined) return found;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'modelhooks' && pkg.version) return (found = pkg.version);
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`package.json of modelhooks not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
}

import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The repository's root, seen from test/support/. */
export const repoRoot = path.resolve(import.meta.dirname, '../..');

/** The TypeScript sources under `dir` (relative to the repository's root), declarations left out. */
export function sourceFilesUnder(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir)).flatMap((entry) => {
    const rel = path.join(dir, entry);
    if (entry === 'node_modules' || entry.startsWith('.')) return [];
    if (statSync(path.join(repoRoot, rel)).isDirectory()) return sourceFilesUnder(rel);
    return rel.endsWith('.ts') && !rel.endsWith('.d.ts') ? [rel] : [];
  });
}

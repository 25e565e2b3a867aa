/**
 * The server children run on plain `node` from JavaScript, as in production (`node dist/...`),
 * not under tsx: tsx's loader thread alone adds about 30 MB of RSS. This transpiles hooks/ and
 * the child's own files (types stripped, no type check: `npm test` does that; inline source
 * maps for --profile) into a cache directory in a few seconds, so the figures are always of
 * the source in the worktree.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** What the server child needs besides hooks/. */
const CHILD_FILES = ['bench/server.ts', 'bench/cpuprofile.ts'];

function* sources(root: string, dir: string): Generator<string> {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(root, rel);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield rel;
  }
}

/** Transpiles hooks/** and the child's files to `<outDir>/…js`; returns the child's entry point. */
export function transpileServer(root: string, outDir: string): string {
  for (const rel of [...sources(root, 'hooks'), ...CHILD_FILES]) {
    const file = path.join(root, rel);
    // The source map points at the .ts file where it is, so profiles name hooks/…ts lines.
    const compilerOptions: ts.CompilerOptions = {
      module: ts.ModuleKind.ES2022,
      target: ts.ScriptTarget.ES2022,
      inlineSourceMap: true,
      sourceRoot: `${pathToFileURL(path.dirname(file)).href}/`,
    };
    const out = path.join(outDir, rel).replace(/\.ts$/, '.js');
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions, fileName: file });
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, outputText);
  }
  writeFileSync(path.join(outDir, 'package.json'), '{"type":"module"}\n');
  return path.join(outDir, 'bench', 'server.js');
}

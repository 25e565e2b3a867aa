import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../e2e/support/files.js';

/** Metacontroller's source: $METACONTROLLER_SRC, else ../shared/metacontroller beside the checkout. */
export function metacontrollerSrc(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.METACONTROLLER_SRC || path.join(repoRoot, '..', 'shared', 'metacontroller'));
}

/** Why the live tier cannot run here, or undefined when it can. */
/** `goDirs`: where Go is looked for beside PATH (build.sh adds the same directory). */
export function skipReason(env: NodeJS.ProcessEnv = process.env, goDirs = ['/usr/local/go/bin']): string | undefined {
  const src = metacontrollerSrc(env);
  if (!existsSync(path.join(src, 'go.mod'))) {
    return `no Metacontroller source at ${src} (set METACONTROLLER_SRC, or put its source in ../shared/metacontroller)`;
  }
  const PATH = [env.PATH ?? '', ...goDirs].join(path.delimiter);
  try {
    execFileSync('go', ['version'], { env: { ...env, PATH }, stdio: 'ignore' });
  } catch {
    return 'Go is not installed (need Go >= 1.26 on PATH or in /usr/local/go/bin) to build kube-apiserver, kube-controller-manager and Metacontroller';
  }
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
  } catch {
    return 'openssl is not installed (it makes the API server certificates)';
  }
  return undefined;
}

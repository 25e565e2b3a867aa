import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Why the oracle tier cannot run here, or undefined when it can: Go builds kube-apiserver, etcd,
 * kube-controller-manager (test/live/build.sh no-metacontroller) and KServe's manager from the
 * Go module proxy, openssl makes the certificates. `goDirs`: where Go is looked for beside PATH
 * (build.sh adds the same directory).
 */
export function skipReason(env: NodeJS.ProcessEnv = process.env, goDirs = ['/usr/local/go/bin']): string | undefined {
  const PATH = [env.PATH ?? '', ...goDirs].join(path.delimiter);
  try {
    execFileSync('go', ['version'], { env: { ...env, PATH }, stdio: 'ignore' });
  } catch {
    return "Go is not installed (need Go >= 1.26 on PATH or in /usr/local/go/bin) to build kube-apiserver, kube-controller-manager and KServe's manager";
  }
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
  } catch {
    return 'openssl is not installed (it makes the API server and webhook certificates)';
  }
  return undefined;
}

import { skipReason as liveSkipReason } from '../../live/support/skip.js';

/**
 * Why the oracle tier cannot run here, or undefined when it can: it needs what the live tier
 * needs (Go, openssl, Metacontroller's source: test/oracle/build.sh builds the live tier's
 * binaries first), and Go builds KServe's manager from the Go module proxy.
 */
export function skipReason(env: NodeJS.ProcessEnv = process.env, goDirs = ['/usr/local/go/bin']): string | undefined {
  const live = liveSkipReason(env, goDirs);
  return live ? `${live} (the oracle tier builds the live tier's binaries, then KServe's manager with Go)` : undefined;
}

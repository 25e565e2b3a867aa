import type { Parent } from '../kit/index.js';

/**
 * The graph's annotations on its children and the router's pods: KServe copies all of them,
 * none filtered (raw_ig.go constructForRawDeployment), kubectl's last-applied-configuration
 * included, so a Deployment KServe made has the same pod template here.
 */
export function annotationsFor(p: Parent<unknown>): Record<string, string> {
  return { ...(p.metadata.annotations ?? {}) };
}

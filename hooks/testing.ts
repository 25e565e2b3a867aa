/**
 * Runs a composition the way Metacontroller would call it, without HTTP, so that a
 * composition's desired state can be unit-tested with plain objects:
 *
 *   const out = runSync(myComposition, { parent, observed: [deployment] });
 *   expect(out.child('Deployment', 'demo')?.spec.replicas).toBe(2);
 */
import type { AnyComposition } from './kit/composition.js';
import type { HookName } from './kit/request.js';
import { runOverWire, syncRequest as kitSyncRequest, type WireRequestOptions } from './kit/run.js';
import type { KubeObject, RelatedRule } from './kit/index.js';

// The wire helpers live in the kit (render uses them too); tests keep importing them from here.
export { wireMap } from './kit/run.js';
export { expectValidChildren, validateChildren, type ValidateChildrenOptions } from './testing/validate.js';

export interface RunOptions<Config> extends WireRequestOptions {
  now?: string;
  config?: Config;
}

export interface SyncResult {
  status: Record<string, unknown>;
  children: KubeObject[];
  /** The answer exactly as it goes on the wire. */
  response: Record<string, unknown>;
  /** A child by kind and name, typed as you say: `out.child<V1Deployment>('Deployment', 'demo')?.spec?.replicas`. */
  child<T extends object = KubeObject>(kind: string, name: string): T | undefined;
  childrenOf<T extends object = KubeObject>(kind: string): T[];
  condition(type: string): { type: string; status: string; reason: string; message: string; lastTransitionTime: string } | undefined;
}

export const TEST_NOW = '2026-01-01T00:00:00Z';

export * from './testing/ready.js';
export * from './testing/converge.js';

/** The Metacontroller request body for these options: what the server would receive. */
export const syncRequest: <Config>(composition: AnyComposition<Config>, options: RunOptions<Config>) => Record<string, unknown> = kitSyncRequest;

export function runSync<Config>(composition: AnyComposition<Config>, options: RunOptions<Config>): SyncResult {
  return toResult(runWire(composition, 'sync', options));
}

export function runCustomize<Config>(composition: AnyComposition<Config>, options: RunOptions<Config>): RelatedRule[] {
  return runWire(composition, 'customize', options).relatedResources as RelatedRule[];
}

function runWire<Config>(composition: AnyComposition<Config>, hook: HookName, options: RunOptions<Config>) {
  return runOverWire(composition, hook, options, { now: options.now ?? TEST_NOW, config: options.config as Config });
}

function toResult(response: Record<string, unknown>): SyncResult {
  const children = (response.children ?? []) as KubeObject[];
  const status = (response.status ?? {}) as Record<string, unknown>;
  return {
    status,
    children,
    response,
    child: <T extends object>(kind: string, name: string) => children.find((c) => c.kind === kind && c.metadata.name === name) as T | undefined,
    childrenOf: <T extends object>(kind: string) => children.filter((c) => c.kind === kind) as unknown as T[],
    condition: (type: string) => (Array.isArray(status.conditions) ? status.conditions : []).find((c: { type?: string }) => c.type === type),
  };
}

/**
 * Runs a composition the way Metacontroller would call it, without HTTP, so that a
 * composition's desired state can be unit-tested with plain objects.
 */
import type { AnyComposition } from '../kit/composition.js';
import type { CompositionConfigs, KubeObject, RelatedRule } from '../kit/index.js';
import { parseNamespaceSelector } from '../engine/namespace-selector.js';
import type { HookName } from '../engine/request.js';
import { runOverWire, syncRequest as kitSyncRequest, type WireRequestOptions } from '../engine/run.js';

/** `_Config` is kept for callers that name it; `config` holds configurations by composition name. */
export interface RunOptions<_Config = CompositionConfigs> extends WireRequestOptions {
  now?: string;
  /** Configurations by composition name (e.g. `defaultHookConfig()`); a composition missing from it gets its defaults. */
  config?: CompositionConfigs;
  /** `MODELHOOKS_NAMESPACE_SELECTOR`, e.g. `modelhooks.dev/enabled=true`; absent: every namespace. */
  namespaceSelector?: string;
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

/** The Metacontroller request body for these options: what the server would receive. */
export const syncRequest: (composition: AnyComposition, options: RunOptions<unknown>) => Record<string, unknown> = kitSyncRequest;

export function runSync(composition: AnyComposition, options: RunOptions<unknown>): SyncResult {
  return toResult(runWire(composition, 'sync', options));
}

export function runCustomize(composition: AnyComposition, options: RunOptions<unknown>): RelatedRule[] {
  return runWire(composition, 'customize', options).relatedResources as RelatedRule[];
}

function runWire(composition: AnyComposition, hook: HookName, options: RunOptions<unknown>) {
  return runOverWire(composition, hook, options, {
    now: options.now ?? TEST_NOW,
    ...(options.config ? { config: options.config } : {}),
    ...(options.namespaceSelector !== undefined ? { namespaceSelector: parseNamespaceSelector(options.namespaceSelector) } : {}),
  });
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

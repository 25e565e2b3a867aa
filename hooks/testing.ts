/**
 * Runs a composition the way Metacontroller would call it, without HTTP, so that a
 * composition's desired state can be unit-tested with plain objects:
 *
 *   const out = runSync(myComposition, { parent, observed: [deployment] });
 *   expect(out.child('Deployment', 'demo')?.spec.replicas).toBe(2);
 */
import type { AnyComposition } from './kit/composition.js';
import { compositeControllerFor, DEFAULT_VARIANT } from './kit/manifests.js';
import { typeKey } from './kit/observed.js';
import { runHook } from './kit/protocol.js';
import { parseHookRequest, type HookName } from './kit/request.js';
import type { KubeObject, RelatedRule } from './kit/index.js';

export interface RunOptions<Config> {
  parent: unknown;
  observed?: KubeObject[];
  related?: KubeObject[];
  /** The CompositeController variant that calls (decides the optional children). */
  variant?: string;
  /** A whole CompositeController, instead of a generated variant. */
  controller?: Record<string, unknown>;
  now?: string;
  config?: Config;
  /** Hook version of the child keys: v1 (`name`) or v2 (`namespace/name`). */
  hookVersion?: 'v1' | 'v2';
}

export interface SyncResult {
  status: Record<string, unknown>;
  children: KubeObject[];
  /** The answer exactly as it goes on the wire. */
  response: Record<string, unknown>;
  child<T extends KubeObject = KubeObject>(kind: string, name: string): T | undefined;
  childrenOf<T extends KubeObject = KubeObject>(kind: string): T[];
  condition(type: string): { type: string; status: string; reason: string; message: string; lastTransitionTime: string } | undefined;
}

export const TEST_NOW = '2026-01-01T00:00:00Z';

/** The Metacontroller request body for these options: what the server would receive. */
export function syncRequest<Config>(composition: AnyComposition<Config>, options: RunOptions<Config>): Record<string, unknown> {
  const controller =
    options.controller ?? compositeControllerFor(composition, options.variant ?? DEFAULT_VARIANT, { hookBaseUrl: 'http://modelhooks.test' });
  const parent = options.parent as KubeObject;
  const namespace = parent.metadata?.namespace ?? 'default';
  return {
    controller,
    parent: { ...parent, metadata: { ...parent.metadata, namespace } },
    children: wireMap(options.observed ?? [], namespace, options.hookVersion ?? 'v2'),
    related: wireMap(options.related ?? [], namespace, options.hookVersion ?? 'v2'),
    finalizing: false,
  };
}

export function runSync<Config>(composition: AnyComposition<Config>, options: RunOptions<Config>): SyncResult {
  return toResult(runWire(composition, 'sync', options));
}

export function runCustomize<Config>(composition: AnyComposition<Config>, options: RunOptions<Config>): RelatedRule[] {
  return runWire(composition, 'customize', options).relatedResources as RelatedRule[];
}

/** Goes through JSON like the wire does, so a hook that depends on object identity fails here too. */
function runWire<Config>(composition: AnyComposition<Config>, hook: HookName, options: RunOptions<Config>) {
  const body: unknown = JSON.parse(JSON.stringify(syncRequest(composition, options)));
  const request = parseHookRequest(body);
  const answer = runHook(composition, hook, request, { now: options.now ?? TEST_NOW, config: options.config as Config });
  return JSON.parse(JSON.stringify(answer)) as Record<string, unknown>;
}

function toResult(response: Record<string, unknown>): SyncResult {
  const children = (response.children ?? []) as KubeObject[];
  const status = (response.status ?? {}) as Record<string, unknown>;
  return {
    status,
    children,
    response,
    child: <T extends KubeObject>(kind: string, name: string) => children.find((c) => c.kind === kind && c.metadata.name === name) as T | undefined,
    childrenOf: <T extends KubeObject>(kind: string) => children.filter((c) => c.kind === kind) as T[],
    condition: (type: string) => (Array.isArray(status.conditions) ? status.conditions : []).find((c: { type?: string }) => c.type === type),
  };
}

/** Metacontroller's child map: `Kind.apiVersion` → (v1: `name`, v2: `namespace/name`) → object. */
export function wireMap(objects: KubeObject[], namespace: string, version: 'v1' | 'v2'): Record<string, Record<string, KubeObject>> {
  const map: Record<string, Record<string, KubeObject>> = {};
  for (const obj of objects) {
    const ns = obj.metadata.namespace ?? namespace;
    const key = version === 'v2' ? `${ns}/${obj.metadata.name}` : obj.metadata.name;
    (map[typeKey(obj.apiVersion, obj.kind)] ??= {})[key] = { ...obj, metadata: { ...obj.metadata, namespace: ns } };
  }
  return map;
}

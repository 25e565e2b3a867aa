/**
 * A hook call over Metacontroller's JSON wire, without HTTP: the request body the server
 * would receive, parsed and answered exactly as the server does. `modelhooks render` runs
 * compositions through this, and so do the test helpers in `modelhooks/testing`.
 */
import type { AnyComposition } from '../kit/composition.js';
import { compositeControllerFor, DEFAULT_VARIANT, type VariantSelection } from './manifests.js';
import { typeKey } from '../kit/observed.js';
import { DEFAULT_NAMESPACE, runHook, type HookContext } from './protocol.js';
import { CLUSTER_SCOPED_KINDS } from '../kit/related.js';
import { parseHookRequest, type HookName } from './request.js';
import { parseRequestText } from './request-json.js';
import { answerJson } from './answer-json.js';
import type { KubeObject } from '../kit/types.js';

/** What a hook request is built from. */
export interface WireRequestOptions {
  parent: unknown;
  observed?: KubeObject[];
  related?: KubeObject[];
  /**
   * The variants of the calling CompositeController (they decide the optional children): a name,
   * a comma list (`openshift,prometheus`) or an array; `default` (none) when absent.
   */
  variant?: VariantSelection;
  /** A whole CompositeController, instead of a generated variant. */
  controller?: Record<string, unknown>;
  /** Hook version of the child keys: v1 (`name`) or v2 (`namespace/name`). */
  hookVersion?: 'v1' | 'v2';
}

/** The Metacontroller request body for these options: what the server would receive. */
export function syncRequest<Config>(composition: AnyComposition<Config>, options: WireRequestOptions): Record<string, unknown> {
  const controller = options.controller ?? compositeControllerFor(composition, options.variant ?? DEFAULT_VARIANT, { hookBaseUrl: 'http://modelhooks.test' });
  const parent = options.parent as KubeObject;
  const namespace = parent.metadata?.namespace ?? DEFAULT_NAMESPACE;
  return {
    controller,
    parent: { ...parent, metadata: { ...parent.metadata, namespace } },
    children: wireMap(options.observed ?? [], namespace, options.hookVersion ?? 'v2'),
    related: wireMap(options.related ?? [], namespace, options.hookVersion ?? 'v2'),
    finalizing: false,
  };
}

/**
 * Runs one hook through JSON both ways, like the wire does (metadata.managedFields dropped as
 * the server drops them), so a hook that depends on object identity fails here too. A
 * malformed parent throws the server's RequestShapeError.
 */
export function runOverWire<Config>(
  composition: AnyComposition<Config>,
  hook: HookName,
  options: WireRequestOptions,
  ctx: HookContext,
): Record<string, unknown> {
  const body = parseRequestText(JSON.stringify(syncRequest(composition, options)));
  const answer = runHook(composition, hook, parseHookRequest(body), ctx);
  return JSON.parse(answerJson(answer)) as Record<string, unknown>;
}

/**
 * Metacontroller's child map: `Kind.apiVersion` → (v1: `name`, v2: `namespace/name`) → object.
 * An object keeps its own namespace, as Metacontroller sends it (so tests can offer other
 * namespaces' objects); one without a namespace is placed in `namespace`, except a
 * cluster-scoped one, which stays without and is keyed by `name`.
 */
export function wireMap(objects: KubeObject[], namespace: string, version: 'v1' | 'v2'): Record<string, Record<string, KubeObject>> {
  const map: Record<string, Record<string, KubeObject>> = {};
  for (const obj of objects) {
    if (obj.metadata.namespace === undefined && CLUSTER_SCOPED_KINDS.has(obj.kind)) {
      (map[typeKey(obj.apiVersion, obj.kind)] ??= {})[obj.metadata.name] = obj;
      continue;
    }
    const ns = obj.metadata.namespace ?? namespace;
    const key = version === 'v2' ? `${ns}/${obj.metadata.name}` : obj.metadata.name;
    (map[typeKey(obj.apiVersion, obj.kind)] ??= {})[key] = { ...obj, metadata: { ...obj.metadata, namespace: ns } };
  }
  return map;
}

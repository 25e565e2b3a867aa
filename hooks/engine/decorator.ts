/**
 * A composition's DecoratorController (kit/composition.ts Decorator) over Metacontroller's
 * JSON wire: its customize request (`{controller, parent}`) and sync request (`{controller,
 * object, attachments, related, finalizing}`, decorator/api/v2/hooks.go), and its answers
 * (`relatedResources`; `annotations`, `attachments`). The decorated object is untrusted input
 * like a parent: its envelope is checked, related objects of another namespace are dropped
 * (ObjectIndex.fromWire), and in a namespace the server does not serve
 * (MODELHOOKS_NAMESPACE_SELECTOR) the decorator's annotations are removed, never written.
 */
import type { AnyComposition, Decorator, RelatedRule } from '../kit/composition.js';
import { isDns1123Label } from '../kit/children/names.js';
import { ObjectIndex } from '../kit/observed.js';
import { scopeRules } from '../kit/related.js';
import { isRecord, type KubeObject } from '../kit/types.js';
import type { NamespaceSelector } from './namespace-selector.js';
import { selectorMatches } from './namespace-selector.js';
import { namespaceRule, parentNamespace } from './namespace-settings.js';
import { metadataProblem } from './object-meta.js';
import { RequestShapeError, type DecoratorHookName } from './request.js';

/** The DecoratorController's name: `modelhooks-<composition>-<decorator>`. */
export const decoratorControllerName = (c: AnyComposition, d: Decorator) => `modelhooks-${c.name}-${d.name}`;

/** Whether a hook is a DecoratorController's. */
export const isDecoratorHook = (hook: string): hook is DecoratorHookName => hook === 'decorator-sync' || hook === 'decorator-customize';

/**
 * The answer to a decorator hook's request body (already parsed), or RequestShapeError. `parent`
 * is the decorated object's `namespace/name`, for the log.
 */
export function runDecoratorHook(
  composition: AnyComposition,
  hook: DecoratorHookName,
  body: unknown,
  selector: NamespaceSelector | undefined,
): { answer: Record<string, unknown>; parent: string } {
  const decorator = composition.decorator;
  if (decorator === undefined) throw new RequestShapeError('path', `composition ${composition.name} has no DecoratorController`);
  if (!isRecord(body)) throw new RequestShapeError('body', 'must be a JSON object');
  const field = hook === 'decorator-customize' ? 'parent' : 'object';
  const object = decoratedObject(body[field], field, decorator);
  const namespace = object.metadata.namespace as string;
  const parent = `${namespace}/${object.metadata.name}`;
  if (hook === 'decorator-customize') {
    const rules: RelatedRule[] = [namespaceRule(namespace), ...decorator.customize(object)];
    return { answer: { relatedResources: scopeRules(rules, namespace, `${composition.name} decorator ${decorator.name}`) }, parent };
  }
  const related = ObjectIndex.fromWire(body.related, namespace);
  const { annotations } = decorator.sync(object, related);
  const ns = parentNamespace(related, namespace);
  const served = selector === undefined || selector.requirements.length === 0 || (ns !== undefined && selectorMatches(selector, ns.metadata.labels));
  // Not served: what an earlier answer wrote is removed (null), nothing new is written.
  const written = served ? annotations : Object.fromEntries(Object.keys(annotations).map((k) => [k, null]));
  return { answer: { annotations: written, attachments: [] }, parent };
}

/** The decorated object, checked as a parent's envelope is (request.ts parseHookRequest): of the decorator's kind, namespaced. */
function decoratedObject(value: unknown, field: string, decorator: Decorator): KubeObject {
  if (!isRecord(value)) throw new RequestShapeError(field, 'must be an object');
  const { apiVersion, kind, metadata } = value;
  if (apiVersion !== decorator.resource.apiVersion || kind !== decorator.resource.kind) {
    throw new RequestShapeError(
      `${field}.kind`,
      `must be ${decorator.resource.kind} (${decorator.resource.apiVersion}): the decorator ${decorator.name} watches ${decorator.resource.resource}`,
    );
  }
  if (!isRecord(metadata) || typeof metadata.name !== 'string' || metadata.name === '')
    throw new RequestShapeError(`${field}.metadata.name`, 'must be a non-empty string');
  if (typeof metadata.namespace !== 'string' || !isDns1123Label(metadata.namespace)) {
    throw new RequestShapeError(`${field}.metadata.namespace`, 'must be a namespace name (a DNS-1123 label)');
  }
  const meta = metadataProblem(metadata, `${field}.metadata`);
  if (meta) throw new RequestShapeError(meta.field, meta.message);
  return value as KubeObject;
}

/**
 * `objects` with what the composition's DecoratorController would have written on those it
 * decorates (their annotations), its related objects found by `relatedOf` for each of its
 * rules: for `modelhooks render` (the files given) and `modelhooks plan` (a dump of a cluster
 * where it may not run yet, e.g. KServe's), so that they answer as the cluster will.
 */
export function decorated(composition: AnyComposition, objects: KubeObject[], namespace: string, relatedOf: (rule: RelatedRule) => KubeObject[]): KubeObject[] {
  const d = composition.decorator;
  if (d === undefined) return objects;
  return objects.map((o) => {
    if (o.apiVersion !== d.resource.apiVersion || o.kind !== d.resource.kind) return o;
    const ns = o.metadata.namespace ?? namespace;
    const object = { ...o, metadata: { ...o.metadata, namespace: ns } };
    const related = new ObjectIndex([namespaceRule(ns), ...d.customize(object)].flatMap(relatedOf), ns);
    const merged: Record<string, string> = { ...(o.metadata.annotations ?? {}) };
    for (const [k, v] of Object.entries(d.sync(object, related).annotations)) {
      if (v === null) delete merged[k];
      else merged[k] = v;
    }
    const { annotations: _old, ...metadata } = o.metadata;
    return { ...o, metadata: { ...metadata, ...(Object.keys(merged).length > 0 ? { annotations: merged } : {}) } };
  });
}

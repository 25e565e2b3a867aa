import { isDns1123Label } from '../kit/children/names.js';
import { metadataProblem } from './object-meta.js';
import { isRecord, type KubeObject } from '../kit/types.js';

/** A CompositeController's hooks, then a composition's DecoratorController's (engine/decorator.ts). */
export type HookName = 'sync' | 'customize' | 'finalize' | DecoratorHookName;
export type DecoratorHookName = 'decorator-sync' | 'decorator-customize';
export const HOOK_NAMES: readonly HookName[] = ['sync', 'customize', 'finalize', 'decorator-sync', 'decorator-customize'];

/** A request body that passed the envelope check: still raw JSON inside. */
export interface HookRequest {
  controller: Record<string, unknown> | undefined;
  parent: KubeObject;
  children: Record<string, unknown>;
  related: Record<string, unknown>;
  finalizing: boolean;
}

export class RequestShapeError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'RequestShapeError';
  }
}

/**
 * Checks the envelope of a Metacontroller request by hand. The observed children can be
 * hundreds of KB, so only the shape that the kit relies on is checked, never each object.
 */
export function parseHookRequest(body: unknown): HookRequest {
  if (!isRecord(body)) throw new RequestShapeError('body', 'must be a JSON object');
  const parent = body.parent;
  if (!isRecord(parent)) throw new RequestShapeError('parent', 'must be an object');
  expectString(parent, 'apiVersion', 'parent.apiVersion');
  expectString(parent, 'kind', 'parent.kind');
  if (!isRecord(parent.metadata)) throw new RequestShapeError('parent.metadata', 'must be an object');
  expectString(parent.metadata, 'name', 'parent.metadata.name');
  // Every parent the kit serves is namespaced: its CRD is generated with scope Namespaced
  // (kit/manifests.ts) and its children live in its namespace. Without one the observed
  // children would be looked up elsewhere and the answer would drop them all.
  const namespace = parent.metadata.namespace;
  if (typeof namespace !== 'string' || !isDns1123Label(namespace)) {
    throw new RequestShapeError('parent.metadata.namespace', 'must be a namespace name (a DNS-1123 label): every parent is namespaced');
  }
  // Labels and annotations as the API server would have stored them: never copied into children otherwise.
  const meta = metadataProblem(parent.metadata, 'parent.metadata');
  if (meta) throw new RequestShapeError(meta.field, meta.message);
  if (parent.spec !== undefined && !isRecord(parent.spec)) throw new RequestShapeError('parent.spec', 'must be an object');
  if (parent.status !== undefined && parent.status !== null && !isRecord(parent.status)) {
    throw new RequestShapeError('parent.status', 'must be an object');
  }
  if (body.controller !== undefined && !isRecord(body.controller)) throw new RequestShapeError('controller', 'must be an object');
  optionalType(body, 'finalizing', 'boolean', 'finalizing');
  return {
    controller: body.controller as Record<string, unknown> | undefined,
    parent: parent as KubeObject,
    children: childMap(body.children, 'children'),
    related: childMap(body.related, 'related'),
    finalizing: body.finalizing === true,
  };
}

/** `{"Kind.group/version": {"key": object}}`; null stands for empty (Go's nil map). */
function childMap(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw new RequestShapeError(field, 'must be an object keyed by Kind.apiVersion');
  // Keys only (no [key, value] pair per entry): this runs over every observed object.
  for (const type of Object.keys(value)) {
    const group = value[type];
    if (group === null) continue;
    if (!isRecord(group)) throw new RequestShapeError(`${field}["${type}"]`, 'must be an object keyed by name');
    for (const key of Object.keys(group)) {
      const obj = group[key];
      if (!isRecord(obj) || !isRecord(obj.metadata) || typeof obj.metadata.name !== 'string') {
        throw new RequestShapeError(`${field}["${type}"]["${key}"]`, 'must be an object with metadata.name');
      }
    }
  }
  return value;
}

function expectString(obj: Record<string, unknown>, key: string, field: string): void {
  if (typeof obj[key] !== 'string' || obj[key] === '') throw new RequestShapeError(field, 'must be a non-empty string');
}

function optionalType(obj: Record<string, unknown>, key: string, type: string, field: string): void {
  if (obj[key] !== undefined && typeof obj[key] !== type) throw new RequestShapeError(field, `must be a ${type}`);
}

import type { KubeObject, ObjectIndex } from '../kit/index.js';
import { endpointOf } from './endpoint.js';
import type { InferenceGraphSpec, InferenceStep } from './spec.js';

export const ISVC = { apiVersion: 'serving.kserve.io/v1beta1', kind: 'InferenceService' } as const;

/** A step's InferenceService that is missing, has no address yet, or is not Ready. */
export interface StepProblem {
  service: string;
  why: 'missing' | 'no-address' | 'not-ready';
  /** The InferenceService's own Ready reason, when it has one. */
  detail?: string;
}

export interface ResolvedGraph {
  /** The spec with each serviceName step's serviceUrl filled in, as KServe's controller hands it to the router. */
  spec: InferenceGraphSpec;
  /** Whether every serviceName step got a URL: without it the router cannot be configured. */
  complete: boolean;
  problems: StepProblem[];
}

/**
 * controller.go Reconcile: each step naming an InferenceService (in the graph's namespace
 * only) without a serviceUrl of its own gets that service's endpoint. KServe stops there when
 * one is missing or has no address; here the problems are reported and the caller keeps the
 * router as it runs. An InferenceService that is not Ready is reported too (KServe does not
 * look), but its address is used.
 */
export function resolveGraph(spec: InferenceGraphSpec, namespace: string, related: ObjectIndex): ResolvedGraph {
  const problems = new Map<string, StepProblem>();
  const resolveStep = (step: InferenceStep): InferenceStep => {
    const name = step.serviceName;
    if (!name) return step;
    const isvc = related.get<KubeObject>(ISVC.apiVersion, ISVC.kind, name);
    if (!isvc || isvc.metadata.namespace !== namespace) {
      problems.set(name, { service: name, why: 'missing' });
      return step;
    }
    const ready = readyOf(isvc);
    if (ready.status !== 'True') problems.set(name, { service: name, why: 'not-ready', ...(ready.reason ? { detail: ready.reason } : {}) });
    if (step.serviceUrl) return step;
    const endpoint = endpointOf(isvc);
    if ('missing' in endpoint) {
      problems.set(name, { service: name, why: 'no-address' });
      return step;
    }
    return { ...step, serviceUrl: endpoint.url };
  };
  const nodes = Object.fromEntries(Object.entries(spec.nodes).map(([n, node]) => [n, node.steps ? { ...node, steps: node.steps.map(resolveStep) } : node]));
  const list = [...problems.values()];
  return { spec: { ...spec, nodes }, complete: !list.some((p) => p.why !== 'not-ready'), problems: list };
}

function readyOf(isvc: KubeObject): { status?: string; reason?: string } {
  const status = isvc.status as { conditions?: Array<{ type?: string; status?: string; reason?: string }> } | undefined;
  return status?.conditions?.find((c) => c.type === 'Ready') ?? {};
}

/**
 * `--graph-json` as KServe writes it: encoding/json of v1alpha1.InferenceGraphSpec
 * (raw_ig.go createInferenceGraphPodSpec). Go's rules, field by field: struct fields in
 * declaration order, map keys sorted, `omitempty` fields left out when empty — but
 * `serviceName` (no omitempty) always written, `resources` (a struct) always written,
 * `minReplicas` and `weight` (pointers) written when set, even 0.
 */
export function graphJson(spec: InferenceGraphSpec): string {
  // Written by hand: a JavaScript object puts integer-like keys ("10", "9") first, in numeric order.
  const nodes = `{${Object.keys(spec.nodes)
    .sort()
    .map((n) => `${JSON.stringify(n)}:${JSON.stringify(routerOf(spec.nodes[n] as InferenceGraphSpec['nodes'][string]))}`)
    .join(',')}}`;
  const resources = spec.resources ?? {};
  const out: Record<string, unknown> = {
    resources: omitEmpty({ limits: sortedOrUndefined(resources.limits), requests: sortedOrUndefined(resources.requests), claims: nonEmpty(resources.claims) }),
  };
  const rest: Record<string, unknown> = {
    affinity: spec.affinity,
    timeout: spec.timeout,
    routerTimeouts: spec.routerTimeouts && omitEmpty({ ...pick(spec.routerTimeouts, ['serverRead', 'serverWrite', 'serverIdle', 'serviceClient']) }),
    minReplicas: spec.minReplicas,
    maxReplicas: spec.maxReplicas || undefined,
    scaleTarget: spec.scaleTarget,
    scaleMetric: spec.scaleMetric || undefined,
    tolerations: nonEmpty(spec.tolerations),
    nodeSelector: sortedOrUndefined(spec.nodeSelector),
    nodeName: spec.nodeName || undefined,
    serviceAccountName: spec.serviceAccountName || undefined,
  };
  // `resources` is always there, so the rest is never `{}`.
  return `{"nodes":${nodes},${JSON.stringify({ ...out, ...omitEmpty(rest) }).slice(1)}`;
}

function routerOf(node: InferenceGraphSpec['nodes'][string]): Record<string, unknown> {
  return omitEmpty({ routerType: node.routerType, steps: nonEmpty(node.steps?.map(stepOf)) });
}

function stepOf(s: InferenceStep): Record<string, unknown> {
  return omitEmpty({
    name: s.name || undefined,
    nodeName: s.nodeName || undefined,
    serviceName: s.serviceName || undefined,
    serviceUrl: s.serviceUrl || undefined,
    data: s.data || undefined,
    mapPredictionsToInstances: s.mapPredictionsToInstances || undefined,
    weight: s.weight,
    condition: s.condition || undefined,
    dependency: s.dependency || undefined,
  });
}

function omitEmpty(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

function pick<T extends object>(o: T, keys: Array<keyof T>): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, o[k]]));
}

function nonEmpty<T>(a: T[] | undefined): T[] | undefined {
  return a && a.length > 0 ? a : undefined;
}

function sortedObject<T>(o: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k] as T]),
  );
}

function sortedOrUndefined<T>(o: Record<string, T> | undefined): Record<string, T> | undefined {
  return o && Object.keys(o).length > 0 ? sortedObject(o) : undefined;
}

import { defaultHookConfig } from '../../hooks/server/config.js';
import { inferencegraph } from '../../hooks/inferencegraph/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runCustomize, runSync, type RunOptions } from '../../hooks/testing/index.js';

export const NS = 'kserve-test';
export const config = defaultHookConfig();

/** An InferenceGraph in NS with these nodes (and other spec fields). */
export function graph(spec: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'serving.kserve.io/v1alpha1', kind: 'InferenceGraph', metadata: { name: 'g', namespace: NS, uid: 'u-1', generation: 1, ...meta }, spec };
}

/** An InferenceService as the graph's controller reads it: spec, status.address.url, Ready. */
export function isvc(
  name: string,
  spec: Record<string, unknown>,
  status: { address?: string; ready?: 'True' | 'False'; reason?: string } = {},
  namespace = NS,
): KubeObject {
  const { address = `http://${name}-predictor.${namespace}.svc.cluster.local`, ready = 'True', reason } = status;
  return {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name, namespace },
    spec,
    status: { ...(address ? { address: { url: address } } : {}), conditions: [{ type: 'Ready', status: ready, ...(reason ? { reason } : {}) }] },
  };
}

export const sklearn = (name: string, status?: Parameters<typeof isvc>[2]) => isvc(name, { predictor: { sklearn: { storageUri: 'gs://b/m' } } }, status);

export const run = (parent: KubeObject, options: Partial<RunOptions<unknown>> = {}) =>
  runSync(inferencegraph, { parent, config, now: '2026-01-01T00:00:00Z', ...options });
export const customize = (parent: KubeObject, options: Partial<RunOptions<unknown>> = {}) => runCustomize(inferencegraph, { parent, config, ...options });

/** The router container of an answer. */
export function router(out: ReturnType<typeof run>): any {
  return (out.child('Deployment', 'g') as any)?.spec.template.spec.containers[0];
}

/** The graph the router was given, parsed. */
export function graphArg(out: ReturnType<typeof run>): any {
  const args = router(out)?.args as string[] | undefined;
  return args && JSON.parse(args[1] as string);
}

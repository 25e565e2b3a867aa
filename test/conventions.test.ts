import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../hooks/compositions.js';
import { runSync } from '../hooks/testing/index.js';
import { goldenCases } from './support/golden.js';

// docs/guarantees.md, "What every composition guarantees": checked on every child of every golden case.
const STANDARD_LABELS = ['app.kubernetes.io/name', 'app.kubernetes.io/instance', 'app.kubernetes.io/component', 'app.kubernetes.io/part-of'];

type Container = { name: string; readinessProbe?: unknown; livenessProbe?: unknown; resources?: { requests?: object }; securityContext?: Record<string, any> };
type PodSpec = { securityContext?: Record<string, any>; containers: Container[]; initContainers?: Container[] };

for (const composition of builtinCompositions) {
  describe(`${composition.name}: conventions of every child`, () => {
    const children = goldenCases(composition.name).flatMap((c) => runSync(composition, c.options).children.map((child) => ({ case: c.name, child })));

    it('every child carries the app.kubernetes.io labels and managed-by modelhooks', () => {
      for (const { case: name, child } of children) {
        const labels = child.metadata.labels ?? {};
        for (const key of STANDARD_LABELS) expect(labels[key], `${name}: ${child.kind}/${child.metadata.name} ${key}`).toBeTruthy();
        expect(labels['app.kubernetes.io/managed-by'], `${name}: ${child.kind}/${child.metadata.name}`).toBe('modelhooks');
      }
    });

    it('every Deployment has probes, resource requests and a restricted security context', () => {
      const deployments = children.filter((c) => c.child.kind === 'Deployment');
      for (const { case: name, child } of deployments) {
        const pod = (child.spec as { template: { spec: PodSpec } }).template.spec;
        const id = `${name}: Deployment/${child.metadata.name}`;
        expect(pod.securityContext?.seccompProfile?.type, id).toBe('RuntimeDefault');
        for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
          expect(c.securityContext?.allowPrivilegeEscalation, `${id} ${c.name}`).toBe(false);
          expect(c.securityContext?.capabilities?.drop, `${id} ${c.name}`).toEqual(['ALL']);
          expect(c.resources?.requests, `${id} ${c.name}`).toBeDefined();
        }
        const server = pod.containers[0] as Container;
        expect(server.readinessProbe, id).toBeDefined();
        // KServe sets no liveness probe (deployment_reconciler.go setDefaultPodSpec): an InferenceService's server has one only when its runtime declares one.
        if (composition.name !== 'inferenceservice') expect(server.livenessProbe, id).toBeDefined();
      }
    });
  });
}

import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../hooks/compositions.js';
import { runSync } from '../hooks/testing/index.js';
import { loadConfig } from '../hooks/server/config.js';
import { goldenCases } from './support/golden.js';

// docs/guarantees.md, "What every composition guarantees": checked on every child of every golden case.
const STANDARD_LABELS = ['app.kubernetes.io/name', 'app.kubernetes.io/instance', 'app.kubernetes.io/component', 'app.kubernetes.io/part-of'];

type Container = { name: string; readinessProbe?: unknown; livenessProbe?: unknown; resources?: { requests?: object }; securityContext?: Record<string, any> };
type PodSpec = { securityContext?: Record<string, any>; containers: Container[]; initContainers?: Container[] };

/** The compositions whose pods are KServe's: restricted fields only at the restricted level, KServe's probes and resources. */
const KSERVE = ['inferenceservice', 'inferencegraph'];
const restricted = loadConfig({ MODELHOOKS_POD_SECURITY: 'restricted' }).hooks;

for (const composition of builtinCompositions) {
  describe(`${composition.name}: conventions of every child`, () => {
    const children = goldenCases(composition.name).flatMap((c) => runSync(composition, c.options).children.map((child) => ({ case: c.name, child })));
    // KServe's compositions at the restricted level (MODELHOOKS_POD_SECURITY=restricted, or a Namespace enforcing it).
    const atRestricted = KSERVE.includes(composition.name)
      ? goldenCases(composition.name).flatMap((c) => {
          const config = { ...restricted, ...(c.options.config ?? {}) } as typeof restricted;
          const own = { ...(config[composition.name as keyof typeof config] as object), podSecurity: 'restricted' };
          return runSync(composition, { ...c.options, config: { ...config, [composition.name]: own } }).children.map((child) => ({ case: c.name, child }));
        })
      : children;

    it('every child carries the app.kubernetes.io labels and managed-by modelhooks', () => {
      for (const { case: name, child } of children) {
        const labels = child.metadata.labels ?? {};
        for (const key of STANDARD_LABELS) expect(labels[key], `${name}: ${child.kind}/${child.metadata.name} ${key}`).toBeTruthy();
        expect(labels['app.kubernetes.io/managed-by'], `${name}: ${child.kind}/${child.metadata.name}`).toBe('modelhooks');
      }
    });

    it("every Deployment has probes, resource requests and a restricted security context (KServe's: at the restricted level, with its probes and resources)", () => {
      const deployments = atRestricted.filter((c) => c.child.kind === 'Deployment');
      for (const { case: name, child } of deployments) {
        const pod = (child.spec as { template: { spec: PodSpec } }).template.spec;
        const id = `${name}: Deployment/${child.metadata.name}`;
        expect(pod.securityContext?.seccompProfile?.type, id).toBe('RuntimeDefault');
        for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
          expect(c.securityContext?.allowPrivilegeEscalation, `${id} ${c.name}`).toBe(false);
          expect(c.securityContext?.capabilities?.drop, `${id} ${c.name}`).toEqual(['ALL']);
          // KServe defaults no sidecar's resources, and a runtime without any keeps none (predictor_model.go).
          if (!KSERVE.includes(composition.name)) expect(c.resources?.requests, `${id} ${c.name}`).toBeDefined();
        }
        const server = pod.containers[0] as Container;
        // KServe's readiness goes to kserve-container and transformer-container only (setDefaultPodSpec); the router has its own.
        if (!KSERVE.includes(composition.name) || ['kserve-container', 'transformer-container'].includes(server.name) || composition.name === 'inferencegraph')
          expect(server.readinessProbe, id).toBeDefined();
        // KServe sets no liveness probe (deployment_reconciler.go setDefaultPodSpec, raw_ig.go): its servers have one only when the runtime declares one.
        if (!KSERVE.includes(composition.name)) expect(server.livenessProbe, id).toBeDefined();
      }
    });
  });
}

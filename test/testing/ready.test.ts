import { describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { deploymentReadiness, jobState, pvcReadiness, type KubeObject } from '../../hooks/kit/index.js';
import { boundPvc, completedJob, ready, readyDeployment, readyService, runSync } from '../../hooks/testing/index.js';
import { goldenCases } from '../support/golden.js';
import { validateObject } from '../support/validate.js';

const meta = { name: 'demo', namespace: 'ns' };
const deployment = (replicas?: number): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: meta,
  spec: {
    ...(replicas === undefined ? {} : { replicas }),
    selector: { matchLabels: { app: 'demo' } },
    template: { metadata: { labels: { app: 'demo' } }, spec: { containers: [{ name: 'c', image: 'example/c:1' }] } },
  },
});
const service = (type?: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: meta,
  spec: { ...(type ? { type } : {}), selector: { app: 'demo' }, ports: [{ name: 'http', port: 80 }] },
});

/** Every child of every built-in golden case, once made ready. */
const readyChildren = builtinCompositions.flatMap((c) =>
  goldenCases(c.name).flatMap((g) =>
    runSync(c, g.options).children.map((child) => ({ id: `${c.name}/${g.name}: ${child.kind}/${child.metadata.name}`, child: ready(child) })),
  ),
);

describe('ready: observed children as the cluster shows them once ready', () => {
  it('is valid against the Kubernetes 1.35 OpenAPI, status included (unknown fields fail)', () => {
    const kinds = new Set(readyChildren.map((r) => r.child.kind));
    for (const kind of ['Deployment', 'Job', 'PersistentVolumeClaim', 'Service', 'Ingress', 'HorizontalPodAutoscaler']) expect(kinds, kind).toContain(kind);
    const errors = readyChildren
      .filter((r) => r.child.apiVersion !== 'monitoring.coreos.com/v1')
      .flatMap((r) => validateObject(r.child).map((e) => `${r.id}: ${e}`));
    expect(errors).toEqual([]);
  });

  it("is what the kit's readiness functions call ready, for every kind they read", () => {
    const judge: Record<string, (o: KubeObject) => string> = {
      Deployment: (o) => deploymentReadiness(o).status,
      PersistentVolumeClaim: (o) => pvcReadiness(o).status,
      // The kit has no Ingress or HPA judgement (no composition waits on them): what the
      // controllers write is checked field by field below.
      Ingress: (o) => (((o.status as { loadBalancer?: { ingress?: unknown[] } } | undefined)?.loadBalancer?.ingress?.length ?? 0) > 0 ? 'True' : 'False'),
      HorizontalPodAutoscaler: (o) =>
        ((o.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []).find((c) => c.type === 'AbleToScale')?.status ??
        'Unknown',
      Job: (o) => (jobState(o).state === 'Succeeded' ? 'True' : jobState(o).state),
    };
    const notReady = readyChildren.filter((r) => judge[r.child.kind] && judge[r.child.kind]!(r.child) !== 'True').map((r) => r.id);
    expect(notReady).toEqual([]);
  });

  it('writes a Deployment status field by field as the deployment controller does', () => {
    const d = readyDeployment(deployment(2), { now: '2026-02-03T04:05:06Z' });
    expect(d.metadata.generation).toBe(1);
    expect(d.status).toEqual({
      observedGeneration: 1,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastUpdateTime: '2026-02-03T04:05:06Z',
          lastTransitionTime: '2026-02-03T04:05:06Z',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
        },
        {
          type: 'Progressing',
          status: 'True',
          lastUpdateTime: '2026-02-03T04:05:06Z',
          lastTransitionTime: '2026-02-03T04:05:06Z',
          reason: 'NewReplicaSetAvailable',
          message: expect.stringMatching(/^ReplicaSet "demo-[a-f0-9]{10}" has successfully progressed\.$/),
        },
      ],
    });
  });

  const deploymentCases: Array<{ reason: string; input: KubeObject; replicas: Record<string, number>; generation: number }> = [
    { reason: 'no spec.replicas means 1 (the API default)', input: deployment(), replicas: { replicas: 1, availableReplicas: 1 }, generation: 1 },
    { reason: 'zero replicas: the controller omits zero counters', input: deployment(0), replicas: {}, generation: 1 },
    {
      reason: 'an existing generation is observed, not reset',
      input: { ...deployment(1), metadata: { ...meta, generation: 7 } },
      replicas: { replicas: 1 },
      generation: 7,
    },
  ];
  for (const c of deploymentCases) {
    it(`Deployment: ${c.reason}`, () => {
      const d = readyDeployment(c.input);
      expect(d.status).toMatchObject({ observedGeneration: c.generation, ...c.replicas });
      if (Object.keys(c.replicas).length === 0) expect(Object.keys(d.status as object)).toEqual(['observedGeneration', 'conditions']);
      expect(deploymentReadiness(d).status).toBe('True');
    });
  }

  it('completes a Job with SuccessCriteriaMet then Complete, as the job controller does since 1.31', () => {
    const job = completedJob<KubeObject>({ apiVersion: 'batch/v1', kind: 'Job', metadata: meta, spec: { completions: 3, template: {} } });
    expect(job.status).toMatchObject({ succeeded: 3, ready: 0, terminating: 0, uncountedTerminatedPods: {} });
    expect((job.status as { conditions: Array<{ type: string; reason: string }> }).conditions.map((c) => `${c.type}/${c.reason}`)).toEqual([
      'SuccessCriteriaMet/CompletionsReached',
      'Complete/CompletionsReached',
    ]);
  });

  it('binds a PVC with the capacity it asked for and marks the binding done', () => {
    const pvc = boundPvc<KubeObject>({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: meta,
      spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '5Gi' } } },
    });
    expect(pvc.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteMany'], capacity: { storage: '5Gi' } });
    expect(pvc.metadata.annotations).toMatchObject({ 'pv.kubernetes.io/bind-completed': 'yes' });
    expect((pvc.spec as { volumeName: string }).volumeName).toMatch(/^pvc-/);
  });

  const serviceCases: Array<{ reason: string; type?: string; loadBalancer: object; nodePort: boolean }> = [
    { reason: 'ClusterIP (the default): a cluster IP, an empty load balancer', loadBalancer: {}, nodePort: false },
    { reason: 'NodePort: a node port per port', type: 'NodePort', loadBalancer: {}, nodePort: true },
    {
      reason: 'LoadBalancer: node ports and the address the cloud publishes',
      type: 'LoadBalancer',
      loadBalancer: { ingress: [{ ip: expect.stringMatching(/^203\.0\.113\.\d+$/), ipMode: 'VIP' }] },
      nodePort: true,
    },
  ];
  for (const c of serviceCases) {
    it(`Service ${c.reason}`, () => {
      const svc = readyService(service(c.type));
      const spec = svc.spec as { clusterIP: string; clusterIPs: string[]; type: string; ports: Array<{ nodePort?: number; protocol: string }> };
      expect(spec.type).toBe(c.type ?? 'ClusterIP');
      expect(spec.clusterIPs).toEqual([spec.clusterIP]);
      expect(spec.ports[0]?.protocol).toBe('TCP');
      expect(spec.ports[0]?.nodePort !== undefined).toBe(c.nodePort);
      if (c.nodePort) expect(spec.ports[0]?.nodePort).toBeGreaterThanOrEqual(30000);
      expect(svc.status).toEqual({ loadBalancer: c.loadBalancer });
      expect(validateObject(svc)).toEqual([]);
    });
  }

  it('never changes its input, and gives other kinds back as applied with a generation', () => {
    const input = Object.freeze(deployment(1));
    const before = JSON.stringify(input);
    ready(input);
    expect(JSON.stringify(input)).toBe(before);
    const cm = ready({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta, data: { a: 'b' } });
    expect(cm).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...meta, generation: 1 }, data: { a: 'b' } });
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../e2e/support/kube.js';
import { type Difference, diffObjects, flatten, type KeptDifference, keyOf, matcher, normalise, scaledByHpa } from './support/compare.js';
import { loadCorpus } from './support/corpus.js';
import { configWith } from './support/kserve.js';

// The oracle tier's own logic, without a cluster (it runs in `npm test`): what it normalises,
// how it names a difference, how differences.yaml matches, and the corpus' shape.

const pod = (volumes: string[], extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'x-predictor-5f7c9-abcde',
    generateName: 'x-predictor-5f7c9-',
    namespace: 'o0-1',
    uid: 'u1',
    resourceVersion: '12',
    creationTimestamp: '2026-01-01T00:00:00Z',
    labels: { app: 'x', 'pod-template-hash': '5f7c9' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x-5f7c9', uid: 'rs' }],
  },
  spec: {
    nodeName: 'live-node',
    volumes: volumes.map((name) => ({ name })),
    containers: [
      {
        name: 'kserve-container',
        image: 'i',
        volumeMounts: volumes.map((name) => ({
          name,
          mountPath: name.startsWith('kube-api-access') ? '/var/run/secrets/kubernetes.io/serviceaccount' : `/${name}`,
        })),
      },
    ],
    ...extra,
  },
  status: { phase: 'Running' },
});

describe('normalise (ORACLE.md: what differs by construction)', () => {
  it('drops identity, bookkeeping, status, the pod-template-hash, the owner and node of a Pod; renames kube-api-access-*; sorts volumes', () => {
    const out = normalise(pod(['storage', 'kube-api-access-x7k2p', 'cache']));
    expect(out.metadata).toEqual({ labels: { app: 'x' } });
    expect(out.status).toBeUndefined();
    const spec = out.spec as { nodeName?: string; volumes: Array<{ name: string }>; containers: Array<{ volumeMounts: Array<{ name: string }> }> };
    expect(spec.nodeName).toBeUndefined();
    expect(spec.volumes.map((v) => v.name)).toEqual(['cache', 'kube-api-access', 'storage']);
    expect(spec.containers[0]?.volumeMounts.map((m) => m.name)).toEqual(['storage', 'kube-api-access', 'cache']);
  });
  it("keeps a Service's clusterIP None (headless is a real choice), drops an allocated one", () => {
    const svc = (clusterIP: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { clusterIP, clusterIPs: [clusterIP] },
    });
    expect(normalise(svc('None')).spec).toEqual({ clusterIP: 'None', clusterIPs: ['None'] });
    expect(normalise(svc('10.96.0.7')).spec).toEqual({});
  });
  it("keeps an ownerReference's kind and name, not its uid; drops the Deployment controller's revision annotation", () => {
    const d = normalise({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'd',
        annotations: { 'deployment.kubernetes.io/revision': '1', keep: 'me' },
        ownerReferences: [{ apiVersion: 'serving.kserve.io/v1beta1', kind: 'InferenceService', name: 'x', uid: 'u', controller: true }],
      },
      spec: { template: { metadata: { labels: { a: 'b' } }, spec: { containers: [] } } },
    });
    expect(d.metadata).toEqual({
      name: 'd',
      annotations: { keep: 'me' },
      ownerReferences: [{ apiVersion: 'serving.kserve.io/v1beta1', kind: 'InferenceService', name: 'x', controller: true }],
    });
  });
});

describe('flatten and diffObjects', () => {
  it('indexes arrays of uniquely named items by name, others by position; empty containers are leaves', () => {
    const flat = flatten({ containers: [{ name: 'a', args: ['x'] }], tolerations: [{ key: 'k' }], env: [], meta: {} });
    expect([...flat.entries()]).toEqual([
      ['containers[a].name', 'a'],
      ['containers[a].args[0]', 'x'],
      ['tolerations[0].key', 'k'],
      ['env', []],
      ['meta', {}],
    ]);
  });
  it('brackets keys holding dots or slashes (labels, annotations)', () => {
    expect([...flatten({ metadata: { labels: { 'app.kubernetes.io/name': 'x', app: 'y' } } }).keys()]).toEqual([
      'metadata.labels[app.kubernetes.io/name]',
      'metadata.labels.app',
    ]);
  });
  it('reports a field one side lacks entirely once, at its top, with the leaves below it', () => {
    const a = pod([]);
    const b = pod([], {
      initContainers: [{ name: 'storage-initializer', image: 'si', args: ['gs://m', '/mnt/models'] }],
      securityContext: { runAsNonRoot: true },
    });
    (a.spec as Record<string, unknown>).securityContext = {};
    expect(diffObjects('s', new Map([[keyOf('Pod', 'x'), a]]), new Map([[keyOf('Pod', 'x'), b]]))).toEqual([
      {
        spec: 's',
        kind: 'Pod',
        object: 'x',
        path: 'spec.initContainers',
        kserve: undefined,
        modelhooks: {
          '[storage-initializer].name': 'storage-initializer',
          '[storage-initializer].image': 'si',
          '[storage-initializer].args[0]': 'gs://m',
          '[storage-initializer].args[1]': '/mnt/models',
        },
      },
      { spec: 's', kind: 'Pod', object: 'x', path: 'spec.securityContext.runAsNonRoot', kserve: undefined, modelhooks: true },
    ]);
  });
  it('names each differing field with both values, and an object on one side only', () => {
    const a = pod(['kube-api-access-aaaaa']);
    const b = pod(['kube-api-access-bbbbb'], { serviceAccountName: 'sa' });
    const diffs = diffObjects(
      's',
      new Map([[keyOf('Pod', 'x'), a]]),
      new Map([
        [keyOf('Pod', 'x'), b],
        [keyOf('Ingress', 'x'), b],
      ]),
    );
    expect(diffs).toEqual([
      { spec: 's', kind: 'Ingress', object: 'x', path: '(object)', kserve: undefined, modelhooks: 'present' },
      { spec: 's', kind: 'Pod', object: 'x', path: 'spec.serviceAccountName', kserve: undefined, modelhooks: 'sa' },
    ]);
  });
});

describe("an HPA's replicas (kube-controller-manager's HPA controller, not KServe's or modelhooks' write)", () => {
  const deployment = (name: string, replicas?: number): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: { ...(replicas !== undefined ? { replicas } : {}), template: { spec: { containers: [] } } },
  });
  const hpa = (target: string, minReplicas: number, maxReplicas: number): KubeObject => ({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: target },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target }, minReplicas, maxReplicas },
  });
  const side = (...objects: KubeObject[]) => new Map(objects.map((o) => [keyOf(o.kind, o.metadata.name), o]));
  const replicasOf = (m: Map<string, KubeObject>, name: string) => (m.get(keyOf('Deployment', name))?.spec as { replicas?: number }).replicas;

  it('a Deployment an HPA scales is held within its bounds, as the HPA controller does at once; one without an HPA keeps its replicas', () => {
    const out = scaledByHpa(
      side(deployment('pinned', 1), hpa('pinned', 3, 3), deployment('wide', 4), hpa('wide', 2, 5), deployment('over', 9), hpa('over', 1, 2)),
    );
    expect([replicasOf(out, 'pinned'), replicasOf(out, 'wide'), replicasOf(out, 'over')]).toEqual([3, 4, 2]);
    expect(replicasOf(scaledByHpa(side(deployment('fixed', 2))), 'fixed')).toBe(2);
  });

  it("KServe's Deployment as its HPA left it (minReplicas 3) and modelhooks' dry-run one (1) do not differ; without the HPA they do", () => {
    const theirs = side(deployment('pinned', 3), hpa('pinned', 3, 3));
    expect(diffObjects('s', theirs, side(deployment('pinned', 1), hpa('pinned', 3, 3)))).toEqual([]);
    expect(diffObjects('s', theirs, side(deployment('pinned', 1)))).toEqual([
      { spec: 's', kind: 'Deployment', object: 'pinned', path: 'spec.replicas', kserve: 3, modelhooks: 1 },
      { spec: 's', kind: 'HorizontalPodAutoscaler', object: 'pinned', path: '(object)', kserve: 'present', modelhooks: undefined },
    ]);
  });
});

describe('matcher (differences.yaml entries)', () => {
  const d = (kind: string, p: string, spec = 'default/a/x'): Difference => ({ spec, kind, object: 'x', path: p });
  const entry = (e: Partial<KeptDifference>): KeptDifference => ({ kind: 'Pod', path: '', reason: 'r', upstream: 'u', ...e });
  it('`*` stays within a path segment, `[*]` is one bracketed segment (dots and all), `**` crosses segments', () => {
    const m = matcher([
      entry({ path: 'spec.containers[*].ports[0].name' }),
      entry({ kind: 'Service', path: 'metadata.**' }),
      entry({ kind: 'Ingress', path: 'metadata.labels[app.kubernetes.io/*]' }),
    ]);
    expect(m.match(d('Ingress', 'metadata.labels[app.kubernetes.io/name]'))).toBeDefined();
    expect(m.match(d('Ingress', 'metadata.labels[example.com/name]'))).toBeUndefined();
    expect(m.match(d('Pod', 'spec.containers[kserve-container].ports[0].name'))).toBeDefined();
    expect(m.match(d('Pod', 'spec.containers[a].b.ports[0].name'))).toBeUndefined();
    expect(m.match(d('Service', 'metadata.labels.app'))).toBeDefined();
    expect(m.match(d('Pod', 'metadata.labels.app'))).toBeUndefined();
  });
  it('`specs` narrows an entry to spec names', () => {
    const m = matcher([entry({ path: 'spec.x', specs: ['config-*/**'] })]);
    expect(m.match(d('Pod', 'spec.x', 'config-ingress/sklearn/sklearn-iris'))).toBeDefined();
    expect(m.match(d('Pod', 'spec.x', 'default/sklearn/sklearn-iris'))).toBeUndefined();
  });
});

describe('the corpus and differences.yaml', () => {
  const groups = loadCorpus();
  const specs = groups.flatMap((g) => g.specs);
  it('holds at least 60 specs, each with a comment saying what it covers, names unique', () => {
    expect(specs.length).toBeGreaterThanOrEqual(60);
    expect(specs.filter((s) => !s.covers).map((s) => s.name)).toEqual([]);
    expect(new Set(specs.map((s) => s.name)).size).toBe(specs.length);
  });
  it('covers every router type and both parent kinds', () => {
    const routers = new Set(
      specs.flatMap((s) => Object.values((s.parent.spec as { nodes?: Record<string, { routerType: string }> }).nodes ?? {}).map((n) => n.routerType)),
    );
    expect([...routers].sort()).toEqual(['Ensemble', 'Sequence', 'Splitter', 'Switch']);
  });
  it("a configuration group's variation is merged into the shipped JSON documents, field by field, over Standard mode", () => {
    const shipped = { _example: '...', ingress: '{"ingressDomain": "example.com", "urlScheme": "http"}', deploy: '{"defaultDeploymentMode": "Serverless"}' };
    const data = configWith(shipped, { ingress: { urlScheme: 'https' }, service: { serviceClusterIPNone: true } }).data as Record<string, string>;
    expect(Object.keys(data).sort()).toEqual(['deploy', 'ingress', 'service']);
    expect(JSON.parse(data.ingress ?? '')).toEqual({ ingressDomain: 'example.com', urlScheme: 'https', disableIstioVirtualHost: true });
    expect(JSON.parse(data.deploy ?? '')).toEqual({ defaultDeploymentMode: 'Standard' });
    for (const g of groups.filter((x) => x.name !== 'default')) expect(Object.keys(g.config).length, g.name).toBeGreaterThan(0);
  });
  it('every kept difference has a reason and an upstream file; every refused spec exists in the corpus', () => {
    const listed = parse(readFileSync(path.join(import.meta.dirname, 'differences.yaml'), 'utf8')) as {
      kept: KeptDifference[];
      refused: Array<{ spec: string }>;
    };
    for (const k of listed.kept ?? []) {
      expect(k.reason, `${k.kind} ${k.path}`).toBeTruthy();
      expect(k.upstream, `${k.kind} ${k.path}`).toMatch(/^(pkg|config|cmd)\//);
    }
    for (const r of listed.refused ?? []) expect(specs.map((s) => s.name)).toContain(r.spec);
  });
});

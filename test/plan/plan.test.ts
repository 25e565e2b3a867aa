import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { main } from '../../hooks/cli/main.js';
import { readObjects } from '../../hooks/cli/render.js';
import type { KubeObject } from '../../hooks/kit/types.js';
import type { PlanReport } from '../../hooks/cli/plan/output.js';
import { simulateCluster } from '../support/plan-cluster.js';

const root = path.resolve(import.meta.dirname, '../..');
const example = (f: string) => readObjects(path.join(root, 'examples', f));
const NOW = ['--now', '2026-01-01T00:00:00Z'];
const LAST_APPLIED = 'metacontroller.k8s.io/last-applied-configuration';

const SECRET_PLAIN = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY';
const SECRET_B64 = Buffer.from(SECRET_PLAIN).toString('base64');

const parents = [
  ...example('inferenceservice.yaml'),
  ...example('trustyai.yaml'),
  ...example('tfserv.yaml'),
  ...example('mlmodel.yaml'),
  ...example('inferencegraph.yaml'),
];
const others: KubeObject[] = [
  ...example('tfserv-configmap.yaml'),
  ...example('servingruntime.yaml'),
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'models', labels: { team: 'a' } } },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fairness' } },
  { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'storage-config', namespace: 'models' }, data: { AWS_SECRET_ACCESS_KEY: SECRET_B64 } },
  { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'other', namespace: 'default' }, stringData: { token: 'another-Secret-Value-42' } },
];
/** Every object of the examples' cluster, settled: what a dump of it holds. */
const cluster = simulateCluster(parents, others);

const dir = mkdtempSync(path.join(tmpdir(), 'modelhooks-plan-'));
let files = 0;
function dumpFile(objects: KubeObject[], name = `dump-${++files}.yaml`): string {
  const file = path.join(dir, name);
  writeFileSync(file, stringify({ apiVersion: 'v1', kind: 'List', items: objects }, { lineWidth: 0 }));
  return file;
}

async function plan(args: string[]) {
  let out = '';
  let err = '';
  const code = await main(['plan', ...args, ...NOW], { out: (t) => void (out += t), err: (t) => void (err += t), env: {}, cwd: root });
  return { code, out, err };
}

async function planJson(args: string[]) {
  const r = await plan([...args, '-o', 'json']);
  return { ...r, report: JSON.parse(r.out) as PlanReport };
}

const byName = (objects: KubeObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name) as KubeObject;
const edited = (objects: KubeObject[], kind: string, name: string, edit: (o: KubeObject) => KubeObject | undefined) =>
  objects.flatMap((o) => (o.kind === kind && o.metadata.name === name ? (edit(structuredClone(o)) ?? []) : [o]));

/** KServe's inferenceservice-config with the storage initializer's image changed (configmap.go StorageInitializerConfig.Image). */
const configMap = (data: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'inferenceservice-config', namespace: 'kserve' },
  data,
});

describe('modelhooks plan: a dump of a settled cluster', () => {
  it('changes nothing against the same version and config: exit 0, every parent unchanged', async () => {
    const { code, report } = await planJson([dumpFile(cluster)]);
    expect(report.summary).toMatchObject({ parents: 5, unchanged: 5, changed: 0, failing: 0, rolled: 0 });
    expect(report.parents.every((p) => p.result === 'unchanged' && p.children.length === 0 && p.status.changes.length === 0)).toBe(true);
    expect(code).toBe(0);
  });

  it('reads a directory of files and JSON as well as one YAML List', async () => {
    const sub = path.join(dir, 'split');
    mkdirSync(sub);
    writeFileSync(path.join(sub, 'a.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: cluster.slice(0, 10) }));
    writeFileSync(
      path.join(sub, 'b.yaml'),
      cluster
        .slice(10)
        .map((o) => stringify(o))
        .join('---\n'),
    );
    const { code, report } = await planJson([sub]);
    expect([code, report.summary.parents, report.summary.unchanged]).toEqual([0, 5, 5]);
  });
});

describe('modelhooks plan --set-config', () => {
  it('a new inferenceservice-config: the Deployment updated field by field, its roll named, exit 2', async () => {
    const config = dumpFile([configMap({ storageInitializer: '{"image": "kserve/storage-initializer:v0.99.0"}' })], 'config.yaml');
    const { code, report } = await planJson([dumpFile(cluster), '--set-config', config]);
    expect(code).toBe(2);
    const isvc = report.parents.find((p) => p.kind === 'InferenceService');
    expect(isvc?.result).toBe('changed');
    const deployment = isvc?.children.find((c) => c.kind === 'Deployment');
    expect(deployment).toMatchObject({ action: 'update', name: 'sklearn-iris-predictor' });
    // KServe: pkg/webhook/admission/pod/storage_initializer_injector.go takes the image from storageInitializer.image.
    expect(deployment?.changes).toContainEqual({
      path: 'spec.template.spec.initContainers[storage-initializer].image',
      before: 'kserve/storage-initializer:v0.20.0',
      after: 'kserve/storage-initializer:v0.99.0',
    });
    expect(deployment?.rolls).toBe('pod template changes: spec.initContainers[storage-initializer].image');
    expect(report.summary).toMatchObject({ changed: 1, unchanged: 4, rolled: 1 });
    expect(report.summary.byNamespace.models).toMatchObject({ changed: 1, rolled: 1 });
    expect(report.summary.byComposition.inferenceservice).toMatchObject({ changed: 1, rolled: 1 });
    // The other parents read no inferenceservice-config.
    expect(report.parents.filter((p) => p.kind !== 'InferenceService').every((p) => p.result === 'unchanged')).toBe(true);
  });

  it('prints the roll in one line and the summary table in text', async () => {
    const config = dumpFile([configMap({ storageInitializer: '{"image": "kserve/storage-initializer:v0.99.0"}' })], 'config-text.yaml');
    const { code, out } = await plan([dumpFile(cluster), '--set-config', config]);
    expect(code).toBe(2);
    expect(out).toContain('~ update Deployment sklearn-iris-predictor');
    expect(out).toContain(
      'spec.template.spec.initContainers[storage-initializer].image: "kserve/storage-initializer:v0.20.0" → "kserve/storage-initializer:v0.99.0"',
    );
    expect(out).toContain(
      'Deployments that would roll (1):\n  models/sklearn-iris-predictor (InferenceService sklearn-iris): pod template changes: spec.initContainers[storage-initializer].image',
    );
    expect(out).toMatch(/namespace models\s+2\s+1\s+1\s+0\s+1/);
    expect(out).toContain('1 of 5 parent(s) would change, 1 Deployment(s) would roll');
  });

  it('a Namespace annotation: the parents of that namespace change, the annotation replacing the dump’s', async () => {
    // docs/multi-tenancy.md: modelhooks.dev/allowed-images refuses other images in the namespace.
    const ns: KubeObject = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'models', annotations: { 'modelhooks.dev/allowed-images': 'registry.example/*' } },
    };
    const { code, report } = await planJson([dumpFile(cluster), '--set-config', dumpFile([ns], 'ns.yaml')]);
    expect(code).toBe(2);
    const inModels = report.parents.filter((p) => p.namespace === 'models');
    expect(inModels.length).toBeGreaterThan(0);
    for (const p of inModels) {
      expect(p.result).toBe('changed');
      expect(p.status.changes.some((c) => c.path.startsWith('status.conditions[Ready]'))).toBe(true);
    }
    expect(report.parents.filter((p) => p.namespace !== 'models').every((p) => p.result === 'unchanged')).toBe(true);
  });
});

describe('modelhooks plan: children missing, orphaned, drifted', () => {
  it('a missing child is created', async () => {
    const dump = cluster.filter((o) => !(o.kind === 'Service' && o.metadata.name === 'sklearn-iris-predictor'));
    const { code, report } = await planJson([dumpFile(dump)]);
    expect(code).toBe(2);
    const isvc = report.parents.find((p) => p.kind === 'InferenceService');
    expect(isvc?.children).toEqual([{ action: 'create', apiVersion: 'v1', kind: 'Service', namespace: 'models', name: 'sklearn-iris-predictor' }]);
  });

  it('an owned child the hook no longer wants is deleted; one owned by another controller is left alone', async () => {
    const parent = byName(cluster, 'InferenceService', 'sklearn-iris');
    const uid = parent.metadata.uid as string;
    const stray = (name: string, ownerUid: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name,
        namespace: 'models',
        uid: `uid-${name}`,
        labels: { 'controller-uid': uid },
        ownerReferences: [{ apiVersion: parent.apiVersion, kind: 'InferenceService', name: 'x', uid: ownerUid, controller: true }],
      },
      spec: { ports: [{ port: 80 }] },
    });
    const { report } = await planJson([dumpFile([...cluster, stray('old-transformer', uid), stray('someone-elses', 'another-uid')])]);
    const isvc = report.parents.find((p) => p.kind === 'InferenceService');
    expect(isvc?.children).toEqual([{ action: 'delete', apiVersion: 'v1', kind: 'Service', namespace: 'models', name: 'old-transformer' }]);
  });

  it('a field the desired object does not set is not a change (the server’s defaults, another controller’s annotation)', async () => {
    const dump = edited(cluster, 'Deployment', 'sklearn-iris-predictor', (d) => {
      (d.spec as Record<string, unknown>).minReadySeconds = 5;
      d.metadata.annotations = { ...d.metadata.annotations, 'deployment.kubernetes.io/revision': '3' };
      return d;
    });
    const { code } = await planJson([dumpFile(dump)]);
    expect(code).toBe(0);
  });

  it('a field the hook sets and someone changed is put back (the 3-way merge), and a Deployment image change rolls', async () => {
    const dump = edited(cluster, 'Deployment', 'sklearn-iris-predictor', (d) => {
      const spec = d.spec as { replicas?: number; template: { spec: { containers: Array<{ name: string; image: string }> } } };
      const container = spec.template.spec.containers.find((c) => c.name === 'kserve-container') as { image: string };
      container.image = 'someone/else:latest';
      return d;
    });
    const { report } = await planJson([dumpFile(dump)]);
    const deployment = report.parents.find((p) => p.kind === 'InferenceService')?.children[0];
    expect(deployment?.action).toBe('update');
    expect(deployment?.changes).toEqual([
      { path: 'spec.template.spec.containers[kserve-container].image', before: 'someone/else:latest', after: expect.any(String) },
    ]);
    expect(deployment?.rolls).toBe('pod template changes: spec.containers[kserve-container].image');
  });

  it('a Job with updateStrategy OnDelete that differs is held, not a change (MLModel)', async () => {
    const dump = edited(cluster, 'Job', byNameOfKind(cluster, 'Job'), (j) => {
      const spec = j.spec as { template: { spec: { containers: Array<{ image: string }> } } };
      (spec.template.spec.containers[0] as { image: string }).image = 'old/downloader:1';
      return j;
    });
    const { code, report } = await planJson([dumpFile(dump)]);
    const job = report.parents.find((p) => p.kind === 'MLModel')?.children.find((c) => c.kind === 'Job');
    expect(job).toMatchObject({ action: 'held' });
    expect(code).toBe(0);
  });

  it('a status that differs (another observedGeneration) is a status change', async () => {
    const dump = edited(cluster, 'Tfserv', 'half-plus-two', (p) => ({ ...p, metadata: { ...p.metadata, generation: 2 } }));
    const { code, report } = await planJson([dumpFile(dump)]);
    expect(code).toBe(2);
    expect(report.parents.find((p) => p.kind === 'Tfserv')?.status.changes).toContainEqual({ path: 'status.observedGeneration', before: 1, after: 2 });
  });
});

function byNameOfKind(objects: KubeObject[], kind: string): string {
  return (objects.find((o) => o.kind === kind) as KubeObject).metadata.name;
}

describe('modelhooks plan: a takeover (children KServe made, owned by the parent without Metacontroller’s label)', () => {
  const kserveMade = cluster.map((o) => {
    if (!o.metadata.ownerReferences || o.metadata.namespace !== 'models') return o;
    const { 'controller-uid': _uid, ...labels } = o.metadata.labels ?? {};
    const { [LAST_APPLIED]: _last, ...annotations } = o.metadata.annotations ?? {};
    return { ...o, metadata: { ...o.metadata, labels, annotations } };
  });

  it('claims them as observed and says it is a takeover; what changes is only the bookkeeping', async () => {
    const { code, report, err } = await planJson([dumpFile(kserveMade)]);
    expect(err).toBe('');
    const isvc = report.parents.find((p) => p.kind === 'InferenceService');
    expect(isvc?.takeover).toBe(true);
    expect(isvc?.children.map((c) => [c.action, c.kind, c.bookkeepingOnly])).toEqual([
      ['update', 'Deployment', true],
      ['update', 'HorizontalPodAutoscaler', true],
      ['update', 'Ingress', true],
      ['update', 'Service', true],
    ]);
    expect(isvc?.children.some((c) => c.rolls)).toBe(false);
    expect(report.parents.filter((p) => p.namespace !== 'models').every((p) => !p.takeover)).toBe(true);
    expect(code).toBe(2);
    const text = await plan([dumpFile(kserveMade)]);
    expect(text.out).toContain('InferenceService models/sklearn-iris (inferenceservice): changed — takeover');
  });
});

describe('modelhooks plan: Secret values never appear', () => {
  it('not in text nor in JSON, even where a changed field holds one', async () => {
    // A drifted image that happens to be a Secret's value, a --set-config change, and Secrets with data in the dump.
    const dump = edited(cluster, 'Deployment', 'sklearn-iris-predictor', (d) => {
      const spec = d.spec as { template: { spec: { containers: Array<{ name: string; image: string }> } } };
      (spec.template.spec.containers.find((c) => c.name === 'kserve-container') as { image: string }).image = SECRET_PLAIN;
      return d;
    });
    const config = dumpFile([configMap({ storageInitializer: '{"image": "kserve/storage-initializer:v0.99.0"}' })], 'config-secret.yaml');
    for (const format of ['text', 'json']) {
      const { code, out, err } = await plan([dumpFile(dump), '--set-config', config, '-o', format]);
      expect(code).toBe(2);
      for (const value of [SECRET_PLAIN, SECRET_B64, 'another-Secret-Value-42']) {
        expect(out, format).not.toContain(value);
        expect(err, format).not.toContain(value);
      }
      expect(out).toContain('<redacted>');
    }
  });
});

describe('modelhooks plan: narrowing', () => {
  const config = () => dumpFile([configMap({ storageInitializer: '{"image": "kserve/storage-initializer:v0.99.0"}' })], 'config-narrow.yaml');

  it('--namespace, --kind and --selector plan only the parents they name', async () => {
    const dump = dumpFile(cluster);
    const names = async (args: string[]) => (await planJson([dump, ...args])).report.parents.map((p) => `${p.kind} ${p.namespace}/${p.name}`).sort();
    expect(await names(['--namespace', 'models'])).toEqual(
      parents
        .filter((p) => p.metadata.namespace === 'models')
        .map((p) => `${p.kind} models/${p.metadata.name}`)
        .sort(),
    );
    const of = (kind: string) => parents.filter((p) => p.kind === kind).map((p) => `${kind} ${p.metadata.namespace ?? 'default'}/${p.metadata.name}`);
    expect(await names(['--kind', 'tfserv'])).toEqual(of('Tfserv'));
    expect(await names(['--kind', 'InferenceService', '--kind', 'mlmodels'])).toEqual([...of('InferenceService'), ...of('MLModel')].sort());
    const labelled = edited(cluster, 'InferenceService', 'sklearn-iris', (p) => ({ ...p, metadata: { ...p.metadata, labels: { team: 'vision' } } }));
    expect((await planJson([dumpFile(labelled), '--selector', 'team=vision'])).report.parents.map((p) => p.name)).toEqual(['sklearn-iris']);
    expect((await planJson([dumpFile(labelled), '--selector', 'team notin (vision)', '--kind', 'inferenceservices,inferenceservice'])).report.parents).toEqual(
      [],
    );
  });

  it('a narrowed plan that leaves out the changed parent exits 0', async () => {
    const { code, report } = await planJson([dumpFile(cluster), '--set-config', config(), '--kind', 'trustyaiservice']);
    expect([code, report.summary.parents]).toEqual([0, 1]);
  });

  it('an unknown kind is a usage error: exit 1', async () => {
    const { code, err } = await plan([dumpFile(cluster), '--kind', 'nosuch']);
    expect(code).toBe(1);
    expect(err).toContain('--kind: no composition serves nosuch');
  });
});

describe('modelhooks plan: errors exit 1', () => {
  it('an unreadable dump, a parent without a uid', async () => {
    expect((await plan([path.join(dir, 'nope.yaml')])).code).toBe(1);
    const withoutUid = edited(cluster, 'Tfserv', 'half-plus-two', (p) => ({ ...p, metadata: { name: 'half-plus-two', namespace: 'default' } }));
    const { code, report } = await planJson([dumpFile(withoutUid)]);
    expect(code).toBe(1);
    expect(report.parents.find((p) => p.kind === 'Tfserv')).toMatchObject({ result: 'failing', error: expect.stringContaining('no metadata.uid') });
    expect(report.summary.failing).toBe(1);
  });
});

describe('modelhooks plan through a pipe', () => {
  it('writes a report larger than the pipe holds whole before the process exits', async () => {
    // 400 parents without a uid: quick to plan (each fails), a JSON report of well over 64 KiB.
    const many = Array.from({ length: 400 }, (_, i) => ({ ...(parents[2] as KubeObject), metadata: { name: `p-${i}`, namespace: 'default' } }));
    const file = dumpFile(many, 'many.yaml');
    // A reader slower than the writer (jq on a busy machine): it reads nothing for 3 s, so the
    // report cannot all fit into the pipe before plan is done.
    const command = `'${process.execPath}' --import tsx hooks/cli/main.ts plan '${file}' -o json; echo "exit $?" >&2`;
    const run = spawnSync('bash', ['-c', `(${command}) | (sleep 3; cat)`], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
    const out = run.stdout;
    const code = Number(/exit (\d+)/.exec(run.stderr)?.[1]);
    expect(out.length).toBeGreaterThan(65_536);
    expect(out.slice(0, 40), "the report's start").toMatch(/^\{\n  "summary"/);
    expect((JSON.parse(out) as PlanReport).summary.failing).toBe(400);
    expect(code).toBe(1);
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { main } from '../../hooks/cli/main.js';
import { secretValues } from '../../hooks/cli/plan/dump.js';
import { fieldChanges, type FieldChange } from '../../hooks/cli/plan/diff.js';
import type { PlanReport } from '../../hooks/cli/plan/output.js';
import { builtinCompositions } from '../../hooks/compositions.js';
import { fromRoot, objectsIn } from '../e2e/support/files.js';
import type { Kube, KubeObject } from '../e2e/support/kube.js';
import { kube, printLogsOnFailure } from './support/context.js';
import { exclusive } from './support/exclusive.js';
import { collectionPath, readyWithin, within } from './support/wait.js';

/*
 * issue 34: `modelhooks plan` against the real Metacontroller. The examples run in two
 * namespaces; once they are Ready and quiet the cluster is dumped (every collection a sync reads,
 * as `kubectl get … -A -o yaml` would list them: docs/plan.md) and planned: nothing changes. Then
 * a Namespace's annotations are changed with --set-config, and the plan's predictions are
 * compared with what Metacontroller then really writes, field by field: the children created,
 * deleted and updated (each changed field, before and after), and nothing else in that
 * namespace or the other one.
 */
const READY_MS = 120_000;
const SETTLE_MS = 120_000;
const NAMESPACES = ['live-plan-a', 'live-plan-b'];
const PARENT_KINDS = new Set(['InferenceService', 'TrustyAIService', 'Tfserv', 'MLModel']);
/** What the sync of every composition reads, beside the parents and children. */
const CORE = [
  ['v1', 'namespaces'],
  ['v1', 'serviceaccounts'],
  ['v1', 'secrets'],
  ['v1', 'configmaps'],
  ['v1', 'pods'],
  ['v1', 'services'],
  ['v1', 'persistentvolumeclaims'],
  ['storage.k8s.io/v1', 'storageclasses'],
  ['serving.kserve.io/v1alpha1', 'servingruntimes'],
  ['serving.kserve.io/v1alpha1', 'clusterservingruntimes'],
  ['metacontroller.k8s.io/v1alpha1', 'compositecontrollers'],
];

/** The collections a dump lists: the core ones, every composition's parent and child types (those the API server serves). */
function collections(): Array<[string, string]> {
  const all = new Map<string, [string, string]>();
  for (const [v, r] of CORE) all.set(`${v} ${r}`, [v as string, r as string]);
  for (const c of builtinCompositions) {
    all.set(`${c.parent.group}/${c.parent.versions[0]} ${c.parent.plural}`, [`${c.parent.group}/${c.parent.versions[0]}`, c.parent.plural]);
    for (const t of [...c.children, ...(c.optionalChildren ?? [])]) all.set(`${t.apiVersion} ${t.resource}`, [t.apiVersion, t.resource]);
  }
  return [...all.values()];
}

/** `kubectl get <every collection> -A -o yaml`, through the API: one v1 List, each item with its apiVersion and kind. */
async function dumpCluster(k: Kube): Promise<KubeObject[]> {
  const items: KubeObject[] = [];
  for (const [apiVersion, resource] of collections()) {
    const res = await k.request('GET', collectionPath(apiVersion, resource));
    if (res.status === 404) continue; // not served here (an optional child's CRD)
    const list = JSON.parse(res.text) as { kind: string; items: KubeObject[] };
    const kind = list.kind.replace(/List$/, '');
    for (const item of list.items) {
      const { managedFields: _m, ...metadata } = item.metadata as Record<string, unknown>;
      items.push({ ...item, apiVersion, kind, metadata } as KubeObject);
    }
  }
  return items;
}

const dir = mkdtempSync(path.join(tmpdir(), 'modelhooks-plan-live-'));
let n = 0;
function write(objects: KubeObject[]): string {
  const file = path.join(dir, `dump-${++n}.yaml`);
  writeFileSync(file, stringify({ apiVersion: 'v1', kind: 'List', items: objects }, { lineWidth: 0 }));
  return file;
}

/** `modelhooks plan` with the hook server's environment (the same MODELHOOKS_* configuration). */
async function plan(args: string[]) {
  let out = '';
  let err = '';
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('MODELHOOKS_')));
  const code = await main(['plan', ...args], { out: (t) => void (out += t), err: (t) => void (err += t), env, cwd: fromRoot() });
  return { code, out, err };
}

async function planJson(args: string[]) {
  const r = await plan([...args, '-o', 'json']);
  if (r.code === 1) throw new Error(`plan failed: ${r.err}${r.out.slice(0, 2000)}`);
  return { ...r, report: JSON.parse(r.out) as PlanReport };
}

const keyOf = (o: KubeObject) => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`;
const inOurs = (o: KubeObject) => NAMESPACES.includes(o.metadata.namespace ?? '');
const owned = (o: KubeObject) => (o.metadata.ownerReferences as unknown[] | undefined)?.length;

/** A child as Metacontroller's writes leave it, without what the API server and other controllers change on their own. */
function written(o: KubeObject): Record<string, unknown> {
  const { status: _s, metadata, ...rest } = o;
  const { resourceVersion: _rv, generation: _g, managedFields: _m, annotations, ...meta } = metadata as Record<string, unknown>;
  const kept = Object.entries((annotations ?? {}) as Record<string, string>).filter(
    ([k]) => k !== 'metacontroller.k8s.io/last-applied-configuration' && k !== 'deployment.kubernetes.io/revision',
  );
  return { ...rest, metadata: { ...meta, ...(kept.length > 0 ? { annotations: Object.fromEntries(kept) } : {}) } };
}

/** Our namespaces' parents and children, once two dumps 3 s apart show the same resourceVersions (quiet). */
async function quietDump(k: Kube, since: number): Promise<KubeObject[]> {
  const versions = (objects: KubeObject[]) =>
    objects
      .filter((o) => inOurs(o) && (PARENT_KINDS.has(o.kind) || owned(o)) && o.kind !== 'Pod')
      .map((o) => `${keyOf(o)}@${String(o.metadata.resourceVersion)}`)
      .sort()
      .join(',');
  let last = await dumpCluster(k);
  const { value } = await within(
    'the plan namespaces quiet for 3 s',
    SETTLE_MS,
    async () => {
      await sleep(3000);
      const next = await dumpCluster(k);
      const quiet = versions(next) === versions(last);
      last = next;
      return quiet ? next : { pending: 'objects still changing' };
    },
    since,
  );
  return value;
}

/** Plan against reality: each child created, deleted or updated (each field, before and after) as the plan said, and no other. */
function differences(before: KubeObject[], after: KubeObject[], report: PlanReport) {
  const children = (objects: KubeObject[]) =>
    new Map(objects.filter((o) => inOurs(o) && owned(o) && o.kind !== 'Pod' && o.kind !== 'ReplicaSet').map((o) => [keyOf(o), o]));
  const was = children(before);
  const now = children(after);
  const predictedChildren = new Map(
    report.parents.flatMap((p) => p.children.map((c): [string, (typeof p.children)[number]] => [`${c.kind} ${c.namespace}/${c.name}`, c])),
  );
  const mismatches: string[] = [];
  for (const [key, o] of now) {
    const p = predictedChildren.get(key);
    if (!was.has(key)) {
      if (p?.action !== 'create') mismatches.push(`${key}: created, the plan said ${p?.action ?? 'nothing'}`);
      continue;
    }
    const real = fieldChanges(written(was.get(key) as KubeObject), written(o));
    const said: FieldChange[] = p && p.action === 'update' ? (p.changes ?? []) : [];
    if (JSON.stringify(real) !== JSON.stringify(said)) mismatches.push(`${key}: really ${JSON.stringify(real)}, the plan said ${JSON.stringify(said)}`);
  }
  for (const key of was.keys()) {
    if (!now.has(key) && predictedChildren.get(key)?.action !== 'delete')
      mismatches.push(`${key}: deleted, the plan said ${predictedChildren.get(key)?.action ?? 'nothing'}`);
  }
  for (const [key, p] of predictedChildren) {
    if (p.action === 'create' && !now.has(key)) mismatches.push(`${key}: the plan said create, not created`);
    if (p.action === 'delete' && now.has(key)) mismatches.push(`${key}: the plan said delete, still there`);
  }
  const updates = [...predictedChildren.values()].filter((c) => c.action === 'update');
  const rolls = updates.filter((c) => c.rolls).length;
  const fields = updates.reduce((n, c) => n + (c.changes?.length ?? 0), 0);
  const summary = `${updates.length} updates (${fields} fields), ${rolls} rolls predicted; ${mismatches.length} differences`;
  return { mismatches, updates: updates.length, rolls, summary };
}

const SECRET_VALUE_B64 = Buffer.from('live-plan-secret-value-1234').toString('base64');

/**
 * docs/plan.md's two dump commands (its sh blocks that start with `kubectl get`), run with bash
 * against the live cluster through a kubeconfig; the files they write, or undefined without
 * kubectl and jq.
 */
function docsDumps(k: Kube): [string, string] | undefined {
  const has = (tool: string) => spawnSync('bash', ['-c', `command -v ${tool}`]).status === 0;
  if (!has('kubectl') || !has('jq')) return undefined;
  const kubeconfig = path.join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'live', cluster: { server: k.info.url, 'certificate-authority-data': Buffer.from(k.info.ca).toString('base64') } }],
      users: [{ name: 'live', user: { token: k.info.token } }],
      contexts: [{ name: 'live', context: { cluster: 'live', user: 'live' } }],
      'current-context': 'live',
    }),
  );
  const commands = [...readFileSync(fromRoot('docs/plan.md'), 'utf8').matchAll(/```sh\n(kubectl get [^\n]+)\n```/g)].map((m) => m[1] as string);
  expect(commands.length).toBe(2);
  const outputs = commands.map((command) => {
    const run = spawnSync('bash', ['-c', command], { cwd: dir, env: { ...process.env, KUBECONFIG: kubeconfig }, encoding: 'utf8' });
    expect(run.stderr, command).toBe('');
    expect(run.status, command).toBe(0);
    return path.join(dir, /> (\S+)$/.exec(command)?.[1] as string);
  });
  return outputs as [string, string];
}

printLogsOnFailure(30);

describe('modelhooks plan against the live cluster', () => {
  const k = kube();
  const examples = objectsIn(fromRoot('examples'))
    .map((e) => e.obj)
    .filter((o) => o.kind !== 'InferenceGraph');
  const placed = (ns: string) => examples.map((o) => ({ ...o, metadata: { ...o.metadata, namespace: ns } }) as KubeObject);
  const scope = NAMESPACES.flatMap((ns) => ['--namespace', ns]);

  it('plans no change for a settled cluster, then predicts what a Namespace annotation change really makes, field by field', async () => {
    for (const ns of NAMESPACES) await k.ensureNamespace(ns);
    const applied = Date.now();
    for (const ns of NAMESPACES) for (const o of placed(ns).filter((x) => !PARENT_KINDS.has(x.kind))) await k.apply(o);
    await k.apply({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'plan-secret', namespace: NAMESPACES[0] as string },
      data: { token: SECRET_VALUE_B64 },
    });
    for (const ns of NAMESPACES) for (const o of placed(ns).filter((x) => PARENT_KINDS.has(x.kind))) await k.apply(o);
    for (const ns of NAMESPACES) for (const o of placed(ns).filter((x) => PARENT_KINDS.has(x.kind))) await readyWithin(k, o, READY_MS, applied);

    // 1. The same version and configuration: nothing changes.
    const before = await quietDump(k, Date.now());
    const same = await planJson([write(before), ...scope]);
    const changed = same.report.parents.filter((p) => p.result !== 'unchanged');
    expect(changed, JSON.stringify(changed, null, 2)).toEqual([]);
    expect(same.report.summary.parents).toBe(NAMESPACES.length * PARENT_KINDS.size);
    expect(same.code).toBe(0);

    // The whole cluster (the other files' parents are mid-scenario: its changes are not asserted),
    // in text and JSON: no Secret value of the dump appears, and every parent can be planned.
    const whole = write(before);
    for (const format of ['text', 'json']) {
      const r = await plan([whole, '-o', format]);
      for (const value of secretValues(before)) if (value.length >= 6) expect(r.out.includes(value), `a Secret value in the ${format} plan`).toBe(false);
      if (format === 'text') console.log(`whole-cluster plan:\n${r.out.split('Summary:')[1] ?? r.out}`);
    }

    // The commands of docs/plan.md, run as written where kubectl is installed: the dump and its
    // Secret-stripping variant plan the same (no change), and the stripped one holds no value.
    const kubectlRan = docsDumps(k);
    if (kubectlRan) {
      const [yamlDump, jsonDump] = kubectlRan;
      expect((await planJson([yamlDump, ...scope])).report.summary).toMatchObject({ changed: 0, failing: 0, parents: NAMESPACES.length * PARENT_KINDS.size });
      expect((await planJson([jsonDump, ...scope])).report.summary).toMatchObject({ changed: 0, failing: 0, parents: NAMESPACES.length * PARENT_KINDS.size });
      expect(readFileSync(yamlDump, 'utf8')).toContain(SECRET_VALUE_B64);
      expect(readFileSync(jsonDump, 'utf8')).not.toContain(SECRET_VALUE_B64);
      console.log(
        `docs/plan.md's kubectl commands: ${path.basename(yamlDump)} and ${path.basename(jsonDump)} planned, no change; the stripped one holds no Secret value`,
      );
    } else console.log('kubectl or jq not installed: the commands of docs/plan.md were not run');

    // 2. A Namespace's annotations, planned with --set-config before they are made.
    const [target, other] = NAMESPACES as [string, string];
    const annotations = { 'modelhooks.dev/image-registry': 'mirror.live:5000', 'modelhooks.dev/ingress-domain': 'plan.live.example' };
    const newNs: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: target, annotations } };
    const setConfig = write([newNs]);
    const predicted = await planJson([write(before), ...scope, '--set-config', setConfig]);
    expect(predicted.code).toBe(2);
    expect(predicted.report.parents.filter((p) => p.namespace === other && p.result !== 'unchanged')).toEqual([]);
    const rolls = predicted.report.parents.flatMap((p) => p.children.filter((c) => c.rolls));
    console.log(`plan --set-config (Namespace ${target}):\n${(await plan([write(before), ...scope, '--set-config', setConfig])).out}`);
    expect(rolls.length).toBeGreaterThan(0);

    // 3. The same change made: what Metacontroller writes, once quiet again.
    const changedAt = Date.now();
    await k.apply(newNs);
    const after = await quietDump(k, changedAt);

    const real = differences(before, after, predicted.report);
    console.log(`plan vs reality (Namespace annotations): ${real.summary}`);
    expect(real.mismatches).toEqual([]);
    expect(real.updates).toBeGreaterThan(0);

    // The status fields the change decides (the URL: modelhooks.dev/ingress-domain), as predicted.
    const urls = predicted.report.parents.flatMap((p) => p.status.changes.filter((c) => c.path === 'status.url').map((c) => ({ p, c })));
    expect(urls.length).toBeGreaterThan(0);
    for (const { p, c } of urls) {
      const parent = after.find((o) => o.kind === p.kind && o.metadata.namespace === p.namespace && o.metadata.name === p.name) as KubeObject;
      expect((parent.status as { url?: unknown }).url, `${p.kind} ${p.name}`).toEqual(c.after);
    }

    // 4. Once it is made, planning the new cluster changes nothing again.
    const again = await planJson([write(after), ...scope]);
    expect(again.report.parents.filter((p) => p.result !== 'unchanged')).toEqual([]);

    // 5. KServe's inferenceservice-config, created with a new storage initializer image: cluster-wide
    // (every InferenceService reads it), so under the lock steady-state.live.ts's watch holds too.
    const configMap: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'inferenceservice-config', namespace: 'kserve' },
      data: { storageInitializer: JSON.stringify({ image: 'mirror.live/storage-initializer:v1' }) },
    };
    await k.ensureNamespace('kserve');
    await exclusive('cluster-wide', async () => {
      try {
        const start = await quietDump(k, Date.now());
        const planned = await planJson([write(start), ...scope, '--set-config', write([configMap])]);
        expect(planned.code).toBe(2);
        const made = Date.now();
        await k.apply(configMap);
        const end = await quietDump(k, made);
        const result = differences(start, end, planned.report);
        console.log(`plan vs reality (inferenceservice-config): ${result.summary}`);
        expect(result.mismatches).toEqual([]);
        expect(result.rolls).toBeGreaterThan(0);
        expect((await planJson([write(end), ...scope])).report.summary.changed).toBe(0);
      } finally {
        const cm = await k.get('v1', 'ConfigMap', 'inferenceservice-config', 'kserve').catch(() => undefined);
        if (cm) await k.delete(cm);
      }
    });
  });
});

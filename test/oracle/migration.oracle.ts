/**
 * Issue 31 item 5: KServe → modelhooks and back, live, with nothing restarted. Several
 * InferenceService shapes (a sklearn model by format, S3 credentials through a ServiceAccount,
 * a transformer, a logger, an oci:// model car: test/oracle/corpus/default) are made by KServe
 * v0.20.0's own manager until Ready. Then docs/migration.md's steps: KServe's manager stopped and
 * its webhook configurations deleted, the children labelled for adoption, modelhooks' CRDs,
 * its hook server with MODELHOOKS_POD_INJECTION=webhook, its pod webhook (a
 * MutatingWebhookConfiguration by URL with its CA, as deploy/components/pod-webhook by Service)
 * and Metacontroller started, until modelhooks has synced every InferenceService. Measured:
 * Deployments whose pod template changed (and their generation), Pods replaced or restarted,
 * and every other field written, each listed below with its reason. Then the reverse
 * (modelhooks stopped, KServe's CRDs, webhooks and manager back) measured the same way.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromRoot, objectsIn, readObjects } from '../e2e/support/files.js';
import { freePort, logTail, spawnLogged, terminate } from '../e2e/support/cluster.js';
import { type Crd, installCrd } from '../e2e/support/install.js';
import type { Kube, KubeObject } from '../e2e/support/kube.js';
import { compositeControllers, METACONTROLLER_FLAGS, waitFor, writeKubeconfig } from '../live/support/cluster.js';
import { buildLiveBinaries } from '../live/support/build.js';
import { skipReason as liveSkipReason } from '../live/support/skip.js';
import { buildOracleBinaries, type OracleCluster, startOracleCluster } from './support/cluster.js';
import { type Difference, diffObjects, type KeptDifference, keyOf, matcher } from './support/compare.js';
import { kserveCrds } from './support/kserve.js';
import { loadCorpus } from './support/corpus.js';

const NS = 'mig';
/** The shapes, by corpus file (test/oracle/corpus/default). */
const SHAPES = ['sklearn-v1', 'storage-s3', 'transformer', 'logger-all', 'storage-oci'];
const READY_MS = 180_000;

/** What the takeover writes besides the pods (each with its reason); anything else fails the test. */
const TAKEOVER_WRITES: KeptDifference[] = [
  {
    kind: '*',
    path: 'metadata.labels.controller-uid',
    reason: "docs/migration.md step: the children are labelled with the InferenceService's uid, Metacontroller's selector, so that it adopts them",
    upstream: 'metacontroller pkg/controller/composite/controller.go (claimChildren)',
  },
  {
    kind: '*',
    path: 'metadata.labels[app.kubernetes.io/*]',
    reason: "modelhooks' descriptive labels on the Deployments', Services', HPAs' metadata (never on the pod template)",
    upstream: 'pkg/controller/v1beta1/inferenceservice/components/predictor.go',
  },
  {
    kind: 'Ingress',
    path: 'metadata.labels',
    reason: "KServe's Ingress has no label: modelhooks' descriptive labels, the controller-uid label of the adoption and its host labels are its first",
    upstream: 'pkg/controller/v1beta1/inferenceservice/reconcilers/ingress/kube_ingress_reconciler.go',
  },
  {
    kind: 'Ingress',
    path: 'metadata.labels[host.modelhooks.dev/*]',
    reason: "modelhooks' host label (one per host, to find a host claimed twice by a selector)",
    upstream: 'pkg/controller/v1beta1/inferenceservice/reconcilers/ingress/kube_ingress_reconciler.go',
  },
  {
    kind: '*',
    path: 'metadata.annotations[metacontroller.k8s.io/last-applied-configuration]',
    reason: "Metacontroller's record of what it applied (its three-way merge)",
    upstream: 'metacontroller pkg/dynamic/apply',
  },
  {
    kind: 'Deployment',
    path: 'metadata.annotations[modelhooks.dev/*]',
    reason: "modelhooks' spec hash and the pod injection its webhook applies, on the Deployment's metadata: a change there rolls no pod",
    upstream: 'pkg/webhook/admission/pod/mutator.go',
  },
  {
    kind: 'Ingress',
    path: 'spec.rules[*]**',
    reason:
      "Transformer host routing (test/oracle/differences.yaml): KServe sends <n>-transformer-<ns> to the predictor's Service, modelhooks to the transformer's. The Ingress is updated in place",
    upstream: 'pkg/controller/v1beta1/inferenceservice/reconcilers/ingress/kube_ingress_reconciler.go',
  },
];
/** What KServe writes when it takes its children back. */
const GIVEBACK_WRITES: KeptDifference[] = [
  {
    kind: 'HorizontalPodAutoscaler',
    path: 'metadata.**',
    reason:
      "KServe's HPA reconciler writes the HPA's metadata as it makes it: modelhooks' labels, the controller-uid label and Metacontroller's annotation go (its Deployments and Services are compared by spec and left as they are)",
    upstream: 'pkg/controller/v1beta1/inferenceservice/reconcilers/hpa/hpa_reconciler.go',
  },
  {
    kind: 'Ingress',
    path: '**',
    reason: "KServe writes back an Ingress whose rules differ, as it makes it (no label): the transformer's host routed to the predictor again",
    upstream: 'pkg/controller/v1beta1/inferenceservice/reconcilers/ingress/kube_ingress_reconciler.go',
  },
];

/** The kinds measured in the namespace, by list path. */
const KINDS = [
  { base: '/apis/apps/v1', resource: 'deployments', apiVersion: 'apps/v1', kind: 'Deployment' },
  { base: '/apis/apps/v1', resource: 'replicasets', apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  { base: '/api/v1', resource: 'pods', apiVersion: 'v1', kind: 'Pod' },
  { base: '/api/v1', resource: 'services', apiVersion: 'v1', kind: 'Service' },
  { base: '/apis/autoscaling/v2', resource: 'horizontalpodautoscalers', apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' },
  { base: '/apis/networking.k8s.io/v1', resource: 'ingresses', apiVersion: 'networking.k8s.io/v1', kind: 'Ingress' },
];

type Snapshot = Map<string, KubeObject>;

async function snapshot(kube: Kube): Promise<Snapshot> {
  const out: Snapshot = new Map();
  for (const k of KINDS) {
    const url = `${k.base}/namespaces/${NS}/${k.resource}`;
    // Seen once each on a loaded machine, right after Pods were deleted: a plain-text 400 or 404 from the API server for a
    // list that answers the next time. A measurement reads again rather than fail on it.
    let res = await kube.request('GET', url);
    for (let attempt = 1; res.status !== 200 && attempt < 5; attempt++) {
      await sleep(500);
      res = await kube.request('GET', url);
    }
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${res.text.slice(0, 300)}`);
    const list = JSON.parse(res.text) as { items: KubeObject[] };
    // A deleted Pod stays until its kubelet confirms (the fake kubelet does not): not counted.
    for (const item of list.items.filter((o) => !o.metadata.deletionTimestamp))
      out.set(keyOf(k.kind, item.metadata.name), { ...item, apiVersion: k.apiVersion, kind: k.kind });
  }
  return out;
}

interface Figures {
  deployments: number;
  templatesChanged: string[];
  generationsChanged: string[];
  pods: number;
  podsReplaced: string[];
  podsRestarted: string[];
  newReplicaSets: string[];
  /** Every other field written (normalised as the oracle compares), listed or not. */
  writes: Difference[];
  unlisted: Difference[];
}

const of = (s: Snapshot, kind: string) => [...s.values()].filter((o) => o.kind === kind);
const template = (d: KubeObject) => JSON.stringify((d.spec as { template: unknown }).template);
/** The Deployment selector label of a Pod (app: isvc.<name>-<component>). */
const appOf = (p: KubeObject) => (p.metadata.labels as Record<string, string> | undefined)?.app;
const restarts = (p: KubeObject) =>
  ((p.status as { containerStatuses?: Array<{ restartCount?: number }> } | undefined)?.containerStatuses ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0);

function measure(before: Snapshot, after: Snapshot, listed: KeptDifference[], step: string): Figures {
  const deployments = of(before, 'Deployment');
  const afterOf = (o: KubeObject) => after.get(keyOf(o.kind, o.metadata.name));
  const pods = of(before, 'Pod');
  const afterPods = new Map(of(after, 'Pod').map((p) => [p.metadata.uid, p]));
  // The pods and replica sets are measured by identity; the other kinds field by field.
  const compared = (s: Snapshot) => new Map([...s].filter(([, o]) => ['Deployment', 'Service', 'HorizontalPodAutoscaler', 'Ingress'].includes(o.kind)));
  const writes = diffObjects(step, compared(before), compared(after));
  const kept = matcher(listed);
  return {
    deployments: deployments.length,
    templatesChanged: deployments.filter((d) => afterOf(d) && template(d) !== template(afterOf(d) as KubeObject)).map((d) => d.metadata.name),
    generationsChanged: deployments.filter((d) => afterOf(d)?.metadata.generation !== d.metadata.generation).map((d) => d.metadata.name),
    pods: pods.length,
    podsReplaced: pods.filter((p) => !afterPods.has(p.metadata.uid)).map((p) => p.metadata.name),
    podsRestarted: pods
      .filter((p) => afterPods.has(p.metadata.uid) && restarts(afterPods.get(p.metadata.uid) as KubeObject) !== restarts(p))
      .map((p) => p.metadata.name),
    newReplicaSets: of(after, 'ReplicaSet')
      .filter((rs) => !before.has(keyOf('ReplicaSet', rs.metadata.name)))
      .map((rs) => rs.metadata.name),
    writes,
    unlisted: writes.filter((d) => !kept.match(d)),
  };
}

function print(step: string, f: Figures, listed: KeptDifference[]): void {
  const kept = matcher(listed);
  const lines = [
    '',
    `migration ${step}`,
    `  Deployments:        ${f.deployments}, pod template changed: ${f.templatesChanged.length}, new ReplicaSets: ${f.newReplicaSets.length}, generation changed: ${f.generationsChanged.length} (their annotations: Deployment generation counts them, strategy.go PrepareForUpdate)`,
    `  Pods:               ${f.pods}, replaced: ${f.podsReplaced.length}, restarted: ${f.podsRestarted.length}`,
    `  other fields written (${f.writes.length}):`,
    ...f.writes.map(
      (d) => `    ${d.kind}/${d.object} ${d.path}: ${JSON.stringify(d.kserve)} -> ${JSON.stringify(d.modelhooks)}  [${kept.match(d)?.reason ?? 'NOT LISTED'}]`,
    ),
    '',
  ];
  console.log(lines.join('\n'));
}

let oc: OracleCluster;
let binDir: string;
let kserveModule: string;
let metacontrollerSrc: string;
let kubeconfig: string;
const procs: ChildProcess[] = [];
let proxy: https.Server | undefined;
/** KServe's webhook configurations as it installed them (re-created for the way back). */
let kserveWebhooks: KubeObject[] = [];

const isvcs = () => oc.kube.call<{ items: KubeObject[] }>('GET', `/apis/serving.kserve.io/v1beta1/namespaces/${NS}/inferenceservices`).then((l) => l.items);
type Cond = { type: string; status: string };
const ready = (o: KubeObject) => ((o.status as { conditions?: Cond[] } | undefined)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** Until nothing in the namespace changes for `quietMs` (at most `maxMs`). */
async function settled(quietMs: number, maxMs: number): Promise<Snapshot> {
  const versions = (s: Snapshot) => JSON.stringify([...s].map(([k, o]) => [k, o.metadata.resourceVersion]));
  let last = await snapshot(oc.kube);
  let since = Date.now();
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    await sleep(1_000);
    const now = await snapshot(oc.kube);
    if (versions(now) !== versions(last)) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return now;
  }
  return last;
}

/** Metacontroller is built from source, as in the live tier: where it cannot be, the migration is skipped, saying why. */
const liveSkip = liveSkipReason();
if (liveSkip) console.log(`oracle migration test skipped: ${liveSkip}`);

describe.skipIf(liveSkip !== undefined)('KServe → modelhooks → KServe, live', () => {
  beforeAll(async () => {
    const build = await buildOracleBinaries();
    kserveModule = build.kserveModule;
    // Metacontroller (the live tier's build, after the oracle's, which builds the same binDir without it).
    const live = await buildLiveBinaries();
    binDir = live.binDir;
    metacontrollerSrc = live.metacontrollerSrc;
    oc = await startOracleCluster(build, Boolean(process.env.ORACLE_KEEP_TMP));
    kubeconfig = writeKubeconfig(oc.dir, oc.info);
  }, 1_800_000);

  afterAll(async () => {
    proxy?.close();
    await Promise.all(procs.map((p) => terminate(p)));
    await oc?.stop();
  }, 120_000);

  let underKServe: Snapshot;
  let underModelhooks: Snapshot;

  it('KServe makes every shape Ready', async () => {
    await oc.kube.ensureNamespace(NS);
    await waitFor(async () => (await oc.kube.request('GET', `/api/v1/namespaces/${NS}/serviceaccounts/default`)).status === 200, 60_000);
    const specs = (loadCorpus().find((g) => g.name === 'default')?.specs ?? []).filter((s) => SHAPES.includes(path.basename(s.file, '.yaml')));
    expect(specs.map((s) => path.basename(s.file, '.yaml')).sort()).toEqual([...SHAPES].sort());
    for (const s of specs) for (const o of s.supporting) await oc.kube.apply({ ...o, metadata: { ...o.metadata, namespace: NS } });
    for (const s of specs) await oc.kube.create({ ...s.parent, metadata: { ...s.parent.metadata, namespace: NS } });
    await waitFor(
      async () => (await isvcs()).every(ready),
      READY_MS,
      () => '',
    );
    underKServe = await settled(5_000, 60_000);
    expect(of(underKServe, 'Deployment').length).toBeGreaterThanOrEqual(SHAPES.length + 1);
    // KServe's pod webhook injected its containers into the Pods (not the templates).
    const names = of(underKServe, 'Pod').flatMap((p) =>
      [
        ...((p.spec as { initContainers?: Array<{ name: string }> }).initContainers ?? []),
        ...(p.spec as { containers: Array<{ name: string }> }).containers,
      ].map((c) => c.name),
    );
    for (const n of ['storage-initializer', 'agent', 'modelcar']) expect(names).toContain(n);
  });

  it('modelhooks takes over in webhook mode: 0 Pods restarted, 0 pod templates changed (docs/migration.md)', async () => {
    // 1. Stop KServe's manager; delete its admission webhooks (they point at it, failurePolicy Fail).
    await oc.kserve.stop();
    for (const [path_, kind] of [
      ['/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', 'MutatingWebhookConfiguration'],
      ['/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', 'ValidatingWebhookConfiguration'],
    ] as const) {
      const list = await oc.kube.call<{ items: KubeObject[] }>('GET', path_);
      for (const w of list.items.filter((x) => x.metadata.name.includes('kserve'))) {
        kserveWebhooks.push({ ...w, apiVersion: 'admissionregistration.k8s.io/v1', kind });
        await oc.kube.delete({ ...w, apiVersion: 'admissionregistration.k8s.io/v1', kind });
      }
    }
    expect(kserveWebhooks.length).toBeGreaterThanOrEqual(2);
    // 2. Label the children for adoption (Metacontroller's selector: controller-uid=<the parent's uid>).
    for (const isvc of await isvcs()) {
      const uid = isvc.metadata.uid as string;
      for (const o of of(underKServe, 'Deployment')
        .concat(of(underKServe, 'Service'), of(underKServe, 'HorizontalPodAutoscaler'), of(underKServe, 'Ingress'))
        .filter((x) => ((x.metadata.ownerReferences ?? []) as Array<{ uid: string }>).some((r) => r.uid === uid))) {
        await oc.kube.call(
          'PATCH',
          `${await oc.kube.objectPath(o, o.metadata.name)}`,
          { metadata: { labels: { 'controller-uid': uid } } },
          'application/merge-patch+json',
        );
      }
    }
    // 3. modelhooks: its CRDs (over KServe's), Metacontroller's, the hook server, its pod webhook, the CompositeControllers, Metacontroller.
    for (const crd of readObjects(path.join(metacontrollerSrc, 'manifests/production/metacontroller-crds-v1.yaml'))) await installCrd(oc.kube, crd as Crd);
    for (const { obj } of objectsIn(fromRoot('crds'))) if (obj.kind === 'CustomResourceDefinition') await installCrd(oc.kube, obj as Crd);
    const hookPort = await freePort();
    const log = openSync(path.join(oc.dir, 'hooks.log'), 'a');
    const hooks = spawn(fromRoot('node_modules/.bin/tsx'), ['hooks/cli/main.ts', 'serve'], {
      cwd: fromRoot(),
      env: { ...process.env, PORT: String(hookPort), MODELHOOKS_HOST: '127.0.0.1', MODELHOOKS_DRAIN_SECONDS: '0', MODELHOOKS_POD_INJECTION: 'webhook' },
      stdio: ['ignore', log, log],
    });
    procs.push(hooks);
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${hookPort}/readyz`).catch(() => undefined))?.ok === true,
      60_000,
      () => (hooks.exitCode !== null ? logTail(oc.dir, 'hooks') : ''),
    );
    // The API server calls webhooks over HTTPS: TLS ends here (the server's certificate, SAN 127.0.0.1) in front of /mutate-pods.
    const webhookPort = await freePort();
    proxy = https.createServer({ cert: readFileSync(path.join(oc.dir, 'server.crt')), key: readFileSync(path.join(oc.dir, 'server.key')) }, (req, res) => {
      const forward = http.request({ host: '127.0.0.1', port: hookPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.writeHead(502).end());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy?.listen(webhookPort, '127.0.0.1', resolve));
    // deploy/components/pod-webhook's configuration, by URL with the CA instead of the Service.
    const [ours] = readObjects(fromRoot('deploy/components/pod-webhook/mutatingwebhookconfiguration.yaml')) as [KubeObject];
    const webhooks = (ours.webhooks as Array<Record<string, unknown>>).map((w) => ({
      ...w,
      clientConfig: { url: `https://127.0.0.1:${webhookPort}/mutate-pods`, caBundle: readFileSync(path.join(oc.dir, 'ca.crt')).toString('base64') },
    }));
    await oc.kube.apply({ ...ours, metadata: { name: ours.metadata.name }, webhooks } as KubeObject);
    for (const cc of compositeControllers(binDir, `http://127.0.0.1:${hookPort}`)) await oc.kube.apply(cc);
    const [mcMetrics, mcHealth] = [await freePort(), await freePort()];
    const mc = spawnLogged(oc.dir, 'metacontroller', path.join(binDir, 'metacontroller'), [
      `--kubeconfig=${kubeconfig}`,
      ...METACONTROLLER_FLAGS,
      `--metrics-address=127.0.0.1:${mcMetrics}`,
      `--health-probe-bind-address=127.0.0.1:${mcHealth}`,
    ]);
    procs.push(mc);
    // 4. Until modelhooks has synced every InferenceService: each Deployment carries its pod injection, each parent is Ready.
    const t0 = Date.now();
    const stuck = async () =>
      (await isvcs())
        .map(
          (i) => `${i.metadata.name}: ${JSON.stringify(((i.status as { conditions?: Cond[] } | undefined)?.conditions ?? []).find((c) => c.type === 'Ready'))}`,
        )
        .join('\n');
    await waitFor(
      async () => {
        const ds = (await oc.kube.call<{ items: KubeObject[] }>('GET', `/apis/apps/v1/namespaces/${NS}/deployments`)).items;
        return (
          ds.length > 0 &&
          ds.every((d) => (d.metadata.annotations as Record<string, string> | undefined)?.['modelhooks.dev/pod-injection'] !== undefined) &&
          (await isvcs()).every(ready)
        );
      },
      READY_MS,
      () => (mc.exitCode !== null ? logTail(oc.dir, 'metacontroller') : hooks.exitCode !== null ? logTail(oc.dir, 'hooks') : ''),
    ).catch(async (e: unknown) => {
      throw new Error(`${String(e)}; the InferenceServices' Ready:\n${await stuck()}`);
    });
    console.log(`migration: modelhooks synced every InferenceService ${((Date.now() - t0) / 1000).toFixed(1)} s after Metacontroller started`);
    underModelhooks = await settled(10_000, 90_000);
    const f = measure(underKServe, underModelhooks, TAKEOVER_WRITES, 'KServe → modelhooks');
    print('KServe → modelhooks', f, TAKEOVER_WRITES);
    // A Deployment's generation counts changes of its annotations too (pkg/registry/apps/deployment/strategy.go PrepareForUpdate): printed, not a roll.
    expect({ templates: f.templatesChanged, replicaSets: f.newReplicaSets }).toEqual({ templates: [], replicaSets: [] });
    expect({ replaced: f.podsReplaced, restarted: f.podsRestarted }).toEqual({ replaced: [], restarted: [] });
    expect(f.unlisted.map((d) => `${d.kind}/${d.object} ${d.path}: ${JSON.stringify(d.kserve)} -> ${JSON.stringify(d.modelhooks)}`)).toEqual([]);
  });

  it("a Pod created after the takeover gets from modelhooks' webhook what KServe's gave its Pod", async () => {
    expect(underModelhooks, 'the takeover was measured').toBeDefined();
    const before = of(underModelhooks, 'Pod');
    for (const p of before) await oc.kube.delete(p);
    const shape = (p: KubeObject) => {
      const spec = p.spec as {
        initContainers?: Array<{ name: string; image: string; args?: string[]; env?: unknown }>;
        containers: Array<{ name: string; image: string; args?: string[]; env?: unknown; volumeMounts?: Array<{ name: string; mountPath: string }> }>;
        volumes?: Array<{ name: string }>;
        shareProcessNamespace?: boolean;
      };
      const mounts = (c: { volumeMounts?: Array<{ name: string; mountPath: string }> }) =>
        (c.volumeMounts ?? []).filter((m) => !m.name.startsWith('kube-api-access')).map((m) => `${m.name}:${m.mountPath}`);
      return {
        labels: appOf(p),
        annotations: Object.fromEntries(
          Object.entries((p.metadata.annotations as Record<string, string> | undefined) ?? {}).filter(
            ([k]) => k.startsWith('serving.kserve.io/') || k.startsWith('prometheus.io/'),
          ),
        ),
        init: (spec.initContainers ?? []).map((c) => ({ name: c.name, image: c.image, args: c.args, env: c.env })),
        // The agent's --source-uri: KServe passes the Pod's name at admission (empty: the ReplicaSet's Pods have a generateName
        // only), modelhooks $(POD_NAME) from the downward API (test/oracle/differences.yaml, agent_injector.go): not compared.
        containers: spec.containers.map((c) => ({
          name: c.name,
          image: c.image,
          args: c.name === 'agent' ? c.args?.map((a, i, all) => (all[i - 1] === '--source-uri' ? '<the pod>' : a)) : c.args,
          env: c.name === 'agent' ? (c.env as Array<{ name: string }> | undefined)?.filter((e) => e.name !== 'POD_NAME') : c.env,
          mounts: mounts(c),
        })),
        volumes: (spec.volumes ?? [])
          .map((v) => v.name)
          .filter((n) => !n.startsWith('kube-api-access'))
          .sort(),
        shareProcessNamespace: spec.shareProcessNamespace,
      };
    };
    const kserveMade = new Map(of(underKServe, 'Pod').map((p) => [appOf(p), shape(p)]));
    await waitFor(async () => {
      const pods = (await oc.kube.call<{ items: KubeObject[] }>('GET', `/api/v1/namespaces/${NS}/pods`)).items.filter((p) => !p.metadata.deletionTimestamp);
      return pods.length === before.length && pods.every((p) => !before.some((b) => b.metadata.uid === p.metadata.uid));
    }, 120_000);
    const pods = (await oc.kube.call<{ items: KubeObject[] }>('GET', `/api/v1/namespaces/${NS}/pods`)).items.filter((p) => !p.metadata.deletionTimestamp);
    for (const p of pods) expect(shape(p), p.metadata.name).toEqual(kserveMade.get(appOf(p)));
    underModelhooks = await settled(5_000, 60_000);
  });

  it('back to KServe: 0 Pods restarted, 0 pod templates changed', async () => {
    expect(underModelhooks, 'the takeover was measured').toBeDefined();
    // modelhooks stopped (Metacontroller first: nothing syncs any more), its pod webhook deleted.
    for (const p of procs.splice(0).reverse()) await terminate(p);
    proxy?.close();
    const gone = await oc.kube.request('DELETE', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/modelhooks-pod-webhook');
    expect(gone.status, gone.text.slice(0, 300)).toBe(200);
    // Metacontroller's finalizers, if any, would stay on the parents with nothing to remove them.
    for (const isvc of await isvcs())
      if (((isvc.metadata.finalizers as string[] | undefined) ?? []).some((f) => f.startsWith('metacontroller')))
        await oc.kube.call(
          'PATCH',
          `/apis/serving.kserve.io/v1beta1/namespaces/${NS}/inferenceservices/${isvc.metadata.name}`,
          { metadata: { finalizers: null } },
          'application/merge-patch+json',
        );
    // modelhooks' status conditions cleared: KServe recomputes Ready (knative's condition manager) over every False condition
    // of Error severity when a component condition changes, and modelhooks' Stopped=False (reason Serving) would then make it
    // False (pkg/apis/serving/v1beta1/inference_service_status.go conditionSet; controller.go sets its own Stopped after).
    for (const isvc of await isvcs())
      await oc.kube.call(
        'PATCH',
        `/apis/serving.kserve.io/v1beta1/namespaces/${NS}/inferenceservices/${isvc.metadata.name}/status`,
        { status: null },
        'application/merge-patch+json',
      );
    // KServe's CRDs, webhooks and manager back.
    for (const crd of kserveCrds(kserveModule)) await installCrd(oc.kube, crd);
    for (const w of kserveWebhooks) {
      const { resourceVersion: _r, uid: _u, creationTimestamp: _c, managedFields: _m, generation: _g, ...metadata } = w.metadata as Record<string, unknown>;
      await oc.kube.create({ ...w, metadata } as KubeObject);
    }
    // A replaced CRD's storage is re-initialized (429) for a moment after it is Established.
    await waitFor(async () => (await oc.kube.request('GET', `/apis/serving.kserve.io/v1beta1/namespaces/${NS}/inferenceservices`)).status === 200, 60_000);
    await oc.kserve.restart();
    const reconciled = Date.now();
    // KServe reconciles every InferenceService at start; then nothing more is written.
    await sleep(10_000);
    const back = await settled(15_000, 120_000);
    console.log(`migration: KServe settled ${((Date.now() - reconciled) / 1000).toFixed(1)} s after its manager started`);
    const notReady = (await isvcs())
      .filter((i) => !ready(i))
      .map((i) => `${i.metadata.name}: ${JSON.stringify((i.status as { conditions?: Cond[] } | undefined)?.conditions)}`);
    expect(notReady).toEqual([]);
    const f = measure(underModelhooks, back, GIVEBACK_WRITES, 'modelhooks → KServe');
    print('modelhooks → KServe', f, GIVEBACK_WRITES);
    // A Deployment's generation counts changes of its annotations too (pkg/registry/apps/deployment/strategy.go PrepareForUpdate): printed, not a roll.
    expect({ templates: f.templatesChanged, replicaSets: f.newReplicaSets }).toEqual({ templates: [], replicaSets: [] });
    expect({ replaced: f.podsReplaced, restarted: f.podsRestarted }).toEqual({ replaced: [], restarted: [] });
    expect(f.unlisted.map((d) => `${d.kind}/${d.object} ${d.path}: ${JSON.stringify(d.kserve)} -> ${JSON.stringify(d.modelhooks)}`)).toEqual([]);
  });
});

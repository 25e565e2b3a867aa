/**
 * The differential tier: KServe v0.20.0's own controller is the judge. Each corpus spec is
 * applied under KServe's manager (its webhooks, its reconcilers, kube-controller-manager's Pods);
 * the same spec goes through modelhooks' sync hook (the real hook server, in-process), whose
 * children are dry-run created beside them (namespace labelled `control-plane`, which KServe's
 * pod webhook skips, with Metacontroller's controller ownerReference), and a Pod from each
 * Deployment's template too, so both sides get the API server's defaulting. Every field that
 * differs must be listed in test/oracle/differences.yaml with its reason and KServe's file;
 * every listed one must still occur. ORACLE_REPORT=<file> writes every difference grouped.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinCompositions } from '../../hooks/compositions.js';
import { createApp } from '../../hooks/server/app.js';
import { loadConfig } from '../../hooks/server/config.js';
import type { AnyComposition, RelatedRule } from '../../hooks/kit/index.js';
import { decorated } from '../../hooks/engine/decorator.js';
import { namespaceRule } from '../../hooks/engine/namespace-settings.js';
import { ready, syncRequest } from '../../hooks/testing/index.js';
import { applyInjection, POD_INJECTION_ANNOTATION, type PodInjection } from '../../hooks/inferenceservice/pod/injection.js';
import type { V1PodSpec } from '@kubernetes/client-node';
import { postHook } from '../e2e/support/hook-post.js';
import { fromRoot } from '../e2e/support/files.js';
import { ourCrds, schemaFor, crdFor, type Schema } from '../e2e/support/install.js';
import { KubeError, type Kube, type KubeObject } from '../e2e/support/kube.js';
import { labelSelectorQuery } from '../e2e/support/related.js';
import { buildOracleBinaries, type OracleCluster, startOracleCluster } from './support/cluster.js';
import { type Difference, diffObjects, type KeptDifference, keyOf, matcher, report } from './support/compare.js';
import { type Group, loadCorpus, PARENT_KINDS, type Spec } from './support/corpus.js';

interface Refused {
  spec: string;
  /** A part of KServe's webhook message. */
  kserve: string;
  /** What modelhooks does with the same spec. */
  modelhooks: string;
  reason: string;
  upstream: string;
}
const listed = parse(readFileSync(fromRoot('test/oracle/differences.yaml'), 'utf8')) as { kept: KeptDifference[]; refused: Refused[] };
const kept = matcher(listed.kept ?? []);
const only = process.env.ORACLE_SPECS; // a substring of spec names: run only those (the staleness check is then skipped)
const groups: Group[] = loadCorpus()
  .map((g) => ({ ...g, specs: g.specs.filter((s) => !only || s.name.includes(only)) }))
  .filter((g) => g.specs.length > 0);
const READY_TIMEOUT_MS = Number(process.env.ORACLE_READY_TIMEOUT_MS ?? 90_000);

// ORACLE_POD_INJECTION=webhook: modelhooks' templates without what KServe's pod webhook adds, and each Pod made from one
// completed by modelhooks' pod webhook function (hooks/inferenceservice/pod/pod-webhook.ts), as the API server would call it.
const podInjection = process.env.ORACLE_POD_INJECTION === 'webhook' ? 'webhook' : 'template';
const app = createApp({ compositions: builtinCompositions, config: loadConfig({ MODELHOOKS_POD_INJECTION: podInjection }) });
const compositionOf = (kind: string) => builtinCompositions.find((c) => c.parent.kind === kind && c.parent.group === 'serving.kserve.io');

/** The kinds read on KServe's side (everything its raw reconcilers make), by API path and kind. */
const CHILD_KINDS = [
  { base: '/apis/apps/v1', resource: 'deployments', apiVersion: 'apps/v1', kind: 'Deployment' },
  { base: '/api/v1', resource: 'services', apiVersion: 'v1', kind: 'Service' },
  { base: '/apis/autoscaling/v2', resource: 'horizontalpodautoscalers', apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler' },
  { base: '/apis/networking.k8s.io/v1', resource: 'ingresses', apiVersion: 'networking.k8s.io/v1', kind: 'Ingress' },
  { base: '/apis/policy/v1', resource: 'poddisruptionbudgets', apiVersion: 'policy/v1', kind: 'PodDisruptionBudget' },
  { base: '/api/v1', resource: 'configmaps', apiVersion: 'v1', kind: 'ConfigMap' },
  { base: '/apis/gateway.networking.k8s.io/v1', resource: 'httproutes', apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute' },
];

let oc: OracleCluster;
const all: Difference[] = [];
const refusals: Array<{ spec: string; kserve: string; modelhooks: string }> = [];
const timings: Array<{ spec: string; seconds: number }> = [];
const restarts: number[] = [];
const tierStart = Date.now();

beforeAll(async () => {
  const build = await buildOracleBinaries();
  oc = await startOracleCluster(build, Boolean(process.env.ORACLE_KEEP_TMP));
  restarts.push(oc.kserve.startSeconds);
  console.log(
    `oracle: cluster and KServe ${build.kserveVersion} up in ${oc.startSeconds.toFixed(1)}s (KServe's manager ${oc.kserve.startSeconds.toFixed(1)}s), ${oc.dir}`,
  );
}, 1_800_000);

afterAll(async () => {
  if (process.env.ORACLE_REPORT) {
    // The .partial file (one line per spec as it is compared) only matters when the run dies before this.
    writeFileSync(path.resolve(process.env.ORACLE_REPORT), reportText());
    rmSync(`${path.resolve(process.env.ORACLE_REPORT)}.partial`, { force: true });
  }
  await oc?.stop();
  const per = timings.map((t) => t.seconds);
  console.log(
    [
      '',
      'oracle summary',
      `  specs:          ${timings.length} compared, ${refusals.length} refused by KServe`,
      `  KServe start:   ${restarts.map((s) => `${s.toFixed(1)}s`).join(', ')} (one per configuration group)`,
      `  per spec:       ${per.length ? `${(per.reduce((a, b) => a + b, 0) / per.length).toFixed(1)}s mean, ${Math.max(...per).toFixed(1)}s max` : '-'} (KServe until Ready, then modelhooks and the comparison)`,
      `  tier:           ${((Date.now() - tierStart) / 1000).toFixed(0)}s`,
      `  differences:    ${all.length} (${all.filter((d) => !kept.match(d)).length} not listed)`,
      process.env.ORACLE_REPORT
        ? `  report:         ${path.resolve(process.env.ORACLE_REPORT)}`
        : '  report:         ORACLE_REPORT=<file> writes every difference grouped',
      '',
    ].join('\n'),
  );
}, 120_000);

function reportText(): string {
  const refusedText = refusals.map((r) => `${r.spec}\n    kserve:     ${r.kserve}\n    modelhooks: ${r.modelhooks}`).join('\n');
  return `${report(all, kept)}\nRefused by KServe (${refusals.length})\n${refusedText}\n`;
}

/** KServe's namespace of a spec file (short: KServe puts it in host labels of at most 63 characters), and modelhooks' beside it. */
const namespaces = (g: number, spec: Spec) => ({ kserve: `o${g}-${spec.fileIndex}`, modelhooks: `o${g}-${spec.fileIndex}-mh` });

describe.each(groups.map((g, i) => [g.name, g, i] as const))('%s', (_, group, gi) => {
  const applied = new Map<string, Promise<string | undefined>>(); // spec → KServe's refusal message, if any

  beforeAll(async () => {
    if (gi > 0 || Object.keys(group.config).length > 0) restarts.push(await oc.kserve.restart(group.config));
    // Every spec of the group at once: KServe reconciles them while the tests compare in turn.
    const files = new Map<string, Spec[]>();
    for (const s of group.specs) files.set(s.file, [...(files.get(s.file) ?? []), s]);
    for (const specs of files.values()) {
      const first = specs[0] as Spec;
      const ns = namespaces(gi, first);
      const setup = prepare(oc.kube, ns, first.supporting);
      for (const s of specs)
        applied.set(
          s.name,
          setup.then(() => applyParent(oc.kube, ns.kserve, s.parent)),
        );
    }
  }, 300_000);

  it.each(group.specs.map((s) => [`${s.name}: ${s.covers}`, s] as const))('%s', async (_, spec) => {
    const t0 = Date.now();
    const ns = namespaces(gi, spec);
    const refusal = await applied.get(spec.name);
    if (refusal !== undefined) return judgeRefusal(spec, `refused: ${refusal}`, await modelhooksChildren(oc.kube, ns, spec, group.variant));
    // KServe first: an InferenceGraph's modelhooks sync reads its InferenceServices (and their status) as they are then.
    const theirs = await kserveChildren(oc.kube, ns.kserve, spec.parent, group.readySeconds ? group.readySeconds * 1000 : READY_TIMEOUT_MS);
    const ours = await modelhooksChildren(oc.kube, ns, spec, group.variant);
    if (theirs.size === 0) return judgeRefusal(spec, `accepted, never reconciled: ${reconcileError(spec.parent.metadata.name)}`, ours);
    expect(
      listed.refused?.find((r) => r.spec === spec.name),
      `${spec.name} is listed as refused, but KServe accepted it`,
    ).toBeUndefined();
    const diffs = diffObjects(spec.name, theirs, await dryRun(oc.kube, ns.modelhooks, spec.parent, ours));
    all.push(...diffs);
    timings.push({ spec: spec.name, seconds: (Date.now() - t0) / 1000 });
    if (process.env.ORACLE_REPORT) appendFileSync(`${path.resolve(process.env.ORACLE_REPORT)}.partial`, `${JSON.stringify({ spec: spec.name, diffs })}\n`);
    const unlisted = diffs.filter((d) => !kept.match(d));
    expect(
      unlisted.map((d) => `${d.kind} ${d.object} ${d.path}: kserve ${JSON.stringify(d.kserve)} modelhooks ${JSON.stringify(d.modelhooks)}`),
      'differences not listed in test/oracle/differences.yaml',
    ).toEqual([]);
  });
});

/** A spec KServe refuses (or accepts and never reconciles): listed under `refused:` with a part of KServe's message. */
function judgeRefusal(spec: Spec, kserve: string, ours: KubeObject[]): void {
  const modelhooks = ours.length ? `serves it: ${ours.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}` : 'makes no children';
  refusals.push({ spec: spec.name, kserve, modelhooks });
  const entry = listed.refused?.find((r) => r.spec === spec.name);
  expect(entry, `KServe: ${kserve}; modelhooks ${modelhooks}: list it under refused: in differences.yaml`).toBeDefined();
  expect(kserve).toContain(entry?.kserve);
  expect(modelhooks).toContain(entry?.modelhooks);
}

/** The last reconcile error KServe's manager logged for this name (its log is the only place it says). */
function reconcileError(name: string): string {
  const lines = readFileSync(path.join(oc.dir, 'kserve-manager.log'), 'utf8').split('\n');
  const line = [...lines].reverse().find((l) => l.includes('"Reconciler error"') && l.includes(`"name":"${name}"`));
  return line ? String((JSON.parse(line) as { error?: string }).error) : 'no Ready condition and no children, no error logged';
}

it.skipIf(Boolean(only))('every difference listed in differences.yaml still occurs', () => {
  const stale = (listed.kept ?? []).filter((k) => !all.some((d) => kept.match(d) === k));
  expect(
    stale.map((k) => `${k.kind} ${k.path}`),
    'listed differences that no longer occur (remove them)',
  ).toEqual([]);
  const staleRefused = (listed.refused ?? []).filter((r) => !refusals.some((x) => x.spec === r.spec));
  expect(staleRefused.map((r) => r.spec)).toEqual([]);
});

/** Both namespaces (modelhooks' labelled `control-plane`: KServe's pod webhook skips it), and the spec's supporting objects in each. */
async function prepare(kube: Kube, ns: { kserve: string; modelhooks: string }, supporting: KubeObject[]): Promise<void> {
  await kube.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns.kserve } });
  await kube.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns.modelhooks, labels: { 'control-plane': 'modelhooks-oracle' } } });
  for (const name of [ns.kserve, ns.modelhooks]) {
    for (const obj of supporting) {
      const clusterScoped = obj.kind === 'ClusterServingRuntime';
      if (clusterScoped && name === ns.modelhooks) continue;
      await kube.apply({ ...obj, metadata: { ...obj.metadata, ...(clusterScoped ? {} : { namespace: name }) } });
    }
  }
  // Pods need their ServiceAccount (admission): the default one comes from kube-controller-manager.
  for (const name of [ns.kserve, ns.modelhooks]) {
    const deadline = Date.now() + 60_000;
    while ((await kube.request('GET', `/api/v1/namespaces/${name}/serviceaccounts/default`)).status !== 200) {
      if (Date.now() > deadline) throw new Error(`no default ServiceAccount in ${name}`);
      await sleep(200);
    }
  }
}

/** Creates the parent under KServe; a refusal by its webhooks is returned (its message), anything else thrown. */
async function applyParent(kube: Kube, ns: string, parent: KubeObject): Promise<string | undefined> {
  try {
    await kube.create({ ...parent, metadata: { ...parent.metadata, namespace: ns } });
    return undefined;
  } catch (e) {
    // Refused by its webhooks (403) or by its CRD's schema (400, 422).
    if (e instanceof KubeError && e.status >= 400 && e.status < 500 && e.status !== 409) return e.message.replace(/^POST \S+: /, '');
    throw e;
  }
}

type Cond = { type: string; status: string; reason?: string; message?: string };
const conditions = (o: KubeObject) => ((o.status as { conditions?: Cond[] } | undefined)?.conditions ?? []) as Cond[];

/**
 * KServe's children of the parent once it is Ready (its Ingress comes last, after the
 * components are ready), or whatever exists after ORACLE_READY_TIMEOUT_MS; each Deployment's
 * Pod from its newest ReplicaSet, keyed by the Deployment's name.
 */
async function kserveChildren(kube: Kube, ns: string, parent: KubeObject, timeoutMs: number): Promise<Map<string, KubeObject>> {
  const apiVersion = parent.apiVersion;
  const deadline = Date.now() + timeoutMs;
  let current = await kube.get(apiVersion, parent.kind, parent.metadata.name, ns);
  while (!conditions(current).some((c) => c.type === 'Ready' && c.status === 'True') && Date.now() < deadline) {
    await sleep(1_000);
    current = await kube.get(apiVersion, parent.kind, parent.metadata.name, ns);
  }
  const uid = current.metadata.uid as string;
  const out = new Map<string, KubeObject>();
  for (const k of CHILD_KINDS) {
    const list = await kube.call<{ items: KubeObject[] }>('GET', `${k.base}/namespaces/${ns}/${k.resource}`);
    for (const item of list.items) {
      const owned = ((item.metadata.ownerReferences ?? []) as Array<{ uid: string; controller?: boolean }>).some((r) => r.uid === uid && r.controller);
      if (owned) out.set(keyOf(k.kind, item.metadata.name), { ...item, apiVersion: k.apiVersion, kind: k.kind });
    }
  }
  for (const [key, d] of [...out.entries()].filter(([key]) => key.startsWith('Deployment/'))) {
    const pod = await newestPod(kube, ns, d);
    if (pod) out.set(keyOf('Pod', key.slice('Deployment/'.length)), { ...pod, apiVersion: 'v1', kind: 'Pod' });
  }
  return out;
}

async function newestPod(kube: Kube, ns: string, deployment: KubeObject): Promise<KubeObject | undefined> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const sets = await kube.call<{ items: KubeObject[] }>('GET', `/apis/apps/v1/namespaces/${ns}/replicasets`);
    const owned = sets.items.filter((rs) => ((rs.metadata.ownerReferences ?? []) as Array<{ uid: string }>).some((r) => r.uid === deployment.metadata.uid));
    const revision = (rs: KubeObject) => Number((rs.metadata.annotations as Record<string, string> | undefined)?.['deployment.kubernetes.io/revision'] ?? 0);
    const newest = owned.sort((a, b) => revision(b) - revision(a))[0];
    if (newest) {
      const pods = await kube.call<{ items: KubeObject[] }>('GET', `/api/v1/namespaces/${ns}/pods`);
      const pod = pods.items.find(
        (p) => !p.metadata.deletionTimestamp && ((p.metadata.ownerReferences ?? []) as Array<{ uid: string }>).some((r) => r.uid === newest.metadata.uid),
      );
      if (pod) return pod;
    }
    if (Date.now() > deadline) return undefined;
    await sleep(500);
  }
}

/**
 * The parent as a modelhooks cluster stores it: the spec as written, with modelhooks' own CRD
 * defaults (crds/), in KServe's namespace (so hosts and names match; the children are then
 * created in modelhooks' namespace); then the sync hook's children once the first sync's are
 * observed ready (hooks/testing `ready`: KServe's are read once it is Ready), with the related objects
 * read from the API server as Metacontroller would (ConfigMap, runtimes, Secrets, ServiceAccounts,
 * an InferenceGraph's InferenceServices), KServe's children left out.
 */
async function modelhooksChildren(kube: Kube, ns: { kserve: string }, spec: Spec, variant: string | undefined): Promise<KubeObject[]> {
  const composition = compositionOf(spec.parent.kind);
  if (!composition) throw new Error(`no composition for ${spec.parent.kind}`);
  const crd = crdFor(ourCrds(), spec.parent.apiVersion, spec.parent.kind);
  const parent = withDefaults(crd ? schemaFor(crd, spec.parent.apiVersion) : undefined, {
    ...structuredClone(spec.parent),
    metadata: { ...spec.parent.metadata, namespace: ns.kserve, uid: randomUUID(), generation: 1 },
  }) as KubeObject;
  // KServe's own children in that namespace are not modelhooks' to see (it would report them as name conflicts, as it does
  // when it takes over from KServe): the comparison is with a cluster where modelhooks alone made them.
  const customize = await postHook(app, `/hooks/${composition.name}/customize`, syncRequest(composition, { parent, variant }));
  const listed = (await relatedOf(kube, customize.relatedResources as RelatedRule[])).filter(
    (o) => !((o.metadata.ownerReferences ?? []) as Array<{ kind: string; controller?: boolean }>).some((r) => r.controller && PARENT_KINDS.has(r.kind)),
  );
  // The ServiceAccounts as the credentials DecoratorController leaves them (its summary of their Secrets), as render and plan see them.
  const related = await withDecorations(kube, composition, listed, parent.metadata.namespace as string);
  const first = await postHook(app, `/hooks/${composition.name}/sync`, syncRequest(composition, { parent, related, variant }));
  // Once its children are ready, as KServe's are read once Ready: the Ingress waits for the components, as KServe's does.
  const observed = ((first.children ?? []) as KubeObject[]).map((c) => ready(c));
  const settled = { ...parent, status: first.status ?? {} };
  const answer = await postHook(app, `/hooks/${composition.name}/sync`, syncRequest(composition, { parent: settled, related, variant, observed }));
  const children = (answer.children ?? []) as KubeObject[];
  if (children.length === 0) {
    const ready = conditions({ ...parent, status: answer.status }).find((c) => c.type === 'Ready');
    console.log(`oracle: modelhooks makes no children for ${spec.name}: Ready ${ready?.status} ${ready?.reason}: ${ready?.message}`);
  }
  return children;
}

/** Related objects as a composition's DecoratorController leaves them (engine/decorator.ts decorated), its rules listed from the API server. */
async function withDecorations(kube: Kube, composition: AnyComposition, related: KubeObject[], namespace: string): Promise<KubeObject[]> {
  const d = composition.decorator;
  const decoratedOnes = related.filter((o) => d && o.apiVersion === d.resource.apiVersion && o.kind === d.resource.kind);
  if (!d || decoratedOnes.length === 0) return related;
  const rules = new Map<string, KubeObject[]>();
  for (const o of decoratedOnes) {
    for (const rule of [namespaceRule(o.metadata.namespace ?? namespace), ...d.customize(o)]) {
      const key = JSON.stringify(rule);
      if (!rules.has(key)) rules.set(key, await relatedOf(kube, [rule]));
    }
  }
  return decorated(composition, related, namespace, (rule) => rules.get(JSON.stringify(rule)) ?? []);
}

/**
 * What Metacontroller passes as `related` for these customize rules: each rule's resource listed
 * in its namespace (or cluster-wide), by its label selector, then by its names. Pods are left out:
 * the ones there are KServe's.
 */
async function relatedOf(kube: Kube, rules: RelatedRule[]): Promise<KubeObject[]> {
  const out: KubeObject[] = [];
  for (const rule of rules) {
    if (rule.resource === 'pods') continue;
    const kind = await kube.kindOf(rule.apiVersion, rule.resource);
    if (!kind) continue;
    const selector = rule.labelSelector ? labelSelectorQuery(rule.labelSelector) : '';
    const base = rule.apiVersion.includes('/') ? `/apis/${rule.apiVersion}` : `/api/${rule.apiVersion}`;
    const url = `${base}${rule.namespace ? `/namespaces/${rule.namespace}` : ''}/${rule.resource}${selector ? `?labelSelector=${encodeURIComponent(selector)}` : ''}`;
    const list = await kube.call<{ items: KubeObject[] }>('GET', url);
    out.push(...list.items.filter((o) => !rule.names || rule.names.includes(o.metadata.name)).map((o) => ({ ...o, apiVersion: rule.apiVersion, kind })));
  }
  return out;
}

/**
 * modelhooks' children created with dryRun=All in its namespace, with Metacontroller's
 * controller ownerReference, and a Pod from each Deployment's template (keyed by the
 * Deployment's name), as the API server would store them.
 */
async function dryRun(kube: Kube, ns: string, parent: KubeObject, children: KubeObject[]): Promise<Map<string, KubeObject>> {
  const owner = { apiVersion: parent.apiVersion, kind: parent.kind, name: parent.metadata.name, uid: randomUUID(), controller: true, blockOwnerDeletion: true };
  const out = new Map<string, KubeObject>();
  for (const child of children) {
    const obj = { ...child, metadata: { ...child.metadata, namespace: ns, ownerReferences: [owner] } };
    out.set(keyOf(child.kind, child.metadata.name), await kube.dryRunCreate(obj));
    if (child.kind === 'Deployment') {
      const template = (child.spec as { template: { metadata?: Record<string, unknown>; spec: unknown } }).template;
      const fromTemplate = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { ...(template.metadata ?? {}), name: `${child.metadata.name}-oracle`, namespace: ns },
        spec: template.spec as V1PodSpec,
      };
      const injection = (child.metadata.annotations as Record<string, string> | undefined)?.[POD_INJECTION_ANNOTATION];
      const pod = injection ? applyInjection(fromTemplate, JSON.parse(injection) as PodInjection) : fromTemplate;
      out.set(keyOf('Pod', child.metadata.name), await kube.dryRunCreate(pod as KubeObject));
    }
  }
  return out;
}

/** The structural defaults of `schema` applied as the API server applies them (a field is defaulted only where its enclosing object exists). */
function withDefaults(schema: Schema | undefined, value: unknown): unknown {
  if (!schema) return value;
  if (Array.isArray(value)) return schema.items ? value.map((v) => withDefaults(schema.items, v)) : value;
  if (!value || typeof value !== 'object' || !schema.properties) return value;
  const obj = { ...(value as Record<string, unknown>) };
  for (const [key, prop] of Object.entries(schema.properties)) {
    if (obj[key] === undefined && prop.default !== undefined) obj[key] = structuredClone(prop.default);
    if (obj[key] !== undefined) obj[key] = withDefaults(prop, obj[key]);
  }
  return obj;
}

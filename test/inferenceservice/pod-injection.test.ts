import { pino } from 'pino';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { V1Container, V1PodSpec } from '@kubernetes/client-node';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runSync, syncRequest } from '../../hooks/testing/index.js';
import { builtinCompositions } from '../../hooks/compositions.js';
import { createApp } from '../../hooks/server/app.js';
import { loadConfig } from '../../hooks/server/config.js';
import type { HookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import { applyInjection, POD_INJECTION_ANNOTATION, type PodInjection, type PodObject } from '../../hooks/inferenceservice/pod/injection.js';
import { admitPod, InjectionRegistry } from '../../hooks/inferenceservice/pod/pod-webhook.js';
import { namespaceSettings, withNamespaceSettings } from '../../hooks/engine/namespace-settings.js';
import { goldenCases } from '../support/golden.js';
import { expectValid } from '../support/validate.js';

/*
 * MODELHOOKS_POD_INJECTION=webhook. In template mode (the default) the golden pods are what
 * KServe v0.20.0's pod webhook leaves each Pod (the oracle tier compares them with KServe's real
 * Pods). In webhook mode the Deployment's template must be KServe's controller's (without what
 * the webhook adds), and modelhooks' pod webhook must make each Pod from it into that same Pod.
 * Upstream: kserve/kserve v0.20.0.
 */
const MUTATOR = 'pkg/webhook/admission/pod/mutator.go';
const STORAGE = 'pkg/webhook/admission/pod/storage_initializer_injector.go';
const MODELCAR = 'pkg/utils/storage.go (ConfigureModelcarToContainer, CreateModelcarContainer)';
const AGENT = 'pkg/webhook/admission/pod/agent_injector.go';
const METRICS = 'pkg/webhook/admission/pod/metrics_aggregate_injector.go';
const WEBHOOKS = 'config/webhook/manifests.yaml';

type Template = { metadata?: { annotations?: Record<string, string>; labels?: Record<string, string> }; spec: V1PodSpec };
const templateOf = (d: KubeObject) => (d.spec as { template: Template }).template;
const podOf = (d: KubeObject): PodObject & { metadata: { labels?: Record<string, string> } } => {
  const t = templateOf(d);
  return { metadata: structuredClone(t.metadata ?? {}), spec: structuredClone(t.spec) };
};
const injectionOf = (d: KubeObject) => JSON.parse((d.metadata.annotations as Record<string, string>)[POD_INJECTION_ANNOTATION] as string) as PodInjection;
const names = (list: Array<{ name: string }> | undefined) => (list ?? []).map((c) => c.name);
const webhookMode = (config: HookConfig): HookConfig => ({ ...config, inferenceservice: { ...config.inferenceservice, podInjection: 'webhook' } });

const cases = goldenCases('inferenceservice');
const byName = (name: string) => {
  const c = cases.find((x) => x.name === name);
  if (!c) throw new Error(`no golden case ${name}`);
  return c;
};
/** The golden case's Deployments in template mode and in webhook mode, by name. */
function bothModes(name: string) {
  const c = byName(name);
  const deployments = (children: KubeObject[]) => new Map(children.filter((o) => o.kind === 'Deployment').map((o) => [o.metadata.name, o]));
  const template = deployments(runSync(inferenceservice, c.options).children);
  const webhook = deployments(runSync(inferenceservice, { ...c.options, config: webhookMode(c.options.config as HookConfig) }).children);
  return { template, webhook };
}

describe("MODELHOOKS_POD_INJECTION=webhook: the template is KServe's, the Pod after the webhook is the Pod KServe's webhook makes", () => {
  for (const c of cases) {
    it(`${c.name}: each Deployment's pod after modelhooks' webhook equals its template-mode pod (${MUTATOR})`, () => {
      const { template, webhook } = bothModes(c.name);
      for (const [name, full] of template) {
        const d = webhook.get(name);
        if (!d) continue;
        expectValid(d);
        const annotations = d.metadata.annotations as Record<string, string>;
        if (annotations[POD_INJECTION_ANNOTATION] === undefined) {
          // A Deployment kept as observed (a canary's stable one) is not rebuilt.
          expect(d).toEqual(full);
          continue;
        }
        const { [POD_INJECTION_ANNOTATION]: _, ...rest } = annotations;
        expect(rest, 'the Deployment keeps its other annotations').toEqual(full.metadata.annotations ?? {});
        expect(templateOf(d).metadata?.labels).toEqual(templateOf(full).metadata?.labels);
        expect(applyInjection(podOf(d), injectionOf(d)), `${name}: the Pod after the webhook`).toEqual(podOf(full));
        // KServe's controller writes the Deployment's own annotations on its pod template (deployment_reconciler.go createRawDefaultDeployment: podMetadata := componentMeta).
        const { 'modelhooks.dev/spec-hash': _h, ...own } = rest;
        expect(templateOf(d).metadata?.annotations ?? {}).toEqual(own);
      }
    });
  }

  it(`S3 credentials through a ServiceAccount: the storage initializer and its volume are the webhook's (${STORAGE} InjectStorageInitializer)`, () => {
    const { template, webhook } = bothModes('docs-s3-service-account');
    const full = template.get('mnist-s3-predictor') as KubeObject;
    const d = webhook.get('mnist-s3-predictor') as KubeObject;
    expect(names(templateOf(full).spec.initContainers)).toEqual(['storage-initializer']);
    expect(templateOf(d).spec.initContainers).toBeUndefined();
    expect(templateOf(d).spec.volumes).toBeUndefined();
    const server = templateOf(d).spec.containers.find((c) => c.name === 'kserve-container') as V1Container;
    expect(server.volumeMounts).toBeUndefined();
    // The template keeps the annotation the webhook injects from (components/component.go).
    expect(templateOf(d).metadata?.annotations?.['internal.serving.kserve.io/storage-initializer-sourceuri']).toBe('s3://kfserving-examples/mnist');
    const injection = injectionOf(d);
    const init = injection.initContainers?.[0] as V1Container;
    expect(init.name).toBe('storage-initializer');
    expect(init.env?.filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.name)).toEqual(['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY']);
    expect(names(injection.volumes)).toEqual(['kserve-provision-location']);
    expect(injection.edits).toEqual([
      { name: 'kserve-container', volumeMounts: [{ name: 'kserve-provision-location', mountPath: '/mnt/models', readOnly: true }] },
    ]);
  });

  it(`oci:// model car: the model car, its init container, MODEL_INIT_MODE, its user and the shared process namespace are the webhook's (${MODELCAR})`, () => {
    const { webhook } = bothModes('oci-modelcar');
    const [d] = [...webhook.values()] as [KubeObject];
    const spec = templateOf(d).spec;
    expect(names(spec.containers)).toEqual(['kserve-container']);
    expect(spec.initContainers).toBeUndefined();
    expect(spec.shareProcessNamespace).toBeUndefined();
    expect(spec.containers[0]?.securityContext?.runAsUser).toBeUndefined();
    expect((spec.containers[0]?.env ?? []).map((e) => e.name)).not.toContain('MODEL_INIT_MODE');
    const injection = injectionOf(d);
    expect(names(injection.containers)).toEqual(['modelcar']);
    expect(names(injection.initContainers)).toEqual(['modelcar-init']);
    expect(injection.shareProcessNamespace).toBe(true);
    expect(injection.edits?.[0]).toMatchObject({
      name: 'kserve-container',
      env: [{ name: 'MODEL_INIT_MODE', value: 'async' }],
      securityContext: { runAsUser: 1010 },
    });
  });

  it(`logger: the agent sidecar is the webhook's, the logger annotations it reads stay on the template (${AGENT})`, () => {
    const { webhook } = bothModes('logger-sample');
    const [d] = [...webhook.values()] as [KubeObject];
    expect(names(templateOf(d).spec.containers)).toEqual(['kserve-container']);
    expect(templateOf(d).metadata?.annotations?.['logger.serving.kserve.io/logger']).toBeUndefined();
    expect(Object.keys(templateOf(d).metadata?.annotations ?? {}).some((k) => k.startsWith('internal.serving.kserve.io/logger'))).toBe(true);
    expect(names(injectionOf(d).containers)).toEqual(['agent']);
  });

  it(`the metrics annotations are the webhook's: enable-metric-aggregation and enable-prometheus-scraping "false" unless set (${METRICS})`, () => {
    const { webhook } = bothModes('sample-sklearn');
    const [d] = [...webhook.values()] as [KubeObject];
    expect(templateOf(d).metadata?.annotations?.['serving.kserve.io/enable-metric-aggregation']).toBeUndefined();
    expect(injectionOf(d).annotations).toEqual({
      'serving.kserve.io/enable-metric-aggregation': 'false',
      'serving.kserve.io/enable-prometheus-scraping': 'false',
    });
  });

  it('storageUris: the controller writes the storage initializer into the template itself (components/predictor.go CommonStorageInitialization), so it stays there', () => {
    const { template, webhook } = bothModes('storage-uris');
    for (const [name, d] of webhook) expect(templateOf(d).spec.initContainers).toEqual(templateOf(template.get(name) as KubeObject).spec.initContainers);
  });

  it('applying an injection twice changes nothing (reinvocationPolicy IfNeeded)', () => {
    const { webhook } = bothModes('oci-modelcar');
    const [d] = [...webhook.values()] as [KubeObject];
    const once = applyInjection(podOf(d), injectionOf(d));
    expect(applyInjection(once, injectionOf(d))).toEqual(once);
  });

  it('the setting is read per namespace too (modelhooks.dev/pod-injection), and a bad value is a problem', () => {
    const ns = (value: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'ml', annotations: { 'modelhooks.dev/pod-injection': value } },
    });
    const base = byName('sample-sklearn').options.config as HookConfig;
    expect(withNamespaceSettings(base.inferenceservice, namespaceSettings(ns('webhook')).settings).podInjection).toBe('webhook');
    expect(base.inferenceservice.podInjection).toBe('template');
    expect(namespaceSettings(ns('pods')).problems).toEqual([{ annotation: 'modelhooks.dev/pod-injection', message: '"pods": not template or webhook' }]);
  });
});

describe(`admitPod: the AdmissionReview answer (${MUTATOR} Handle)`, () => {
  const { template, webhook } = bothModes('docs-s3-service-account');
  const d = webhook.get('mnist-s3-predictor') as KubeObject;
  const review = (pod: PodObject, apiVersion = 'admission.k8s.io/v1') => ({
    apiVersion,
    kind: 'AdmissionReview',
    request: { uid: 'u-1', namespace: d.metadata.namespace, operation: 'CREATE', object: pod },
  });
  const registry = new InjectionRegistry();
  registry.record(JSON.stringify({ children: [d, ...[...template.values()]] }));

  it('records the injection of each webhook-mode Deployment of a sync answer, by namespace and selector', () => {
    expect(registry.size).toBe(1);
    expect(registry.get(d.metadata.namespace as string, 'isvc.mnist-s3-predictor')).toEqual(injectionOf(d));
  });

  it('is bounded by bytes: past the bound the least recently written entry goes, and its Pod is refused until the next sync writes it again', () => {
    const injection = injectionOf(d);
    const bytes = JSON.stringify(injection).length;
    const small = new InjectionRegistry(bytes * 2 + 1);
    small.set('a', 'x', injection);
    small.set('a', 'y', injection);
    small.set('a', 'x', injection); // rewritten: now the most recent
    small.set('a', 'z', injection);
    expect([small.get('a', 'x'), small.get('a', 'y'), small.get('a', 'z')].map((e) => e !== undefined)).toEqual([true, false, true]);
    expect(small.bytes).toBe(bytes * 2);
    // One entry larger than the whole bound is not kept.
    const tiny = new InjectionRegistry(bytes - 1);
    tiny.set('a', 'x', injection);
    expect([tiny.size, tiny.bytes]).toEqual([0, 0]);
  });

  it('answers a JSON Patch that makes the Pod the template-mode pod', () => {
    const pod = podOf(d);
    const answer = admitPod(review(pod), registry);
    expect(answer).toMatchObject({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid: 'u-1', allowed: true, patchType: 'JSONPatch' },
    });
    const ops = JSON.parse(Buffer.from(answer.response.patch as string, 'base64').toString()) as Array<{ op: string; path: string; value: unknown }>;
    const patched = structuredClone(pod) as unknown as Record<string, Record<string, unknown>>;
    for (const op of ops) {
      expect(op.op).toBe('add');
      const [, top, key] = op.path.split('/') as [string, string, string];
      (patched[top] as Record<string, unknown>)[key] = op.value;
    }
    expect(patched).toEqual(podOf(template.get('mnist-s3-predictor') as KubeObject));
  });

  it(`answers v1beta1 as v1beta1 (KServe's configuration asks for it: ${WEBHOOKS})`, () => {
    expect(admitPod(review(podOf(d), 'admission.k8s.io/v1beta1'), registry).apiVersion).toBe('admission.k8s.io/v1beta1');
  });

  it("allows a complete Pod unchanged (a template-mode Deployment's, or reinvoked)", () => {
    const full = podOf(template.get('mnist-s3-predictor') as KubeObject);
    expect(admitPod(review(full), new InjectionRegistry()).response).toEqual({ uid: 'u-1', allowed: true });
    expect(admitPod(review(full), registry).response).toEqual({ uid: 'u-1', allowed: true });
  });

  it("refuses a Pod KServe's webhook would complete whose Deployment it has not synced yet (the ReplicaSet controller creates it again)", () => {
    const answer = admitPod(review(podOf(d)), new InjectionRegistry());
    expect(answer.response.allowed).toBe(false);
    expect(answer.response.status?.message).toContain('has not synced');
  });

  it('refuses what is not an AdmissionReview of a Pod', () => {
    expect(admitPod({ kind: 'Pod' }, registry).response).toMatchObject({ allowed: false, status: { code: 400 } });
  });
});

describe('POST /mutate-pods on the hook server', () => {
  it("answers the Pods of the Deployments its syncs made in webhook mode, without the hooks' token (the API server sends none)", async () => {
    const c = byName('docs-s3-service-account');
    const app = createApp({
      compositions: builtinCompositions,
      config: loadConfig({ MODELHOOKS_POD_INJECTION: 'webhook', MODELHOOKS_TOKEN_FILE: '' }),
      logger: pino({ level: 'silent' }),
    });
    const body = syncRequest(inferenceservice, { parent: c.options.parent as KubeObject, related: c.options.related ?? [] });
    const sync = await request(app).post('/hooks/inferenceservice/sync').send(body).expect(200);
    const d = (sync.body.children as KubeObject[]).find((o) => o.kind === 'Deployment') as KubeObject;
    const review = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 'u-2', namespace: d.metadata.namespace, object: podOf(d) } };
    const res = await request(app).post('/mutate-pods').send(review).expect(200);
    expect(res.body.response).toMatchObject({ uid: 'u-2', allowed: true, patchType: 'JSONPatch' });
    const other = { ...review, request: { ...review.request, namespace: 'elsewhere' } };
    expect((await request(app).post('/mutate-pods').send(other).expect(200)).body.response.allowed).toBe(false);
    await request(app).post('/mutate-pods').send('{').expect(400);
  });

  it('bounds what anyone who reaches the port may send: a review over 3 MiB is a 413, answered without holding it, and the next is read', async () => {
    const app = createApp({ compositions: builtinCompositions, config: loadConfig({ MODELHOOKS_TOKEN_FILE: '' }), logger: pino({ level: 'silent' }) });
    const big = JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 'u-3', padding: 'x'.repeat(3 * 1024 * 1024) } });
    const res = await request(app)
      .post('/mutate-pods')
      .set('Content-Type', 'application/json')
      .send(big)
      .ok(() => true);
    expect([res.status, res.text]).toEqual([413, expect.stringContaining('an AdmissionReview is at most 3145728 bytes')]);
    const small = {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: { uid: 'u-4', namespace: 'ns', object: { metadata: { labels: {} }, spec: { containers: [] } } },
    };
    expect((await request(app).post('/mutate-pods').send(small).expect(200)).body.response.uid).toBe('u-4');
  });
});

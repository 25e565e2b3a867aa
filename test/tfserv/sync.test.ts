import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../hooks/kit/index.js';
import { compositeControllerFor, crdFor } from '../../hooks/engine/manifests.js';
import { runCustomize, runSync } from '../../hooks/testing/index.js';
import { defaultHookConfig } from '../../hooks/server/config.js';
import { tfserv } from '../../hooks/tfserv/index.js';
import { CONFIG_CHECKSUM_ANNOTATION } from '../../hooks/tfserv/names.js';
import { main } from '../../hooks/cli/main.js';
import path from 'node:path';
import { vendorDir, referenceSamples, repoRoot } from '../support/reference.js';
import { expectValid, validateAgainstCrd } from '../support/validate.js';
import { compositionRules, namespaceRuleOf } from '../support/rules.js';

const config = defaultHookConfig();

function parent(spec: Record<string, unknown>, name = 'demo'): KubeObject {
  return { apiVersion: 'servapi.dev-state.com/v1alpha1', kind: 'Tfserv', metadata: { name, namespace: 'ml', generation: 1 }, spec };
}

function configMap(name: string, data: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ml' }, data };
}

const models = (name: string) => `model_config_list { config { name: "${name}" base_path: "/models/${name}" model_platform: "tensorflow" } }`;

const container = (d: any) => d.spec.template.spec.containers[0];

describe('Tfserv customize', () => {
  it('asks for the spec’s ConfigMap, not a fixed one, in the Tfserv’s own namespace only', () => {
    expect(compositionRules(runCustomize(tfserv, { parent: parent({ configMap: 'my-models' }), config }))).toEqual([
      { apiVersion: 'v1', resource: 'configmaps', namespace: 'ml', names: ['my-models'] },
    ]);
  });

  it('asks for nothing but its Namespace when the spec is invalid (sync reports it)', () => {
    expect(runCustomize(tfserv, { parent: parent({ grpcPort: 9000, restPort: 9000 }), config })).toEqual([namespaceRuleOf('ml')]);
  });

  it('asks for the original fixed ConfigMap when the spec names none, as the original operator mounted', () => {
    expect(compositionRules(runCustomize(tfserv, { parent: parent({}), config }))).toEqual([
      { apiVersion: 'v1', resource: 'configmaps', namespace: 'ml', names: ['tf-serving-models-config'] },
    ]);
  });
});

describe('Tfserv sync', () => {
  it('emits only child kinds its CompositeController declares, all in the parent’s namespace', () => {
    const controller = compositeControllerFor(tfserv, 'default', { hookBaseUrl: 'http://x' }) as any;
    const declared = controller.spec.childResources.map((r: any) => `${r.apiVersion}/${r.resource}`);
    expect(declared).toEqual(['apps/v1/deployments', 'v1/services']);
    const out = runSync(tfserv, { parent: parent({ configMap: 'm' }), related: [configMap('m', { 'models.conf': models('a') })], config });
    expect(out.children.map((c) => `${c.kind}/${c.metadata.name}`)).toEqual(['Deployment/demo', 'Service/demo-service']);
    for (const c of out.children) expect(c.metadata.namespace).toBe('ml');
    expect(controller.spec.hooks.customize).toBeDefined();
  });

  it('rolls the pods when the models file changes, and only then', () => {
    const run = (content: string, extra: Record<string, string> = {}) =>
      runSync(tfserv, { parent: parent({ configMap: 'm' }), related: [configMap('m', { 'models.conf': content, ...extra })], config }).child<any>(
        'Deployment',
        'demo',
      )!.spec.template.metadata.annotations[CONFIG_CHECKSUM_ANNOTATION];
    expect(run(models('a'))).toBe(run(models('a'), { README: 'unrelated key' }));
    expect(run(models('a'))).not.toBe(run(models('b')));
  });

  it('probes the first model of the file and polls the file every 60 s', () => {
    const out = runSync(tfserv, {
      parent: parent({ configMap: 'm', restPort: 7001 }),
      related: [configMap('m', { 'models.conf': models('half_plus_two') })],
      config,
    });
    const c = container(out.child('Deployment', 'demo'));
    expect(c.readinessProbe.httpGet).toEqual({ path: '/v1/models/half_plus_two', port: 'rest' });
    expect(c.ports).toContainEqual({ name: 'rest', containerPort: 7001, protocol: 'TCP' });
    expect(c.args).toContain('--model_config_file_poll_wait_seconds=60');
  });

  it('sets GOOGLE_APPLICATION_CREDENTIALS and mounts the spec’s Secret only when a secret file is given', () => {
    const related = [configMap('m', { 'models.conf': models('a') })];
    const without = container(runSync(tfserv, { parent: parent({ configMap: 'm' }), related, config }).child('Deployment', 'demo'));
    expect(without.env).toBeUndefined();
    expect(without.volumeMounts).toHaveLength(1);
    const withSecret = runSync(tfserv, {
      parent: parent({ configMap: 'm', secretName: 'gcs-key', secretFileName: 'key.json', secretFileLocation: '/secret' }),
      related,
      config,
    }).child<any>('Deployment', 'demo')!;
    expect(container(withSecret).env).toEqual([{ name: 'GOOGLE_APPLICATION_CREDENTIALS', value: '/secret/key.json' }]);
    expect(withSecret.spec.template.spec.volumes).toContainEqual({ name: 'tfs-secret-volume', secret: { secretName: 'gcs-key' } });
  });

  it('mounts a Secret without a credentials variable when only the location is given', () => {
    const d = runSync(tfserv, {
      parent: parent({ configMap: 'm', secretFileLocation: '/secret/' }),
      related: [configMap('m', { 'models.conf': '' })],
      config,
    }).child<any>('Deployment', 'demo')!;
    expect(container(d).env).toBeUndefined();
    expect(d.spec.template.spec.volumes).toContainEqual({ name: 'tfs-secret-volume', secret: { secretName: 'tfs-secret' } });
  });

  it('creates no Deployment while the ConfigMap lacks the models file, and says which key', () => {
    const out = runSync(tfserv, {
      parent: parent({ configMap: 'm', configFileName: 'serving.conf' }),
      related: [configMap('m', { 'models.conf': models('a') })],
      config,
    });
    expect(out.childrenOf('Deployment')).toEqual([]);
    expect(out.condition('ConfigMapFound')).toMatchObject({
      status: 'False',
      reason: 'ConfigFileMissing',
      message: 'ConfigMap m in namespace ml has no key serving.conf',
    });
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: 'ConfigFileMissing' });
  });

  it('uses the configured image unless the spec names one', () => {
    const related = [configMap('m', { 'models.conf': models('a') })];
    const custom = { ...config, tfserv: { images: { 'tensorflow-serving': 'mirror.local/tfs:1' } } };
    expect(container(runSync(tfserv, { parent: parent({ configMap: 'm' }), related, config: custom }).child('Deployment', 'demo')).image).toBe(
      'mirror.local/tfs:1',
    );
    expect(
      container(runSync(tfserv, { parent: parent({ configMap: 'm', image: 'own/tfs:2' }), related, config: custom }).child('Deployment', 'demo')).image,
    ).toBe('own/tfs:2');
  });

  it('reports a rollout in progress from the observed Deployment', () => {
    const related = [configMap('m', { 'models.conf': models('a') })];
    const desired = runSync(tfserv, { parent: parent({ configMap: 'm', replicas: 3 }), related, config }).child('Deployment', 'demo')!;
    const observed = {
      ...desired,
      metadata: { ...desired.metadata, generation: 2 },
      status: { observedGeneration: 2, replicas: 3, updatedReplicas: 3, readyReplicas: 1, availableReplicas: 1 },
    };
    const out = runSync(tfserv, { parent: parent({ configMap: 'm', replicas: 3 }), related, observed: [observed], config });
    expect(out.status).toMatchObject({ replicas: 3, readyReplicas: 1 });
    expect(out.condition('DeploymentReady')).toMatchObject({ status: 'Unknown', reason: 'RolloutInProgress' });
    expect(out.condition('Ready')).toMatchObject({ status: 'Unknown', reason: 'RolloutInProgress' });
  });

  it('gives long and digit-first names valid children', () => {
    const long = `a${'b'.repeat(70)}.example`;
    const out = runSync(tfserv, { parent: parent({ configMap: 'm' }, long), related: [configMap('m', { 'models.conf': models('a') })], config });
    for (const c of out.children) expectValid(c);
    const digit = runSync(tfserv, { parent: parent({ configMap: 'm' }, '1st'), config });
    // The `x` in front changes the name: it carries the hash of the original, so a Tfserv named `x1st` cannot take it.
    expect(digit.childrenOf('Service')[0]?.metadata.name).toMatch(/^x1st-service-[0-9a-f]{12}$/);
    const x = runSync(tfserv, { parent: parent({ configMap: 'm' }, 'x1st'), config });
    expect(x.childrenOf('Service')[0]?.metadata.name).toBe('x1st-service');
  });
});

describe('Tfserv samples of the original operator', () => {
  const samples = referenceSamples().filter((s) => s.file.startsWith('tfserv-'));
  const tfservs = samples.filter((s) => s.object.kind === 'Tfserv');
  const configMaps = samples.filter((s) => s.object.kind === 'ConfigMap').map((s) => s.object as KubeObject);

  it('exist', () => expect(tfservs.length).toBeGreaterThan(0));

  it.each(tfservs.map((s) => [s.file, s.object] as const))('%s validates against our CRD and renders valid children', (_file, sample) => {
    expect(validateAgainstCrd(crdFor(tfserv), sample)).toEqual([]);
    const out = runSync(tfserv, { parent: sample, related: configMaps, config });
    expect(out.childrenOf('Deployment')).toHaveLength(1);
    expect(out.condition('ConfigMapFound')?.status).toBe('True');
    for (const child of out.children) expectValid(child);
  });
});

describe('modelhooks render', () => {
  async function render(args: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await main(['render', ...args, '--now', '2026-01-01T00:00:00Z'], { out: (t) => (out += t), err: (t) => (err += t), env: {}, cwd: repoRoot() });
    return { code, out, err };
  }

  it('renders the original sample with its ConfigMap', async () => {
    const samples = path.join(vendorDir(), 'samples');
    const r = await render([
      path.join(samples, 'tfserv-servapi_v1alpha1_tfserv.yaml'),
      '--related',
      path.join(samples, 'tfserv-servapi_configmap_resnet.yaml'),
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('name: tfserv-sample-service');
    expect(r.out).toContain('--model_config_file=/var/config/models.conf');
  });

  it('renders examples/tfserv.yaml with examples/tfserv-configmap.yaml', async () => {
    const r = await render(['examples/tfserv.yaml', '--related', 'examples/tfserv-configmap.yaml']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('path: /v1/models/half_plus_two');
  });
});

describe('Tfserv immutable fields', () => {
  // apps/v1 Deployment selectors are immutable (pkg/apis/apps/validation ValidateDeploymentUpdate).
  it('a Deployment with another selector (an older labelling) keeps it, and DeploymentReady says so', () => {
    const spec = { configMap: 'my-models' };
    const related = [configMap('my-models', { 'models.conf': models('half') })];
    const first = runSync(tfserv, { parent: parent(spec), related, config });
    const older = first.children.map((c: any) =>
      c.kind === 'Deployment'
        ? {
            ...c,
            spec: { ...c.spec, selector: { matchLabels: { app: 'demo' } } },
            status: { observedGeneration: 0, replicas: 1, updatedReplicas: 1, availableReplicas: 1 },
          }
        : c,
    );
    const out = runSync(tfserv, { parent: parent(spec), observed: older, related, config });
    const d = out.child<any>('Deployment', 'demo');
    expect(d.spec.selector).toEqual({ matchLabels: { app: 'demo' } });
    expect(d.spec.template.metadata.labels.app).toBe('demo');
    expect(out.condition('DeploymentReady')).toMatchObject({ status: 'False', reason: 'ImmutableField' });
    expect(out.condition('Ready')?.status).toBe('False');
    // The same selector: nothing refused.
    const same = runSync(tfserv, { parent: parent(spec), observed: first.children, related, config });
    expect(same.condition('DeploymentReady')?.reason).not.toBe('ImmutableField');
  });
});

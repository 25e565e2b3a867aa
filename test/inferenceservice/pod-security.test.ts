import { describe, expect, it } from 'vitest';
import { loadConfig, type HookConfig } from '../../hooks/server/config.js';
import { inferenceservice } from '../../hooks/inferenceservice/index.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { podSecurityViolations } from '../../hooks/inferenceservice/input/pod-security-standards.js';
import { runCustomize, runSync } from '../../hooks/testing/index.js';
import { appliedOptions } from '../support/golden.js';

const at = (level: string): HookConfig => loadConfig({ MODELHOOKS_POD_SECURITY: level }).hooks;
const restricted = at('restricted');
const isvc = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name: 'demo', namespace: 'ml', generation: 2, annotations: { 'serving.kserve.io/storageSecretName': 'creds' } },
  spec,
});
const custom = (container: Record<string, unknown>, pod: Record<string, unknown> = {}) => ({
  predictor: { ...pod, containers: [{ name: 'kserve-container', image: 'me/server:1', ...container }] },
});
const sklearn = (fields: Record<string, unknown>, pod: Record<string, unknown> = {}) => ({
  predictor: { ...pod, sklearn: { storageUri: 'gs://b/m', ...fields } },
});
const deployments = (children: KubeObject[]) => children.filter((c) => c.kind === 'Deployment') as Array<KubeObject & { spec: any }>;
const MSG = (level: string) => `not allowed by the ${level} pod security level (MODELHOOKS_POD_SECURITY)`;

describe('InferenceService pod security (MODELHOOKS_POD_SECURITY)', () => {
  it('refuses privileged: true at the default level with InvalidSpec naming the field', () => {
    const out = runSync(inferenceservice, { parent: isvc(custom({ securityContext: { privileged: true } })), config: restricted });
    expect(out.condition('Ready')).toMatchObject({
      status: 'False',
      reason: 'InvalidSpec',
      message: `spec.predictor.containers[0].securityContext.privileged: ${MSG('restricted')}`,
    });
    expect(out.children).toEqual([]);
  });

  it.each([
    [
      'SYS_ADMIN on the model container',
      sklearn({ securityContext: { capabilities: { add: ['SYS_ADMIN'] } } }),
      'spec.predictor.sklearn.securityContext.capabilities.add[0]',
    ],
    ['runAsUser: 0 on the pod', custom({}, { securityContext: { runAsUser: 0 } }), 'spec.predictor.securityContext.runAsUser'],
    ['a hostPath / volume', custom({}, { volumes: [{ name: 'root', hostPath: { path: '/' } }] }), 'spec.predictor.volumes[0].hostPath'],
    ['hostNetwork', custom({}, { hostNetwork: true }), 'spec.predictor.hostNetwork'],
    [
      'a hostPort on a sidecar',
      { predictor: { sklearn: { storageUri: 'gs://b/m' }, containers: [{ name: 'proxy', image: 'p', ports: [{ containerPort: 9000, hostPort: 9000 }] }] } },
      'spec.predictor.containers[0].ports[0].hostPort',
    ],
    [
      'allowPrivilegeEscalation on a transformer',
      { ...sklearn({}), transformer: { containers: [{ image: 't', securityContext: { allowPrivilegeEscalation: true } }] } },
      'spec.transformer.containers[0].securityContext.allowPrivilegeEscalation',
    ],
    [
      'an Unconfined AppArmor annotation on an explainer',
      {
        ...sklearn({}),
        explainer: { annotations: { 'container.apparmor.security.beta.kubernetes.io/kserve-container': 'unconfined' }, containers: [{ image: 'e' }] },
      },
      'spec.explainer.annotations["container.apparmor.security.beta.kubernetes.io/kserve-container"]',
    ],
  ])('refuses %s, naming %s', (_what, spec, path) => {
    const out = runSync(inferenceservice, { parent: isvc(spec), config: restricted });
    expect(out.condition('Ready')?.reason).toBe('InvalidSpec');
    expect(out.condition('Ready')?.message).toMatch(new RegExp(`^${path.replace(/[[\].()"/]/g, '\\$&')}: `));
  });

  // Types as k8s.io/api core/v1 types.go declares them: the API server refuses any other whatever the level.
  it.each([
    [
      'privileged: "true" (a string)',
      custom({ securityContext: { privileged: 'true' } }),
      'spec.predictor.containers[0].securityContext.privileged',
      'must be a boolean',
    ],
    [
      'runAsNonRoot: "false" on the model container',
      sklearn({ securityContext: { runAsNonRoot: 'false' } }),
      'spec.predictor.sklearn.securityContext.runAsNonRoot',
      'must be a boolean',
    ],
    ['runAsUser: "0" on the pod', custom({}, { securityContext: { runAsUser: '0' } }), 'spec.predictor.securityContext.runAsUser', 'must be an integer'],
    ['runAsUser: 1.5', custom({ securityContext: { runAsUser: 1.5 } }), 'spec.predictor.containers[0].securityContext.runAsUser', 'must be an integer'],
    ['hostNetwork: "true"', custom({}, { hostNetwork: 'true' }), 'spec.predictor.hostNetwork', 'must be a boolean'],
    [
      'capabilities.add: "SYS_ADMIN" (not a list)',
      custom({ securityContext: { capabilities: { add: 'SYS_ADMIN' } } }),
      'spec.predictor.containers[0].securityContext.capabilities.add',
      'must be a list of strings',
    ],
    [
      'seccompProfile: "Unconfined" (not an object)',
      custom({ securityContext: { seccompProfile: 'Unconfined' } }),
      'spec.predictor.containers[0].securityContext.seccompProfile',
      'must be an object',
    ],
    [
      'a hostPort "9000" on a transformer',
      { ...sklearn({}), transformer: { containers: [{ image: 't', ports: [{ containerPort: 80, hostPort: '9000' }] }] } },
      'spec.transformer.containers[0].ports[0].hostPort',
      'must be an integer',
    ],
    [
      'allowPrivilegeEscalation: 1',
      custom({ securityContext: { allowPrivilegeEscalation: 1 } }),
      'spec.predictor.containers[0].securityContext.allowPrivilegeEscalation',
      'must be a boolean',
    ],
  ])('refuses %s at every level, privileged included, naming %s', (_what, spec, path, message) => {
    for (const level of ['restricted', 'baseline', 'privileged']) {
      const out = runSync(inferenceservice, { parent: isvc(spec), config: at(level) });
      expect(out.condition('Ready'), level).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
      expect(out.condition('Ready')?.message, level).toContain(`${path}: ${message}`);
      expect(deployments(out.children), level).toEqual([]);
    }
  });

  it('keeps every observed child (and asks for no related object) when the spec asks for more', () => {
    const valid = { parent: isvc(custom({})), config: restricted };
    const before = runSync(inferenceservice, valid);
    expect(before.condition('Ready')?.reason).not.toBe('InvalidSpec');
    const applied = appliedOptions(valid, before);
    const parent = { ...(applied.parent as KubeObject), spec: custom({ securityContext: { privileged: true, capabilities: { add: ['SYS_ADMIN'] } } }) };
    const after = runSync(inferenceservice, { ...applied, parent });
    expect(after.condition('Ready')?.reason).toBe('InvalidSpec');
    expect(after.condition('Ready')?.message).toContain(
      'spec.predictor.containers[0].securityContext.capabilities.add[0]: capability SYS_ADMIN is not allowed',
    );
    expect(after.children).toEqual(applied.observed);
    expect(runCustomize(inferenceservice, { parent, config: restricted })).toEqual([
      { apiVersion: 'v1', resource: 'namespaces', names: [parent.metadata.namespace] },
    ]);
    expect(runCustomize(inferenceservice, { parent: applied.parent, config: restricted })).not.toEqual([]);
  });

  it('keeps the user values the level allows, with the restricted defaults under them', () => {
    const spec = custom(
      { securityContext: { readOnlyRootFilesystem: true, capabilities: { add: ['NET_BIND_SERVICE'] } } },
      { securityContext: { runAsUser: 1000, fsGroup: 2000 } },
    );
    const out = runSync(inferenceservice, { parent: isvc(spec), config: restricted });
    const pod = deployments(out.children)[0]?.spec.template.spec;
    expect(pod.securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' }, runAsUser: 1000, fsGroup: 2000 });
    expect(pod.containers[0].securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] },
      readOnlyRootFilesystem: true,
    });
    expect(podSecurityViolations(pod, 'restricted', 'pod')).toEqual([]);
  });

  it('baseline allows what baseline allows (CHOWN, runAsUser 0) and still refuses privileged', () => {
    const root = custom({ securityContext: { runAsNonRoot: false, runAsUser: 0, capabilities: { add: ['CHOWN'] } } });
    expect(runSync(inferenceservice, { parent: isvc(root), config: restricted }).condition('Ready')?.reason).toBe('InvalidSpec');
    const out = runSync(inferenceservice, { parent: isvc(root), config: at('baseline') });
    expect(out.condition('Ready')?.reason).not.toBe('InvalidSpec');
    const pod = deployments(out.children)[0]?.spec.template.spec;
    // Baseline needs no field added: the user's context as written (as KServe leaves it).
    expect(pod.containers[0].securityContext).toEqual({ runAsNonRoot: false, runAsUser: 0, capabilities: { add: ['CHOWN'] } });
    expect(podSecurityViolations(pod, 'baseline', 'pod')).toEqual([]);
    const privileged = runSync(inferenceservice, { parent: isvc(custom({ securityContext: { privileged: true } })), config: at('baseline') });
    expect(privileged.condition('Ready')?.message).toBe(`spec.predictor.containers[0].securityContext.privileged: ${MSG('baseline')}`);
  });

  it('privileged lets everything through as the user wrote it', () => {
    const spec = custom({ securityContext: { privileged: true } }, { volumes: [{ name: 'root', hostPath: { path: '/' } }] });
    const out = runSync(inferenceservice, { parent: isvc(spec), config: at('privileged') });
    expect(out.condition('Ready')?.reason).not.toBe('InvalidSpec');
    const pod = deployments(out.children)[0]?.spec.template.spec;
    expect(pod.containers[0].securityContext.privileged).toBe(true);
    expect(pod.volumes).toContainEqual({ name: 'root', hostPath: { path: '/' } });
  });
});

/*
 * KServe adds no security field to any pod (reconcilers/deployment/deployment_reconciler.go
 * setDefaultPodSpec leaves `securityContext: {}`; pkg/utils/storage.go CreateInitContainerWithConfig
 * none; CreateModelcarContainer runAsUser only). By default (MODELHOOKS_POD_SECURITY=namespace) the
 * pods are KServe's, and the restricted fields are added only where the Namespace's
 * pod-security.kubernetes.io/enforce label (or modelhooks.dev/pod-security) asks for restricted.
 */
describe("the pod security level of the parent's Namespace (MODELHOOKS_POD_SECURITY=namespace, the default)", () => {
  const byDefault = loadConfig({}).hooks;
  const namespace = (labels: Record<string, string>, annotations: Record<string, string> = {}): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'ml', labels, annotations },
  });
  const podOf = (related: KubeObject[], spec = sklearn({})) =>
    deployments(runSync(inferenceservice, { parent: isvc(spec), config: byDefault, related }).children)[0]?.spec.template.spec;

  it('a Namespace without the enforce label: no security field added, as KServe (setDefaultPodSpec)', () => {
    const pod = podOf([namespace({})]);
    expect(pod.securityContext).toEqual({});
    expect(pod.initContainers[0].securityContext).toBeUndefined();
    // The runtime's own context (config/runtimes/kserve-sklearnserver.yaml) is kept as the runtime writes it.
    expect(pod.containers[0].securityContext).toEqual({
      allowPrivilegeEscalation: false,
      privileged: false,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(podOf([])).toEqual(pod);
  });

  it("enforce=restricted: the restricted fields under the user's, on every container", () => {
    const pod = podOf([namespace({ 'pod-security.kubernetes.io/enforce': 'restricted' })]);
    expect(pod.securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.initContainers[0].securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true });
    expect(podSecurityViolations(pod, 'restricted', 'pod')).toEqual([]);
  });

  it('enforce=baseline: nothing added, and a privileged container is refused as at baseline', () => {
    const ns = namespace({ 'pod-security.kubernetes.io/enforce': 'baseline' });
    expect(podOf([ns]).securityContext).toEqual({});
    const out = runSync(inferenceservice, { parent: isvc(custom({ securityContext: { privileged: true } })), config: byDefault, related: [ns] });
    expect(out.condition('Ready')?.message).toBe(`spec.predictor.containers[0].securityContext.privileged: ${MSG('baseline')}`);
  });

  it('a root user is served where nothing is enforced (a pod that runs under KServe runs here)', () => {
    const out = runSync(inferenceservice, { parent: isvc(custom({ securityContext: { runAsUser: 0 } })), config: byDefault, related: [namespace({})] });
    expect(out.condition('Ready')?.reason).not.toBe('InvalidSpec');
  });

  it('modelhooks.dev/pod-security on the Namespace overrides the label and the server', () => {
    const ns = namespace({ 'pod-security.kubernetes.io/enforce': 'privileged' }, { 'modelhooks.dev/pod-security': 'restricted' });
    expect(podOf([ns]).securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    const bad = runSync(inferenceservice, {
      parent: isvc(sklearn({})),
      config: byDefault,
      related: [namespace({}, { 'modelhooks.dev/pod-security': 'strict' })],
    });
    expect(bad.condition('Ready')).toMatchObject({ status: 'False', reason: 'InvalidNamespaceSettings' });
  });

  it('MODELHOOKS_POD_SECURITY=restricted opts every namespace in, whatever its label', () => {
    const ns = namespace({});
    const pod = deployments(runSync(inferenceservice, { parent: isvc(sklearn({})), config: restricted, related: [ns] }).children)[0]?.spec.template.spec;
    expect(pod.securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
  });
});

/**
 * Multi-tenancy in the kit: the namespace selector, the namespace's settings and its allowed
 * images decide before (and after) a composition runs, for every composition alike.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { containerImages, imagesNotAllowed, mirroredImage, namespaceSettings, withNamespaceSettings } from '../../hooks/engine/namespace-settings.js';
import { IMAGE_NOT_ALLOWED, INVALID_NAMESPACE_SETTINGS, NAMESPACE_NOT_ENABLED } from '../../hooks/engine/tenancy.js';
import { tfserv } from '../../hooks/tfserv/index.js';
import { runCustomize, runSync } from '../../hooks/testing/index.js';

const namespace = (name: string, labels: Record<string, string> = {}, annotations: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels }, annotations },
});
const parent = {
  apiVersion: 'servapi.dev-state.com/v1alpha1',
  kind: 'Tfserv',
  metadata: { name: 'resnet', namespace: 'team-a', uid: 'u1', generation: 1 },
  spec: { configMap: 'models' },
};
const models: KubeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'models', namespace: 'team-a' },
  data: { 'models.conf': 'model_config_list: { config: { name: "resnet", base_path: "/m", model_platform: "tensorflow" } }' },
};
const config = defaultHookConfig();
const sync = (related: KubeObject[], extra: { namespaceSelector?: string; observed?: KubeObject[]; spec?: object } = {}) =>
  runSync(tfserv, {
    parent: { ...parent, spec: { ...parent.spec, ...extra.spec } },
    related: [models, ...related],
    observed: extra.observed ?? [],
    config,
    ...(extra.namespaceSelector === undefined ? {} : { namespaceSelector: extra.namespaceSelector }),
  });

describe('customize asks for the parent Namespace, by name only', () => {
  it('adds the cluster-scoped rule for the parent namespace to every answer', () => {
    const rules = runCustomize(tfserv, { parent, config });
    expect(rules).toContainEqual({ apiVersion: 'v1', resource: 'namespaces', names: ['team-a'] });
    expect(rules.filter((r) => r.resource === 'namespaces')).toHaveLength(1);
  });
  it('asks for it even when the spec is invalid (sync still reads the namespace first)', () => {
    const rules = runCustomize(tfserv, { parent: { ...parent, spec: { configMap: 'models', restPort: 9000, grpcPort: 9000 } }, config });
    expect(rules).toEqual([{ apiVersion: 'v1', resource: 'namespaces', names: ['team-a'] }]);
  });
});

describe('MODELHOOKS_NAMESPACE_SELECTOR', () => {
  const selector = 'modelhooks.dev/enabled=true';
  it('a parent in a namespace that does not match: Ready=False/NamespaceNotEnabled and no children', () => {
    const out = sync([namespace('team-a')], { namespaceSelector: selector });
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: NAMESPACE_NOT_ENABLED });
    expect(out.condition('Ready')?.message).toContain(selector);
    expect(out.children).toEqual([]);
  });
  it('keeps the children that exist (never deletes them) and does not change them', () => {
    const served = sync([namespace('team-a', { 'modelhooks.dev/enabled': 'true' })], { namespaceSelector: selector });
    const existing = served.children.map((c) => ({ ...c, metadata: { ...c.metadata, annotations: { ...c.metadata.annotations, note: 'as applied' } } }));
    const out = sync([namespace('team-a')], { namespaceSelector: selector, observed: existing, spec: { replicas: 5 } });
    expect(out.condition('Ready')?.reason).toBe(NAMESPACE_NOT_ENABLED);
    expect(out.children.map((c) => `${c.kind}/${c.metadata.name}`).sort()).toEqual(['Deployment/resnet', 'Service/resnet-service']);
    expect(out.child<{ spec: { replicas: number } }>('Deployment', 'resnet')?.spec.replicas).toBe(1);
  });
  it('a matching namespace is served as without a selector', () => {
    const out = sync([namespace('team-a', { 'modelhooks.dev/enabled': 'true' })], { namespaceSelector: selector });
    expect(out.children.map((c) => c.kind).sort()).toEqual(['Deployment', 'Service']);
    expect(out.condition('Ready')?.reason).not.toBe(NAMESPACE_NOT_ENABLED);
    expect(out.children).toEqual(sync([namespace('team-a')]).children);
  });
  it('a Namespace not observed (yet) cannot match: not served, and the message says why', () => {
    const out = sync([], { namespaceSelector: selector });
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: NAMESPACE_NOT_ENABLED });
    expect(out.condition('Ready')?.message).toContain('has not been observed');
    expect(out.children).toEqual([]);
  });
  it('without a selector a Namespace not observed changes nothing: the server settings apply', () => {
    expect(sync([]).children).toEqual(sync([namespace('team-a')]).children);
  });
  it("only the parent's own Namespace counts: another enabled Namespace offered does not enable it", () => {
    const out = sync([namespace('team-b', { 'modelhooks.dev/enabled': 'true' })], { namespaceSelector: selector });
    expect(out.condition('Ready')?.reason).toBe(NAMESPACE_NOT_ENABLED);
  });
});

describe('namespace settings', () => {
  it('reads every annotation', () => {
    const ns = namespace(
      'team-a',
      {},
      {
        'modelhooks.dev/ingress-domain': 'team-a.ml.corp',
        'modelhooks.dev/domain-template': '{{ .Name }}.{{ .Namespace }}.{{ .IngressDomain }}',
        'modelhooks.dev/ingress-class': 'nginx-internal',
        'modelhooks.dev/gateway': 'team-a/gw',
        'modelhooks.dev/url-scheme': 'https',
        'modelhooks.dev/image-registry': 'mirror.corp:5000/hub',
        'modelhooks.dev/allowed-images': 'mirror.corp:5000/, ghcr.io/team-a/',
      },
    );
    expect(namespaceSettings(ns)).toEqual({
      settings: {
        ingressDomain: 'team-a.ml.corp',
        domainTemplate: '{{ .Name }}.{{ .Namespace }}.{{ .IngressDomain }}',
        ingressClass: 'nginx-internal',
        gateway: { namespace: 'team-a', name: 'gw' },
        urlScheme: 'https',
        imageRegistry: 'mirror.corp:5000/hub',
        allowedImages: ['mirror.corp:5000/', 'ghcr.io/team-a/'],
      },
      problems: [],
    });
  });
  const bad: Array<[string, string, RegExp]> = [
    ['modelhooks.dev/ingress-domain', 'Not A Domain', /not a DNS name/],
    ['modelhooks.dev/domain-template', '{{ .Namespace }}.{{ .IngressDomain }}', /must contain \{\{ \.Name \}\}/],
    ['modelhooks.dev/domain-template', '{{ .Name }}.{{ .Cluster }}', /unknown field \{\{ \.Cluster \}\}/],
    ['modelhooks.dev/domain-template', '{{ .Name }}_{{ .IngressDomain }}', /does not render a DNS name/],
    ['modelhooks.dev/ingress-class', 'Nginx!', /not an IngressClass name/],
    ['modelhooks.dev/gateway', 'no-slash', /not namespace\/name of a Gateway/],
    ['modelhooks.dev/url-scheme', 'ftp', /not http or https/],
    ['modelhooks.dev/image-registry', 'https://mirror', /not a registry/],
    ['modelhooks.dev/allowed-images', ' , ', /no image prefix listed/],
  ];
  for (const [annotation, value, message] of bad) {
    it(`${annotation}=${JSON.stringify(value)}: Ready=False/InvalidNamespaceSettings naming it, children kept, none created`, () => {
      const ns = namespace('team-a', {}, { [annotation]: value });
      expect(namespaceSettings(ns).problems).toEqual([{ annotation, message: expect.stringMatching(message) }]);
      const running = sync([namespace('team-a')]).children;
      const out = sync([ns], { observed: running.filter((c) => c.kind === 'Service') });
      expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: INVALID_NAMESPACE_SETTINGS });
      expect(out.condition('Ready')?.message).toContain(`annotation ${annotation}`);
      expect(out.children.map((c) => c.kind)).toEqual(['Service']);
    });
  }
  it('a setting a composition has no field for changes nothing for it', () => {
    const c = { images: { a: 'x/y:1' } };
    expect(withNamespaceSettings(c, { ingressDomain: 'd.corp', gateway: { namespace: 'a', name: 'b' } })).toEqual(c);
  });
  it('overlays ingress, gateway and images, leaving the server config untouched', () => {
    const server = {
      images: { a: 'kserve/x:1' },
      ingress: { domain: 'example.com', className: '', domainTemplate: 't', urlScheme: 'http' },
      gateway: { namespace: 'kserve', name: 'gw' },
    };
    const before = structuredClone(server);
    const got = withNamespaceSettings(server, {
      ingressDomain: 'd.corp',
      ingressClass: 'nginx',
      urlScheme: 'https',
      gateway: { namespace: 'a', name: 'b' },
      imageRegistry: 'mirror.corp',
    });
    expect(got).toEqual({
      images: { a: 'mirror.corp/kserve/x:1' },
      ingress: { domain: 'd.corp', className: 'nginx', domainTemplate: 't', urlScheme: 'https' },
      gateway: { namespace: 'a', name: 'b' },
    });
    expect(server).toEqual(before);
  });
});

describe('image-registry: images the server chooses come from the mirror', () => {
  const cases: Array<[string, string]> = [
    ['kserve/sklearnserver:v0.20.0', 'mirror.corp/kserve/sklearnserver:v0.20.0'],
    ['nvcr.io/nvidia/tritonserver:23.05-py3', 'mirror.corp/nvidia/tritonserver:23.05-py3'],
    ['quay.io/trustyai/trustyai-service:latest', 'mirror.corp/trustyai/trustyai-service:latest'],
    ['busybox', 'mirror.corp/library/busybox'],
    ['localhost/x/y:1', 'mirror.corp/x/y:1'],
    ['registry:5000/x:1', 'mirror.corp/x:1'],
    ['tensorflow/serving@sha256:abc', 'mirror.corp/tensorflow/serving@sha256:abc'],
  ];
  for (const [image, want] of cases) it(`${image} → ${want}`, () => expect(mirroredImage(image, 'mirror.corp')).toBe(want));
  it("Tfserv: the default server image is mirrored, spec.image (the tenant's own) is not", () => {
    const ns = namespace('team-a', {}, { 'modelhooks.dev/image-registry': 'mirror.corp' });
    const image = (out: ReturnType<typeof sync>) => containerImages(out.child('Deployment', 'resnet') as KubeObject).map((c) => c.image);
    expect(image(sync([ns]))).toEqual(['mirror.corp/tensorflow/serving:2.18.0']);
    expect(image(sync([ns], { spec: { image: 'ghcr.io/me/tfs:1' } }))).toEqual(['ghcr.io/me/tfs:1']);
  });
});

describe('allowed-images', () => {
  const deployment = (image: string, init?: string): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: { template: { spec: { ...(init ? { initContainers: [{ name: 'init', image: init }] } : {}), containers: [{ name: 'main', image }] } } },
  });
  it('finds every container image, init containers included', () => {
    expect(containerImages(deployment('a/b:1', 'c/d:2'))).toEqual([
      { container: 'init', image: 'c/d:2' },
      { container: 'main', image: 'a/b:1' },
    ]);
  });
  it('lists the containers whose image starts with no allowed prefix', () => {
    expect(imagesNotAllowed([deployment('mirror.corp/a:1', 'docker.io/evil:1')], ['mirror.corp/'])).toEqual([
      { child: 'Deployment/d', container: 'init', image: 'docker.io/evil:1' },
    ]);
  });
  it('a tenant image outside the prefixes: Ready=False/ImageNotAllowed, the running children kept as they run', () => {
    const allowed = namespace('team-a', {}, { 'modelhooks.dev/allowed-images': 'tensorflow/' });
    const running = sync([allowed]);
    expect(running.condition('Ready')?.reason).not.toBe(IMAGE_NOT_ALLOWED);
    const out = sync([allowed], { observed: running.children, spec: { image: 'docker.io/someone/tfs:1' } });
    expect(out.condition('Ready')).toMatchObject({ status: 'False', reason: IMAGE_NOT_ALLOWED });
    expect(out.condition('Ready')?.message).toContain('Deployment/resnet container tfs-main image docker.io/someone/tfs:1');
    expect(out.children).toEqual(running.children);
  });
  it('nothing running yet: nothing is created', () => {
    const allowed = namespace('team-a', {}, { 'modelhooks.dev/allowed-images': 'mirror.corp/' });
    const out = sync([allowed]);
    expect(out.condition('Ready')?.reason).toBe(IMAGE_NOT_ALLOWED);
    expect(out.children).toEqual([]);
  });
  it('image-registry and allowed-images together: the mirrored default passes', () => {
    const ns = namespace('team-a', {}, { 'modelhooks.dev/image-registry': 'mirror.corp', 'modelhooks.dev/allowed-images': 'mirror.corp/' });
    const out = sync([ns]);
    expect(out.condition('Ready')?.reason).not.toBe(IMAGE_NOT_ALLOWED);
    expect(out.children.map((c) => c.kind).sort()).toEqual(['Deployment', 'Service']);
  });
});

describe('docs: multi-tenancy.md and configuration.md', () => {
  const readme = ['../../docs/multi-tenancy.md', '../../docs/configuration.md'].map((page) => readFileSync(new URL(page, import.meta.url), 'utf8')).join('\n');
  it('documents every namespace annotation and the selector in the configuration table', () => {
    for (const a of ['ingress-domain', 'domain-template', 'ingress-class', 'gateway', 'url-scheme', 'image-registry', 'allowed-images']) {
      expect(readme).toContain(`| \`modelhooks.dev/${a}\` |`);
    }
    expect(readme).toContain('| `MODELHOOKS_NAMESPACE_SELECTOR` |');
  });
  it('documents the tenancy reasons', () => {
    for (const r of [NAMESPACE_NOT_ENABLED, INVALID_NAMESPACE_SETTINGS, IMAGE_NOT_ALLOWED]) expect(readme).toContain(`\`${r}\``);
  });
});

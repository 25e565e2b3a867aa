import { describe, expect, it } from 'vitest';
import { crdFor } from '../../hooks/engine/manifests.js';
import { tfserv } from '../../hooks/tfserv/index.js';
import { tfservSpec } from '../../hooks/tfserv/spec.js';
import { formatIssues } from '../../hooks/engine/protocol.js';
import { loadReferenceCrd } from '../support/reference.js';

function problems(spec: unknown): string {
  const parsed = tfservSpec.safeParse(spec);
  return parsed.success ? '' : formatIssues(parsed.error.issues);
}

describe('Tfserv spec', () => {
  it('applies every documented default (the Tfserv field table of docs/tfserv.md and the sample paths)', () => {
    expect(tfservSpec.parse({ configMap: 'models' })).toEqual({
      grpcPort: 8500,
      restPort: 8501,
      replicas: 1,
      configMap: 'models',
      configFileName: 'models.conf',
      configFileLocation: '/var/config/',
      secretName: 'tfs-secret',
      serviceType: 'NodePort',
      resources: { requests: { cpu: '500m', memory: '1Gi' } },
    });
  });

  const invalid: Array<{ reason: string; spec: Record<string, unknown>; names: string }> = [
    {
      reason: 'two servers cannot share one port',
      spec: { configMap: 'm', grpcPort: 9000, restPort: 9000 },
      names: 'spec.restPort: must differ from grpcPort',
    },
    {
      reason: 'a credentials file needs the directory it is mounted in',
      spec: { configMap: 'm', secretFileName: 'k.json' },
      names: 'spec.secretFileLocation: required when secretFileName',
    },
    {
      reason: 'two volumes cannot share a mount path',
      spec: { configMap: 'm', configFileLocation: '/etc/x', secretFileLocation: '/etc/x/' },
      names: 'spec.secretFileLocation: must differ',
    },
    { reason: 'mount paths are absolute', spec: { configMap: 'm', configFileLocation: 'var/config' }, names: 'spec.configFileLocation' },
    {
      reason: 'mount paths have no backsteps',
      spec: { configMap: 'm', configFileLocation: '/var/../etc' },
      names: 'spec.configFileLocation: must not contain ..',
    },
    { reason: 'ports are TCP ports', spec: { configMap: 'm', grpcPort: 70000 }, names: 'spec.grpcPort' },
    { reason: 'a ConfigMap name is a DNS subdomain', spec: { configMap: 'Models_Config' }, names: 'spec.configMap' },
    { reason: 'negative replicas', spec: { configMap: 'm', replicas: -1 }, names: 'spec.replicas' },
    { reason: 'a quantity must parse', spec: { configMap: 'm', resources: { requests: { cpu: 'lots' } } }, names: 'spec.resources.requests.cpu' },
    { reason: 'only the Service types that expose pods', spec: { configMap: 'm', serviceType: 'ExternalName' }, names: 'spec.serviceType' },
  ];
  it.each(invalid)('rejects: $reason', ({ spec, names }) => {
    expect(problems(spec)).toContain(names);
  });

  it('keeps every field of the original CRD with its type, so existing YAML applies unchanged', () => {
    const original = loadReferenceCrd('servapi.dev-state.com_tfservs.yaml') as any;
    const originalSpec = original.spec.validation.openAPIV3Schema.properties.spec.properties as Record<string, { type: string }>;
    const ours = (crdFor(tfserv) as any).spec.versions[0].schema.openAPIV3Schema.properties.spec;
    for (const [field, schema] of Object.entries(originalSpec)) {
      expect(ours.properties[field]?.type, `spec.${field}`).toBe(schema.type);
    }
    // The original requires nothing: a Tfserv without configMap got tf-serving-models-config.
    expect(ours.required ?? []).toEqual([]);
    expect(ours.properties.configMap.default).toBe('tf-serving-models-config');
  });

  it('keeps the original status field `active` as object references', () => {
    const status = (crdFor(tfserv) as any).spec.versions[0].schema.openAPIV3Schema.properties.status;
    expect(status.properties.active.type).toBe('array');
    expect(Object.keys(status.properties.active.items.properties)).toEqual(expect.arrayContaining(['apiVersion', 'kind', 'name', 'namespace', 'uid']));
  });

  it('writes quantities as strings whatever the user typed', () => {
    expect(tfservSpec.parse({ configMap: 'm', resources: { limits: { cpu: 2, memory: '1Gi' } } }).resources).toEqual({ limits: { cpu: '2', memory: '1Gi' } });
  });
});

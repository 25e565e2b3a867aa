import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kube } from './support/context.js';
import { defaultsToCheck } from './support/defaults.js';
import { fromRoot, objectsIn, vendorDir } from './support/files.js';
import { crdFor, installCrds, ourCrds, schemaFor } from './support/install.js';
import type { KubeObject } from './support/kube.js';

const crds = ourCrds();
const ours = (o: KubeObject) => crdFor(crds, o.apiVersion, o.kind) !== undefined;
// examples/ is created whole: its built-in objects (e.g. a Tfserv's ConfigMap) belong to it.
const examples = objectsIn(fromRoot('examples'));
// Samples of upstream kinds we do not serve (e.g. KServe's, while we have no such CRD) are skipped.
const samples = objectsIn(path.join(vendorDir, 'samples'));
const skipped = samples.filter((s) => !ours(s.obj));

const cases = [
  ...examples.map((e) => ({ ...e, ns: 'e2e-examples' })),
  // Upstream samples may share a name (KServe's sklearn and logger samples are both sklearn-iris): one namespace each.
  ...samples.filter((s) => ours(s.obj)).map((s, i) => ({ ...s, ns: `e2e-samples-${i}` })),
];

describe('examples/ and reference samples', () => {
  const k = kube();
  let created = 0;
  let defaultsChecked = 0;

  beforeAll(async () => {
    await installCrds(k);
    for (const ns of new Set(cases.map((c) => c.ns))) await k.ensureNamespace(ns);
  });
  afterAll(() => {
    console.log(
      `created ${created} of ${cases.length} objects (${examples.length} from examples/, ${cases.length - examples.length} samples); ` +
        `checked ${defaultsChecked} CRD defaults; skipped samples not served by our CRDs: ` +
        (skipped.map((s) => `${path.basename(s.file)} (${s.obj.kind})`).join(', ') || 'none'),
    );
  });

  it('examples/ (or, for the upstream kinds we ship CRDs of, the samples) has an example of each of our kinds', () => {
    expect(crds, 'crds/ is empty: run `npm run manifests`').not.toHaveLength(0);
    const kinds = new Set([...examples, ...samples].map((e) => `${e.obj.apiVersion.split('/')[0]}/${e.obj.kind}`));
    for (const crd of crds) expect(kinds, `no example for ${crd.spec.names.kind}`).toContain(`${crd.spec.group}/${crd.spec.names.kind}`);
  });

  it.each(cases.map((c) => [`${c.file}: ${c.obj.kind} ${c.obj.metadata.name}`, c] as const))(
    'creates %s and reads it back (CRD defaults applied)',
    async (_, { obj, ns }) => {
      const sent = { ...obj, metadata: { ...obj.metadata, namespace: ns } };
      await k.create(sent);
      created++;
      const stored = await k.get(obj.apiVersion, obj.kind, obj.metadata.name, ns);
      const crd = crdFor(crds, obj.apiVersion, obj.kind);
      if (!crd) return; // a built-in kind: nothing of ours to default
      const checks = defaultsToCheck(schemaFor(crd, obj.apiVersion), sent, stored);
      for (const c of checks) expect(c.actual, `default of ${c.path}`).toEqual(c.expected);
      defaultsChecked += checks.length;
    },
  );

  it('our CRDs default at least one field of the examples and samples', () => {
    expect(defaultsChecked).toBeGreaterThan(0);
  });
});

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { binDir, kube } from './support/context.js';
import { fromRoot, subdirs } from './support/files.js';
import { installCrds } from './support/install.js';
import type { KubeObject } from './support/kube.js';

const targets = ['deploy', ...subdirs(fromRoot('deploy', 'overlays')).map((o) => path.join('deploy', 'overlays', o))];

function kustomizeBuild(dir: string): KubeObject[] {
  const out = execFileSync(path.join(binDir(), 'kustomize'), ['build', fromRoot(dir)], { encoding: 'utf8', stdio: 'pipe' });
  return parseAllDocuments(out)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);
}

// Namespaces and CRDs first, as `kubectl apply` users would need them.
const rank = (o: KubeObject) => (o.kind === 'Namespace' ? 0 : o.kind === 'CustomResourceDefinition' ? 1 : 2);

describe('deploy/ (kustomize)', () => {
  const k = kube();
  // The reference CRDs (Metacontroller, ServiceMonitor, Route) are prerequisites of the
  // overlays, not part of them.
  beforeAll(() => installCrds(k));

  it.each(targets.map((t) => [t]))('kustomize build %s is accepted by the API server', async (dir) => {
    let objects: KubeObject[];
    try {
      objects = kustomizeBuild(dir).sort((a, b) => rank(a) - rank(b));
    } catch (error) {
      throw new Error(`kustomize build ${dir} failed: ${(error as { stderr?: string }).stderr ?? error}`);
    }
    expect(objects.length).toBeGreaterThan(0);
    for (const obj of objects) {
      // Namespaces for real (the namespaced dry-runs need them); the rest dry-run, as an
      // apply so that objects installed by earlier files (CRDs, controllers) are updates.
      await k.apply(obj, { dryRun: obj.kind !== 'Namespace' });
    }
    console.log(`${dir}: ${objects.length} objects (${[...new Set(objects.map((o) => o.kind))].join(', ')})`);
  });
});

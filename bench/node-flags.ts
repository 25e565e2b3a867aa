/**
 * The node flags the Deployment gives the server (NODE_OPTIONS in deploy/base/deployment.yaml),
 * so the bench measures the heap the cluster runs — RSS and garbage-collection CPU both depend
 * on them. The floor keeps node's defaults: it stands for any Node HTTP server.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** NODE_OPTIONS of the first container of the first Deployment in `yamlText`, split on whitespace; [] without one. */
export function deploymentNodeFlags(yamlText: string): string[] {
  for (const doc of parseAllDocuments(yamlText)) {
    const o: unknown = doc.toJS();
    if (!isObj(o) || o.kind !== 'Deployment') continue;
    const spec = isObj(o.spec) && isObj(o.spec.template) && isObj(o.spec.template.spec) ? o.spec.template.spec : {};
    const [container] = Array.isArray(spec.containers) ? spec.containers : [];
    const env = isObj(container) && Array.isArray(container.env) ? container.env : [];
    const value = env.find((e): e is Obj => isObj(e) && e.name === 'NODE_OPTIONS')?.value;
    return typeof value === 'string' ? value.split(/\s+/).filter((f) => f !== '') : [];
  }
  return [];
}

/** The flags of the Deployment in this checkout. */
export function shippedNodeFlags(root: string): string[] {
  return deploymentNodeFlags(readFileSync(path.join(root, 'deploy/base/deployment.yaml'), 'utf8'));
}

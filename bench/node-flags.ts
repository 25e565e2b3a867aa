/**
 * The node flags the Deployment gives the server (NODE_OPTIONS and the `node` command line in
 * deploy/base/deployment.yaml), so the bench measures the heap the cluster runs — RSS and
 * garbage-collection CPU both depend on them. The floor keeps node's defaults: it stands for
 * any Node HTTP server.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The node flags of the first container of the first Deployment in `yamlText`: its
 * NODE_OPTIONS, split on whitespace, then the flags its `command` puts between `node` and the
 * script (node refuses some V8 flags in NODE_OPTIONS); [] without either. Every one of them
 * is also a valid node command-line flag, which is how the bench and the soaks pass them.
 */
export function deploymentNodeFlags(yamlText: string): string[] {
  for (const doc of parseAllDocuments(yamlText)) {
    const o: unknown = doc.toJS();
    if (!isObj(o) || o.kind !== 'Deployment') continue;
    const spec = isObj(o.spec) && isObj(o.spec.template) && isObj(o.spec.template.spec) ? o.spec.template.spec : {};
    const [container] = Array.isArray(spec.containers) ? spec.containers : [];
    const env = isObj(container) && Array.isArray(container.env) ? container.env : [];
    const value = env.find((e): e is Obj => isObj(e) && e.name === 'NODE_OPTIONS')?.value;
    const fromEnv = typeof value === 'string' ? value.split(/\s+/).filter((f) => f !== '') : [];
    const command = isObj(container) && Array.isArray(container.command) ? container.command.map(String) : [];
    const script = command.findIndex((a, i) => i > 0 && !a.startsWith('-'));
    const fromCommand = command[0] === 'node' ? command.slice(1, script < 0 ? command.length : script) : [];
    return [...fromEnv, ...fromCommand];
  }
  return [];
}

/** The flags of the Deployment in this checkout. */
export function shippedNodeFlags(root: string): string[] {
  return deploymentNodeFlags(readFileSync(path.join(root, 'deploy/base/deployment.yaml'), 'utf8'));
}

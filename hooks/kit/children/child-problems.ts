/**
 * A desired child checked as the API server would validate it beyond its OpenAPI schema
 * (apimachinery ValidateObjectMeta's labels, ValidatePodTemplateSpec, ValidateService's
 * selector): the engine's last check before an answer leaves, so a child built from a field no
 * composition checked becomes an InvalidSpec naming the child's field, never a child the API
 * server refuses on every retry. The test validator (hooks/testing) applies the same checks.
 */
import { isDns1035Label } from './names.js';
import { isDnsSubdomain, labelMapProblems, podSpecProblems } from '../pod-validation.js';
import { isRecord, type KubeObject } from '../types.js';

type Obj = Record<string, unknown>;
const rec = (v: unknown): Obj => (isRecord(v) ? v : {});

/** Where a kind keeps its pod template. */
const TEMPLATE_PATH: Record<string, string[]> = {
  Deployment: ['spec', 'template'],
  StatefulSet: ['spec', 'template'],
  DaemonSet: ['spec', 'template'],
  ReplicaSet: ['spec', 'template'],
  Job: ['spec', 'template'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template'],
};

/** Every problem of `child`, each as `Kind/name path: message`; empty when the API server would accept it. */
export function childProblems(child: KubeObject): string[] {
  const id = `${child.kind}/${child.metadata.name}`;
  const problems = [...metadataProblems(child), ...templateProblems(child)];
  return problems.map((p) => `${id} ${p.path}: ${p.message}`);
}

function metadataProblems(child: KubeObject) {
  const name = child.metadata.name;
  const badName =
    typeof name !== 'string' || (child.kind === 'Service' ? !isDns1035Label(name) : !isDnsSubdomain(name))
      ? [{ path: 'metadata.name', message: `${JSON.stringify(name)}: not a valid name` }]
      : [];
  const spec = rec(child.spec);
  const selector =
    child.kind === 'Service'
      ? labelMapProblems(spec.selector, 'spec.selector')
      : TEMPLATE_PATH[child.kind] && isRecord(spec.selector)
        ? labelMapProblems(spec.selector.matchLabels, 'spec.selector.matchLabels')
        : [];
  return [...badName, ...labelMapProblems(child.metadata.labels, 'metadata.labels'), ...selector];
}

function templateProblems(child: KubeObject) {
  const path = TEMPLATE_PATH[child.kind];
  if (!path) return [];
  let template: unknown = child;
  for (const key of path) template = rec(template)[key];
  const at = path.join('.');
  return [
    ...labelMapProblems(rec(rec(template).metadata).labels, `${at}.metadata.labels`),
    ...podSpecProblems(rec(template).spec, `${at}.spec`, { complete: true }),
  ];
}

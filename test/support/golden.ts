import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import type { KubeObject } from '../../hooks/kit/index.js';
import type { RunOptions, SyncResult } from '../../hooks/testing/index.js';
import { defaultHookConfig, loadConfig, type HookConfig } from '../../hooks/server/config.js';
import { credentialsSent } from './credentials.js';

export const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');

/**
 * One golden case: a folder under test/fixtures/<composition>/ with
 *   case.yaml      (optional) reason, variant, now, hookVersion, env (the hook server's variables),
 *                  refusedByCrd (what the API server says of a parent only an older CRD stored)
 *   parent.yaml    the custom resource
 *   observed.yaml  (optional) observed children, one document each
 *   related.yaml   (optional) related objects, one document each
 *   expected.yaml  the desired children, then one last document `status: …`
 */
export interface GoldenCase {
  composition: string;
  name: string;
  dir: string;
  reason: string;
  options: RunOptions<HookConfig>;
  /** The API server's refusal of this parent under today's CRD: the hook still answers for it (an older CRD stored it). */
  refusedByCrd?: string;
}

export function readYamlDocs(file: string): unknown[] {
  if (!existsSync(file)) return [];
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS() as unknown)
    .filter((d) => d !== null && d !== undefined);
}

export function goldenCases(composition: string): GoldenCase[] {
  const root = path.join(FIXTURES, composition);
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const dir = path.join(root, name);
      const meta = (readYamlDocs(path.join(dir, 'case.yaml'))[0] ?? {}) as Record<string, string> & { env?: Record<string, string> };
      const [parent] = readYamlDocs(path.join(dir, 'parent.yaml'));
      const options: RunOptions<HookConfig> = {
        parent,
        observed: readYamlDocs(path.join(dir, 'observed.yaml')) as KubeObject[],
        related: asSent(composition, parent as KubeObject, readYamlDocs(path.join(dir, 'related.yaml')) as KubeObject[]),
        config: meta.env ? loadConfig(meta.env).hooks : defaultHookConfig(),
      };
      if (meta.variant) options.variant = meta.variant;
      if (meta.now) options.now = meta.now;
      if (meta.hookVersion === 'v1' || meta.hookVersion === 'v2') options.hookVersion = meta.hookVersion;
      return { composition, name, dir, reason: meta.reason ?? name, options, ...(meta.refusedByCrd ? { refusedByCrd: meta.refusedByCrd } : {}) };
    });
}

/**
 * related.yaml describes the cluster (the e2e and oracle tiers apply it); what Metacontroller
 * sends an InferenceService is that less its Secrets, with the credentials DecoratorController's
 * summary on each ServiceAccount (support/credentials.ts).
 */
function asSent(composition: string, parent: KubeObject, related: KubeObject[]): KubeObject[] {
  return composition === 'inferenceservice' ? credentialsSent(parent, related) : related;
}

/** The render format: each child a document, then the parent's status. */
export function renderDocuments(result: Pick<SyncResult, 'children' | 'status'>): string {
  return [...result.children, { status: result.status }].map((d) => stringify(d, { lineWidth: 0 })).join('---\n');
}

/** Compares with expected.yaml; `UPDATE_GOLDEN=1` rewrites it (then read the diff!). */
export function expectedDocuments(c: GoldenCase, actual: string): string {
  const file = path.join(c.dir, 'expected.yaml');
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, actual);
  if (!existsSync(file)) throw new Error(`${file} is missing: run with UPDATE_GOLDEN=1 once, then read it`);
  return readFileSync(file, 'utf8');
}

/**
 * The cluster after Metacontroller applied an answer: the desired children, each with the
 * status its observed namesake had (the world did not move), and the answered status on
 * the parent. Running the hook on this must give the same children: a fixed point.
 */
export function appliedOptions<Config>(options: RunOptions<Config>, result: SyncResult): RunOptions<Config> {
  const before = options.observed ?? [];
  const observed = result.children.map((child) => {
    const twin = before.find((o) => o.kind === child.kind && o.metadata.name === child.metadata.name);
    return twin && twin.status !== undefined ? { ...child, status: twin.status } : child;
  });
  const parent = options.parent as KubeObject;
  return { ...options, observed, parent: { ...parent, status: result.status } };
}

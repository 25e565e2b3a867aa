import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { readObjects, subdirs, yamlFiles } from '../../e2e/support/files.js';
import type { KubeObject } from '../../e2e/support/kube.js';

export const corpusDir = path.join(import.meta.dirname, '..', 'corpus');

/** The kinds compared: each one is a parent, everything else in a file is a supporting object. */
export const PARENT_KINDS = new Set(['InferenceService', 'InferenceGraph']);

export interface Spec {
  /** `<group>/<file without .yaml>/<parent name>`. */
  name: string;
  file: string;
  /** The file's first comment line: what the spec covers. */
  covers: string;
  parent: KubeObject;
  /** Objects of the same file that are not parents (Secrets, ServiceAccounts, ServingRuntimes, …), applied first on both sides. */
  supporting: KubeObject[];
  /** Index of the file in its group (its namespace is derived from it). */
  fileIndex: number;
}

export interface Group {
  /** The directory under corpus/ (`default`: KServe's shipped configuration). */
  name: string;
  /** `inferenceservice-config` keys merged into the shipped documents (`_config.yaml` of the directory). */
  config: Record<string, Record<string, unknown>>;
  /** Composition variant modelhooks runs the group's parents with (`_config.yaml`'s `variant`; absent: the default). */
  variant?: string;
  /** How long to wait for KServe's Ready (`_config.yaml`'s `readySeconds`): HTTPRoutes are never Ready without a Gateway controller. */
  readySeconds?: number;
  specs: Spec[];
}

/**
 * corpus/<group>/*.yaml: one directory per `inferenceservice-config` (KServe reads its deploy and
 * ingress keys at start, so a group is one manager restart), `_config.yaml` holding the
 * variation: `{ config: { <key>: { <field>: value } }, variant?: <name> }`.
 */
export function loadCorpus(dir = corpusDir): Group[] {
  const groups = subdirs(dir).map((name) => {
    const configFile = path.join(dir, name, '_config.yaml');
    const meta = existsSync(configFile)
      ? ((parse(readFileSync(configFile, 'utf8')) ?? {}) as { config?: Group['config']; variant?: string; readySeconds?: number })
      : {};
    const files = yamlFiles(path.join(dir, name)).filter((f) => path.basename(f) !== '_config.yaml');
    const specs = files.flatMap((file, fileIndex) => {
      const objects = readObjects(file);
      const covers = /^#\s*(.*)$/m.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
      const parents = objects.filter((o) => PARENT_KINDS.has(o.kind));
      const supporting = objects.filter((o) => !PARENT_KINDS.has(o.kind));
      const base = path.basename(file).replace(/\.ya?ml$/, '');
      return parents.map((parent) => ({ name: `${name}/${base}/${parent.metadata.name}`, file, covers, parent, supporting, fileIndex }));
    });
    return { name, config: meta.config ?? {}, variant: meta.variant, readySeconds: meta.readySeconds, specs };
  });
  // KServe's shipped configuration first: it is the one the manager starts with.
  return groups.sort((a, b) => (a.name === 'default' ? -1 : b.name === 'default' ? 1 : a.name.localeCompare(b.name)));
}

/**
 * Builds a realistic sync request from a composition itself: its parent goes through the
 * given spec steps (a first deploy, then e.g. a model change), and after each step the
 * composition's own children are dressed as the cluster returns them (bench/dress.ts) and
 * fed back until the answer settles, as Metacontroller's resyncs would. The result is the
 * steady-state request: parent with the status our previous sync wrote, observed children
 * with status/managedFields/last-applied, related objects, and the CompositeController.
 */
import { defaultHookConfig } from '../../hooks/server/config.js';
import { IN_CLUSTER_HOOK_URL } from '../../hooks/cli/manifests.js';
import type { AnyComposition } from '../../hooks/kit/composition.js';
import { compositeControllerFor, DEFAULT_VARIANT } from '../../hooks/engine/manifests.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runSync, syncRequest } from '../../hooks/testing/index.js';
import { appliedParent, CREATED, dress, type Json, NOW, SYNCED, uid } from '../dress.js';

/**
 * The parent's generation in a built request: a 7-digit number that appears only where the
 * generation is (metadata.generation, status.observedGeneration, conditions' observedGeneration),
 * so that a distinct request is the same bytes with another generation — a change of answer.
 */
export const GENERATION_MARKER = 9999999;

export interface CaseSpec {
  /** `<composition>/<variant>`, e.g. `inferenceservice/hf-llm`. */
  name: string;
  description: string;
  composition: AnyComposition;
  /** The CompositeController variant (decides the optional children). */
  variant?: string;
  /** Parents (apiVersion, kind, metadata name/namespace/labels/annotations, spec) in the order they were applied. */
  steps: Json[];
  /** What Metacontroller's related rules return, given the parent as it is now. */
  related?: (parent: Json) => KubeObject[];
}

export interface BenchCase {
  name: string;
  description: string;
  /** The composition's name: the request goes to /hooks/<composition>/sync. */
  composition: string;
  /** The sync request body, with GENERATION_MARKER as the parent's generation. */
  request: Json;
  /** Observed children in the request. */
  children: number;
}

const SETTLE_ROUNDS = 3;

export function buildCase(spec: CaseSpec): BenchCase {
  const { composition } = spec;
  const config = defaultHookConfig();
  const controller = compositeControllerFor(composition, spec.variant ?? DEFAULT_VARIANT, { hookBaseUrl: IN_CLUSTER_HOOK_URL }) as Json;
  controller.metadata = {
    ...controller.metadata,
    uid: uid(`controller/${spec.name}`),
    resourceVersion: '48100007',
    generation: 1,
    creationTimestamp: '2025-10-01T08:00:00Z',
  };
  const related = spec.related ?? (() => []);

  let observed: KubeObject[] = [];
  let status: Json | undefined;
  const settle = (parent: Json, rounds: number, now: string) => {
    const owner = { apiVersion: parent.apiVersion, kind: parent.kind, name: parent.metadata.name, uid: parent.metadata.uid };
    for (let round = 0; round < rounds; round++) {
      const current = status ? { ...parent, status } : parent;
      const out = runSync(composition, { parent: current, observed, related: related(current), controller, config, now });
      // Metacontroller creates what is desired and deletes the rest; the cluster makes it ready.
      observed = out.children.map((child, i) => dress(child, owner, i));
      status = out.status;
    }
  };
  spec.steps.forEach((step, i) => settle(appliedParent(step, i + 1), SETTLE_ROUNDS, i === 0 ? CREATED : SYNCED));
  const last = spec.steps[spec.steps.length - 1] as Json;
  const parent = appliedParent(last, GENERATION_MARKER);
  // The status our previous sync wrote for this generation.
  settle(parent, 1, SYNCED);
  const current = { ...parent, status };
  const request = syncRequest(composition, { parent: current, observed, related: related(current), controller, config, now: NOW });
  return { name: spec.name, description: spec.description, composition: composition.name, request, children: observed.length };
}

/** The same request with every observed child copied `factor` times under other names (the `--scale` case). */
export function scaled(c: BenchCase, factor: number): BenchCase {
  const request = structuredClone(c.request);
  const children = request.children as Record<string, Record<string, Json>>;
  let count = 0;
  for (const byName of Object.values(children)) {
    for (const [key, child] of Object.entries(byName)) {
      for (let copy = 1; copy < factor; copy++) {
        const name = `${child.metadata.name}-copy${copy}`;
        byName[`${key}-copy${copy}`] = { ...child, metadata: { ...child.metadata, name, uid: uid(`${child.metadata.uid}/${copy}`) } };
      }
    }
    count += Object.keys(byName).length;
  }
  return { ...c, name: `${c.name}×${factor}`, description: `${c.description}, ${factor}× the observed children`, request, children: count };
}

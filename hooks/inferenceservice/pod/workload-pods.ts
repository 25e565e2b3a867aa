/** Each component's pods, asked for in customize, and the blocker they tell its condition. */
import { firstBlocker, isConverged, podsOf, podsRuleFor, type Blocker, type KubeObject, type Parent, type RelatedRule } from '../../kit/index.js';
import { selectorFor, type Role } from '../names.js';
import type { Input } from '../sync-input.js';
import { componentsOf, type InferenceServiceSpec } from '../spec.js';

/**
 * One rule for the pods of every Deployment the parent may run (its components and the
 * canary), by their selector label's values; none once the parent is Ready on its generation
 * (kit isConverged): the pods then only tell why they do not run, which a Deployment that
 * loses its pods shows first, and the next customize (a new generation, or Metacontroller's
 * 20-minute cache) asks for them again while the parent is not Ready.
 */
export function workloadPodRules(parent: Parent<InferenceServiceSpec>): RelatedRule[] {
  if (isConverged(parent)) return [];
  const roles: Role[] = [...componentsOf(parent.spec), 'canary'];
  const selectors = roles.map((role) => selectorFor(parent, role));
  return [podsRuleFor(parent.metadata.namespace, { app: selectors.map((s) => s.app as string) })];
}

/**
 * The first thing keeping the components' Deployments and pods from running: it tells a Ready
 * that is not True why (status.ts). The component conditions (PredictorReady…) and modelStatus
 * stay as KServe judges them: only Ready says more.
 */
export function componentBlocker(input: Input, deployments: Partial<Record<Role, KubeObject>>): Blocker | undefined {
  const entries = Object.entries(deployments).filter((e): e is [Role, KubeObject] => e[1] !== undefined);
  const pods = entries.flatMap(([role]) => podsOf(input.related, selectorFor(input.parent, role)));
  return firstBlocker({ deployments: entries.map(([, d]) => d), pods });
}

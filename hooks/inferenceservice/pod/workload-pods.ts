/** Each component's pods, asked for in customize, and the blocker they tell its condition. */
import { firstBlocker, podsOf, podsRuleFor, type Blocker, type KubeObject, type Parent, type RelatedRule } from '../../kit/index.js';
import { selectorFor, type Role } from '../names.js';
import type { Input } from '../sync-input.js';
import { componentsOf, type InferenceServiceSpec } from '../spec.js';

/** One rule per Deployment the parent may run (its components and the canary), by its selector labels. */
export function workloadPodRules(parent: Parent<InferenceServiceSpec>): RelatedRule[] {
  const roles: Role[] = [...componentsOf(parent.spec), 'canary'];
  return roles.map((role) => podsRuleFor(parent.metadata.namespace, selectorFor(parent, role)));
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

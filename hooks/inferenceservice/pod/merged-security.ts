import type { V1PodSecurityContext, V1SecurityContext } from '@kubernetes/client-node';
import { isRecord, restrictedContainer, restrictedPod } from '../../kit/index.js';

/**
 * A user's pod security context over our defaults: each field the user set wins (the pod
 * security check then decides whether the level allows it); the rest are the defaults.
 */
export function mergedPodSecurity(user: unknown, defaults: V1PodSecurityContext = restrictedPod()): V1PodSecurityContext {
  return { ...defaults, ...(isRecord(user) ? (user as V1PodSecurityContext) : {}) };
}

/**
 * A user's container security context over our defaults, capabilities one level deeper: a
 * user who adds NET_BIND_SERVICE still drops ALL unless they set their own `drop`.
 */
export function mergedContainerSecurity(user: unknown, defaults: V1SecurityContext = restrictedContainer()): V1SecurityContext {
  const own = isRecord(user) ? (user as V1SecurityContext) : {};
  const merged: V1SecurityContext = { ...defaults, ...own };
  if (isRecord(own.capabilities) && defaults.capabilities) merged.capabilities = { ...defaults.capabilities, ...own.capabilities };
  return merged;
}

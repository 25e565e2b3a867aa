import type { V1PodSecurityContext, V1SecurityContext } from '@kubernetes/client-node';
import { isRecord } from '../types.js';

/**
 * The container half of Kubernetes' "restricted" Pod Security profile: no privilege
 * escalation, no capabilities. `extra` adds to it (e.g. a read-only root filesystem).
 */
export function restrictedContainer(extra: V1SecurityContext = {}): V1SecurityContext {
  return { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, ...extra };
}

/**
 * The pod half: never root, the runtime's default seccomp profile. `user` pins the UID and
 * GID for images whose own user is root or unknown; `extra` adds fsGroup, sysctls and such.
 */
export function restrictedPod(user?: number, extra: V1PodSecurityContext = {}): V1PodSecurityContext {
  return {
    runAsNonRoot: true,
    ...(user !== undefined ? { runAsUser: user, runAsGroup: user } : {}),
    seccompProfile: { type: 'RuntimeDefault' },
    ...extra,
  };
}

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

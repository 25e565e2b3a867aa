import type { V1PodSecurityContext, V1SecurityContext } from '@kubernetes/client-node';

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

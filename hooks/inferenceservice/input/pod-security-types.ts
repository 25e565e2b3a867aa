import type { ContainerPaths, PodSecurityViolation } from './pod-security-standards.js';
import { isRecord } from '../../kit/index.js';

/*
 * The types of the fields the pod security checks read, as the Kubernetes API declares them
 * (k8s.io/api core/v1 types.go: PodSpec, PodSecurityContext, SecurityContext, Capabilities,
 * SeccompProfile, AppArmorProfile, SELinuxOptions, WindowsSecurityContextOptions, Sysctl,
 * ContainerPort, HTTPGetAction, TCPSocketAction). podSecurityViolations compares values
 * (`privileged === true`), so `privileged: "true"` passed it, reached the Deployment, and the
 * API server refused that Deployment on every sync. Checked at every level, privileged
 * included: the API server refuses a wrong type whatever the level. null stands for unset, as
 * it does for the API server's optional fields.
 */

type Kind = 'boolean' | 'integer' | 'string' | 'object' | 'strings' | 'objects';
type Fields = Record<string, Kind>;

const SE_LINUX: Fields = { user: 'string', role: 'string', type: 'string', level: 'string' };
const PROFILE: Fields = { type: 'string', localhostProfile: 'string' };
const WINDOWS: Fields = { gmsaCredentialSpecName: 'string', gmsaCredentialSpec: 'string', runAsUserName: 'string', hostProcess: 'boolean' };
const SHARED: Fields = {
  runAsNonRoot: 'boolean',
  runAsUser: 'integer',
  runAsGroup: 'integer',
  seLinuxOptions: 'object',
  seccompProfile: 'object',
  appArmorProfile: 'object',
  windowsOptions: 'object',
};
const POD_SC: Fields = {
  ...SHARED,
  fsGroup: 'integer',
  supplementalGroups: 'objects',
  sysctls: 'objects',
  fsGroupChangePolicy: 'string',
  supplementalGroupsPolicy: 'string',
};
const CONTAINER_SC: Fields = {
  ...SHARED,
  privileged: 'boolean',
  allowPrivilegeEscalation: 'boolean',
  readOnlyRootFilesystem: 'boolean',
  procMount: 'string',
  capabilities: 'object',
};
const POD: Fields = { hostNetwork: 'boolean', hostPID: 'boolean', hostIPC: 'boolean', hostUsers: 'boolean', securityContext: 'object', volumes: 'objects' };
const NESTED: Record<string, Fields> = { seLinuxOptions: SE_LINUX, seccompProfile: PROFILE, appArmorProfile: PROFILE, windowsOptions: WINDOWS };
const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'] as const;
const HANDLERS = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;

const WHAT: Record<Kind, string> = {
  boolean: 'a boolean',
  integer: 'an integer',
  string: 'a string',
  object: 'an object',
  strings: 'a list of strings',
  objects: 'a list',
};

function hasKind(v: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'boolean':
      return typeof v === 'boolean';
    case 'integer':
      return Number.isInteger(v);
    case 'string':
      return typeof v === 'string';
    case 'object':
      return isRecord(v);
    case 'strings':
      return Array.isArray(v) && v.every((s) => typeof s === 'string');
    case 'objects':
      return Array.isArray(v);
  }
}

/** Every security field of `pod` whose type is not the API's, with its path below `prefix`. */
export function podSecurityTypeProblems(pod: Record<string, unknown>, prefix: string, paths: ContainerPaths = {}): PodSecurityViolation[] {
  const out: PodSecurityViolation[] = [];
  const check = (obj: Record<string, unknown>, fields: Fields, at: string) => {
    for (const [field, kind] of Object.entries(fields)) {
      const v = obj[field];
      if (v === undefined || v === null) continue;
      if (!hasKind(v, kind)) out.push({ path: `${at}.${field}`, message: `must be ${WHAT[kind]}` });
      else if (kind === 'object' && NESTED[field]) check(v as Record<string, unknown>, NESTED[field], `${at}.${field}`);
    }
  };
  check(pod, POD, prefix);
  if (isRecord(pod.securityContext)) {
    const sc = pod.securityContext;
    check(sc, POD_SC, `${prefix}.securityContext`);
    if (Array.isArray(sc.supplementalGroups))
      sc.supplementalGroups.forEach(
        (g, i) => Number.isInteger(g) || out.push({ path: `${prefix}.securityContext.supplementalGroups[${i}]`, message: 'must be an integer' }),
      );
    if (Array.isArray(sc.sysctls))
      sc.sysctls.forEach((s, i) =>
        isRecord(s)
          ? check(s, { name: 'string', value: 'string' }, `${prefix}.securityContext.sysctls[${i}]`)
          : out.push({ path: `${prefix}.securityContext.sysctls[${i}]`, message: 'must be an object' }),
      );
  }
  for (const list of CONTAINER_LISTS) {
    const entries = pod[list];
    if (entries === undefined || entries === null) continue;
    if (!Array.isArray(entries)) {
      out.push({ path: `${prefix}.${list}`, message: 'must be a list' });
      continue;
    }
    entries.forEach((c, i) => {
      const at = paths[list]?.[i] ?? `${prefix}.${list}[${i}]`;
      if (!isRecord(c)) return void out.push({ path: at, message: 'must be an object' });
      check(c, { securityContext: 'object', ports: 'objects', lifecycle: 'object' }, at);
      if (isRecord(c.securityContext)) {
        check(c.securityContext, CONTAINER_SC, `${at}.securityContext`);
        if (isRecord(c.securityContext.capabilities))
          check(c.securityContext.capabilities, { add: 'strings', drop: 'strings' }, `${at}.securityContext.capabilities`);
      }
      if (Array.isArray(c.ports)) c.ports.forEach((p, j) => isRecord(p) && check(p, { hostPort: 'integer', containerPort: 'integer' }, `${at}.ports[${j}]`));
      const handlers: Array<[unknown, string]> = HANDLERS.map((h) => [c[h], `${at}.${h}`]);
      if (isRecord(c.lifecycle)) for (const h of ['postStart', 'preStop']) handlers.push([c.lifecycle[h], `${at}.lifecycle.${h}`]);
      for (const [handler, where] of handlers) {
        if (!isRecord(handler)) continue;
        for (const f of ['httpGet', 'tcpSocket']) if (isRecord(handler[f])) check(handler[f] as Record<string, unknown>, { host: 'string' }, `${where}.${f}`);
      }
    });
  }
  return out;
}

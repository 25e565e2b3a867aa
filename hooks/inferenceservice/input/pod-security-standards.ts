import { z } from 'zod';
import { isRecord } from '../../kit/index.js';

/*
 * The Kubernetes Pod Security Standards, as k8s.io/pod-security-admission/policy implements
 * them for the latest version (baseline and restricted checks; file names beside each check).
 * Pure: a pod spec (as JSON) and a level in, the fields that break the level out, each with
 * the JSON path of where it was written.
 */

export const POD_SECURITY_LEVELS = ['restricted', 'baseline', 'privileged'] as const;
export type PodSecurityLevel = (typeof POD_SECURITY_LEVELS)[number];
/** The server setting that chooses the level. */
export const POD_SECURITY_VARIABLE = 'MODELHOOKS_POD_SECURITY';

export interface PodSecurityViolation {
  /** Where the field is, e.g. `spec.predictor.containers[0].securityContext.privileged`. */
  path: string;
  message: string;
}

/**
 * Where each container list's entries were written (defaults: `<prefix>.containers[i]`), and
 * the pod's annotations with the path they were written at.
 */
export type ContainerPaths = Partial<Record<ContainerList, string[]>> & { annotations?: { values: Record<string, string>; path: string } };
type ContainerList = 'containers' | 'initContainers' | 'ephemeralContainers';
type Obj = Record<string, unknown>;

/** check_capabilities_baseline.go: capabilities_allowed_1_0. */
const BASELINE_CAPABILITIES = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);
/** check_sysctls.go: sysctlsAllowedV1Dot37. */
const SAFE_SYSCTLS = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
  'net.ipv4.tcp_rmem',
  'net.ipv4.tcp_wmem',
  'net.ipv4.tcp_slow_start_after_idle',
  'net.ipv4.tcp_notsent_lowat',
]);
/** check_seLinuxOptions.go: selinuxAllowedTypes1_31. */
const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t']);
/** check_restrictedVolumes.go: the volume sources restricted allows. */
const RESTRICTED_VOLUMES = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'image', 'persistentVolumeClaim', 'projected', 'secret'];
/** check_seccompProfile_baseline.go validSeccomp; check_appArmorProfile.go allowedProfileType. */
const CONFINED_PROFILES = new Set(['RuntimeDefault', 'Localhost']);

const SELINUX_FIELDS = ['user', 'role'] as const;
const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'] as const;
const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;
const LIFECYCLE_HOOKS = ['postStart', 'preStop'] as const;
const HOST_HANDLERS = ['httpGet', 'tcpSocket'] as const;
const HOST_NAMESPACES = ['hostNetwork', 'hostPID', 'hostIPC'] as const;

const APPARMOR_ANNOTATION = 'container.apparmor.security.beta.kubernetes.io/';

const rank: Record<PodSecurityLevel, number> = { privileged: 0, baseline: 1, restricted: 2 };

/**
 * Every field of `pod` the level forbids (or requires and is missing), with its path below
 * `prefix`. `paths` says where containers were written when not at `<prefix>.containers[i]`.
 */
export function podSecurityViolations(pod: Obj, level: PodSecurityLevel, prefix: string, paths: ContainerPaths = {}): PodSecurityViolation[] {
  if (level === 'privileged') return [];
  const out: PodSecurityViolation[] = [];
  const not = (path: string, what?: string) =>
    out.push({ path, message: `${what ? `${what} is ` : ''}not allowed by the ${level} pod security level (${POD_SECURITY_VARIABLE})` });
  const must = (path: string, what: string) => out.push({ path, message: `must be ${what} at the ${level} pod security level (${POD_SECURITY_VARIABLE})` });
  const restricted = rank[level] >= rank.restricted;
  const windows = isRecord(pod.os) && pod.os.name === 'windows';
  // check_runAsNonRoot.go, check_runAsUser.go, check_procMount_baseline.go (1.35): a pod in a user namespace.
  const userNamespace = pod.hostUsers === false;
  const podSc = isRecord(pod.securityContext) ? pod.securityContext : {};
  const podScPath = `${prefix}.securityContext`;

  // check_appArmorProfile.go: the deprecated per-container annotation
  for (const [k, v] of Object.entries(paths.annotations?.values ?? {})) {
    if (k.startsWith(APPARMOR_ANNOTATION) && !(v === '' || v === 'runtime/default' || v.startsWith('localhost/'))) {
      not(`${paths.annotations?.path}["${k}"]`, `AppArmor profile ${v}`);
    }
  }
  // check_hostNamespaces.go
  for (const f of HOST_NAMESPACES) if (pod[f] === true) not(`${prefix}.${f}`);
  // check_sysctls.go
  list(podSc.sysctls).forEach((s, i) => {
    if (!SAFE_SYSCTLS.has(String(s.name))) not(`${podScPath}.sysctls[${i}].name`, `sysctl ${String(s.name)}`);
  });
  // check_seLinuxOptions.go, check_seccompProfile_baseline.go, check_appArmorProfile.go,
  // check_windowsHostProcess.go: the pod's own security context.
  sharedChecks(podSc, podScPath, not);
  // check_runAsNonRoot.go, check_runAsUser.go at pod level
  if (restricted && !userNamespace) {
    if (podSc.runAsNonRoot === false) must(`${podScPath}.runAsNonRoot`, 'true');
    if (podSc.runAsUser === 0) not(`${podScPath}.runAsUser`, 'user 0');
  }
  const podSeccomp = isRecord(podSc.seccompProfile) && CONFINED_PROFILES.has(String(podSc.seccompProfile.type));

  // check_hostPathVolumes.go (baseline), check_restrictedVolumes.go (restricted)
  list(pod.volumes).forEach((v, i) => {
    const path = `${prefix}.volumes[${i}]`;
    if (v.hostPath !== undefined) not(`${path}.hostPath`, 'a hostPath volume');
    else if (restricted) {
      const source = Object.keys(v).find((k) => k !== 'name' && v[k] !== undefined && v[k] !== null);
      if (source !== undefined && !RESTRICTED_VOLUMES.includes(source)) not(`${path}.${source}`, `a ${source} volume`);
    }
  });

  // Containers that set nothing and are not covered by the pod: reported, as upstream does,
  // only when nothing set a forbidden value explicitly.
  const implicitNonRoot: string[] = [];
  const implicitSeccomp: string[] = [];
  const explicit = { nonRoot: podSc.runAsNonRoot === false, seccomp: isRecord(podSc.seccompProfile) && !podSeccomp };
  // Paths are built only for what is reported: most containers break nothing.
  for (const kind of CONTAINER_LISTS) {
    const entries = pod[kind];
    if (!Array.isArray(entries)) continue;
    for (let i = 0; i < entries.length; i++) {
      const c: Obj = isRecord(entries[i]) ? entries[i] : {};
      const at = () => paths[kind]?.[i] ?? `${prefix}.${kind}[${i}]`;
      const scPath = () => `${at()}.securityContext`;
      const sc = isRecord(c.securityContext) ? c.securityContext : {};
      if (sc.runAsNonRoot === false) explicit.nonRoot = true;
      if (isRecord(sc.seccompProfile) && !CONFINED_PROFILES.has(String(sc.seccompProfile.type))) explicit.seccomp = true;
      // check_privileged.go
      if (sc.privileged === true) not(`${scPath()}.privileged`);
      // check_capabilities_baseline.go / check_capabilities_restricted.go
      const caps = isRecord(sc.capabilities) ? sc.capabilities : {};
      if (Array.isArray(caps.add)) {
        caps.add.forEach((cap, j) => {
          const allowed = restricted ? cap === 'NET_BIND_SERVICE' : BASELINE_CAPABILITIES.has(String(cap));
          if (!allowed) not(`${scPath()}.capabilities.add[${j}]`, `capability ${String(cap)}`);
        });
      }
      if (restricted && !windows && !(Array.isArray(caps.drop) && caps.drop.includes('ALL'))) must(`${scPath()}.capabilities.drop`, 'a list including ALL');
      // check_hostPorts.go
      if (Array.isArray(c.ports)) {
        c.ports.forEach((p, j) => {
          if (isRecord(p) && p.hostPort !== undefined && p.hostPort !== 0) not(`${at()}.ports[${j}].hostPort`);
        });
      }
      // check_procMount_baseline.go / check_procMount_restricted.go
      if (sc.procMount !== undefined && sc.procMount !== 'Default' && (restricted || !userNamespace))
        not(`${scPath()}.procMount`, `procMount ${String(sc.procMount)}`);
      sharedChecks(sc, scPath, not);
      // check_hostProbesAndhostLifecycle.go
      for (const probe of PROBES) hostChecks(c[probe], () => `${at()}.${probe}`, not);
      const lifecycle = isRecord(c.lifecycle) ? c.lifecycle : {};
      for (const hook of LIFECYCLE_HOOKS) hostChecks(lifecycle[hook], () => `${at()}.lifecycle.${hook}`, not);
      if (!restricted) continue;
      // check_allowPrivilegeEscalation.go
      if (!windows && sc.allowPrivilegeEscalation !== false) must(`${scPath()}.allowPrivilegeEscalation`, 'false');
      if (!userNamespace) {
        // check_runAsNonRoot.go: explicitly false, or unset without the pod's true
        if (sc.runAsNonRoot === false) must(`${scPath()}.runAsNonRoot`, 'true');
        else if (sc.runAsNonRoot === undefined && podSc.runAsNonRoot !== true) implicitNonRoot.push(`${scPath()}.runAsNonRoot`);
        // check_runAsUser.go
        if (sc.runAsUser === 0) not(`${scPath()}.runAsUser`, 'user 0');
      }
      // check_seccompProfile_restricted.go: the container's own, or the pod's
      if (!windows && !podSeccomp && !isRecord(sc.seccompProfile)) implicitSeccomp.push(`${scPath()}.seccompProfile.type`);
    }
  }
  if (restricted && !userNamespace && !explicit.nonRoot) for (const path of implicitNonRoot) must(path, 'true (here or in the pod securityContext)');
  if (restricted && !explicit.seccomp) for (const path of implicitSeccomp) must(path, 'RuntimeDefault or Localhost (here or in the pod securityContext)');
  return out;
}

/** The baseline checks a pod and a container security context share. */
function sharedChecks(sc: Obj, at: string | (() => string), not: (path: string, what?: string) => void): void {
  const path = typeof at === 'string' ? () => at : at;
  // check_seLinuxOptions.go
  const se = isRecord(sc.seLinuxOptions) ? sc.seLinuxOptions : undefined;
  if (se) {
    if (se.type !== undefined && !SELINUX_TYPES.has(String(se.type))) not(`${path()}.seLinuxOptions.type`, `SELinux type ${String(se.type)}`);
    for (const f of SELINUX_FIELDS) if (se[f] !== undefined && se[f] !== '') not(`${path()}.seLinuxOptions.${f}`);
  }
  // check_seccompProfile_baseline.go
  if (isRecord(sc.seccompProfile) && !CONFINED_PROFILES.has(String(sc.seccompProfile.type))) {
    not(`${path()}.seccompProfile.type`, `seccomp profile ${String(sc.seccompProfile.type)}`);
  }
  // check_appArmorProfile.go
  if (isRecord(sc.appArmorProfile) && !CONFINED_PROFILES.has(String(sc.appArmorProfile.type))) {
    not(`${path()}.appArmorProfile.type`, `AppArmor profile ${String(sc.appArmorProfile.type)}`);
  }
  // check_windowsHostProcess.go
  if (isRecord(sc.windowsOptions) && sc.windowsOptions.hostProcess === true) not(`${path()}.windowsOptions.hostProcess`);
}

/** check_hostProbesAndhostLifecycle.go: a probe or handler aimed at another host. */
function hostChecks(handler: unknown, path: () => string, not: (path: string, what?: string) => void): void {
  if (!isRecord(handler)) return;
  for (const f of HOST_HANDLERS) {
    const h = handler[f];
    if (isRecord(h) && typeof h.host === 'string' && h.host !== '') not(`${path()}.${f}.host`);
  }
}

function list(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map((x) => (isRecord(x) ? x : {})) : [];
}

/**
 * `MODELHOOKS_POD_SECURITY`: the Pod Security Standard level the pods are built for and
 * tenant-supplied pod fields must keep. `namespace` (the default, as KServe does nothing of the
 * kind): the level of the parent's Namespace's `pod-security.kubernetes.io/enforce` label,
 * privileged where it has none; the engine resolves it (engine/namespace-settings.ts), and a
 * Namespace's `modelhooks.dev/pod-security` annotation overrides the server's value.
 */
export const podSecurityVariable = {
  [POD_SECURITY_VARIABLE]: z
    .enum(['namespace', ...POD_SECURITY_LEVELS])
    .default('namespace')
    .describe(
      "the Pod Security Standard level pods are built for (restricted adds its security fields) and a parent's pod fields must keep: restricted, baseline, privileged, or namespace (the Namespace's pod-security.kubernetes.io/enforce label)",
    ),
};

/** A resolved setting's level: `namespace` left unresolved (no Namespace seen) is privileged, as a Namespace without the label. */
export const levelOf = (setting: PodSecurityLevel | 'namespace'): PodSecurityLevel => (setting === 'namespace' ? 'privileged' : setting);

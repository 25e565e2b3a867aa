import { restrictedContainer, restrictedPod } from '../../hooks/kit/index.js';
import type { PodSecurityLevel } from '../../hooks/inferenceservice/input/pod-security-standards.js';

/*
 * The pod security check table: one row per upstream check and value, shared by the unit
 * test (our checker) and the e2e tier (the real API server's Pod Security Admission).
 */

type Obj = Record<string, unknown>;

/** A pod every level allows: what restrictedPod/restrictedContainer write. */
export const compliant = (): Obj => ({
  securityContext: restrictedPod(),
  containers: [{ name: 'c', image: 'i', securityContext: restrictedContainer() }],
});
export const withContainer = (extra: Obj, sc: Obj = {}): Obj => ({
  ...compliant(),
  containers: [{ name: 'c', image: 'i', ...extra, securityContext: { ...restrictedContainer(), ...sc } }],
});
const withPod = (fields: Obj): Obj => ({ ...compliant(), ...fields });
const withPodSc = (sc: Obj): Obj => withPod({ securityContext: { ...restrictedPod(), ...sc } });

export const UPSTREAM = 'k8s.io/pod-security-admission/policy';

/**
 * One row per check and value: the lowest level that allows it ('privileged' = only the
 * privileged level, 'baseline' = baseline and privileged, 'restricted' = every level), and
 * the path the refusal names (prefix `p`).
 */
/** `since`: the Kubernetes minor version the row's answer needs (newer than some API servers). */
export const table: Array<{ file: string; what: string; pod: Obj; allowedFrom: PodSecurityLevel; path?: string; since?: number }> = [
  {
    file: 'check_privileged.go',
    what: 'privileged: true',
    pod: withContainer({}, { privileged: true }),
    allowedFrom: 'privileged',
    path: 'p.containers[0].securityContext.privileged',
  },
  { file: 'check_privileged.go', what: 'privileged: false', pod: withContainer({}, { privileged: false }), allowedFrom: 'restricted' },
  {
    file: 'check_capabilities_baseline.go',
    what: 'add SYS_ADMIN',
    pod: withContainer({}, { capabilities: { drop: ['ALL'], add: ['SYS_ADMIN'] } }),
    allowedFrom: 'privileged',
    path: 'p.containers[0].securityContext.capabilities.add[0]',
  },
  {
    file: 'check_capabilities_baseline.go',
    what: 'add CHOWN',
    pod: withContainer({}, { capabilities: { drop: ['ALL'], add: ['CHOWN'] } }),
    allowedFrom: 'baseline',
    path: 'p.containers[0].securityContext.capabilities.add[0]',
  },
  {
    file: 'check_capabilities_restricted.go',
    what: 'add NET_BIND_SERVICE',
    pod: withContainer({}, { capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } }),
    allowedFrom: 'restricted',
  },
  {
    file: 'check_capabilities_restricted.go',
    what: 'drop without ALL',
    pod: withContainer({}, { capabilities: { drop: ['NET_RAW'] } }),
    allowedFrom: 'baseline',
    path: 'p.containers[0].securityContext.capabilities.drop',
  },
  { file: 'check_hostNamespaces.go', what: 'hostNetwork', pod: withPod({ hostNetwork: true }), allowedFrom: 'privileged', path: 'p.hostNetwork' },
  { file: 'check_hostNamespaces.go', what: 'hostPID', pod: withPod({ hostPID: true }), allowedFrom: 'privileged', path: 'p.hostPID' },
  { file: 'check_hostNamespaces.go', what: 'hostIPC', pod: withPod({ hostIPC: true }), allowedFrom: 'privileged', path: 'p.hostIPC' },
  { file: 'check_hostNamespaces.go', what: 'hostNetwork: false', pod: withPod({ hostNetwork: false }), allowedFrom: 'restricted' },
  {
    file: 'check_hostPathVolumes.go',
    what: 'hostPath /',
    pod: withPod({ volumes: [{ name: 'root', hostPath: { path: '/' } }] }),
    allowedFrom: 'privileged',
    path: 'p.volumes[0].hostPath',
  },
  {
    file: 'check_restrictedVolumes.go',
    what: 'an nfs volume',
    pod: withPod({ volumes: [{ name: 'n', nfs: { server: 's', path: '/x' } }] }),
    allowedFrom: 'baseline',
    path: 'p.volumes[0].nfs',
  },
  {
    file: 'check_restrictedVolumes.go',
    what: 'emptyDir, configMap, secret, pvc, projected, csi, ephemeral',
    pod: withPod({
      volumes: [
        { name: 'a', emptyDir: {} },
        { name: 'b', configMap: { name: 'x' } },
        { name: 'c', secret: { secretName: 'x' } },
        { name: 'd', persistentVolumeClaim: { claimName: 'x' } },
        { name: 'e', projected: { sources: [] } },
        { name: 'f', csi: { driver: 'x' } },
        { name: 'g', ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } },
      ],
    }),
    allowedFrom: 'restricted',
  },
  {
    file: 'check_hostPorts.go',
    what: 'hostPort 80',
    pod: withContainer({ ports: [{ containerPort: 8080, hostPort: 80 }] }),
    allowedFrom: 'privileged',
    path: 'p.containers[0].ports[0].hostPort',
  },
  { file: 'check_hostPorts.go', what: 'hostPort 0', pod: withContainer({ ports: [{ containerPort: 8080, hostPort: 0 }] }), allowedFrom: 'restricted' },
  {
    file: 'check_procMount_baseline.go',
    what: 'procMount Unmasked',
    pod: withContainer({}, { procMount: 'Unmasked' }),
    allowedFrom: 'privileged',
    path: 'p.containers[0].securityContext.procMount',
  },
  {
    file: 'check_procMount_restricted.go',
    what: 'procMount Unmasked in a user namespace',
    pod: { ...withContainer({}, { procMount: 'Unmasked' }), hostUsers: false },
    allowedFrom: 'baseline',
    path: 'p.containers[0].securityContext.procMount',
  },
  {
    file: 'check_seLinuxOptions.go',
    what: 'SELinux type spc_t',
    pod: withPodSc({ seLinuxOptions: { type: 'spc_t' } }),
    allowedFrom: 'privileged',
    path: 'p.securityContext.seLinuxOptions.type',
  },
  {
    file: 'check_seLinuxOptions.go',
    what: 'SELinux user',
    pod: withContainer({}, { seLinuxOptions: { user: 'system_u' } }),
    allowedFrom: 'privileged',
    path: 'p.containers[0].securityContext.seLinuxOptions.user',
  },
  {
    file: 'check_seLinuxOptions.go',
    what: 'SELinux type container_engine_t, level',
    pod: withPodSc({ seLinuxOptions: { type: 'container_engine_t', level: 's0:c1' } }),
    allowedFrom: 'restricted',
  },
  {
    file: 'check_seccompProfile_baseline.go',
    what: 'seccomp Unconfined',
    pod: withPodSc({ seccompProfile: { type: 'Unconfined' } }),
    allowedFrom: 'privileged',
    path: 'p.securityContext.seccompProfile.type',
  },
  {
    file: 'check_seccompProfile_restricted.go',
    what: 'no seccomp profile',
    pod: { securityContext: { runAsNonRoot: true }, containers: [{ name: 'c', securityContext: restrictedContainer() }] },
    allowedFrom: 'baseline',
    path: 'p.containers[0].securityContext.seccompProfile.type',
  },
  {
    file: 'check_seccompProfile_restricted.go',
    what: 'a Localhost profile on the container only',
    pod: {
      securityContext: { runAsNonRoot: true },
      containers: [{ name: 'c', securityContext: { ...restrictedContainer(), seccompProfile: { type: 'Localhost', localhostProfile: 'x.json' } } }],
    },
    allowedFrom: 'restricted',
  },
  {
    file: 'check_sysctls.go',
    what: 'sysctl kernel.msgmax',
    pod: withPodSc({ sysctls: [{ name: 'kernel.msgmax', value: '1' }] }),
    allowedFrom: 'privileged',
    path: 'p.securityContext.sysctls[0].name',
  },
  {
    file: 'check_sysctls.go',
    what: 'sysctl net.ipv4.tcp_notsent_lowat (1.37)',
    pod: withPodSc({ sysctls: [{ name: 'net.ipv4.tcp_notsent_lowat', value: '1' }] }),
    allowedFrom: 'restricted',
    since: 37,
  },
  {
    file: 'check_appArmorProfile.go',
    what: 'AppArmor Unconfined',
    pod: withContainer({}, { appArmorProfile: { type: 'Unconfined' } }),
    allowedFrom: 'privileged',
    path: 'p.containers[0].securityContext.appArmorProfile.type',
  },
  {
    file: 'check_appArmorProfile.go',
    what: 'AppArmor RuntimeDefault',
    pod: withPodSc({ appArmorProfile: { type: 'RuntimeDefault' } }),
    allowedFrom: 'restricted',
  },
  {
    file: 'check_runAsNonRoot.go',
    what: 'runAsNonRoot: false on the pod',
    pod: withPodSc({ runAsNonRoot: false }),
    allowedFrom: 'baseline',
    path: 'p.securityContext.runAsNonRoot',
  },
  {
    file: 'check_runAsNonRoot.go',
    what: 'runAsNonRoot: false on a container',
    pod: withContainer({}, { runAsNonRoot: false }),
    allowedFrom: 'baseline',
    path: 'p.containers[0].securityContext.runAsNonRoot',
  },
  {
    file: 'check_runAsNonRoot.go',
    what: 'runAsNonRoot unset anywhere',
    pod: { securityContext: { seccompProfile: { type: 'RuntimeDefault' } }, containers: [{ name: 'c', securityContext: restrictedContainer() }] },
    allowedFrom: 'baseline',
    path: 'p.containers[0].securityContext.runAsNonRoot',
  },
  {
    file: 'check_runAsNonRoot.go',
    what: 'runAsNonRoot: false in a user namespace (1.35)',
    pod: { ...withPodSc({ runAsNonRoot: false }), hostUsers: false },
    allowedFrom: 'restricted',
  },
  {
    file: 'check_runAsUser.go',
    what: 'runAsUser: 0 on a container',
    pod: withContainer({}, { runAsUser: 0 }),
    allowedFrom: 'baseline',
    path: 'p.containers[0].securityContext.runAsUser',
  },
  {
    file: 'check_runAsUser.go',
    what: 'runAsUser: 0 on the pod',
    pod: withPodSc({ runAsUser: 0 }),
    allowedFrom: 'baseline',
    path: 'p.securityContext.runAsUser',
  },
  { file: 'check_runAsUser.go', what: 'runAsUser: 1000', pod: withPodSc({ runAsUser: 1000 }), allowedFrom: 'restricted' },
  {
    file: 'check_allowPrivilegeEscalation.go',
    what: 'allowPrivilegeEscalation: true',
    pod: withContainer({}, { allowPrivilegeEscalation: true }),
    allowedFrom: 'baseline',
    path: 'p.containers[0].securityContext.allowPrivilegeEscalation',
  },
  {
    file: 'check_allowPrivilegeEscalation.go',
    what: 'allowPrivilegeEscalation unset on an init container',
    pod: { ...compliant(), initContainers: [{ name: 'i', securityContext: { capabilities: { drop: ['ALL'] } } }] },
    allowedFrom: 'baseline',
    path: 'p.initContainers[0].securityContext.allowPrivilegeEscalation',
  },
  {
    file: 'check_windowsHostProcess.go',
    what: 'windowsOptions.hostProcess',
    pod: withPodSc({ windowsOptions: { hostProcess: true } }),
    allowedFrom: 'privileged',
    path: 'p.securityContext.windowsOptions.hostProcess',
  },
  {
    file: 'check_hostProbesAndhostLifecycle.go',
    what: 'a probe aimed at another host',
    pod: withContainer({ livenessProbe: { httpGet: { host: '169.254.169.254', path: '/', port: 80 } } }),
    allowedFrom: 'privileged',
    path: 'p.containers[0].livenessProbe.httpGet.host',
  },
  {
    file: 'check_hostProbesAndhostLifecycle.go',
    what: 'a preStop handler aimed at another host',
    pod: withContainer({ lifecycle: { preStop: { tcpSocket: { host: 'db', port: 5432 } } } }),
    allowedFrom: 'privileged',
    path: 'p.containers[0].lifecycle.preStop.tcpSocket.host',
  },
];

export const LEVELS: PodSecurityLevel[] = ['privileged', 'baseline', 'restricted'];
export const allows = (from: PodSecurityLevel, level: PodSecurityLevel) => LEVELS.indexOf(level) <= LEVELS.indexOf(from);

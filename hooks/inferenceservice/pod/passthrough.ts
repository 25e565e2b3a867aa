/*
 * KServe inlines a whole PodSpec in each component (pkg/apis/serving/v1beta1/predictor.go
 * `PodSpec json:",inline"`) and copies it to the Deployment's pod template
 * (components/predictor.go buildPredictorResources: `podSpec = corev1.PodSpec(...)`). The
 * pod fields copied here as the user wrote them: every PodSpec field of Kubernetes 1.35
 * except those the pod builders merge with our defaults (containers, initContainers,
 * volumes, securityContext, serviceAccountName) and those a Deployment's pod template may
 * not carry (activeDeadlineSeconds, ephemeralContainers — the API server refuses them, so
 * they are named in IgnoredFields instead). Pod security (MODELHOOKS_POD_SECURITY) is
 * checked on the same fields before anything is built.
 */
export const PASSED_POD_FIELDS: readonly string[] = [
  'affinity',
  'automountServiceAccountToken',
  'dnsConfig',
  'dnsPolicy',
  'enableServiceLinks',
  'hostAliases',
  'hostIPC',
  'hostNetwork',
  'hostPID',
  'hostUsers',
  'hostname',
  'hostnameOverride',
  'imagePullSecrets',
  'nodeName',
  'nodeSelector',
  'os',
  'overhead',
  'preemptionPolicy',
  'priority',
  'priorityClassName',
  'readinessGates',
  'resourceClaims',
  'resources',
  'restartPolicy',
  'runtimeClassName',
  'schedulerName',
  'schedulingGates',
  'serviceAccount',
  'setHostnameAsFQDN',
  'shareProcessNamespace',
  'subdomain',
  'terminationGracePeriodSeconds',
  'tolerations',
  'topologySpreadConstraints',
  'workloadRef',
];

/** The pod fields of a component to copy: those listed, restartPolicy only as Always. */
export function passedPodFields(component: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    PASSED_POD_FIELDS.filter((f) => component[f] !== undefined && !(f === 'restartPolicy' && component[f] !== 'Always')).map((f) => [f, component[f]]),
  );
}

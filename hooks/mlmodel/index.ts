import {
  checkClaimUpdate,
  checkDeploymentUpdate,
  defineComposition,
  lastApplied,
  podsOf,
  podsRuleFor,
  STORAGE_CLASSES_RULE,
  type Composed,
  type SyncInput,
} from '../kit/index.js';
import { mlmodelConfig, type MLModelConfig } from './config.js';
import { deploymentFor } from './deployment.js';
import { downloadPodSelector, jobFor } from './job.js';
import { decide, rememberedFrom, withRefusals, type Decision, type Observation } from './lifecycle.js';
import { deploymentName, jobName, modelHash, pvcName, selectorFor, serviceName } from './names.js';
import { pvcFor } from './pvc.js';
import { serviceFor } from './service.js';
import { mlmodelSpec, podFieldProblems, type MLModelSpec } from './spec.js';
import { invalidStatus, mlmodelStatus, statusFrom } from './status.js';

/**
 * MLModel (oda.tmforum.org.oda.tmforum.org/v1beta1): downloads a model into a claim and
 * serves it with TensorFlow Serving. The lifecycle is a pure function of the observed
 * children and the previous status (see lifecycle.ts).
 */
export const mlmodel = defineComposition<MLModelSpec, MLModelConfig>({
  name: 'mlmodel',
  parent: {
    group: 'oda.tmforum.org.oda.tmforum.org',
    kind: 'MLModel',
    plural: 'mlmodels',
    singular: 'mlmodel',
    shortNames: ['mlm'],
    versions: ['v1beta1'],
    printerColumns: [
      { name: 'Phase', type: 'string', jsonPath: '.status.phase', description: 'Where the model is in its lifecycle' },
      { name: 'Endpoint', type: 'string', jsonPath: '.status.serviceEndpoint', description: 'REST endpoint of the model server' },
    ],
  },
  spec: mlmodelSpec,
  // An image the API server would refuse in the Deployment or Job: InvalidSpec, naming the field.
  validate: podFieldProblems,
  config: mlmodelConfig,
  status: mlmodelStatus,
  children: [
    // The claim is updated in place so that storageSize can grow it, where its StorageClass allows
    // (checkClaimUpdate asks for nothing else). A Job's template is immutable: a Job is never
    // updated, a new URL or downloader gets a Job of a new name.
    { apiVersion: 'v1', kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims' },
    { apiVersion: 'batch/v1', kind: 'Job', resource: 'jobs', updateStrategy: 'OnDelete' },
    { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments' },
    { apiVersion: 'v1', kind: 'Service', resource: 'services' },
  ],
  invalidStatus,

  // Whether the claim may grow (storageSize) depends on its StorageClass.
  customize: (parent) => [
    STORAGE_CLASSES_RULE,
    // The pods of the current download and of the server: why they do not run.
    podsRuleFor(parent.metadata.namespace, downloadPodSelector(parent, modelHash(parent.spec.modelURL))),
    podsRuleFor(parent.metadata.namespace, selectorFor(parent)),
  ],

  childNames: (parent) => [
    { apiVersion: 'v1', kind: 'PersistentVolumeClaim', names: [pvcName(parent)] },
    { apiVersion: 'batch/v1', kind: 'Job', names: [jobName(parent, modelHash(parent.spec.modelURL))] },
    { apiVersion: 'apps/v1', kind: 'Deployment', names: [deploymentName(parent)] },
    { apiVersion: 'v1', kind: 'Service', names: [serviceName(parent)] },
  ],

  sync(input) {
    const { parent, config } = input;
    // 1. Observe: the claim, the current URL's Job, the server and their pods; what the status remembers.
    const observed = observe(input);
    const judged = decide(observed);

    // 2. What is wanted, less what the API server would refuse to change in place.
    const claim = checkClaimUpdate(pvcFor(parent), observed.pvc, input.related, { size: 'spec.storageSize' });
    const image = parent.spec.image ?? config.images['tensorflow-serving'];
    const deployment = judged.servingHash ? checkDeploymentUpdate(deploymentFor(parent, judged.servingHash, image), observed.deployment) : undefined;

    // 3. Status from the decision and what could not be applied.
    const status = statusFrom(input, withRefusals(judged, { storage: claim.refusals, deployment: deployment?.refusals ?? [] }));

    // 4. Desired children.
    return { status, children: childrenFor(input, observed, judged, { claim: claim.child, deployment: deployment?.child }) };
  },
});

function observe(input: SyncInput<MLModelSpec, MLModelConfig>): Observation {
  const { parent, observed, related } = input;
  const hash = modelHash(parent.spec.modelURL);
  return {
    hash,
    modelURL: parent.spec.modelURL,
    jobName: jobName(parent, hash),
    pvcName: pvcName(parent),
    pvc: observed.get('v1', 'PersistentVolumeClaim', pvcName(parent)),
    job: observed.get('batch/v1', 'Job', jobName(parent, hash)),
    deployment: observed.get('apps/v1', 'Deployment', deploymentName(parent)),
    previous: rememberedFrom(parent.status),
    jobPods: podsOf(related, downloadPodSelector(parent, hash)),
    serverPods: podsOf(related, selectorFor(parent)),
  };
}

/**
 * The claim always; the Job while wanted (Jobs of other URLs are dropped); the server once a
 * model is there, or as it is while what it serves cannot be read (never dropped for want of a
 * status); its Service with it when exposed.
 */
function childrenFor(
  { parent, config }: SyncInput<MLModelSpec, MLModelConfig>,
  { hash, deployment: server }: Observation,
  judged: Decision,
  wanted: { claim: Composed; deployment: Composed | undefined },
): Composed[] {
  const children: Composed[] = [wanted.claim];
  if (judged.runJob) {
    const keep = judged.servingHash === hash ? undefined : judged.servingHash;
    children.push(jobFor(parent, hash, keep, parent.spec.downloadImage ?? config.images['model-downloader']));
  }
  if (wanted.deployment) children.push(wanted.deployment);
  else if (judged.keepServer && server) children.push(lastApplied(server));
  if ((judged.servingHash || judged.keepServer) && parent.spec.expose) children.push(serviceFor(parent));
  return children;
}

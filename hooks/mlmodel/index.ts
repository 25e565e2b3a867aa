import { defineComposition, lastApplied, type Composed } from '../kit/index.js';
import { mlmodelConfig, type MLModelConfig } from './config.js';
import { deploymentFor } from './deployment.js';
import { jobFor } from './job.js';
import { decide, rememberedFrom } from './lifecycle.js';
import { deploymentName, jobName, modelHash, pvcName } from './names.js';
import { pvcFor } from './pvc.js';
import { serviceFor } from './service.js';
import { mlmodelSpec, type MLModelSpec } from './spec.js';
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
  config: mlmodelConfig,
  status: mlmodelStatus,
  children: [
    // Claims and Jobs are immutable once made: never updated in place.
    { apiVersion: 'v1', kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims', updateStrategy: 'OnDelete' },
    { apiVersion: 'batch/v1', kind: 'Job', resource: 'jobs', updateStrategy: 'OnDelete' },
    { apiVersion: 'apps/v1', kind: 'Deployment', resource: 'deployments' },
    { apiVersion: 'v1', kind: 'Service', resource: 'services' },
  ],
  invalidStatus,

  sync(input) {
    const { parent, observed, config } = input;
    // Observe: the claim, the current URL's Job, the server; remember what the status says.
    const hash = modelHash(parent.spec.modelURL);
    const server = observed.get('apps/v1', 'Deployment', deploymentName(parent));
    const decision = decide({
      hash,
      modelURL: parent.spec.modelURL,
      jobName: jobName(parent, hash),
      pvcName: pvcName(parent),
      pvc: observed.get('v1', 'PersistentVolumeClaim', pvcName(parent)),
      job: observed.get('batch/v1', 'Job', jobName(parent, hash)),
      deployment: server,
      previous: rememberedFrom(parent.status),
    });

    // Status from the decision.
    const status = statusFrom(input, decision);

    // Desired: the claim always; the Job while wanted (Jobs of other URLs are dropped); the server once a model is
    // there, or as it is while what it serves cannot be read (never dropped for want of a status).
    const children: Composed[] = [pvcFor(parent)];
    if (decision.runJob) {
      const keep = decision.servingHash === hash ? undefined : decision.servingHash;
      children.push(jobFor(parent, hash, keep, parent.spec.downloadImage ?? config.images['model-downloader']));
    }
    if (decision.servingHash) {
      children.push(deploymentFor(parent, decision.servingHash, parent.spec.image ?? config.images['tensorflow-serving']));
    } else if (decision.keepServer && server) {
      children.push(lastApplied(server));
    }
    if ((decision.servingHash || decision.keepServer) && parent.spec.expose) children.push(serviceFor(parent));
    return { status, children };
  },
});

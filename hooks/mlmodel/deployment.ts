import type { V1Deployment } from '@kubernetes/client-node';
import { childMeta, restrictedContainer, restrictedPod, type Parent } from '../kit/index.js';
import { COMPONENT_SERVER, GRPC_PORT, MODEL_VOLUME, REST_PORT, SERVER_MOUNT, deploymentName, labelsFor, pvcName, selectorFor } from './names.js';
import type { MLModelSpec } from './spec.js';

/** The official image runs as root but needs nothing of it; the model files belong to this user. */
const SERVER_USER = 1000;

/**
 * Deployment `<n>-server`: TensorFlow Serving reading model `<hash>` from the claim,
 * read-only. A new hash rolls the pods one at a time with a surge (never below the
 * wanted replicas), so a model update has no downtime.
 */
export function deploymentFor(parent: Parent<MLModelSpec>, servingHash: string, image: string): V1Deployment {
  const labels = labelsFor(parent, COMPONENT_SERVER);
  const modelName = parent.metadata.name;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: childMeta(parent, deploymentName(parent), labels),
    spec: {
      replicas: parent.spec.replicas,
      selector: { matchLabels: selectorFor(parent) },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
      template: {
        metadata: { labels },
        spec: {
          securityContext: restrictedPod(SERVER_USER),
          containers: [
            {
              name: 'tensorflow-serving',
              image,
              // The image's entrypoint adds its own --model_name/--model_base_path: call the server directly.
              command: ['/usr/bin/tensorflow_model_server'],
              args: [`--model_name=${modelName}`, `--model_base_path=${SERVER_MOUNT}/${servingHash}`, `--port=${GRPC_PORT}`, `--rest_api_port=${REST_PORT}`],
              ports: [
                { name: 'grpc', containerPort: GRPC_PORT, protocol: 'TCP' },
                { name: 'http', containerPort: REST_PORT, protocol: 'TCP' },
              ],
              readinessProbe: { httpGet: { path: `/v1/models/${modelName}`, port: 'http' }, initialDelaySeconds: 5, periodSeconds: 10, failureThreshold: 3 },
              // The ports open only once the model is loaded: give a large model up to 15 minutes.
              startupProbe: { tcpSocket: { port: 'http' }, periodSeconds: 10, failureThreshold: 90 },
              livenessProbe: { tcpSocket: { port: 'http' }, periodSeconds: 20, failureThreshold: 3 },
              resources: { requests: { cpu: '500m', memory: '1Gi' } },
              securityContext: restrictedContainer(),
              volumeMounts: [{ name: MODEL_VOLUME, mountPath: SERVER_MOUNT, readOnly: true }],
            },
          ],
          volumes: [{ name: MODEL_VOLUME, persistentVolumeClaim: { claimName: pvcName(parent), readOnly: true } }],
        },
      },
    },
  };
}

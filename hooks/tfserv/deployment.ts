import type { V1Container, V1Deployment, V1EnvVar, V1Probe, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { childMeta, restrictedContainer, restrictedPod, type Parent } from '../kit/index.js';
import type { ModelsFile } from './models-file.js';
import { CONFIG_CHECKSUM_ANNOTATION, CONFIG_VOLUME, CONTAINER_NAME, SECRET_VOLUME, deploymentName, labelsFor, selectorFor } from './names.js';
import { joinPath, type TfservSpec } from './spec.js';

/** The official image runs as root but needs nothing of it: any unprivileged user serves. */
const UNPRIVILEGED_USER = 1000;
/** Seconds between two reads of the models file by the server (the original never re-read it). */
export const CONFIG_POLL_SECONDS = 60;

/** Deployment `<n>`: TensorFlow Serving reading the models file from the spec's ConfigMap. */
export function deploymentFor(parent: Parent<TfservSpec>, image: string, models: ModelsFile): V1Deployment {
  const labels = labelsFor(parent, 'server');
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: childMeta(parent, deploymentName(parent), labels),
    spec: {
      replicas: parent.spec.replicas,
      selector: { matchLabels: selectorFor(parent) },
      template: {
        metadata: { labels, annotations: { [CONFIG_CHECKSUM_ANNOTATION]: models.checksum } },
        spec: {
          securityContext: restrictedPod(UNPRIVILEGED_USER, lowPortSysctls(parent.spec)),
          containers: [containerFor(parent.spec, image, models)],
          volumes: volumesFor(parent.spec),
        },
      },
    },
  };
}

function containerFor(spec: TfservSpec, image: string, models: ModelsFile): V1Container {
  const container: V1Container = {
    name: CONTAINER_NAME,
    image,
    command: ['/usr/bin/tensorflow_model_server'],
    args: [
      `--port=${spec.grpcPort}`,
      `--rest_api_port=${spec.restPort}`,
      `--model_config_file=${joinPath(spec.configFileLocation, spec.configFileName)}`,
      `--model_config_file_poll_wait_seconds=${CONFIG_POLL_SECONDS}`,
    ],
    ports: [
      { name: 'grpc', containerPort: spec.grpcPort, protocol: 'TCP' },
      { name: 'rest', containerPort: spec.restPort, protocol: 'TCP' },
    ],
    readinessProbe: readinessProbeFor(spec, models),
    // The ports open only once the first models are loaded: give large or remote ones up to 15 minutes.
    startupProbe: { tcpSocket: { port: 'rest' }, periodSeconds: 10, failureThreshold: 90 },
    livenessProbe: { tcpSocket: { port: 'rest' }, periodSeconds: 20, failureThreshold: 3 },
    resources: spec.resources,
    securityContext: restrictedContainer(),
    volumeMounts: mountsFor(spec),
  };
  const env = credentialsEnv(spec);
  return env.length > 0 ? { ...container, env } : container;
}

/** `/v1/models/<first model>` answers once that model is loaded; without a known name, the port must do. */
export function readinessProbeFor(spec: TfservSpec, models: ModelsFile): V1Probe {
  const timing = { initialDelaySeconds: 5, periodSeconds: 10, failureThreshold: 3 };
  return models.firstModel ? { httpGet: { path: `/v1/models/${models.firstModel}`, port: 'rest' }, ...timing } : { tcpSocket: { port: 'rest' }, ...timing };
}

/** GOOGLE_APPLICATION_CREDENTIALS only when a secret file is given (the original always set it). */
function credentialsEnv(spec: TfservSpec): V1EnvVar[] {
  if (!spec.secretFileName || !spec.secretFileLocation) return [];
  return [{ name: 'GOOGLE_APPLICATION_CREDENTIALS', value: joinPath(spec.secretFileLocation, spec.secretFileName) }];
}

function mountsFor(spec: TfservSpec): V1VolumeMount[] {
  const config: V1VolumeMount = { name: CONFIG_VOLUME, mountPath: spec.configFileLocation, readOnly: true };
  if (!spec.secretFileLocation) return [config];
  return [config, { name: SECRET_VOLUME, mountPath: spec.secretFileLocation, readOnly: true }];
}

/** The spec's own ConfigMap and Secret: the original mounted fixed names whatever the spec said. */
function volumesFor(spec: TfservSpec): V1Volume[] {
  const config: V1Volume = { name: CONFIG_VOLUME, configMap: { name: spec.configMap } };
  if (!spec.secretFileLocation) return [config];
  return [config, { name: SECRET_VOLUME, secret: { secretName: spec.secretName } }];
}

/** A port below 1024 cannot be bound by an unprivileged user unless the pod lowers the limit (a safe sysctl). */
function lowPortSysctls(spec: TfservSpec): { sysctls?: Array<{ name: string; value: string }> } {
  const lowest = Math.min(spec.grpcPort, spec.restPort);
  return lowest < 1024 ? { sysctls: [{ name: 'net.ipv4.ip_unprivileged_port_start', value: String(lowest) }] } : {};
}

import { childName, labelValue, shortHash, standardLabels, type ObjectMeta, type Parent } from '../kit/index.js';

type Named = { metadata: ObjectMeta };

export const COMPONENT_SERVER = 'model-server';
export const COMPONENT_DOWNLOAD = 'model-download';
export const COMPONENT_STORAGE = 'model-storage';

export const REST_PORT = 8501;
export const GRPC_PORT = 8500;
/** Where the download Job sees the claim, and where the server sees it (read-only). */
export const DOWNLOAD_MOUNT = '/mnt/model';
export const SERVER_MOUNT = '/models';
export const MODEL_VOLUME = 'model-storage';

/**
 * The 8 hex characters naming a model URL: its directory on the claim and its Job. Hashed on
 * every call: a memo of it (until 2026-11-26) saved about 1 µs of CPU per sync.
 */
export const modelHash = (modelURL: string): string => shortHash(modelURL, 8);

export const pvcName = (p: Named): string => childName([p.metadata.name, 'pvc']);
/**
 * The download Job of a URL. A `downloadImage` of the user's own is part of the name: a Job
 * is immutable, so trying another downloader after a failure needs a Job of another name.
 */
export const jobName = (p: Named & { spec: { downloadImage?: string | undefined } }, hash: string): string =>
  childName([p.metadata.name, 'download', hash, ...(p.spec.downloadImage ? [shortHash(p.spec.downloadImage, 4)] : [])]);
export const deploymentName = (p: Named): string => childName([p.metadata.name, 'server']);
export const serviceName = (p: Named): string => childName([p.metadata.name, 'service'], { dns1035: true });

/** `<service>.<ns>.svc.cluster.local:8501`: the REST endpoint the original promised. */
export function serviceEndpoint(p: Parent<unknown>): string {
  return `${serviceName(p)}.${p.metadata.namespace}.svc.cluster.local:${REST_PORT}`;
}

/** The parent's name as a label value; a name too long for one is shortened with a hash, so two never collide. */
const instanceOf = (p: Named): string => labelValue(p.metadata.name);

export function labelsFor(p: Named, component: string): Record<string, string> {
  return standardLabels({ name: 'mlmodel', instance: instanceOf(p), component, partOf: 'mlmodel' });
}

/** The server Deployment's selector: immutable, so only labels that never change. */
export function selectorFor(p: Named): Record<string, string> {
  return { 'app.kubernetes.io/instance': instanceOf(p), 'app.kubernetes.io/component': COMPONENT_SERVER };
}

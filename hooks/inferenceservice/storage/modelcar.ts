import type { V1Container } from '@kubernetes/client-node';
import { restrictedContainer } from '../../kit/index.js';
import { MODEL_DIR, NO_STORAGE, PROVISION_VOLUME, type StoragePlan, type StorageUri } from './storage-plan.js';

/*
 * oci:// as KServe v0.20.0 serves it by default (config/configmap/inferenceservice.yaml
 * storageInitializer: enableModelcar true, cpuModelcar 10m, memoryModelcar 15Mi, uidModelcar
 * 1010): pkg/utils/storage.go ConfigureModelcarToContainer, CreateModelcarContainer,
 * CreateModelcarInitContainer, ModelcarNames, modelcarCommand; pkg/constants
 * (ModelcarContainerName, ModelcarInitContainerName, ModelInitModeEnvVarKey).
 */
const CPU = '10m';
const MEMORY = '15Mi';
export const MODELCAR_UID = 1010;

/** ModelcarNames: the first model car keeps the plain names, the next ones get `-<index>`. */
function names(index: number) {
  const suffix = index === 0 ? '' : `-${index}`;
  return { sidecar: `modelcar${suffix}`, init: `modelcar-init${suffix}`, volume: `${PROVISION_VOLUME}${suffix}` };
}

/** utils.GetParentDirectory. */
function parentOf(path: string): string {
  const dir = path.replace(/\/+$/, '').replace(/\/[^/]*$/, '');
  return dir === '' || dir === '.' ? '/' : dir;
}

/** utils.ShellQuote. */
function shellQuote(s: string): string {
  if (s === '') return "''";
  return /^[A-Za-z0-9/._-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}

/** modelcarCommand: `$$$$` is how KServe writes `$$` past the kubelet's `$(VAR)` expansion. */
function command(modelPath: string): string {
  const link = `ln -sf /proc/$$$$/root/models ${shellQuote(modelPath)} && sleep infinity`;
  return modelPath === MODEL_DIR ? link : `mkdir -p ${shellQuote(parentOf(modelPath))} && ${link}`;
}

const resources = { limits: { cpu: CPU, memory: MEMORY }, requests: { cpu: CPU, memory: MEMORY } };
const security = () => restrictedContainer({ runAsNonRoot: true, runAsUser: MODELCAR_UID });

/**
 * A model car per oci:// URI: the image runs beside the server (sharing the process namespace)
 * and links its /models into an emptyDir the server mounts at the model path's parent; an init
 * container of the same image pulls it before the server starts. The server waits for the
 * model (MODEL_INIT_MODE=async) and runs as the model car's user.
 */
export function modelcarPlan(uris: StorageUri[], legacy: boolean): StoragePlan {
  if (uris.length === 0) return NO_STORAGE;
  const cars = (legacy ? uris.slice(0, 1).map((u) => ({ ...u, mountPath: MODEL_DIR })) : uris).map((u, i) => {
    const n = names(i);
    const image = u.uri.slice('oci://'.length);
    const mount = { name: n.volume, mountPath: parentOf(u.mountPath), readOnly: false };
    const sidecar: V1Container = {
      name: n.sidecar,
      image,
      args: ['sh', '-c', command(u.mountPath)],
      terminationMessagePolicy: 'FallbackToLogsOnError',
      resources,
      securityContext: security(),
      volumeMounts: [mount],
    };
    const init: V1Container = {
      name: n.init,
      image,
      args: [
        'sh',
        '-c',
        `echo 'Pre-fetching modelcar ${image}: ' && [ -d /models ] && [ "$$(ls -A /models)" ] && echo 'OK ... Prefetched and valid (/models exists)' || (echo 'NOK ... Prefetched but modelcar is invalid (/models does not exist or is empty)' && exit 1)`,
      ],
      terminationMessagePolicy: 'FallbackToLogsOnError',
      resources,
      securityContext: security(),
    };
    return { sidecar, init, volume: { name: n.volume, emptyDir: {} }, mount };
  });
  return {
    initContainers: cars.map((c) => c.init),
    volumes: cars.map((c) => c.volume),
    serverMounts: cars.map((c) => c.mount),
    serverEnv: [{ name: 'MODEL_INIT_MODE', value: 'async' }],
    serverRunAsUser: MODELCAR_UID,
    sidecars: cars.map((c) => c.sidecar),
    shareProcessNamespace: true,
  };
}

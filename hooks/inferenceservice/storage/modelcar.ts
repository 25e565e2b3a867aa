import type { V1Container } from '@kubernetes/client-node';
import { restrictedContainer } from '../../kit/index.js';
import type { StorageInitializerSettings } from '../config.js';
import { MODEL_DIR, NO_STORAGE, PROVISION_VOLUME, type StoragePlan, type StorageUri } from './storage-plan.js';

/*
 * oci:// as KServe v0.20.0 serves it by default (config/configmap/inferenceservice.yaml
 * storageInitializer: enableModelcar true, cpuModelcar 10m, memoryModelcar 15Mi, uidModelcar
 * 1010, or what the ConfigMap sets: config.ts storageInitializer.modelcar): pkg/utils/storage.go ConfigureModelcarToContainer, CreateModelcarContainer,
 * CreateModelcarInitContainer, ModelcarNames, modelcarCommand; pkg/constants
 * (ModelcarContainerName, ModelcarInitContainerName, ModelInitModeEnvVarKey).
 */

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

type Modelcar = StorageInitializerSettings['modelcar'];
const resourcesOf = ({ cpu, memory }: Modelcar) => ({ limits: { cpu, memory }, requests: { cpu, memory } });
/** CreateModelcarContainer (pkg/utils/storage.go): runAsUser only, unless the pods are built for the restricted level. */
const security = ({ uid }: Modelcar, restricted: boolean) => (restricted ? restrictedContainer({ runAsNonRoot: true, runAsUser: uid }) : { runAsUser: uid });

/**
 * A model car per oci:// URI: the image runs beside the server (sharing the process namespace)
 * and links its /models into an emptyDir the server mounts at the model path's parent; an init
 * container of the same image pulls it before the server starts. The server waits for the
 * model (MODEL_INIT_MODE=async) and runs as the model car's user.
 */
export function modelcarPlan(uris: StorageUri[], legacy: boolean, settings: Modelcar, restricted = false): StoragePlan {
  if (uris.length === 0) return NO_STORAGE;
  const resources = resourcesOf(settings);
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
      securityContext: security(settings, restricted),
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
      // CreateModelcarInitContainer (pkg/utils/storage.go) sets no security context; the restricted fields only at that level.
      ...(restricted ? { securityContext: security(settings, restricted) } : {}),
    };
    return { sidecar, init, volume: { name: n.volume, emptyDir: {} }, mount };
  });
  return {
    initContainers: cars.map((c) => c.init),
    volumes: cars.map((c) => c.volume),
    serverMounts: cars.map((c) => c.mount),
    serverEnv: [{ name: 'MODEL_INIT_MODE', value: 'async' }],
    serverRunAsUser: settings.uid,
    sidecars: cars.map((c) => c.sidecar),
    shareProcessNamespace: true,
  };
}

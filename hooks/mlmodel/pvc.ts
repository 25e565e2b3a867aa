import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../kit/index.js';
import { COMPONENT_STORAGE, labelsFor, pvcName } from './names.js';
import type { MLModelSpec } from './spec.js';

/** PVC `<n>-pvc` (ReadWriteOnce, `storageSize`): the download Job writes it, the server reads it. */
export function pvcFor(parent: Parent<MLModelSpec>): V1PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: childMeta(parent, pvcName(parent), labelsFor(parent, COMPONENT_STORAGE)),
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: parent.spec.storageSize } },
    },
  };
}

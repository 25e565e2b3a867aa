import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';
import { childMeta, type Parent } from '../kit/index.js';
import { labelsFor, pvcName } from './names.js';
import type { TrustyAISpec } from './spec.js';

export function pvcFor(parent: Parent<TrustyAISpec>): V1PersistentVolumeClaim {
  const { size, pv } = parent.spec.storage;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: childMeta(parent, pvcName(parent), labelsFor(parent)),
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: size } },
      ...(pv ? { volumeName: pv } : {}),
    },
  };
}

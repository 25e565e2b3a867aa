import type { KubeObject } from '../../hooks/kit/index.js';

/** What the API server makes of an answered child: a claim Bound in class `standard`, a Deployment available. */
export function asObserved(children: KubeObject[]): KubeObject[] {
  return children.map((c) => {
    if (c.kind === 'PersistentVolumeClaim') {
      return { ...c, spec: { storageClassName: 'standard', volumeMode: 'Filesystem', ...(c.spec as object) }, status: { phase: 'Bound' } };
    }
    if (c.kind === 'Deployment') {
      const replicas = (c.spec as { replicas?: number }).replicas ?? 1;
      return {
        ...c,
        status: {
          observedGeneration: 0,
          replicas,
          updatedReplicas: replicas,
          readyReplicas: replicas,
          availableReplicas: replicas,
          conditions: [{ type: 'Available', status: 'True' }],
        },
      };
    }
    return c;
  });
}

export const storageClass = (expand: boolean): KubeObject => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'standard' },
  provisioner: 'example.com/csi',
  allowVolumeExpansion: expand,
});

export const claimSize = (children: KubeObject[]): unknown =>
  (children.find((c) => c.kind === 'PersistentVolumeClaim')?.spec as { resources: { requests: { storage: string } } } | undefined)?.resources.requests.storage;

import { childName, labelValue, standardLabels, type ObjectMeta } from '../kit/index.js';

type Named = { metadata: ObjectMeta };

/** The label the original operator selected pods by; kept so its Deployments can be adopted. */
export const TFS_NAME_LABEL = 'tfsName';
export const CONFIG_CHECKSUM_ANNOTATION = 'modelhooks.dev/config-checksum';

export const CONTAINER_NAME = 'tfs-main';
export const CONFIG_VOLUME = 'tfs-config-volume';
export const SECRET_VOLUME = 'tfs-secret-volume';

/** Deployment `<n>`, as the original named it. */
export const deploymentName = (p: Named): string => childName([p.metadata.name]);

/** Service `<n>-service` (DNS-1035: a name starting with a digit gets a letter in front). */
export const serviceName = (p: Named): string => childName([p.metadata.name, 'service'], { dns1035: true });

/** `tfsName: <n>`; a name too long for a label value is shortened with a hash, never cut blindly. */
export function selectorFor(p: Named): Record<string, string> {
  return { [TFS_NAME_LABEL]: labelValue(p.metadata.name) };
}

export function labelsFor(p: Named, component: 'server' | 'service'): Record<string, string> {
  return {
    ...standardLabels({ name: 'tensorflow-serving', instance: p.metadata.name, component, partOf: 'tfserv' }),
    ...selectorFor(p),
  };
}

import path from 'node:path';
import type { Kube, KubeObject } from './kube.js';
import { fromRoot, objectsIn, readObjects, vendorDir } from './files.js';

export interface Crd extends KubeObject {
  spec: {
    group: string;
    names: { kind: string; plural: string };
    scope: string;
    versions: Array<{ name: string; served: boolean; schema?: { openAPIV3Schema?: Schema } }>;
  };
}

export interface Schema {
  type?: string;
  default?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
}

/** Upstream CRDs our children and manifests need: Metacontroller, Route, ServiceMonitor, HTTPRoute, cert-manager's Certificate and Issuer (deploy/components/tls-cert-manager). */
const REFERENCE_CRDS = [
  'metacontroller-crds.yaml',
  'route.openshift.io_routes.yaml',
  'monitoring.coreos.com_servicemonitors.yaml',
  'gateway.networking.k8s.io_httproutes.yaml',
  'cert-manager.io_certificates.yaml',
  'cert-manager.io_issuers.yaml',
];

/** Our generated CRDs (crds/, or E2E_CRDS_DIR to try the tier against other CRDs). */
export function ourCrds(): Crd[] {
  const dir = process.env.E2E_CRDS_DIR ? path.resolve(process.env.E2E_CRDS_DIR) : fromRoot('crds');
  return objectsIn(dir)
    .map((o) => o.obj)
    .filter((o): o is Crd => o.kind === 'CustomResourceDefinition');
}

export function referenceCrds(): Crd[] {
  return REFERENCE_CRDS.flatMap((f) => readObjects(path.join(vendorDir, 'crds', f))) as Crd[];
}

/** `group/version` + kind → the CRD serving it. */
export function crdFor(crds: Crd[], apiVersion: string, kind: string): Crd | undefined {
  const [group, version] = apiVersion.split('/');
  return crds.find((c) => c.spec.group === group && c.spec.names.kind === kind && c.spec.versions.some((v) => v.name === version && v.served));
}

export function schemaFor(crd: Crd, apiVersion: string): Schema | undefined {
  const version = apiVersion.split('/')[1];
  return crd.spec.versions.find((v) => v.name === version)?.schema?.openAPIV3Schema;
}

/** Applies one CRD and waits until the API server serves it. */
export async function installCrd(kube: Kube, crd: Crd): Promise<void> {
  await kube.apply(crd);
  await kube.waitForCrdEstablished(crd.metadata.name);
}

/**
 * Applies our CRDs and the reference ones. Idempotent (server-side apply), so every test
 * file can call it and run on its own. A CRD the server refuses is reported by 01-crds;
 * here it only makes the tests that need its kind fail, not every test of the file.
 */
export async function installCrds(kube: Kube): Promise<void> {
  const ours = ourCrds();
  if (ours.length === 0) throw new Error('crds/ holds no CustomResourceDefinition: run `npm run manifests`');
  for (const crd of [...ours, ...referenceCrds()]) {
    await installCrd(kube, crd).catch((e: unknown) => console.warn(`CRD ${crd.metadata.name} not installed: ${String(e)}`));
  }
}

/** Every CompositeController file of compositions/ (compositions/base; the components are kustomizations). */
export function compositionManifests(): Array<{ file: string; obj: KubeObject }> {
  return objectsIn(fromRoot('compositions'), true);
}

import type { KubeObject } from '../../kit/index.js';

/*
 * CustomResourceDefinitions for KServe's ServingRuntime and ClusterServingRuntime, so that a
 * cluster without KServe can hold runtimes. Upstream-compatible: KServe's group, version
 * (v1alpha1), names, scope and printer columns (config/crd/full/serving.kserve.io_*servingruntimes.yaml,
 * v0.20.0); the schema types the fields modelhooks reads and keeps every other field, so any
 * object KServe's own CRD accepts is accepted here. Where KServe is installed, its CRDs are
 * the ones to keep (README: Install).
 */

const format = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string' },
    version: { type: 'string' },
    autoSelect: { type: 'boolean' },
    priority: { type: 'integer', format: 'int32', minimum: 1 },
  },
  'x-kubernetes-preserve-unknown-fields': true,
};

const spec = {
  type: 'object',
  required: ['containers'],
  properties: {
    supportedModelFormats: { type: 'array', items: format },
    protocolVersions: { type: 'array', items: { type: 'string' } },
    disabled: { type: 'boolean' },
    multiModel: { type: 'boolean' },
    containers: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, image: { type: 'string' } },
        'x-kubernetes-preserve-unknown-fields': true,
      },
    },
  },
  'x-kubernetes-preserve-unknown-fields': true,
};

function runtimeCrd(kind: string, plural: string, scope: 'Namespaced' | 'Cluster'): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.serving.kserve.io` },
    spec: {
      group: 'serving.kserve.io',
      names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase() },
      scope,
      versions: [
        {
          name: 'v1alpha1',
          served: true,
          storage: true,
          additionalPrinterColumns: [
            { jsonPath: '.spec.disabled', name: 'Disabled', type: 'boolean' },
            { jsonPath: '.spec.supportedModelFormats[*].name', name: 'ModelType', type: 'string' },
            { jsonPath: '.spec.containers[*].name', name: 'Containers', type: 'string' },
            { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec,
                status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              },
            },
          },
          subresources: {},
        },
      ],
    },
  };
}

export const RUNTIME_CRDS: KubeObject[] = [
  runtimeCrd('ServingRuntime', 'servingruntimes', 'Namespaced'),
  runtimeCrd('ClusterServingRuntime', 'clusterservingruntimes', 'Cluster'),
];

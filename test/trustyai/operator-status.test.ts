/** The operator's conditions (controllers/tas/statuses.go and constants.go@11c335b) and how many InferenceServices log here. */
import { describe, expect, it } from 'vitest';
import { defaultHookConfig } from '../../hooks/server/config.js';
import type { KubeObject } from '../../hooks/kit/index.js';
import { runSync } from '../../hooks/testing/index.js';
import { trustyai } from '../../hooks/trustyai/index.js';

const config = defaultHookConfig();
const parent = (spec: Record<string, unknown>) => ({
  apiVersion: 'trustyai.opendatahub.io/v1',
  kind: 'TrustyAIService',
  metadata: { name: 't', namespace: 'team', generation: 1 },
  spec,
});
const pvcSpec = { storage: { format: 'PVC' }, metrics: { schedule: '5s' } };
const dbSpec = { storage: { format: 'DATABASE', databaseConfigurations: 'creds' }, metrics: { schedule: '5s' } };
const isvc = (name: string, url?: string): KubeObject => ({
  apiVersion: 'serving.kserve.io/v1beta1',
  kind: 'InferenceService',
  metadata: { name, namespace: 'team' },
  spec: { predictor: { model: { modelFormat: { name: 'sklearn' } }, ...(url ? { logger: { mode: 'all', url } } : {}) } },
});
const creds: KubeObject = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'creds', namespace: 'team' },
  data: Object.fromEntries(
    ['databaseKind', 'databaseUsername', 'databasePassword', 'databaseService', 'databasePort', 'databaseName', 'databaseGeneration'].map((k) => [k, 'eA==']),
  ),
};

describe('InferenceServicesPresent', () => {
  it("False with the operator's reason when the namespace has none", () => {
    const out = runSync(trustyai, { parent: parent(pvcSpec), config });
    expect(out.condition('InferenceServicesPresent')).toMatchObject({
      status: 'False',
      reason: 'InferenceServicesNotFound',
      message: 'InferenceServices not found',
    });
  });
  it('True, counting those whose logger targets this service (http or https, any in-cluster spelling)', () => {
    const related = [
      isvc('a', 'https://t.team.svc.cluster.local'), // the operator's HTTPS logger URL
      isvc('b', 'http://t.team.svc'),
      isvc('c', 'http://other.team.svc.cluster.local'),
      isvc('d'), // no logger of its own: wired to t, the namespace's only TrustyAIService
      isvc('e', 'http://t-tls.team.svc.cluster.local'),
    ];
    const out = runSync(trustyai, { parent: parent(pvcSpec), related, config });
    expect(out.condition('InferenceServicesPresent')).toMatchObject({
      status: 'True',
      reason: 'InferenceServicesFound',
      message: 'InferenceServices found: 5 in the namespace, 3 logging to this service',
    });
  });
  it("an InferenceService without a logger of its own counts where the InferenceService composition wires it: to the namespace's first TrustyAIService by name", () => {
    const other = { ...parent(pvcSpec), metadata: { name: 'a-first', namespace: 'team' } };
    expect(runSync(trustyai, { parent: parent(pvcSpec), related: [isvc('d')], config }).condition('InferenceServicesPresent')?.message).toContain('1 logging');
    expect(
      runSync(trustyai, { parent: parent(pvcSpec), related: [isvc('d'), other as KubeObject], config }).condition('InferenceServicesPresent')?.message,
    ).toContain('0 logging');
  });
});

describe('the operator conditions follow readiness', () => {
  const ready = {
    status: {
      replicas: 1,
      updatedReplicas: 1,
      availableReplicas: 1,
      readyReplicas: 1,
      observedGeneration: 1,
      conditions: [{ type: 'Available', status: 'True' }],
    },
  };
  const first = runSync(trustyai, { parent: parent(dbSpec), related: [creds], config });
  const deployment = {
    ...(first.child('Deployment', 't') as KubeObject),
    metadata: { ...(first.child('Deployment', 't') as KubeObject).metadata, generation: 1 },
    ...ready,
  };
  it('all ready: Available, ProvisioningSucceeded True, Degraded False, DBAvailable True, phase Ready', () => {
    const out = runSync(trustyai, { parent: parent(dbSpec), observed: [deployment], related: [creds], config });
    expect(out.status.phase).toBe('Ready');
    expect(out.condition('Available')).toMatchObject({ status: 'True', reason: 'AllComponentsReady', message: 'AllComponentsReady' });
    expect(out.condition('ProvisioningSucceeded')).toMatchObject({ status: 'True', reason: 'ProvisioningComplete' });
    expect(out.condition('Degraded')).toMatchObject({ status: 'False', reason: 'FullyFunctional' });
    expect(out.condition('DBAvailable')).toMatchObject({ status: 'True', reason: 'DBAvailable', message: 'Database available' });
    expect(out.condition('Ready')).toMatchObject({ status: 'True', reason: 'AllComponentsReady', message: 'All service components are ready' });
  });
  it('pods not running against the database: DBConnectionError, Available False, NoFunctionality', () => {
    const out = runSync(trustyai, { parent: parent(dbSpec), related: [creds], config });
    expect(out.status.phase).toBe('Not Ready');
    expect(out.condition('DBAvailable')).toMatchObject({ status: 'False', reason: 'DBConnectionError', message: 'Error connecting to database' });
    expect(out.condition('Available')).toMatchObject({ status: 'False', reason: 'NotAllComponentsReady', message: 'Not all components available' });
    expect(out.condition('Degraded')).toMatchObject({ status: 'True', reason: 'NoFunctionality' });
  });
  it('credentials missing or incomplete: DBCredentialsNotFound, DBCredentialsError', () => {
    expect(runSync(trustyai, { parent: parent(dbSpec), config }).condition('DBAvailable')).toMatchObject({ status: 'False', reason: 'DBCredentialsNotFound' });
    const partial = { ...creds, data: { databaseKind: 'eA==' } };
    expect(runSync(trustyai, { parent: parent(dbSpec), related: [partial], config }).condition('DBAvailable')).toMatchObject({
      status: 'False',
      reason: 'DBCredentialsError',
    });
  });
  it('PVC mode reports PVCAvailable, never DBAvailable', () => {
    const out = runSync(trustyai, { parent: parent(pvcSpec), config });
    expect(out.condition('PVCAvailable')).toMatchObject({ status: 'False', reason: 'PVCNotFound' });
    expect(out.condition('DBAvailable')).toBeUndefined();
  });
});

import { condition, type Cond } from '../kit/index.js';

/**
 * The operator's own conditions (controllers/tas/constants.go and statuses.go@11c335b), with
 * its types, reasons and messages, so tooling that reads them (the ODH dashboard waits for
 * Available=True and phase Ready) sees what the operator would write.
 */
export const OPERATOR = {
  available: 'Available',
  pvcAvailable: 'PVCAvailable',
  dbAvailable: 'DBAvailable',
  routeAvailable: 'RouteAvailable',
  inferenceServicesPresent: 'InferenceServicesPresent',
  provisioningSucceeded: 'ProvisioningSucceeded',
  degraded: 'Degraded',
} as const;

export const available = (ready: boolean): Cond =>
  ready
    ? condition.true(OPERATOR.available, 'AllComponentsReady', 'AllComponentsReady')
    : condition.false(OPERATOR.available, 'NotAllComponentsReady', 'Not all components available');

export const provisioning = (ready: boolean): Cond =>
  ready
    ? condition.true(OPERATOR.provisioningSucceeded, 'ProvisioningComplete', 'Service provisioning completed successfully')
    : condition.false(OPERATOR.provisioningSucceeded, 'ProvisioningInProgress', 'Service provisioning in progress');

/** Degraded: False when ready; True otherwise, partial when any component is up. */
export function degraded(ready: boolean, anyComponentUp: boolean): Cond {
  if (ready) return condition.false(OPERATOR.degraded, 'FullyFunctional', 'All components are fully functional');
  return anyComponentUp
    ? condition.true(OPERATOR.degraded, 'PartialFunctionality', 'Some components are available but service is not fully functional')
    : condition.true(OPERATOR.degraded, 'NoFunctionality', 'No components are available');
}

export const pvcAvailable = (found: boolean): Cond =>
  found
    ? condition.true(OPERATOR.pvcAvailable, 'PVCFound', 'PersistentVolumeClaim found')
    : condition.false(OPERATOR.pvcAvailable, 'PVCNotFound', 'PersistentVolumeClaim not found');

export const routeAvailable = (admitted: boolean): Cond =>
  admitted
    ? condition.true(OPERATOR.routeAvailable, 'RouteFound', 'Route found')
    : condition.false(OPERATOR.routeAvailable, 'RouteNotFound', 'Route not found');

export type DatabaseState = 'available' | 'credentialsNotFound' | 'credentialsError' | 'connectionError';

export function dbAvailable(state: DatabaseState): Cond {
  switch (state) {
    case 'available':
      return condition.true(OPERATOR.dbAvailable, 'DBAvailable', 'Database available');
    case 'credentialsNotFound':
      return condition.false(OPERATOR.dbAvailable, 'DBCredentialsNotFound', 'Database credentials not found');
    case 'credentialsError':
      return condition.false(OPERATOR.dbAvailable, 'DBCredentialsError', 'Error with database credentials');
    case 'connectionError':
      return condition.false(OPERATOR.dbAvailable, 'DBConnectionError', 'Error connecting to database');
  }
}

/**
 * InferenceServicesPresent as the operator decides it (any InferenceService in the namespace),
 * its message extended with how many of them log to this service.
 */
export function inferenceServicesPresent(total: number, loggingHere: number): Cond {
  if (total === 0) return condition.false(OPERATOR.inferenceServicesPresent, 'InferenceServicesNotFound', 'InferenceServices not found');
  return condition.true(
    OPERATOR.inferenceServicesPresent,
    'InferenceServicesFound',
    `InferenceServices found: ${total} in the namespace, ${loggingHere} logging to this service`,
  );
}

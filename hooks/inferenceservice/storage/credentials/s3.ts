import type { V1EnvVar } from '@kubernetes/client-node';
import type { KubeObject } from '../../../kit/index.js';
import { secretKeys, secretRef } from './env.js';

/*
 * KServe v0.20.0 pkg/credentials/s3/s3_secret.go and utils.go. The access key names are those
 * of the default inferenceservice ConfigMap (config/configmap/inferenceservice.yaml:
 * s3AccessKeyIDName AWS_ACCESS_KEY_ID, s3SecretAccessKeyName AWS_SECRET_ACCESS_KEY); the
 * camelCase pair is the code's own default (AWSAccessKeyIdName, AWSSecretAccessKeyName),
 * still used by older installs and samples.
 */
export const S3_KEY_SPELLINGS: ReadonlyArray<readonly [id: string, secret: string]> = [
  ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'],
  ['awsAccessKeyID', 'awsSecretAccessKey'],
];

const A = 'serving.kserve.io/';
export const S3_ENDPOINT_ANNOTATION = `${A}s3-endpoint`;
export const S3_USEHTTPS_ANNOTATION = `${A}s3-usehttps`;

/**
 * Each setting in BuildS3EnvVars' order: the annotation, else the Secret's data key of the
 * env's own name (awsAnonymousCredential for the anonymous flag), else nothing (the default
 * ConfigMap's s3 values are all empty).
 */
const SETTINGS: ReadonlyArray<readonly [annotation: string, env: string]> = [
  [`${A}s3-verifyssl`, 'S3_VERIFY_SSL'],
  [`${A}s3-useanoncredential`, 'awsAnonymousCredential'],
  [`${A}s3-region`, 'AWS_DEFAULT_REGION'],
  [`${A}s3-usevirtualbucket`, 'S3_USER_VIRTUAL_BUCKET'],
  [`${A}s3-useaccelerate`, 'S3_USE_ACCELERATE'],
  [`${A}s3-cabundle`, 'AWS_CA_BUNDLE'],
  [`${A}s3-cabundle-configmap`, 'AWS_CA_BUNDLE_CONFIGMAP'],
];

/** The Secret whose data a setting may come from: its name and key names, never values. */
export interface DataSource {
  name: string;
  keys: Set<string>;
}

/**
 * BuildS3EnvVars. An annotation's value is copied, as KServe does. Where KServe copies a value
 * out of the Secret's data, we reference the key instead (a Secret value never leaves it): the
 * container sees the same value. Only the endpoint differs: KServe splits a data value's
 * scheme off into S3_USE_HTTPS and AWS_ENDPOINT_URL; we cannot read it, so both S3_ENDPOINT
 * and AWS_ENDPOINT_URL reference the data key (right when it carries its scheme).
 */
export function s3SettingsEnv(annotations: Record<string, string>, data: DataSource | undefined): V1EnvVar[] {
  const fromData = (env: string) => (data?.keys.has(env) ? secretRef(env, data.name, env) : undefined);
  const env: V1EnvVar[] = [];
  const endpoint = annotations[S3_ENDPOINT_ANNOTATION];
  if (endpoint !== undefined && endpoint.trim() !== '') {
    env.push(...endpointEnv(endpoint.trim(), annotations[S3_USEHTTPS_ANNOTATION] ?? undefined, fromData('S3_USE_HTTPS')));
  } else if (endpoint === undefined && data?.keys.has('S3_ENDPOINT')) {
    const https =
      annotations[S3_USEHTTPS_ANNOTATION] !== undefined ? { name: 'S3_USE_HTTPS', value: annotations[S3_USEHTTPS_ANNOTATION] } : fromData('S3_USE_HTTPS');
    env.push(...(https ? [https] : []), secretRef('S3_ENDPOINT', data.name, 'S3_ENDPOINT'), secretRef('AWS_ENDPOINT_URL', data.name, 'S3_ENDPOINT'));
  }
  for (const [annotation, name] of SETTINGS) {
    const value = annotations[annotation];
    if (value !== undefined) {
      if (value !== '') env.push({ name, value });
      continue;
    }
    const ref = fromData(name);
    if (ref) env.push(ref);
  }
  return env;
}

/** getEndpointConfiguration: a scheme in the endpoint decides S3_USE_HTTPS; else the flag, https by default. */
function endpointEnv(endpoint: string, useHttps: string | undefined, useHttpsRef: V1EnvVar | undefined): V1EnvVar[] {
  const lower = endpoint.toLowerCase();
  if (lower.startsWith('https://'))
    return [
      { name: 'S3_USE_HTTPS', value: '1' },
      { name: 'S3_ENDPOINT', value: endpoint.slice(8) },
      { name: 'AWS_ENDPOINT_URL', value: endpoint },
    ];
  if (lower.startsWith('http://'))
    return [
      { name: 'S3_USE_HTTPS', value: '0' },
      { name: 'S3_ENDPOINT', value: endpoint.slice(7) },
      { name: 'AWS_ENDPOINT_URL', value: endpoint },
    ];
  // A flag kept in the Secret's data is referenced; its scheme then cannot be chosen, https stays.
  const flag =
    useHttps !== undefined && useHttps !== '' ? [{ name: 'S3_USE_HTTPS', value: useHttps }] : useHttps === undefined && useHttpsRef ? [useHttpsRef] : [];
  return [...flag, { name: 'S3_ENDPOINT', value: endpoint }, { name: 'AWS_ENDPOINT_URL', value: `${useHttps === '0' ? 'http' : 'https'}://${endpoint}` }];
}

/** The S3 key pair a Secret holds (mountSecretCredential tests the secret-access-key name). */
export function s3KeysOf(secret: KubeObject): readonly [string, string] | undefined {
  const keys = secretKeys(secret);
  return S3_KEY_SPELLINGS.find(([, s]) => keys.has(s));
}

/** BuildSecretEnvs: both keys by reference, then the settings from the Secret's annotations and data. */
export function s3SecretEnv(secret: KubeObject, [idKey, secretKey]: readonly [string, string]): V1EnvVar[] {
  const name = secret.metadata.name;
  return [
    secretRef('AWS_ACCESS_KEY_ID', name, idKey),
    secretRef('AWS_SECRET_ACCESS_KEY', name, secretKey),
    ...s3SettingsEnv(secret.metadata.annotations ?? {}, { name, keys: secretKeys(secret) }),
  ];
}

/** KServe's AwsIrsaAnnotationKey: a ServiceAccount bound to an IAM role gives its s3 annotations. */
export const IRSA_ANNOTATION = 'eks.amazonaws.com/role-arn';

/** BuildServiceAccountEnvs: the ServiceAccount's own s3-* annotations (no data). */
export const s3ServiceAccountEnv = (sa: KubeObject): V1EnvVar[] => s3SettingsEnv(sa.metadata.annotations ?? {}, undefined);

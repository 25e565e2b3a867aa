import fc from 'fast-check';
import { requestsWithinLimits } from '../support/within-limits.js';

const dns = fc.stringMatching(/^[a-z]([a-z0-9-]{0,20}[a-z0-9])?$/);
const dir = fc.constantFrom('/var/config/', '/var/config', '/etc/tfs', '/models/config/');
const secretDir = fc.constantFrom('/secret/gcp-credentials/', '/secret', '/var/run/secrets/gcs/');
const quantity = fc.constantFrom('100m', '2', '1Gi', '512Mi', 1, 0.5);

/** Valid Tfserv specs: the original fields in any combination, plus our additions. */
export const tfservSpec: fc.Arbitrary<Record<string, unknown>> = fc
  .record(
    {
      grpcPort: fc.integer({ min: 1, max: 65535 }),
      restPort: fc.integer({ min: 1, max: 65535 }),
      replicas: fc.integer({ min: 0, max: 20 }),
      configMap: dns,
      configFileName: fc.constantFrom('models.conf', 'serving.config', 'model_config.txt'),
      configFileLocation: dir,
      secretName: dns,
      secretFile: fc.option(fc.record({ name: fc.option(fc.constantFrom('key.json', 'gcp-secret-tfserv.json'), { nil: undefined }), location: secretDir }), {
        nil: undefined,
      }),
      image: fc.constantFrom('tensorflow/serving:2.18.0', 'registry.example.com/tfs:gpu'),
      serviceType: fc.constantFrom('ClusterIP', 'NodePort', 'LoadBalancer'),
      resources: fc
        .record(
          {
            requests: fc.dictionary(fc.constantFrom('cpu', 'memory'), quantity),
            limits: fc.dictionary(fc.constantFrom('cpu', 'memory', 'nvidia.com/gpu'), quantity),
          },
          { requiredKeys: [] },
        )
        .filter(requestsWithinLimits),
    },
    { requiredKeys: ['configMap'] },
  )
  .filter((s) => s.grpcPort === undefined || s.restPort === undefined || s.grpcPort !== s.restPort)
  .filter((s) => !(s.grpcPort === 8501 && s.restPort === undefined) && !(s.restPort === 8500 && s.grpcPort === undefined))
  .map(({ secretFile, ...rest }) => {
    const spec: Record<string, unknown> = { ...rest };
    if (secretFile) {
      spec.secretFileLocation = secretFile.location;
      if (secretFile.name) spec.secretFileName = secretFile.name;
    }
    return spec;
  });

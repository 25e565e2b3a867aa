import fc from 'fast-check';

const url = fc
  .tuple(
    fc.constantFrom('https', 'http'),
    fc.stringMatching(/^[a-z][a-z0-9-]{0,15}(\.[a-z]{2,5}){1,2}$/),
    fc.array(fc.stringMatching(/^[A-Za-z0-9_.-]{1,12}$/), { maxLength: 4 }),
    fc.constantFrom('', '.tar.gz', '.tgz', '.zip', '.h5', '.pb', '/'),
    fc.constantFrom('', '?download=true', '#frag'),
  )
  .map(([scheme, host, segments, ext, tail]) => `${scheme}://${host}/${segments.join('/')}${ext}${tail}`);

/** Valid MLModel specs: the original's fields (any subset beyond modelURL) and our additions. */
export const mlmodelSpec: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    modelURL: url,
    storageSize: fc.constantFrom('1Gi', '5Gi', '500Mi', '10G', '1e9'),
    framework: fc.constantFrom('tensorflow', 'TensorFlow'),
    replicas: fc.integer({ min: 0, max: 10 }),
    expose: fc.boolean(),
    image: fc.constantFrom('tensorflow/serving:2.18.0', 'registry.example.com/tfs:gpu'),
    downloadImage: fc.constantFrom('curlimages/curl:8.11.1', 'registry.example.com/tools/fetch:1'),
  },
  { requiredKeys: ['modelURL'] },
);

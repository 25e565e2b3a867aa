/**
 * The flood of test/soak/tenant-attacks.ts (issue 32 item 4), in a process of its own so that
 * writing 2 MB bodies does not slow down the client being measured there: N concurrent distinct
 * syncs of about 2 MB from namespace `flood`, each on a new connection, for the seconds it is
 * given; it sends its parent the count of each status, then exits.
 *
 *   node --import tsx test/soak/tenant-flood.ts <port> <token> <concurrency> <seconds>
 */
import http from 'node:http';

const [port = '', token = '', concurrencyArg = '16', secondsArg = '15'] = process.argv.slice(2);

/**
 * An InferenceService of namespace `flood` with a 100 KB annotation and 7 observed Services of
 * 280 KB annotations. Made once; each request is a copy with its own number written in the
 * parent's name and annotation, so each is computed, never answered from the cache.
 */
const TEMPLATE = (() => {
  const services: Record<string, unknown> = {};
  for (let s = 0; s < 7; s++) {
    const name = `flood-extra-${s}`;
    services[`flood/${name}`] = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: 'flood', annotations: { 'example.com/notes': `${s}:`.padEnd(280_000, 'abcdefghij') } },
      spec: { ports: [{ port: 80 }] },
    };
  }
  const parent = {
    apiVersion: 'serving.kserve.io/v1beta1',
    kind: 'InferenceService',
    metadata: { name: 'flood-000000000', namespace: 'flood', generation: 1, annotations: { 'example.com/notes': '000000000:'.padEnd(100_000, 'klmnopqrst') } },
    spec: { predictor: { model: { modelFormat: { name: 'sklearn' }, storageUri: 'gs://bucket/flood' } } },
  };
  return Buffer.from(JSON.stringify({ controller: {}, parent, children: { 'Service.v1': services }, related: {} }));
})();
const MARKS = [TEMPLATE.indexOf('flood-000000000') + 'flood-'.length, TEMPLATE.indexOf('000000000:')];

function body(i: number): Buffer {
  const copy = Buffer.from(TEMPLATE);
  const mark = String(i).padStart(9, '0');
  for (const at of MARKS) copy.write(mark, at, 'latin1');
  return copy;
}

function post(payload: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/hooks/inferenceservice/sync',
        agent: false,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'content-length': payload.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(String(res.statusCode)));
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end(payload);
  });
}

const statuses: Record<string, number> = {};
const until = Date.now() + Number(secondsArg) * 1000;
let next = Number(concurrencyArg) * 1_000_000;
const flooder = async () => {
  while (Date.now() < until) {
    const status = await post(body(next++));
    statuses[status] = (statuses[status] ?? 0) + 1;
  }
};
process.send?.('ready');
await Promise.all(Array.from({ length: Number(concurrencyArg) }, flooder));
process.send?.(statuses);
process.disconnect?.();

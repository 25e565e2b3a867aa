/**
 * One tenant cannot exhaust the shared server's memory: the real `modelhooks serve`, with the
 * Deployment's node flags and settings, gets 1,000 distinct InferenceServices whose parents
 * carry a 250 KB annotation (legal: the API server allows 256 KiB) and whose specs differ,
 * 4 at a time, with a 5-10 MB body (observed children of 250 KB each) every 25th request
 * and, every 100th, a body over MODELHOOKS_BODY_LIMIT. Every answer must be a 200 (413 for
 * the bodies over the limit), the server must not die, and its RSS (read from its own
 * /metrics every 25 requests) must stay under the container's memory limit. Before the memos
 * were bounded by bytes, the server aborted with "Reached heap limit" after ~190 requests.
 *
 *   npx tsx test/soak/tenant-memory.ts        (a few minutes on 2 cores; run by .ci/run)
 */
import { shippedNodeFlags } from '../../bench/node-flags.js';
import { memoryPeaks, request, ROOT, runSoak, type SoakServer } from './serve.js';

const PARENTS = Number(process.env.SOAK_PARENTS ?? 1000);
const CONCURRENCY = 4;
const MEMORY_LIMIT = 512 * 1024 * 1024; // deploy/base/deployment.yaml's limits.memory
const ANNOTATION = 250 * 1000;
const MiB = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

const filler = (seed: string, length: number) => `${seed}:`.padEnd(length, 'abcdefghijklmnopqrstuvwxyz0123456789');

/** InferenceService i: its own name, spec and 250 KB annotation; `observed` Services of 250 KB each. */
function body(i: number, observed = 0): string {
  const name = `isvc-${i}`;
  const services: Record<string, unknown> = {};
  for (let s = 0; s < observed; s++) {
    const svc = `${name}-extra-${s}`;
    services[`team-a/${svc}`] = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: svc, namespace: 'team-a', annotations: { 'example.com/notes': filler(`${i}/${s}`, ANNOTATION) } },
      spec: { ports: [{ port: 80 }] },
    };
  }
  return JSON.stringify({
    controller: {},
    parent: {
      apiVersion: 'serving.kserve.io/v1beta1',
      kind: 'InferenceService',
      metadata: { name, namespace: 'team-a', generation: 1, uid: `uid-${i}`, annotations: { 'example.com/notes': filler(String(i), ANNOTATION) } },
      spec: { predictor: { minReplicas: 1 + (i % 3), model: { modelFormat: { name: 'sklearn' }, storageUri: `gs://bucket/models/${i}` } } },
    },
    children: { 'Service.v1': services },
  });
}

async function main(server: SoakServer): Promise<number> {
  const { port } = server;
  const started = Date.now();
  const { peak, sample } = memoryPeaks(port);
  const statuses = new Map<string, number>();
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < PARENTS && server.exited() === undefined) {
      const i = next++;
      // A 5-10 MB body every 25th request; one over the 16 MiB limit every 100th.
      const observed = i % 100 === 99 ? 70 : i % 25 === 24 ? 20 + (i % 21) : 0;
      const expected = observed === 70 ? 413 : 200;
      const res = await request(port, 'POST', '/hooks/inferenceservice/sync', body(i, observed)).catch(() => ({ status: 0, text: '' }));
      const kind = `${observed === 0 ? 'parent' : observed === 70 ? 'over-limit' : '5-10MB'} ${res.status}`;
      statuses.set(kind, (statuses.get(kind) ?? 0) + 1);
      if (res.status !== expected) failed++;
      if (i % 25 === 0) await sample().catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await sample().catch(() => undefined);
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `tenant-memory: ${next} requests (${[...statuses].map(([k, n]) => `${n}× ${k}`).join(', ')}) in ${seconds.toFixed(1)} s; ` +
      `peak RSS ${MiB(peak.rss)}, peak heap used ${MiB(peak.heap)}, peak answer cache ${MiB(peak.cache)} (limit ${MiB(MEMORY_LIMIT)})`,
  );
  const died = server.exited() !== undefined;
  if (died) console.log(`tenant-memory: the server died (exit ${server.exited()})`);
  await server.stop();
  const ok = !died && failed === 0 && next === PARENTS && peak.rss > 0 && peak.rss < MEMORY_LIMIT;
  console.log(`tenant-memory: ${ok ? 'passed' : `FAILED: ${failed} unexpected answers${peak.rss >= MEMORY_LIMIT ? '; RSS reached the memory limit' : ''}`}`);
  return ok ? 0 : 1;
}

// The Deployment's node flags (NODE_OPTIONS and its command line) and its settings' defaults.
runSoak({ nodeFlags: shippedNodeFlags(ROOT), env: {} }, main);

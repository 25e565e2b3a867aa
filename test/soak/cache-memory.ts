/**
 * The answer cache under large distinct requests: the real `modelhooks serve` (with the
 * Deployment's heap limit) gets 1,000 distinct ~1 MB sync requests whose answers are ~1 MB
 * too (an invalid spec re-sends every observed child). Without a byte bound the cache would
 * hold 512 of them, past the heap limit; with MODELHOOKS_CACHE_BYTES it holds 64 MiB.
 * Reads the server's own /metrics (RSS, heap, cache bytes) every 50 requests; fails when
 * any request fails, the RSS reaches the container's memory limit, or the cache holds more
 * than MODELHOOKS_CACHE_BYTES.
 *
 *   npx tsx test/soak/cache-memory.ts        (about a minute on 2 cores; run by .ci/run)
 */
import { shippedNodeFlags } from '../../bench/node-flags.js';
import { sizeInBytes } from '../../hooks/server/config.js';
import { memoryPeaks, request, ROOT, runSoak, type SoakServer } from './serve.js';

const REQUESTS = Number(process.env.SOAK_REQUESTS ?? 1000);
const CONCURRENCY = 4;
const MEMORY_LIMIT = 512 * 1024 * 1024; // deploy/base/deployment.yaml's limits.memory
const CACHE_BYTES = process.env.MODELHOOKS_CACHE_BYTES ?? '64mb';
const MiB = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

/** A TrustyAIService with an invalid spec and one observed ConfigMap of ~1 MB, distinct per i. */
function body(i: number): string {
  const data = { blob: `${i}:`.padEnd(1024 * 1024, 'abcdefghijklmnopqrstuvwxyz') };
  return JSON.stringify({
    controller: {},
    parent: {
      apiVersion: 'trustyai.opendatahub.io/v1',
      kind: 'TrustyAIService',
      metadata: { name: `svc-${i}`, namespace: 'team-a', generation: 1 },
      spec: { storage: { format: 'S3' } },
    },
    children: {
      'ConfigMap.v1': { [`team-a/svc-${i}-config`]: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `svc-${i}-config`, namespace: 'team-a' }, data } },
    },
  });
}

async function main(server: SoakServer): Promise<number> {
  const { port } = server;
  const started = Date.now();
  const { peak, sample } = memoryPeaks(port);
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      const i = next++;
      const res = await request(port, 'POST', '/hooks/trustyai/sync', body(i)).catch(() => ({ status: 0, text: '' }));
      if (res.status !== 200 || !res.text.includes('InvalidSpec')) failed++;
      if (i % 50 === 0) await sample().catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await sample().catch(() => undefined);
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `cache-memory: ${REQUESTS} distinct ~1 MiB requests in ${seconds.toFixed(1)} s; peak RSS ${MiB(peak.rss)}, ` +
      `peak heap used ${MiB(peak.heap)}, peak cache ${MiB(peak.cache)} (limit ${MiB(MEMORY_LIMIT)})`,
  );
  if (server.exited() !== undefined) console.log(`cache-memory: the server died (exit ${server.exited()})`);
  await server.stop();
  const cacheBounded = peak.cache <= sizeInBytes(CACHE_BYTES);
  const ok = failed === 0 && server.exited() === 0 && peak.rss > 0 && peak.rss < MEMORY_LIMIT && cacheBounded;
  const why = cacheBounded
    ? '; RSS reached the memory limit or requests failed'
    : `; the cache held ${MiB(peak.cache)}, over MODELHOOKS_CACHE_BYTES (${CACHE_BYTES})`;
  console.log(`cache-memory: ${REQUESTS - failed} passed, ${failed} failed${ok ? '' : why}`);
  return ok ? 0 : 1;
}

// The Deployment's node flags (NODE_OPTIONS and its command line), all on the command line.
runSoak(
  {
    nodeFlags: shippedNodeFlags(ROOT),
    env: {
      MODELHOOKS_BODY_LIMIT: '16mb',
      // The Deployment's settings.
      MODELHOOKS_CACHE_ENTRIES: process.env.MODELHOOKS_CACHE_ENTRIES ?? '65536',
      MODELHOOKS_CACHE_BYTES: CACHE_BYTES,
    },
  },
  main,
);

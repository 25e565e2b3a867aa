/**
 * Full garbage collections on the cached path: the real `modelhooks serve`, with the
 * Deployment's node flags (NODE_OPTIONS and its command line), gets realistic sync requests of ~30 and ~53 KB
 * (bench/requests: the Hugging Face LLM and Gateway API canary InferenceServices) again and
 * again, half of them with If-None-Match, so every answer comes from the answer cache. It
 * counts the major (mark-compact) collections the server reports on its own /metrics
 * (prom-client's nodejs_gc_duration_seconds_count{kind="major"}) over those requests, and
 * fails above MAX_MAJOR_GCS.
 *
 * Why it can fail: each request's body arrives in Buffers outside the V8 heap, and V8 counts
 * the external memory allocated since the last mark-compact against the old generation's
 * limit (deps/v8/src/heap/heap.h, Heap::OldGenerationSpaceAvailable), a limit it keeps at
 * ~1.4× the live heap when the heap is capped well below its default (MaxGrowingFactor in
 * deps/v8/src/heap/heap-controller.cc). Without --initial-old-space-size the server ran a
 * mark-compact every ~500 cached requests of 30 KB (21 in 10,000), a third of that path's CPU.
 * The figure counts collections, not time: it does not depend on the machine's speed.
 *
 *   npx tsx test/soak/gc-pressure.ts         (about 10 s; run by .ci/run)
 *   GC_SOAK_NODE_FLAGS='--max-old-space-size=384 --max-semi-space-size=8' npx tsx test/soak/gc-pressure.ts
 *                                            (the flags before: it fails, 16-21 major GCs per case)
 */
import http from 'node:http';
import { requestBodies } from '../../bench/bodies.js';
import { shippedNodeFlags } from '../../bench/node-flags.js';
import { type BenchCase, selectCases } from '../../bench/requests/index.js';
import { ROOT, runSoak, type SoakServer } from './serve.js';

const REQUESTS = Number(process.env.GC_SOAK_REQUESTS ?? 10_000);
const CONCURRENCY = 16;
/**
 * Per case: a collection now and then is fine (0-4 measured for 10,000 requests with the
 * Deployment's flags), one every few hundred requests is not (16-21 with the flags before).
 */
const MAX_MAJOR_GCS = 6;
const NODE_FLAGS = process.env.GC_SOAK_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? shippedNodeFlags(ROOT);

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function request(
  port: string,
  method: string,
  urlPath: string,
  body?: Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string; etag: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path: urlPath,
        headers: body ? { 'content-type': 'application/json', 'content-length': String(body.length), ...headers } : headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString(), etag: res.headers.etag }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const majorGcs = async (port: string): Promise<number> => {
  const text = (await request(port, 'GET', '/metrics')).text;
  return Number(/^nodejs_gc_duration_seconds_count\{kind="major"\} (\S+)$/m.exec(text)?.[1] ?? 0);
};

/** REQUESTS cached answers of one case; the major collections they cost. */
async function cachedPath(port: string, name: string): Promise<{ name: string; bytes: number; majors: number; failed: number; seconds: number }> {
  const bodies = requestBodies(selectCases([name])[0] as BenchCase, 1);
  const first = await request(port, 'POST', bodies.path, bodies.identical);
  if (first.status !== 200 || !first.etag) throw new Error(`${name}: the first request answered ${first.status}: ${first.text.slice(0, 300)}`);
  const etag = first.etag;
  const before = await majorGcs(port);
  const started = Date.now();
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      const revalidate = next++ % 2 === 1;
      const res = await request(port, 'POST', bodies.path, bodies.identical, revalidate ? { 'if-none-match': etag } : {}).catch(() => ({ status: 0 }));
      if (res.status !== (revalidate ? 304 : 200)) failed++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (Date.now() - started) / 1000;
  return { name, bytes: bodies.bytes, majors: (await majorGcs(port)) - before, failed, seconds };
}

async function main(server: SoakServer): Promise<number> {
  console.log(`gc-pressure: node ${NODE_FLAGS.join(' ')}`);
  let ok = true;
  for (const name of ['inferenceservice/hf-llm', 'inferenceservice/httproute-canary']) {
    const r = await cachedPath(server.port, name);
    const pass = r.failed === 0 && r.majors <= MAX_MAJOR_GCS;
    ok &&= pass;
    console.log(
      `gc-pressure: ${r.name} (${(r.bytes / 1024).toFixed(0)} KB): ${REQUESTS} cached requests in ${r.seconds.toFixed(1)} s, ` +
        `${r.failed} failed, ${r.majors} major GCs (at most ${MAX_MAJOR_GCS})${pass ? '' : ' FAIL'}`,
    );
  }
  agent.destroy();
  await server.stop();
  return ok ? 0 : 1;
}

// The Deployment's node flags (NODE_OPTIONS and its command line), all on the command line.
runSoak({ nodeFlags: NODE_FLAGS, env: {} }, main);

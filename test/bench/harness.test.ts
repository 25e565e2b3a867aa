// The benchmark harness's pure parts: options, ratios/targets/table/JSON, profile summary, and
// the realistic requests (every one is answered 200 by the real app, steady and Ready). No timing.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../../bench/args.js';
import { distinctGeneration, requestBodies } from '../../bench/bodies.js';
import { topSelfTime, type CpuProfile } from '../../bench/cpuprofile.js';
import { hookProfile } from '../../bench/hook-profile.js';
import { type BenchCase, benchCases, COMPOSITIONS, scaled, selectCases } from '../../bench/requests/index.js';
import {
  type CaseResult,
  formatReport,
  type Measurement,
  medianRound,
  ratios,
  type Report,
  reportJson,
  soakGrowthMb,
  table,
  targetChecks,
} from '../../bench/report.js';
import { builtinCompositions } from '../../hooks/compositions.js';
import { loadConfig } from '../../hooks/server/config.js';
import { createApp } from '../../hooks/server/app.js';

describe('bench options', () => {
  it('defaults to a full run of every case', () => {
    const o = parseBenchArgs([]);
    expect(o).toMatchObject({
      quick: false,
      json: false,
      durationS: 3,
      warmupS: 1,
      concurrency: 16,
      only: [],
      soakRequests: 100_000,
      scaleFactor: 10,
      hookProfile: undefined,
      rounds: 3,
    });
  });

  it('--quick shortens the scenarios unless a duration is given', () => {
    expect(parseBenchArgs(['--quick'])).toMatchObject({ quick: true, durationS: 0.3, warmupS: 0.1, rounds: 1 });
    expect(parseBenchArgs(['--quick', '--duration', '2'])).toMatchObject({ quick: true, durationS: 2 });
  });

  it('--rounds: 3 for a full run, 1 quick, 1 to 15 when given', () => {
    expect(parseBenchArgs(['--rounds', '5'])).toMatchObject({ rounds: 5 });
    expect(parseBenchArgs(['--quick', '--rounds', '2'])).toMatchObject({ quick: true, rounds: 2 });
    expect(parseBenchArgs(['--rounds=15'])).toMatchObject({ rounds: 15 });
    expect(() => parseBenchArgs(['--rounds', '0'])).toThrow('--rounds must be a number from 1 to 15, got "0"');
    expect(() => parseBenchArgs(['--rounds', '16'])).toThrow('--rounds must be a number from 1 to 15, got "16"');
    expect(() => parseBenchArgs(['--rounds', 'many'])).toThrow('--rounds must be a number from 1 to 15');
  });

  it('reads lists, flags and numbers', () => {
    const o = parseBenchArgs([
      '--only',
      'trustyai, inferenceservice/onnx',
      '--json',
      '--pin',
      '--scale',
      '--scale-factor',
      '4',
      '--soak',
      '--soak-requests',
      '500',
      '--hook-profile',
      'mlmodel',
      '--iterations',
      '50',
    ]);
    expect(o).toMatchObject({
      only: ['trustyai', 'inferenceservice/onnx'],
      json: true,
      pin: true,
      scale: true,
      scaleFactor: 4,
      soak: true,
      soakRequests: 500,
      hookProfile: 'mlmodel',
      iterations: 50,
    });
    expect(parseBenchArgs(['--help'])).toBe('help');
  });

  it('names the option that is wrong', () => {
    expect(() => parseBenchArgs(['--duration', 'abc'])).toThrow('--duration must be a number from 0.1 to 120, got "abc"');
    expect(() => parseBenchArgs(['--concurrency', '0'])).toThrow('--concurrency must be a number from 1 to 256');
    expect(() => parseBenchArgs(['--fast'])).toThrow(/--fast/);
  });
});

const m = (cpu: number, extra: Partial<Measurement> = {}): Measurement => ({
  requests: 100,
  errors: 0,
  rps: 1000,
  p50Ms: 1,
  p99Ms: 4,
  serverCpuUsPerRequest: cpu,
  clientCpuUsPerRequest: 50,
  rssMb: 80,
  ...extra,
});
const caseResult = (name: string, cpu: [number, number, number, number], p99 = 4): CaseResult => ({
  name,
  requestBytes: 30_000,
  answerBytes: 6_000,
  children: 4,
  paths: { floor: m(cpu[0]), distinct: m(cpu[1], { p99Ms: p99 }), identical: m(cpu[2]), notModified: m(cpu[3]) },
});
const report = (cases: CaseResult[], extra: Partial<Report> = {}): Report => ({
  meta: {
    revision: 'abc123',
    node: 'v20.0.0',
    cpu: 'Test CPU',
    cores: 2,
    loadAverage: { before: 1, after: 1.5 },
    pinned: true,
    concurrency: 16,
    durationS: 3,
    warmupS: 1,
    quick: false,
    rounds: 1,
  },
  cases,
  scale: [],
  profiles: [],
  ...extra,
});

describe('bench report', () => {
  it('ratios are floor ÷ ours of the server CPU per request', () => {
    expect(ratios(caseResult('a/b', [400, 800, 100, 50]))).toEqual({ distinct: 0.5, identical: 4, notModified: 8 });
  });

  it('marks each target PASS or MISS, with a note when the conditions differ', () => {
    const good = caseResult('x/good', [400, 800, 200, 160], 10);
    const bad = caseResult('x/bad', [400, 801, 201, 161], 10.01);
    const r = report([good, bad], {
      meta: { ...report([]).meta, pinned: false },
      scale: [{ name: 'x/good', factor: 10, base: { requestBytes: 1, cpuUsPerRequest: 100 }, scaled: { requestBytes: 10, cpuUsPerRequest: 1001 } }],
      soak: {
        requests: 1000,
        errors: 0,
        rssMb: 119.9,
        heapUsedMb: 40,
        heapTotalMb: 60,
        externalMb: 10,
        rssSeriesMb: [90, 100, 110, 112, 114, 115, 116, 117, 118, 119.9],
      },
    });
    const checks = targetChecks(r);
    expect(checks.filter((c) => c.target.startsWith('x/good:')).map((c) => c.pass)).toEqual([true, true, true, true, false]);
    expect(checks.filter((c) => c.target.startsWith('x/bad:')).map((c) => c.pass)).toEqual([false, false, false, false]);
    expect(checks.find((c) => c.target === 'x/bad: distinct p99 ≤ 10 ms')).toMatchObject({ measured: '10.01 ms', note: 'not pinned (--pin)' });
    expect(checks.at(-2)).toEqual({ target: 'RSS ≤ 120 MB after 1000 mixed requests', measured: '119.9 MB', pass: true, note: 'fewer than 100,000 requests' });
    // Flat: from the fifth tenth (114) on, it grew 5.9 MB.
    expect(checks.at(-1)).toEqual({ target: 'RSS flat over the second half of the soak (≤ 5 MB growth)', measured: '5.9 MB', pass: false });
  });

  it('RSS that stops growing once the answer cache is full is flat', () => {
    const soak = {
      requests: 100_000,
      errors: 0,
      rssMb: 110,
      heapUsedMb: 40,
      heapTotalMb: 60,
      externalMb: 10,
      rssSeriesMb: [80, 95, 104, 108, 109, 110, 109, 111, 110, 110],
    };
    expect(soakGrowthMb(soak)).toBe(2);
    expect(targetChecks(report([], { soak })).map((c) => c.pass)).toEqual([true, true]);
  });

  it('a missing figure is a MISS, never a PASS', () => {
    const checks = targetChecks(report([caseResult('x/none', [400, NaN, NaN, NaN], NaN)]));
    expect(checks.map((c) => [c.measured, c.pass])).toEqual([
      ['-×', false],
      ['-×', false],
      ['-×', false],
      ['- ms', false],
    ]);
  });

  it('prints aligned tables with the revision, node and CPU, and the targets', () => {
    expect(
      table([
        ['a', 'bb'],
        ['ccc', 'd'],
      ]),
    ).toBe('a    bb\nccc   d');
    const text = formatReport(report([caseResult('x/y', [400, 800, 100, 50])]));
    expect(text).toContain('revision abc123, node v20.0.0, Test CPU × 2');
    expect(text).toMatch(/ours, distinct \(cache miss\) +800 +0\.50 /);
    expect(text).toMatch(/x\/y: 304 ≥ 2\.5× floor +8\.00× +PASS/);
  });

  it('JSON carries the figures, ratios and target checks', () => {
    const json = JSON.parse(reportJson(report([caseResult('x/y', [400, 800, 100, 50])]))) as Record<string, any>;
    expect(json.meta.revision).toBe('abc123');
    expect(json.cases[0].ratios).toEqual({ distinct: 0.5, identical: 4, notModified: 8 });
    expect(json.cases[0].paths.floor.serverCpuUsPerRequest).toBe(400);
    expect(json.targets).toHaveLength(4);
  });
});

describe('bench rounds', () => {
  // rps tells the rounds apart: the reported one must be a whole round, not a mix of figures.
  const rounds = (cpu: number[]) => cpu.map((x, i) => m(x, { rps: 1000 + i }));

  it("reports the round with the median CPU per request, and every round's figure in order", () => {
    const chosen = medianRound(rounds([500, 300, 400]));
    expect(chosen).toMatchObject({ serverCpuUsPerRequest: 400, rps: 1002, cpuUsPerRequestRounds: [500, 300, 400] });
    expect(medianRound(rounds([313, 583, 350, 410, 330]))).toMatchObject({ serverCpuUsPerRequest: 350, rps: 1002 });
    expect(medianRound(rounds([420]))).toMatchObject({ serverCpuUsPerRequest: 420, rps: 1000, cpuUsPerRequestRounds: [420] });
  });

  it('an even count takes the lower median, a real round rather than an average', () => {
    expect(medianRound(rounds([500, 300, 400, 350]))).toMatchObject({ serverCpuUsPerRequest: 350, rps: 1003, cpuUsPerRequestRounds: [500, 300, 400, 350] });
    expect(medianRound(rounds([583, 313]))).toMatchObject({ serverCpuUsPerRequest: 313, rps: 1001 });
  });

  it('a round without a figure sorts last; errors of every round count', () => {
    const r = [m(NaN, { errors: 2 }), m(300), m(400, { errors: 1 })];
    expect(medianRound(r)).toMatchObject({ serverCpuUsPerRequest: 400, errors: 3 });
    expect(medianRound(r).cpuUsPerRequestRounds).toEqual([NaN, 300, 400]);
    expect(() => medianRound([])).toThrow('no rounds');
  });

  it('the report and the JSON carry the rounds; ratios come from the median rounds', () => {
    const c: CaseResult = {
      ...caseResult('x/y', [0, 0, 0, 0]),
      paths: {
        floor: medianRound(rounds([583, 313, 400])),
        distinct: medianRound(rounds([700, 800, 900])),
        identical: medianRound(rounds([100, 90, 200])),
        notModified: medianRound(rounds([50, 60, 40])),
      },
    };
    const r = report([c], { meta: { ...report([]).meta, rounds: 3 } });
    expect(ratios(c)).toEqual({ distinct: 0.5, identical: 4, notModified: 8 });
    const text = formatReport(r);
    expect(text).toContain('3 rounds interleaved (floor, distinct, identical, 304, then again), median round per path reported');
    expect(text).toMatch(/floor \(node:http, JSON\.parse\) +400 +313–583 +1\.00 /);
    expect(text).toMatch(/ours, distinct \(cache miss\) +800 +700–900 +0\.50 /);
    expect(formatReport(report([caseResult('x/y', [400, 800, 100, 50])]))).not.toContain('min–max');
    const json = JSON.parse(reportJson(r)) as Record<string, any>;
    expect(json.meta.rounds).toBe(3);
    expect(json.cases[0].paths.floor).toMatchObject({ serverCpuUsPerRequest: 400, cpuUsPerRequestRounds: [583, 313, 400] });
    expect(json.cases[0].paths.notModified.cpuUsPerRequestRounds).toEqual([50, 60, 40]);
    expect(json.cases[0].ratios).toEqual({ distinct: 0.5, identical: 4, notModified: 8 });
  });
});

describe('cpuprofile summary', () => {
  it('adds self time per function, leaves idle out, largest first', () => {
    const frame = (functionName: string, line: number) => ({ functionName, url: 'file:///repo/hooks/a.ts', lineNumber: line, columnNumber: 0 });
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: { functionName: '(idle)', url: '', lineNumber: -1, columnNumber: -1 } },
        { id: 2, callFrame: frame('sync', 9) },
        { id: 3, callFrame: frame('hash', 19) },
        { id: 4, callFrame: frame('sync', 9) },
      ],
      startTime: 0,
      endTime: 1000,
      samples: [1, 2, 3, 4, 2],
      timeDeltas: [0, 500, 100, 100, 200],
    };
    expect(topSelfTime(profile, 10, (url, line) => `${url.replace('file:///repo/', '')}:${line + 1}`)).toEqual([
      { functionName: 'sync', location: 'hooks/a.ts:10', selfMs: 0.3, selfPercent: 75 },
      { functionName: 'hash', location: 'hooks/a.ts:20', selfMs: 0.1, selfPercent: 25 },
    ]);
  });
});

describe('bench requests', () => {
  let cases: BenchCase[];
  const app = createApp({ compositions: builtinCompositions, config: loadConfig({ MODELHOOKS_LOG_LEVEL: 'silent' }) });
  const post = (path: string, body: Buffer) => request(app).post(path).set('content-type', 'application/json').send(body.toString('utf8'));
  beforeAll(() => {
    cases = benchCases();
  });

  it('cover every composition with several variants of InferenceService and TrustyAIService', () => {
    expect(new Set(cases.map((c) => c.composition))).toEqual(new Set(COMPOSITIONS));
    expect([...COMPOSITIONS].sort()).toEqual(builtinCompositions.map((c) => c.name).sort());
    expect(cases.map((c) => c.name)).toEqual(
      expect.arrayContaining(['inferenceservice/hf-llm', 'inferenceservice/onnx', 'inferenceservice/httproute-canary', 'trustyai/openshift']),
    );
  });

  it('observed children look as the cluster returns them', () => {
    for (const c of cases) {
      const children = Object.values(c.request.children as Record<string, Record<string, any>>).flatMap((m) => Object.values(m));
      expect(children.length, c.name).toBe(c.children);
      for (const child of children) {
        expect(child.metadata.managedFields?.length, `${c.name} ${child.kind}`).toBeGreaterThan(0);
        expect(child.metadata.annotations['metacontroller.k8s.io/last-applied-configuration'], `${c.name} ${child.kind}`).toMatch(/^\{/);
        expect(child.metadata).toMatchObject({ uid: expect.any(String), resourceVersion: expect.any(String), creationTimestamp: expect.any(String) });
      }
      const deployments = children.filter((x) => x.kind === 'Deployment');
      expect(deployments.length, c.name).toBeGreaterThan(0);
      for (const d of deployments) expect(d.status.availableReplicas, c.name).toBe(d.spec.replicas);
    }
  });

  it('are answered 200 and Ready by the server; distinct ones differ in the answer, not in length', async () => {
    for (const c of cases) {
      const bodies = requestBodies(c, 4);
      expect(bodies.distinct(1).length).toBe(bodies.bytes);
      expect(bodies.distinct(1).equals(bodies.distinct(2))).toBe(false);
      expect(bodies.distinct(5).equals(bodies.distinct(1))).toBe(true);
      const same = await post(bodies.path, bodies.identical);
      expect(same.status, `${c.name}: ${same.text.slice(0, 300)}`).toBe(200);
      const ready = (same.body.status.conditions as { type: string; status: string }[]).find((x) => x.type === 'Ready');
      expect(ready?.status, c.name).toBe('True');
      const other = await post(bodies.path, bodies.distinct(1));
      expect(other.status).toBe(200);
      expect(other.headers.etag).not.toBe(same.headers.etag);
      expect(JSON.stringify(other.body.status), c.name).toContain(`"observedGeneration":${distinctGeneration(1)}`);
      expect((await post(bodies.path, bodies.identical).set('if-none-match', same.headers.etag as string)).status).toBe(304);
    }
  });

  it("the benchmark's distinct bodies never come round again within the answer cache's 65,536 entries", () => {
    // A ring of 1,024 did, so "distinct" requests of up to 48 KiB were answer-cache hits.
    const bodies = requestBodies(cases[0] as BenchCase);
    const first = bodies.distinct(0);
    for (const i of [1, 1024, 4096, 65_536, 70_000]) expect(bodies.distinct(i).equals(first), `distinct(${i})`).toBe(false);
    expect(bodies.distinct(70_000).length).toBe(bodies.bytes);
  });

  it('--scale copies every observed child, and the request still works', async () => {
    const base = cases.find((c) => c.name === 'trustyai/openshift') as BenchCase;
    const big = scaled(base, 10);
    expect(big.children).toBe(base.children * 10);
    const bodies = requestBodies(big, 2);
    expect(bodies.bytes).toBeGreaterThan(requestBodies(base, 2).bytes * 5);
    expect((await post(bodies.path, bodies.identical)).status).toBe(200);
  });

  it('--only picks compositions or single cases, and names an unknown one', () => {
    expect(selectCases(['tfserv', 'trustyai/database']).map((c) => c.name)).toEqual(['tfserv/three-models', 'trustyai/database']);
    expect(() => selectCases(['nope'])).toThrow('--only: unknown composition "nope"');
    expect(() => selectCases(['trustyai/nope'])).toThrow('--only: no case trustyai/nope');
  });
});

describe('--hook-profile', () => {
  it('writes a .cpuprofile and names functions of the hooks, at their .ts lines', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-'));
    try {
      const c = selectCases(['tfserv'])[0] as BenchCase;
      const r = await hookProfile(c, 30, dir);
      expect(existsSync(r.file)).toBe(true);
      expect(r.file).toBe(path.join(dir, 'hook-tfserv-three-models.cpuprofile'));
      expect(r.top.length).toBeGreaterThan(0);
      expect(r.cpuUsPerSync).toBeGreaterThan(0);
      expect(r.top.every((t) => !t.location.endsWith('.js:1'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

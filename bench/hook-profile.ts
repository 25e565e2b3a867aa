/**
 * `--hook-profile <composition>`: the composition's first case in this process, no HTTP: what
 * the server does on an answer-cache miss apart from HTTP and hashing (parsing the body as
 * kit/request-json.ts does, request parsing, the sync hook, JSON.stringify), N times on
 * distinct requests, under the V8 sampling profiler. Writes a .cpuprofile (open it in Chrome
 * DevTools or VS Code) and lists the top self-time functions.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { builtinCompositions } from '../hooks/compositions.js';
import { defaultHookConfig } from '../hooks/server/config.js';
import { answerJson } from '../hooks/engine/answer-json.js';
import { runHook } from '../hooks/engine/protocol.js';
import { parseHookRequest } from '../hooks/engine/request.js';
import { parseRequestJson } from '../hooks/engine/request-json.js';
import { requestBodies } from './bodies.js';
import { type CpuProfile, sourceMapLocate, topSelfTime } from './cpuprofile.js';
import { NOW } from './dress.js';
import type { BenchCase } from './requests/index.js';
import type { ProfileResult } from './report.js';

export interface HookProfileResult extends ProfileResult {
  case: string;
  iterations: number;
  /** CPU of this process per iteration while profiling (the profiler adds a little). */
  cpuUsPerSync: number;
}

// A named step, so that serialising shows under its own name in the profile, written as the
// server writes it (kit/answer-json.ts); the body is parsed as the server parses it, by
// parseRequestJson, which the profile names.
function jsonStringify(answer: Record<string, unknown>): string {
  return answerJson(answer);
}

export async function hookProfile(c: BenchCase, iterations: number, outDir: string): Promise<HookProfileResult> {
  const composition = builtinCompositions.find((x) => x.name === c.composition);
  if (!composition) throw new Error(`no composition ${c.composition}`);
  const bodies = requestBodies(c, 256);
  const ctx = { now: NOW, config: defaultHookConfig() };
  const once = (i: number) => jsonStringify(runHook(composition, 'sync', parseHookRequest(parseRequestJson(bodies.distinct(i))), ctx));
  for (let i = 0; i < Math.min(200, iterations); i++) once(i);

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const before = process.cpuUsage();
  for (let i = 0; i < iterations; i++) once(i);
  const cpu = process.cpuUsage(before);
  const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
  session.disconnect();

  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `hook-${c.name.replace(/[^a-z0-9-]+/gi, '-')}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  return { case: c.name, iterations, cpuUsPerSync: (cpu.user + cpu.system) / iterations, file, top: topSelfTime(profile, 10, sourceMapLocate(process.cwd())) };
}

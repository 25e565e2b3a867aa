/** The top self-time functions of a V8 .cpuprofile (node --cpu-prof, or the inspector's Profiler). */
import { findSourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; hitCount?: number }[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface SelfTime {
  functionName: string;
  location: string;
  selfMs: number;
  /** Of the busy time: samples when the process was idle are left out. */
  selfPercent: number;
}

/** Where a frame is, as `file:line` (1-based); `root` makes file paths relative. */
export type Locate = (url: string, line0: number, column0: number) => string;

export const plainLocate =
  (root: string): Locate =>
  (url, line0) => {
    if (!url) return '';
    const file = url.startsWith('file://') ? path.relative(root, fileURLToPath(url)) : url;
    return `${file}:${line0 + 1}`;
  };

/** Through the source maps of modules loaded in this process (tsx's, or --enable-source-maps). */
export const sourceMapLocate =
  (root: string): Locate =>
  (url, line0, column0) => {
    const found = url.startsWith('file://') ? findSourceMap(url)?.findEntry(line0, column0) : undefined;
    const entry = found as { originalSource?: string; originalLine: number; originalColumn: number } | undefined;
    if (entry?.originalSource) return plainLocate(root)(entry.originalSource, entry.originalLine, entry.originalColumn);
    return plainLocate(root)(url, line0, column0);
  };

/** Self time per function (same name and place), largest first; idle time is left out. */
export function topSelfTime(profile: CpuProfile, limit = 10, locate: Locate = plainLocate(process.cwd())): SelfTime[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  if (samples.length) {
    // timeDeltas[i] is the time since the previous sample: sample i lasted until sample i + 1.
    for (let i = 0; i < samples.length; i++) selfUs.set(samples[i] as number, (selfUs.get(samples[i] as number) ?? 0) + (deltas[i + 1] ?? 0));
  } else {
    const hits = profile.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0) || 1;
    for (const n of profile.nodes) selfUs.set(n.id, ((n.hitCount ?? 0) * (profile.endTime - profile.startTime)) / hits);
  }
  const byFunction = new Map<string, { functionName: string; location: string; us: number }>();
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)' || us === 0) continue;
    busyUs += us;
    const functionName = frame.functionName || '(anonymous)';
    const location = locate(frame.url, frame.lineNumber, frame.columnNumber);
    const key = `${functionName}@${location}`;
    const entry = byFunction.get(key) ?? { functionName, location, us: 0 };
    entry.us += us;
    byFunction.set(key, entry);
  }
  return [...byFunction.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, limit)
    .map(({ us, functionName, location }) => ({ functionName, location, selfMs: us / 1000, selfPercent: (100 * us) / (busyUs || 1) }));
}

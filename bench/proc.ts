import { readFileSync } from 'node:fs';

/** CPU seconds (user + system, children included) and peak RSS in bytes of one process, from /proc. */
export function usage(pid: number): { cpu: number; peakRss: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpu: ticks / 100, peakRss: Number(hwm?.[1] ?? 0) * 1024 };
}

/**
 * The bytes the load generator sends for a case: one identical body (a resync with nothing
 * changed: the server's answer cache hits) and distinct bodies that differ in the parent's
 * generation (so the answer differs too: the cache misses). Distinct bodies all have the same
 * length and, for the benchmark, are assembled per request with a generation never sent before
 * in the run: a ring of precomputed bodies came round again within the answer cache's 65,536
 * entries and 64 MiB, so "distinct" requests of up to 48 KiB were cache hits (found 2026-11-26).
 * A ring (`ringSize`) is for in-process profiling and soaks, where no answer cache stands between.
 */
import { type BenchCase, GENERATION_MARKER } from './requests/index.js';

export interface RequestBodies {
  name: string;
  /** The hook's path: /hooks/<composition>/sync. */
  path: string;
  identical: Buffer;
  distinct(i: number): Buffer;
  bytes: number;
  /** Observed children in the request. */
  children: number;
}

/** Where the marker stands for the generation: after `":` and before `,` or `}`. */
const MARKER = new RegExp(`(?<=":)${GENERATION_MARKER}(?=[,}])`);
const FIRST_DISTINCT = 1_000_000;
const DISTINCT_VALUES = GENERATION_MARKER - FIRST_DISTINCT;
/** Bytes of precomputed distinct bodies per case (a ring); above it, bodies are assembled per request. */
const RING_BYTES = 48 * 1024 * 1024;

/** The generation of distinct request i: 7 digits, never the identical body's. */
export const distinctGeneration = (i: number) => FIRST_DISTINCT + 1 + (i % (DISTINCT_VALUES - 1));

export function requestBodies(c: BenchCase, ringSize = 0): RequestBodies {
  const text = JSON.stringify(c.request);
  const parts = text.split(MARKER).map((p) => Buffer.from(p));
  if (parts.length < 2) throw new Error(`${c.name}: the generation marker is missing from the request`);
  const assemble = (generation: number) => {
    const g = Buffer.from(String(generation));
    return Buffer.concat(parts.flatMap((p, j) => (j === 0 ? [p] : [g, p])));
  };
  const identical = assemble(FIRST_DISTINCT);
  const size = identical.length * ringSize <= RING_BYTES ? ringSize : 0;
  const ring = Array.from({ length: size }, (_, i) => assemble(distinctGeneration(i)));
  return {
    name: c.name,
    path: `/hooks/${c.composition}/sync`,
    identical,
    distinct: size ? (i) => ring[i % size] as Buffer : (i) => assemble(distinctGeneration(i)),
    bytes: identical.length,
    children: c.children,
  };
}

/**
 * The C allocator's environment of the two measured servers. glibc returns the free top of
 * its heap to the kernel once it passes a threshold (128 KB, raised dynamically), and faults
 * it back in on the next allocation: the request bodies node reads into Buffers outside the
 * V8 heap are freed in bulk at each scavenge, so a server falls, at random from one run to
 * the next, into a mode where that costs 2–4× its CPU per request (on a 2-vCPU VM: the floor
 * 239 or 619 µs, ours 77 or 281-430 µs on the same case). A high trim threshold keeps both
 * servers out of it, so the ratios measure the code. Both get the same setting; the soak's
 * server runs without it (the Deployment's image uses musl, which has no such threshold).
 */

/** 256 MiB: larger than anything the bench frees at once. */
export const TRIM_THRESHOLD = String(256 * 1024 * 1024);

/** `env` with glibc's trim threshold raised, unless the caller set one. */
export function measuredServerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.MALLOC_TRIM_THRESHOLD_ !== undefined || /glibc\.malloc\.trim_threshold/.test(env.GLIBC_TUNABLES ?? '')) return env;
  return { ...env, MALLOC_TRIM_THRESHOLD_: TRIM_THRESHOLD };
}

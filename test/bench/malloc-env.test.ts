import { describe, expect, it } from 'vitest';
import { measuredServerEnv, TRIM_THRESHOLD } from '../../bench/malloc-env.js';

describe("the measured servers' allocator environment", () => {
  it("raises glibc's trim threshold, keeping the rest of the environment", () => {
    expect(measuredServerEnv({ PATH: '/bin', NODE_ENV: 'x' })).toEqual({ PATH: '/bin', NODE_ENV: 'x', MALLOC_TRIM_THRESHOLD_: String(256 * 1024 * 1024) });
    expect(TRIM_THRESHOLD).toBe('268435456');
  });
  it('leaves a threshold the caller set, by variable or tunable, as it is', () => {
    expect(measuredServerEnv({ MALLOC_TRIM_THRESHOLD_: '131072' })).toEqual({ MALLOC_TRIM_THRESHOLD_: '131072' });
    const tunables = { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2:glibc.malloc.trim_threshold=131072' };
    expect(measuredServerEnv(tunables)).toEqual(tunables);
  });
  it('does not write into the environment it is given', () => {
    const env = { PATH: '/bin' };
    measuredServerEnv(env);
    expect(env).toEqual({ PATH: '/bin' });
  });
});

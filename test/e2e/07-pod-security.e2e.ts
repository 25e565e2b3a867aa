import { beforeAll, describe, expect, it } from 'vitest';
import { podSecurityTypeProblems } from '../../hooks/inferenceservice/input/pod-security-types.js';
import { podSecurityViolations, type PodSecurityLevel } from '../../hooks/inferenceservice/input/pod-security-standards.js';
import { allows, LEVELS, table } from '../support/pod-security-table.js';
import { kube } from './support/context.js';
import { KubeError, type KubeObject } from './support/kube.js';

// Our pod security checker against the API server's own Pod Security Admission: each row of
// the unit test table becomes a Pod, dry-run created in a namespace enforcing each level.
// A Pod the API server finds invalid for another reason says nothing about either: skipped.
const namespaceFor = (level: PodSecurityLevel) => `e2e-psa-${level}`;
const API_SERVER_MINOR = 35;

describe("the API server's Pod Security Admission agrees with podSecurityViolations", () => {
  const k = kube();
  beforeAll(async () => {
    for (const level of LEVELS) {
      const labels = { 'pod-security.kubernetes.io/enforce': level, 'pod-security.kubernetes.io/enforce-version': 'latest' };
      await k.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespaceFor(level), labels } });
      await k.apply({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: namespaceFor(level) } });
    }
  });

  const compared: string[] = [];
  const rows = table.filter((row) => (row.since ?? 0) <= API_SERVER_MINOR);
  it.each(rows.flatMap((row) => LEVELS.map((level) => ({ row, level, name: `${row.file}: ${row.what} at ${level}` }))))('$name', async ({ row, level }) => {
    // The API refuses privileged together with allowPrivilegeEscalation: false (validation).
    const valid = (c: Record<string, unknown>) => {
      const sc = { ...(c.securityContext as Record<string, unknown> | undefined) };
      if (sc.privileged === true) delete sc.allowPrivilegeEscalation;
      return { image: 'example.com/i:1', ...c, securityContext: sc };
    };
    const containers = (row.pod.containers as Array<Record<string, unknown>>).map(valid);
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'probe', namespace: namespaceFor(level) },
      spec: {
        automountServiceAccountToken: false,
        ...row.pod,
        containers,
        ...(row.pod.initContainers ? { initContainers: (row.pod.initContainers as Array<Record<string, unknown>>).map(valid) } : {}),
      },
    };
    const error = await k.dryRunCreate(pod).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (error !== undefined && !(error instanceof KubeError && /violates PodSecurity/.test(error.message))) {
      expect(error).toBeInstanceOf(KubeError);
      expect((error as KubeError).reason).toBe('Invalid');
      return;
    }
    compared.push(`${row.what}@${level}`);
    const ours = podSecurityViolations(pod.spec as Record<string, unknown>, level, 'p');
    expect(error === undefined, `API server: ${error instanceof Error ? error.message : 'allowed'}; ours: ${JSON.stringify(ours)}`).toBe(ours.length === 0);
    expect(ours.length === 0).toBe(allows(row.allowedFrom, level));
  });

  it('compared most rows (the rest were invalid Pods for other reasons)', () => {
    const skipped = rows.flatMap((row) => LEVELS.map((level) => `${row.what}@${level}`)).filter((id) => !compared.includes(id));
    console.info(`pod security: ${compared.length} compared with the API server, skipped as invalid Pods: ${skipped.join(', ')}`);
    expect(compared.length).toBeGreaterThan((rows.length * LEVELS.length * 3) / 4);
  });
});

// Types: a security field of the wrong type is refused by the API server whatever the level
// (it cannot even decode the Pod), and podSecurityTypeProblems names that field, so the
// InferenceService answers InvalidSpec instead of a Deployment the API server would refuse.
describe('the API server refuses the security fields podSecurityTypeProblems refuses', () => {
  const k = kube();
  const container = (sc: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    name: 'c',
    image: 'example.com/i:1',
    securityContext: sc,
    ...extra,
  });
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['privileged: "true"', { containers: [container({ privileged: 'true' })] }, 'p.containers[0].securityContext.privileged'],
    ['runAsNonRoot: "false"', { containers: [container({ runAsNonRoot: 'false' })] }, 'p.containers[0].securityContext.runAsNonRoot'],
    ['runAsUser: "0" on the pod', { securityContext: { runAsUser: '0' }, containers: [container({})] }, 'p.securityContext.runAsUser'],
    ['hostNetwork: "true"', { hostNetwork: 'true', containers: [container({})] }, 'p.hostNetwork'],
    ['capabilities.add: "SYS_ADMIN"', { containers: [container({ capabilities: { add: 'SYS_ADMIN' } })] }, 'p.containers[0].securityContext.capabilities.add'],
    ['hostPort: "9000"', { containers: [container({}, { ports: [{ containerPort: 80, hostPort: '9000' }] })] }, 'p.containers[0].ports[0].hostPort'],
  ];
  it.each(cases)('%s', async (_what, spec, path) => {
    expect(podSecurityTypeProblems(spec, 'p').map((p) => p.path)).toEqual([path]);
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'typed', namespace: namespaceFor('privileged') },
      spec: { automountServiceAccountToken: false, ...spec },
    };
    const error = await k.dryRunCreate(pod).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KubeError);
    expect([400, 422]).toContain((error as KubeError).status);
  });
});

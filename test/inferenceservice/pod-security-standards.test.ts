import { describe, expect, it } from 'vitest';
import { restrictedContainer, restrictedPod } from '../../hooks/kit/index.js';
import { mergedContainerSecurity, mergedPodSecurity } from '../../hooks/inferenceservice/pod/merged-security.js';
import { podSecurityViolations } from '../../hooks/inferenceservice/input/pod-security-standards.js';
import { allows, compliant, LEVELS, table, UPSTREAM, withContainer } from '../support/pod-security-table.js';

describe(`pod security checks (${UPSTREAM}, latest version)`, () => {
  it('a pod of restrictedPod() and restrictedContainer() passes every level', () => {
    for (const level of LEVELS) expect(podSecurityViolations(compliant(), level, 'p')).toEqual([]);
  });
  for (const row of table) {
    for (const level of LEVELS) {
      const allowed = allows(row.allowedFrom, level);
      it(`${row.file}: ${row.what} is ${allowed ? 'allowed' : 'refused'} at ${level}`, () => {
        const found = podSecurityViolations(row.pod, level, 'p');
        if (allowed) expect(found).toEqual([]);
        else {
          expect(found.map((v) => v.path)).toEqual([row.path]);
          expect(found[0]?.message).toMatch(new RegExp(`${level} pod security level \\(MODELHOOKS_POD_SECURITY\\)`));
        }
      });
    }
  }
  it('names containers where they were written and the AppArmor annotation (check_appArmorProfile.go)', () => {
    const pod = withContainer({}, { privileged: true });
    const found = podSecurityViolations(pod, 'baseline', 'spec.predictor', {
      containers: ['spec.predictor.sklearn'],
      annotations: { values: { 'container.apparmor.security.beta.kubernetes.io/c': 'unconfined', other: 'x' }, path: 'spec.predictor.annotations' },
    });
    expect(found.map((v) => v.path)).toEqual([
      'spec.predictor.annotations["container.apparmor.security.beta.kubernetes.io/c"]',
      'spec.predictor.sklearn.securityContext.privileged',
    ]);
  });
  it('windows pods are exempt from the restricted capabilities, seccomp and privilege-escalation checks', () => {
    const pod = { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [{ name: 'c' }] };
    expect(podSecurityViolations(pod, 'restricted', 'p')).toEqual([]);
    expect(podSecurityViolations({ ...pod, os: { name: 'linux' } }, 'restricted', 'p').map((v) => v.path)).toEqual([
      'p.containers[0].securityContext.capabilities.drop',
      'p.containers[0].securityContext.allowPrivilegeEscalation',
      'p.containers[0].securityContext.seccompProfile.type',
    ]);
  });
});

describe('merging a user security context over the restricted defaults', () => {
  it('fills what the user did not set and keeps what they did', () => {
    expect(mergedPodSecurity({ runAsUser: 1000, fsGroup: 2000 })).toEqual({
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
      runAsUser: 1000,
      fsGroup: 2000,
    });
    expect(mergedPodSecurity(undefined)).toEqual(restrictedPod());
    expect(mergedContainerSecurity({ readOnlyRootFilesystem: true })).toEqual({ ...restrictedContainer(), readOnlyRootFilesystem: true });
  });
  it('keeps dropping ALL when the user only adds a capability, and honours their own drop list', () => {
    expect(mergedContainerSecurity({ capabilities: { add: ['NET_BIND_SERVICE'] } }).capabilities).toEqual({ drop: ['ALL'], add: ['NET_BIND_SERVICE'] });
    expect(mergedContainerSecurity({ capabilities: { drop: ['NET_RAW'] } }).capabilities).toEqual({ drop: ['NET_RAW'] });
  });
});

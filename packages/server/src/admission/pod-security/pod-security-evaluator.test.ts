import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesFor } from '@svc-apiserver/api';
import { podSecurityEvaluator } from './pod-security-evaluator.js';
import { parseLevel, parseVersion, type LevelVersion } from './policy-levels.js';

const evaluator = podSecurityEvaluator(namesFor('svc'));
const lv = (text: string): LevelVersion => {
  const [level, version] = text.split(':') as [string, string];
  return { level: parseLevel(level)!, version: parseVersion(version)! };
};

/** A container that passes restricted. */
const safe = { name: 'c', image: 'x:1', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } };
const spec = (overrides: Record<string, unknown> = {}, container: Record<string, unknown> = {}) => ({
  containers: [{ ...safe, ...container, securityContext: { ...safe.securityContext, ...(container['securityContext'] as object | undefined) } }],
  ...overrides,
});

/** [what, pod spec, annotations, { level:version → expected detail or '' for allowed }]. */
const table: [string, Record<string, unknown>, Record<string, string>, Record<string, string>][] = [
  ['a restricted pod', spec(), {}, { 'privileged:latest': '', 'baseline:latest': '', 'restricted:latest': '', 'restricted:v1.0': '' }],
  ['a plain pod', { containers: [{ name: 'c', image: 'x:1' }] }, {}, {
    'baseline:latest': '',
    'restricted:latest': 'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
      'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), ' +
      'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
      'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    'restricted:v1.21': 'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), ' +
      'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), ' +
      'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    'restricted:v1.7': 'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true)',
  }],
  ['host namespaces and a privileged container', spec({ hostNetwork: true, hostPID: true }, { securityContext: { privileged: true } }), {}, {
    'privileged:latest': '',
    'baseline:latest': 'host namespaces (hostNetwork, hostPID), privileged (container "c" must not set securityContext.privileged=true)',
    'restricted:latest': 'host namespaces (hostNetwork, hostPID), privileged (container "c" must not set securityContext.privileged=true)',
  }],
  ['a hostPath volume', spec({ volumes: [{ name: 'h', hostPath: { path: '/' } }, { name: 'e', emptyDir: {} }] }), {}, {
    'baseline:latest': 'hostPath volumes (volume "h")',
    'restricted:latest': 'restricted volume types (volume "h" uses restricted volume type "hostPath")',
  }],
  ['an nfs volume', spec({ volumes: [{ name: 'n', nfs: { server: 's', path: '/' } }] }), {}, {
    'baseline:latest': '', 'restricted:latest': 'restricted volume types (volume "n" uses restricted volume type "nfs")',
  }],
  ['host ports', { containers: [{ ...safe, ports: [{ containerPort: 80, hostPort: 8080 }] }] }, {}, {
    'baseline:latest': 'hostPort (container "c" uses hostPort 8080)',
  }],
  ['added capabilities', spec({}, { securityContext: { capabilities: { drop: ['ALL'], add: ['NET_ADMIN', 'CHOWN'] } } }), {}, {
    'baseline:latest': 'non-default capabilities (container "c" must not include "NET_ADMIN" in securityContext.capabilities.add)',
    'restricted:latest': 'unrestricted capabilities (container "c" must not include "CHOWN", "NET_ADMIN" in securityContext.capabilities.add)',
    'restricted:v1.21': 'non-default capabilities (container "c" must not include "NET_ADMIN" in securityContext.capabilities.add)',
  }],
  ['runAsUser 0', spec({ securityContext: { runAsUser: 0 } }), {}, {
    'baseline:latest': '', 'restricted:v1.22': '', 'restricted:v1.23': 'runAsUser=0 (pod must not set runAsUser=0)',
  }],
  ['an unconfined seccomp profile', spec({}, { securityContext: { seccompProfile: { type: 'Unconfined' } } }), {}, {
    'baseline:latest': 'seccompProfile (container "c" must not set securityContext.seccompProfile.type to "Unconfined")',
    'restricted:latest': 'seccompProfile (container "c" must not set securityContext.seccompProfile.type to "Unconfined")',
  }],
  ['seLinux user and type', spec({ securityContext: { seLinuxOptions: { user: 'root', type: 'spc_t' } } }), {}, {
    'baseline:latest': 'seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set)',
  }],
  ['procMount Unmasked', spec({}, { securityContext: { procMount: 'Unmasked' } }), {}, {
    'baseline:latest': 'procMount (container "c" must not set securityContext.procMount to "Unmasked")',
  }],
  ['sysctls', spec({ securityContext: { sysctls: [{ name: 'net.ipv4.ip_local_reserved_ports', value: '1' }, { name: 'kernel.msgmax', value: '1' }] } }), {}, {
    'baseline:latest': 'forbidden sysctls (kernel.msgmax)',
    'baseline:v1.26': 'forbidden sysctls (net.ipv4.ip_local_reserved_ports, kernel.msgmax)',
  }],
  ['an unconfined AppArmor profile', spec(), { 'container.apparmor.security.beta.svc.io/c': 'unconfined' }, {
    'baseline:latest': 'forbidden AppArmor profile (container.apparmor.security.beta.svc.io/c="unconfined")',
  }],
  ['windows pods and the 1.25 relaxation', { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [{ name: 'w', image: 'x:1' }] }, {}, {
    'restricted:latest': '',
    'restricted:v1.24': 'allowPrivilegeEscalation != false (container "w" must set securityContext.allowPrivilegeEscalation=false), ' +
      'unrestricted capabilities (container "w" must set securityContext.capabilities.drop=["ALL"]), ' +
      'seccompProfile (pod or container "w" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  }],
  ['hostProcess', spec({ securityContext: { windowsOptions: { hostProcess: true } } }), {}, {
    'baseline:latest': 'hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)',
  }],
];

test('Pod Security Standards: a table of pods per level and version', () => {
  for (const [what, podSpec, annotations, expected] of table) {
    for (const [at, detail] of Object.entries(expected)) {
      const r = evaluator.evaluate(lv(at), annotations, podSpec);
      assert.equal(r.detail, detail, `${what} at ${at}`);
      assert.equal(r.allowed, detail === '', `${what} at ${at}`);
    }
  }
});

test('versions newer than the checks evaluate as latest; v1.0 is the oldest', () => {
  const plain = { containers: [{ name: 'c', image: 'x:1' }] };
  assert.equal(evaluator.evaluate(lv('restricted:v1.99'), {}, plain).detail, evaluator.evaluate(lv('restricted:latest'), {}, plain).detail);
  assert.equal(parseVersion('v1.01'), undefined);
  assert.equal(parseVersion('v2.0'), undefined);
});

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { namesFor } from '@svc-apiserver/api';
import { loadAdmissionConfiguration, parseAdmissionConfiguration } from './admission-configuration.js';

const dir = tempDir({ after }, 'admission-config-');
const svc = namesFor('svc');

test('AdmissionConfiguration in both versions: inline configurations and files relative to the configuration file', () => {
  writeFileSync(join(dir, 'limits.yaml'), 'apiVersion: eventratelimit.admission.svc.io/v1alpha1\nkind: Configuration\nlimits: [{type: Server, qps: 1, burst: 1}]\n');
  for (const apiVersion of ['apiserver.config.svc.io/v1', 'apiserver.svc.io/v1alpha1']) {
    const path = join(dir, 'admission.yaml');
    writeFileSync(path, [
      `apiVersion: ${apiVersion}`, 'kind: AdmissionConfiguration', 'plugins:',
      '- name: EventRateLimit', '  path: limits.yaml',
      '- name: PodSecurity', '  configuration: {apiVersion: pod-security.admission.config.svc.io/v1, kind: PodSecurityConfiguration}',
      '- name: PodSecurity', '  configuration: {ignored: true}',
      '- name: NoConfiguration',
    ].join('\n'));
    const loaded = loadAdmissionConfiguration(path, svc);
    assert.ok(loaded.ok, !loaded.ok ? loaded.error : '');
    assert.deepEqual(loaded.value.configuration('EventRateLimit'), {
      apiVersion: 'eventratelimit.admission.svc.io/v1alpha1', kind: 'Configuration', limits: [{ type: 'Server', qps: 1, burst: 1 }],
    });
    assert.deepEqual(loaded.value.configuration('PodSecurity'), { apiVersion: 'pod-security.admission.config.svc.io/v1', kind: 'PodSecurityConfiguration' });
    assert.equal(loaded.value.configuration('NoConfiguration'), undefined);
  }
});

test('the k8s flavour reads the Kubernetes group names; the unversioned legacy forms configure their plugins', () => {
  const k8s = parseAdmissionConfiguration('apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins: []\n', 'f', namesFor('k8s'));
  assert.ok(k8s.ok);
  const legacy = parseAdmissionConfiguration('podNodeSelectorPluginConfig:\n  clusterDefaultNodeSelector: env=prod\n', 'f', svc);
  assert.ok(legacy.ok);
  assert.deepEqual(legacy.value.configuration('PodNodeSelector'), { podNodeSelectorPluginConfig: { clusterDefaultNodeSelector: 'env=prod' } });
  assert.equal(legacy.value.configuration('ImagePolicyWebhook'), undefined);
});

test('bad files stop the start with a message naming the problem', () => {
  const bad = (text: string) => {
    const r = parseAdmissionConfiguration(text, 'admission.yaml', svc);
    assert.equal(r.ok, false, text);
    return r.ok ? '' : r.error;
  };
  assert.match(bad('apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\n'), /apiVersion "apiserver.config.k8s.io\/v1" is not one of/);
  assert.match(bad('apiVersion: apiserver.config.svc.io/v1\nkind: Something\n'), /no kind "Something" is registered/);
  assert.match(bad('just: data\n'), /Object 'Kind' is missing/);
  assert.match(bad('apiVersion: apiserver.config.svc.io/v1\nkind: AdmissionConfiguration\nplugins: [{path: x}]\n'), /plugins\[0\]\.name is required/);
  assert.match(bad('apiVersion: apiserver.config.svc.io/v1\nkind: AdmissionConfiguration\nplugins: [{name: A, path: missing.yaml}]\n'), /unable to read admission plugin "A" configuration/);
  assert.match(bad('a: [1, 2'), /admission\.yaml:/);
  const missing = loadAdmissionConfiguration(join(dir, 'nope.yaml'), svc);
  assert.equal(missing.ok, false);
  assert.match(!missing.ok ? missing.error : '', /unable to read admission control configuration/);
});

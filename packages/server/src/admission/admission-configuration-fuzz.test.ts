import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesFor } from '@svc-apiserver/api';
import { parseAdmissionConfiguration } from './admission-configuration.js';
import { createAdmissionChain } from './chain.js';
import { knownPluginNames } from './testing/admission-test-kit.js';
import { seededRandom } from '../testing/seeded-random.js';

const names = namesFor('svc');
const fragments = [
  'apiVersion: apiserver.config.svc.io/v1', 'kind: AdmissionConfiguration', 'plugins:', '- name: PodSecurity', '  configuration:',
  '    defaults: {enforce: bogus}', '    apiVersion: pod-security.admission.config.svc.io/v1', '    kind: PodSecurityConfiguration',
  '- name: EventRateLimit', '  configuration: {apiVersion: eventratelimit.admission.svc.io/v1alpha1, kind: Configuration, limits: [{type: Bad}]}',
  '- name: ResourceQuota', '  configuration: {limitedResources: 7}', '- name: PodNodeSelector', '  configuration: {podNodeSelectorPluginConfig: {a: "=="}}',
  '- name: ImagePolicyWebhook', '  configuration: {imagePolicy: {kubeConfigFile: /nonexistent, allowTTL: -7}}', '- name: PodTolerationRestriction',
  '  configuration: {apiVersion: podtolerationrestriction.admission.svc.io/v1alpha1, kind: Configuration, default: "x"}',
  '  path: /dev/null', '  path: 12', 'plugins: {}', 'plugins: [[]]', '- 7', '- name:', '&a [*a]', '{', '}', ': :', '"\\u0000"', '!!binary AAAA',
  'a: &x [1,2]', 'b: [*x, *x, *x]', '    - - - -', '\t', '- name: MutatingAdmissionWebhook', '  configuration: {kubeConfigFile: 3}',
];

test('malformed admission configuration files are refused or accepted, never thrown; plugins refuse bad configurations as values', () => {
  const random = seededRandom(17);
  const every = knownPluginNames(names);
  for (let i = 0; i < 400; i++) {
    const lines = Array.from({ length: 1 + Math.floor(random() * 12) }, () => fragments[Math.floor(random() * fragments.length)]!);
    const text = random() < 0.1 ? lines.join('').slice(0, Math.floor(random() * 80)) : lines.join('\n');
    const parsed = parseAdmissionConfiguration(text, 'fuzz.yaml', names);
    if (!parsed.ok) {
      assert.equal(typeof parsed.error, 'string');
      continue;
    }
    // Whatever the file says, building the chain with every plugin enabled answers a value.
    const chain = createAdmissionChain({ names, enable: every, configuration: parsed.value });
    assert.equal(typeof chain.ok, 'boolean');
    if (!chain.ok) assert.equal(chain.error.code, 400);
    else chain.value.close();
  }
});

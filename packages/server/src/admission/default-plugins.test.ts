import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesFor } from '@svc-apiserver/api';
import { knownPluginNames } from './testing/admission-test-kit.js';
import { createAdmissionChain } from './chain.js';
import { defaultOnPlugins, pluginRunOrder } from './plugin-order.js';

const names = namesFor('svc');

test('the default set is 1.27\'s recommended one, in run order; flags add and remove whatever order they name plugins in', () => {
  const chain = createAdmissionChain({ names });
  assert.ok(chain.ok);
  const known = knownPluginNames(names);
  assert.deepEqual(chain.value.plugins.map((p) => p.name), pluginRunOrder.filter((n) => defaultOnPlugins.has(n) && known.includes(n)));
  assert.deepEqual(chain.value.plugins.map((p) => p.name).slice(-4), ['MutatingAdmissionWebhook', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionWebhook', 'ResourceQuota'],
    'webhooks, policies and quota come last');
  for (const name of ['NamespaceLifecycle', 'LimitRanger', 'PodSecurity', 'Priority', 'ResourceQuota', 'RuntimeClass', 'MutatingAdmissionWebhook']) {
    assert.ok(chain.value.plugins.some((p) => p.name === name), `${name} is on by default`);
  }
  assert.ok(!chain.value.plugins.some((p) => p.name === 'AlwaysPullImages'), 'AlwaysPullImages is off by default');
  const a = createAdmissionChain({ names, enable: ['PodNodeSelector', 'AlwaysPullImages', 'NamespaceExists'], disable: ['PodSecurity'] });
  const b = createAdmissionChain({ names, enable: ['NamespaceExists', 'AlwaysPullImages', 'PodNodeSelector'], disable: ['PodSecurity'] });
  assert.ok(a.ok && b.ok);
  assert.deepEqual(a.value.plugins.map((p) => p.name), b.value.plugins.map((p) => p.name));
  const order = a.value.plugins.map((p) => p.name);
  assert.ok(order.indexOf('NamespaceExists') < order.indexOf('AlwaysPullImages') && order.indexOf('AlwaysPullImages') < order.indexOf('PodNodeSelector'));
  assert.ok(!order.includes('PodSecurity'));
});

test('a plugin that needs a configuration stops the start when enabled without one, and not otherwise', () => {
  const missing = createAdmissionChain({ names, enable: ['EventRateLimit'] });
  assert.equal(missing.ok, false);
  assert.match(!missing.ok ? missing.error.message ?? '' : '', /^EventRateLimit: invalid configuration: limits: Required value/);
  assert.equal(createAdmissionChain({ names }).ok, true);
});

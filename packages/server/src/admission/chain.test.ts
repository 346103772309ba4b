import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesFor, type Names } from '@svc-apiserver/api';
import { createMetricsRegistry } from '../metrics/metrics-registry.js';
import { admissionMetrics } from './admission-metrics.js';
import { chainOf, createAdmissionChain } from './chain.js';
import { admitted, refused, type AdmissionAttributes, type AdmissionPlugin } from './plugin.js';
import { forbidden } from '@svc-apiserver/api';

const names: Names = namesFor('svc');

const attrs = (): AdmissionAttributes => ({
  operation: 'CREATE', group: '', version: 'v1', resource: 'configmaps', subresource: '', kind: 'ConfigMap', namespace: 'default', name: 'x',
  dryRun: false, user: { username: 'u', groups: [] }, object: { metadata: { name: 'x' }, data: {} },
});

/** A plugin that records its calls into `seen`. */
function recording(name: string, seen: string[], behaviour: Partial<AdmissionPlugin> = {}): AdmissionPlugin {
  return {
    name, enabledByDefault: true, handles: () => true,
    admit: (a) => {
      seen.push(`${name}:admit${a.reinvocation?.isReinvoke === true ? ':again' : ''}`);
      return admitted;
    },
    validate: () => {
      seen.push(`${name}:validate`);
      return admitted;
    },
    ...behaviour,
  };
}

test('plugins run in kube\'s fixed order whatever order they are given in; mutating all before validating all', async () => {
  const seen: string[] = [];
  const chain = chainOf([recording('ResourceQuota', seen), recording('LimitRanger', seen), recording('MutatingAdmissionWebhook', seen), recording('NamespaceLifecycle', seen)]);
  assert.deepEqual(chain.plugins.map((p) => p.name), ['NamespaceLifecycle', 'LimitRanger', 'MutatingAdmissionWebhook', 'ResourceQuota']);
  await chain.admit(attrs());
  await chain.validate(attrs());
  assert.deepEqual(seen, [
    'NamespaceLifecycle:admit', 'LimitRanger:admit', 'MutatingAdmissionWebhook:admit', 'ResourceQuota:admit',
    'NamespaceLifecycle:validate', 'LimitRanger:validate', 'MutatingAdmissionWebhook:validate', 'ResourceQuota:validate',
  ]);
});

test('the first refusal ends a phase; a plugin asking for reinvocation gets a second mutating pass of every plugin', async () => {
  const seen: string[] = [];
  const refusing = recording('LimitRanger', seen, {
    validate: () => {
      seen.push('LimitRanger:validate');
      return refused(forbidden({ group: '', resource: 'configmaps' }, 'x', 'no'));
    },
  });
  let asked = false;
  const asking = recording('MutatingAdmissionWebhook', seen, {
    admit(a) {
      seen.push(`webhook${a.reinvocation?.isReinvoke === true ? ':again' : ''}`);
      if (!asked) {
        asked = true;
        a.reinvocation?.requestReinvocation();
      }
      return admitted;
    },
  });
  const chain = chainOf([recording('NamespaceLifecycle', seen), refusing, asking, recording('ResourceQuota', seen)]);
  assert.deepEqual(await chain.admit(attrs()), admitted);
  assert.deepEqual(seen.splice(0), [
    'NamespaceLifecycle:admit', 'LimitRanger:admit', 'webhook', 'ResourceQuota:admit',
    'NamespaceLifecycle:admit:again', 'LimitRanger:admit:again', 'webhook:again', 'ResourceQuota:admit:again',
  ]);
  const result = await chain.validate(attrs());
  assert.equal(result.allowed, false);
  assert.deepEqual(seen, ['NamespaceLifecycle:validate', 'LimitRanger:validate']);
});

test('every phase and every plugin is timed into kube\'s admission metrics', async () => {
  const metrics = admissionMetrics(createMetricsRegistry());
  const seen: string[] = [];
  const chain = chainOf([recording('NamespaceLifecycle', seen), recording('LimitRanger', seen, {
    validate: () => refused(forbidden({ group: '', resource: 'configmaps' }, 'x', 'no')),
  })], metrics);
  await chain.admit(attrs());
  await chain.validate(attrs());
  assert.equal((await metrics.step.sample({ type: 'admit', operation: 'CREATE', rejected: 'false' }))?.count, 1);
  assert.equal((await metrics.step.sample({ type: 'validate', operation: 'CREATE', rejected: 'true' }))?.count, 1);
  assert.equal((await metrics.controller.sample({ name: 'LimitRanger', type: 'validate', operation: 'CREATE', rejected: 'true' }))?.count, 1);
  assert.equal((await metrics.controller.sample({ name: 'NamespaceLifecycle', type: 'admit', operation: 'CREATE', rejected: 'false' }))?.count, 1);
});

test('unknown plugin names stop the start with kube-apiserver\'s message', () => {
  const unknown = createAdmissionChain({ names, enable: ['NoSuchPlugin'] });
  assert.equal(unknown.ok, false);
  assert.equal(!unknown.ok && unknown.error.message, 'enable-admission-plugins plugin "NoSuchPlugin" is unknown');
  const disabled = createAdmissionChain({ names, disable: ['Nope'] });
  assert.equal(!disabled.ok && disabled.error.message, 'disable-admission-plugins plugin "Nope" is unknown');
});

test('the recorder of a request reaches plugins in the mutating phase, whose attributes the chain copies', async () => {
  const warnings: string[] = [];
  const chain = chainOf([{
    name: 'MutatingAdmissionWebhook', enabledByDefault: true, handles: () => true,
    admit: (a) => {
      a.recorder?.warn('from admit');
      return admitted;
    },
  }]);
  const a = attrs();
  Object.defineProperty(a, 'recorder', { value: { warn: (t: string) => warnings.push(t), annotate: () => {} }, enumerable: false });
  await chain.admit(a);
  assert.deepEqual(warnings, ['from admit']);
});

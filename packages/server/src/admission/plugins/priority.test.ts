import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';
import { specOfBody, testPod } from '../testing/test-objects.js';

pluginConformance('Priority');

const priorityClass = (name: string, value: number, extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'scheduling.svc.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra });

test('Priority: priority and preemption policy from the named class, the global default, or 0; the system classes resolve', async () => {
  const rig = await admissionRig({ plugins: ['Priority'] });
  const pod = (name: string, spec: Record<string, unknown> = {}, query: Record<string, string> = {}) =>
    rig.call({ verb: 'create', resource: 'pods', namespace: 'default', query, body: testPod(name, spec) });
  const plain = await pod('plain');
  assert.equal(plain.code, 201);
  assert.equal(specOfBody(plain.body)['priority'], 0);
  assert.equal(specOfBody(plain.body)['preemptionPolicy'], 'PreemptLowerPriority');
  assert.equal((await rig.call({ verb: 'create', group: 'scheduling.svc.io', resource: 'priorityclasses', body: priorityClass('high', 1000, { preemptionPolicy: 'Never' }) })).code, 201);
  assert.equal((await pod('named', { priorityClassName: 'high' })).code, 201);
  const stored = (await rig.get('pods', 'default', 'named'))?.['spec'] as Record<string, unknown>;
  assert.equal(stored['priority'], 1000);
  assert.equal(stored['preemptionPolicy'], 'Never');
  const system = await pod('sys', { priorityClassName: 'system-node-critical' }, { dryRun: 'All' });
  assert.equal(specOfBody(system.body)['priority'], 2000001000);
  assert.equal(await rig.get('pods', 'default', 'sys'), undefined);
  assert.equal((await rig.call({ verb: 'create', group: 'scheduling.svc.io', resource: 'priorityclasses', body: priorityClass('base', 10, { globalDefault: true }) })).code, 201);
  const defaulted = await pod('defaulted');
  assert.equal(specOfBody(defaulted.body)['priorityClassName'], 'base');
  assert.equal(specOfBody(defaulted.body)['priority'], 10);
});

test('Priority: a missing class, a disagreeing priority and a second global default are refused', async () => {
  const rig = await admissionRig({ plugins: ['Priority'] });
  const forbidden = async (r: Promise<{ code?: number; body?: unknown }>) => {
    const got = await r;
    assert.equal(got.code, 403, JSON.stringify(got.body));
    return (got.body as { message: string }).message;
  };
  const pod = (name: string, spec: Record<string, unknown>) => rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: testPod(name, spec) });
  assert.equal(await forbidden(pod('a', { priorityClassName: 'nosuch' })), 'pods "a" is forbidden: no PriorityClass with name nosuch was found');
  assert.equal(await forbidden(pod('b', { priority: 7 })),
    'pods "b" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name');
  const pc = (name: string) => rig.call({ verb: 'create', group: 'scheduling.svc.io', resource: 'priorityclasses', body: priorityClass(name, 1, { globalDefault: true }) });
  assert.equal((await pc('first')).code, 201);
  assert.equal(await forbidden(pc('second')), 'priorityclasses.scheduling.svc.io "second" is forbidden: PriorityClass first is already marked as default. Only one default can exist');
  rig.close();
});

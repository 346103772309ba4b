import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';
import { specOfBody, testPod } from '../testing/test-objects.js';

pluginConformance('RuntimeClass');

test('RuntimeClass: overhead and scheduling come from the class; unknown classes, other overheads and conflicting selectors are refused', async () => {
  const rig = await admissionRig({ plugins: ['RuntimeClass'] });
  const rc = {
    apiVersion: 'node.svc.io/v1', kind: 'RuntimeClass', metadata: { name: 'kata' }, handler: 'kata',
    overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
    scheduling: { nodeSelector: { sandbox: 'yes' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
  };
  assert.equal((await rig.call({ verb: 'create', group: 'node.svc.io', resource: 'runtimeclasses', body: rc })).code, 201);
  const create = (name: string, spec: Record<string, unknown>, query: Record<string, string> = {}) =>
    rig.call({ verb: 'create', resource: 'pods', namespace: 'default', query, body: testPod(name, spec) });
  assert.equal((await create('p', { runtimeClassName: 'kata', nodeSelector: { zone: 'a' } })).code, 201);
  const spec = (await rig.get('pods', 'default', 'p'))?.['spec'] as Record<string, unknown>;
  assert.deepEqual(spec['overhead'], { cpu: '250m', memory: '120Mi' });
  assert.deepEqual(spec['nodeSelector'], { zone: 'a', sandbox: 'yes' });
  assert.deepEqual(spec['tolerations'], [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }]);
  const dry = await create('q', { runtimeClassName: 'kata', overhead: { cpu: '0.25', memory: '120Mi' } }, { dryRun: 'All' });
  assert.equal(dry.code, 201, 'an equal overhead in another notation is accepted');
  assert.deepEqual(specOfBody(dry.body)['overhead'], { cpu: '250m', memory: '120Mi' });
  const message = async (r: Promise<{ code?: number; body?: unknown }>) => {
    const got = await r;
    assert.equal(got.code, 403);
    return (got.body as { message: string }).message;
  };
  assert.equal(await message(create('x', { runtimeClassName: 'nosuch' })), 'pods "x" is forbidden: pod rejected: RuntimeClass "nosuch" not found');
  assert.equal(await message(create('y', { runtimeClassName: 'kata', overhead: { cpu: '1' } })),
    'pods "y" is forbidden: pod rejected: Pod\'s Overhead doesn\'t match RuntimeClass\'s defined Overhead');
  assert.equal(await message(create('z', { runtimeClassName: 'kata', nodeSelector: { sandbox: 'no' } })),
    'pods "z" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = yes; pod.spec.nodeSelector[sandbox] = no');
  assert.equal(await message(create('w', { overhead: { cpu: '1' } })), 'pods "w" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
  rig.close();
});

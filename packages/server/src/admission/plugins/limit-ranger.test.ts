import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';
import { specOfBody, testClaim, testPod } from '../testing/test-objects.js';

pluginConformance('LimitRanger');

const limitRange = (name: string, limits: unknown[]) => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name }, spec: { limits } });
const message = (r: { body?: unknown }) => (r.body as { message: string }).message;

test('LimitRanger: container defaults fill unset requests and limits and are recorded in an annotation', async () => {
  const rig = await admissionRig({ plugins: ['LimitRanger'] });
  assert.equal((await rig.call({ verb: 'create', resource: 'limitranges', namespace: 'default', body: limitRange('lr', [
    { type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '100m' } },
  ]) })).code, 201);
  const pod = testPod('p', { containers: [{ name: 'web', image: 'x:1', resources: { limits: { memory: '1Gi' } } }], initContainers: [{ name: 'init', image: 'i:1' }] });
  assert.equal((await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', body: pod })).code, 201);
  const stored = (await rig.get('pods', 'default', 'p'))!;
  const spec = stored['spec'] as { containers: { resources: unknown }[]; initContainers: { resources: unknown }[] };
  assert.deepEqual(spec.containers[0]!.resources, { limits: { memory: '1Gi', cpu: '500m' }, requests: { memory: '1Gi', cpu: '100m' } });
  assert.deepEqual(spec.initContainers[0]!.resources, { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '256Mi' } });
  assert.equal(stored.metadata?.annotations?.['svc.io/limit-ranger'],
    'LimitRanger plugin set: cpu request for container web; cpu limit for container web; cpu, memory request for init container init; cpu, memory limit for init container init');
  const dry = await rig.call({ verb: 'create', resource: 'pods', namespace: 'default', query: { dryRun: 'All' }, body: testPod('q') });
  assert.deepEqual((specOfBody(dry.body)['containers'] as { resources: unknown }[])[0]!.resources,
    { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '256Mi' } });
  assert.equal(await rig.get('pods', 'default', 'q'), undefined);
  rig.close();
});

test('LimitRanger: min, max and maxLimitRequestRatio of containers and pods; claims within their limits', async () => {
  const rig = await admissionRig({ plugins: ['LimitRanger'] });
  assert.equal((await rig.call({ verb: 'create', resource: 'limitranges', namespace: 'default', body: limitRange('lr', [
    { type: 'Container', min: { cpu: '100m' }, max: { cpu: '2' }, maxLimitRequestRatio: { cpu: '4' } },
    { type: 'Pod', max: { memory: '1Gi' } },
    { type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } },
  ]) })).code, 201);
  const pod = (name: string, resources: unknown, memory?: string) => rig.call({ verb: 'create', resource: 'pods', namespace: 'default',
    body: testPod(name, { containers: [{ name: 'c', image: 'x:1', resources: { ...(resources as object), ...(memory ? {} : {}) } }] }) });
  const tooBig = await pod('big', { requests: { cpu: '1' }, limits: { cpu: '3', memory: '2Gi' } });
  assert.equal(tooBig.code, 403);
  assert.equal(message(tooBig), 'pods "big" is forbidden: [maximum cpu usage per Container is 2, but limit is 3, ' +
    'maximum memory usage per Pod is 1Gi, but limit is 2Gi]');
  const ratio = await pod('ratio', { requests: { cpu: '200m' }, limits: { cpu: '1', memory: '100Mi' } });
  assert.equal(message(ratio), 'pods "ratio" is forbidden: cpu max limit to request ratio per Container is 4, but provided ratio is 5.000000');
  const small = await pod('small', { requests: { cpu: '50m' }, limits: { cpu: '100m', memory: '100Mi' } });
  assert.equal(message(small), 'pods "small" is forbidden: minimum cpu usage per Container is 100m, but request is 50m');
  assert.equal((await pod('fits', { requests: { cpu: '500m' }, limits: { cpu: '1', memory: '512Mi' } })).code, 201);
  const claim = await rig.call({ verb: 'create', resource: 'persistentvolumeclaims', namespace: 'default', query: { dryRun: 'All' }, body: testClaim('huge', {}, '20Gi') });
  assert.equal(message(claim), 'persistentvolumeclaims "huge" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi');
  assert.equal((await rig.call({ verb: 'create', resource: 'persistentvolumeclaims', namespace: 'default', body: testClaim('ok', {}, '5Gi') })).code, 201);
  rig.close();
});

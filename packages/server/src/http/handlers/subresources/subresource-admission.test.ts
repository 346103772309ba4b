import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forbidden, namesFor, type KubeObject, type Status } from '@svc-apiserver/api';
import { chainOf } from '../../../admission/chain.js';
import type { AdmissionAttributes, AdmissionPlugin } from '../../../admission/plugin.js';
import type { UserInfo } from '../../../request/user-info.js';
import { createRegistry } from '../../../registry/registry.js';
import { loadCatalog } from '../../../schema/load-catalog.js';
import { openMemoryBackend } from '../../../storage/memory/memory-backend.js';
import { fakeContext, type FakeRequest } from '../../../testing/fake-context.js';
import { resourceHandler } from '../resource-handler.js';
import { testRegistry } from '../../../testing/test-registry.js';

interface Seen {
  readonly phase: 'admit' | 'validate';
  readonly attributes: AdmissionAttributes;
}

/**
 * A registry whose only admission plugin records what it is shown; `mutate` may change objects in the mutating
 * phase, `refuse` answers a Status that refuses the request in the validating phase.
 */
function recordingRegistry(mutate: (a: AdmissionAttributes) => void = () => {}, refuse: (a: AdmissionAttributes) => Status | undefined = () => undefined) {
  const seen: Seen[] = [];
  const recorder: AdmissionPlugin = {
    name: 'Recorder',
    enabledByDefault: true,
    handles: () => true,
    async admit(attributes) {
      mutate(attributes);
      seen.push({ phase: 'admit', attributes: structuredClone(attributes) });
      return { allowed: true };
    },
    async validate(attributes) {
      seen.push({ phase: 'validate', attributes: structuredClone(attributes) });
      const refused = refuse(attributes);
      return refused === undefined ? { allowed: true } : { allowed: false, status: refused };
    },
  };
  const names = namesFor('svc');
  const registry = createRegistry({ backend: openMemoryBackend(), catalog: loadCatalog(names), names, admission: chainOf([recorder]) });
  const handle = resourceHandler(registry);
  const user: UserInfo = { username: 'alice', groups: ['system:authenticated'] };
  const call = async (req: FakeRequest) => {
    const { ctx, response } = fakeContext({ user, namespace: 'default', ...req });
    await handle(ctx);
    return response;
  };
  /** The attributes seen since the last call of `take`. */
  const take = (): Seen[] => seen.splice(0);
  return { registry, call, take };
}

const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } };
const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { app: 'web' } }, spec: template.spec };

/** The attributes without user and objects, for comparing. */
function facts(a: AdmissionAttributes) {
  const { user: _u, object: _o, oldObject: _old, ...rest } = a;
  return rest;
}

test('pods/binding and bindings are admitted as CREATE of a Binding, with the pod\'s resource, namespace and name', async () => {
  const { call, take } = recordingRegistry();
  assert.equal((await call({ verb: 'create', resource: 'pods', body: pod })).code, 201);
  take();
  const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'p' }, target: { kind: 'Node', name: 'n1' } };
  const bound = await call({ verb: 'create', resource: 'pods', name: 'p', subresource: 'binding', body: binding });
  assert.equal(bound.code, 201, JSON.stringify(bound.body));
  const seen = take();
  assert.deepEqual(seen.map((s) => s.phase), ['admit', 'validate'], 'the pod write itself is not admitted again');
  for (const s of seen) {
    assert.deepEqual(facts(s.attributes), {
      operation: 'CREATE', group: '', version: 'v1', resource: 'pods', subresource: 'binding', kind: 'Binding',
      namespace: 'default', name: 'p', dryRun: false,
    });
    assert.equal(s.attributes.object?.kind, 'Binding');
    assert.deepEqual(s.attributes.object?.['target'], { kind: 'Node', name: 'n1' });
    assert.equal(s.attributes.oldObject, undefined);
    assert.equal(s.attributes.user.username, 'alice');
  }

  await call({ verb: 'create', resource: 'pods', body: { ...pod, metadata: { name: 'q' } } });
  take();
  const viaBindings = await call({ verb: 'create', resource: 'bindings', query: { dryRun: 'All' }, body: { ...binding, metadata: { name: 'q' } } });
  assert.equal(viaBindings.code, 201, JSON.stringify(viaBindings.body));
  assert.deepEqual(take().map((s) => facts(s.attributes)), [
    { operation: 'CREATE', group: '', version: 'v1', resource: 'bindings', subresource: '', kind: 'Binding', namespace: 'default', name: 'q', dryRun: true },
    { operation: 'CREATE', group: '', version: 'v1', resource: 'bindings', subresource: '', kind: 'Binding', namespace: 'default', name: 'q', dryRun: true },
  ]);
});

test('a refused Binding or Eviction leaves the pod as it was', async () => {
  const refusing = recordingRegistry(() => {}, (a) => (a.subresource !== '' ? forbidden({ group: '', resource: 'pods' }, a.name, 'no') : undefined));
  assert.equal((await refusing.call({ verb: 'create', resource: 'pods', body: pod })).code, 201);
  const bound = await refusing.call({ verb: 'create', resource: 'pods', name: 'p', subresource: 'binding', body: { metadata: { name: 'p' }, target: { name: 'n1' } } });
  assert.equal(bound.code, 403);
  const evicted = await refusing.call({ verb: 'create', resource: 'pods', name: 'p', subresource: 'eviction', body: { metadata: { name: 'p' } } });
  assert.equal(evicted.code, 403);
  const got = await refusing.call({ verb: 'get', resource: 'pods', name: 'p' });
  assert.equal(got.code, 200);
  assert.equal((got.body as { spec: { nodeName?: string } }).spec.nodeName, undefined);
});

test('pods/eviction is admitted as CREATE of a policy/v1 Eviction; the budget\'s status update as the loopback identity', async () => {
  const { call, take } = recordingRegistry();
  const created = await call({ verb: 'create', resource: 'pods', body: pod });
  const ready = await call({ verb: 'update', resource: 'pods', name: 'p', subresource: 'status',
    body: { ...(created.body as object), status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } } });
  assert.equal(ready.code, 200, JSON.stringify(ready.body));
  const pdb = await call({ verb: 'create', group: 'policy', resource: 'poddisruptionbudgets',
    body: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'budget' }, spec: { minAvailable: 0, selector: { matchLabels: { app: 'web' } } } } });
  const status = await call({ verb: 'update', group: 'policy', resource: 'poddisruptionbudgets', name: 'budget', subresource: 'status',
    body: { ...(pdb.body as object), status: { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 1, desiredHealthy: 0, expectedPods: 1 } } });
  assert.equal(status.code, 200, JSON.stringify(status.body));
  take();

  const evicted = await call({ verb: 'create', resource: 'pods', name: 'p', subresource: 'eviction',
    body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p' } } });
  assert.equal(evicted.code, 201, JSON.stringify(evicted.body));
  const seen = take();
  const eviction = {
    operation: 'CREATE', group: '', version: 'v1', resource: 'pods', subresource: 'eviction', kind: 'Eviction',
    kindGroupVersion: { group: 'policy', version: 'v1' }, namespace: 'default', name: 'p', dryRun: false,
  };
  const budget = {
    operation: 'UPDATE', group: 'policy', version: 'v1', resource: 'poddisruptionbudgets', subresource: 'status',
    kind: 'PodDisruptionBudget', namespace: 'default', name: 'budget', dryRun: false,
  };
  // No DELETE of the pod: the eviction was its admission.
  assert.deepEqual(seen.map((s) => [s.phase, facts(s.attributes)]), [['admit', eviction], ['validate', eviction], ['admit', budget], ['validate', budget]]);
  assert.equal(seen[0]!.attributes.object?.kind, 'Eviction');
  assert.equal(seen[0]!.attributes.user.username, 'alice');
  assert.equal(seen[2]!.attributes.user.username, 'system:apiserver');
  assert.equal((seen[2]!.attributes.object?.status as { disruptionsAllowed: number }).disruptionsAllowed, 0);

  const stored = await call({ verb: 'get', group: 'policy', resource: 'poddisruptionbudgets', name: 'budget' });
  const managers = ((stored.body as KubeObject).metadata?.managedFields ?? []) as { manager: string; subresource?: string }[];
  assert.ok(managers.some((m) => m.manager === 'svc-apiserver' && m.subresource === 'status'), JSON.stringify(managers));
  assert.equal((await call({ verb: 'get', resource: 'pods', name: 'p' })).code, 404);
});

test('deployments/scale is admitted as an autoscaling/v1 Scale on the subresource; a mutating plugin\'s replicas reach the deployment', async () => {
  const { call, take } = recordingRegistry((a) => {
    if (a.kind === 'Scale' && a.operation === 'UPDATE') (a.object!['spec'] as { replicas: number }).replicas += 10;
  });
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template } };
  assert.equal((await call({ verb: 'create', group: 'apps', resource: 'deployments', body: deployment })).code, 201);
  take();
  const put = await call({ verb: 'update', group: 'apps', resource: 'deployments', name: 'web', subresource: 'scale', body: { metadata: { name: 'web' }, spec: { replicas: 2 } } });
  assert.equal(put.code, 200, JSON.stringify(put.body));
  assert.equal((put.body as { spec: { replicas: number } }).spec.replicas, 12);
  const scale = {
    operation: 'UPDATE', group: 'apps', version: 'v1', resource: 'deployments', subresource: 'scale', kind: 'Scale',
    kindGroupVersion: { group: 'autoscaling', version: 'v1' }, namespace: 'default', name: 'web', dryRun: false,
  };
  const seen = take();
  assert.deepEqual(seen.map((s) => [s.phase, facts(s.attributes)]), [['admit', scale], ['validate', scale]]);
  for (const s of seen) {
    assert.equal(s.attributes.object?.kind, 'Scale');
    assert.equal(s.attributes.oldObject?.kind, 'Scale');
    assert.deepEqual(s.attributes.oldObject?.['spec'], { replicas: 1 });
  }
  assert.deepEqual(seen[1]!.attributes.object?.['spec'], { replicas: 12 });

  const patched = await call({ verb: 'patch', group: 'apps', resource: 'deployments', name: 'web', subresource: 'scale',
    contentType: 'application/merge-patch+json', body: { spec: { replicas: 3 } } });
  assert.equal(patched.code, 200, JSON.stringify(patched.body));
  assert.deepEqual(take().map((s) => s.attributes.kind), ['Scale', 'Scale']);
  const got = await call({ verb: 'get', group: 'apps', resource: 'deployments', name: 'web' });
  const stored = got.body as KubeObject & { spec: { replicas: number } };
  assert.equal(stored.spec.replicas, 13);
  const managers = (stored.metadata?.managedFields ?? []) as { subresource?: string }[];
  assert.ok(managers.some((m) => m.subresource === 'scale'), JSON.stringify(managers));
  const status = (await call({ verb: 'update', group: 'apps', resource: 'deployments', name: 'web', subresource: 'scale',
    body: { metadata: { name: 'web', resourceVersion: '1' }, spec: { replicas: 2 } } })).body as Status;
  assert.equal(status.code, 409);
});

test('NamespaceLifecycle refuses bindings and evictions in a terminating namespace, as new content', async () => {
  const { call } = await testRegistry(['doomed']);
  const created = await call({ verb: 'create', resource: 'pods', namespace: 'doomed', body: pod });
  assert.equal(created.code, 201, JSON.stringify(created.body));
  const deleting = await call({ verb: 'delete', resource: 'namespaces', name: 'doomed' });
  assert.equal(deleting.code, 200, JSON.stringify(deleting.body));
  for (const [subresource, body] of [
    ['binding', { metadata: { name: 'p' }, target: { name: 'n1' } }],
    ['eviction', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'p' } }],
  ] as const) {
    const refused = await call({ verb: 'create', resource: 'pods', namespace: 'doomed', name: 'p', subresource, body });
    assert.equal(refused.code, 403, JSON.stringify(refused.body));
    assert.match((refused.body as Status).message ?? '', /unable to create new content in namespace doomed because it is being terminated/);
  }
  assert.equal((await call({ verb: 'get', resource: 'pods', namespace: 'doomed', name: 'p' })).code, 200);
});

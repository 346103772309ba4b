import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status } from '@svc-apiserver/api';
import type { AuthorizationAttributes, Authorizer } from '../../request/authorizer.js';
import { fakeContext, type FakeRequest, type FakeResponse } from '../../testing/fake-context.js';
import { resourceHandler } from './resource-handler.js';
import { testRegistry } from '../../testing/test-registry.js';

/** Allows everything but `create`, and records what it was asked. */
function denyCreate(asked: AuthorizationAttributes[]): Authorizer {
  return {
    name: 'deny-create',
    async authorize(attributes) {
      asked.push(attributes);
      return attributes.info.verb === 'create' ? { decision: 'no-opinion', reason: 'creating is not for you' } : { decision: 'allow' };
    },
  };
}

async function setup() {
  const t = await testRegistry();
  const asked: AuthorizationAttributes[] = [];
  const handle = resourceHandler(t.registry, new Map(), undefined, denyCreate(asked));
  const call = async (req: FakeRequest): Promise<FakeResponse> => {
    const { ctx, response } = fakeContext(req);
    await handle(ctx);
    return response;
  };
  return { t, asked, call };
}

const apply = (name: string, data: Record<string, string>): FakeRequest => ({
  verb: 'patch', resource: 'configmaps', namespace: 'default', name, contentType: 'application/apply-patch+yaml',
  query: { fieldManager: 'tester' }, body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data },
});

test('an apply that would create needs create: 403 in kube wording, nothing stored', async () => {
  const { t, asked, call } = await setup();
  const denied = await call(apply('new-one', { a: '1' }));
  assert.equal(denied.code, 403, JSON.stringify(denied.body));
  const status = denied.body as Status;
  assert.equal(status.reason, 'Forbidden');
  assert.equal(status.message, 'configmaps "new-one" is forbidden: creating is not for you');
  assert.deepEqual(status.details, { name: 'new-one', kind: 'configmaps' });
  // The question was create on the same resource, namespace and name, for the request's user.
  assert.equal(asked.length, 1);
  assert.deepEqual(
    { verb: asked[0]!.info.verb, resource: asked[0]!.info.resource, namespace: asked[0]!.info.namespace, name: asked[0]!.info.name },
    { verb: 'create', resource: 'configmaps', namespace: 'default', name: 'new-one' },
  );
  const got = await t.call({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'new-one' });
  assert.equal(got.code, 404);
  // Dry run asks too.
  const dry = await call({ ...apply('new-one', { a: '1' }), query: { fieldManager: 'tester', dryRun: 'All' } });
  assert.equal(dry.code, 403);
});

test('an apply to an existing object needs only patch; the default authorizer lets an apply create', async () => {
  const { t, asked, call } = await setup();
  assert.equal((await t.call(apply('there', { a: '1' }))).code, 201);
  const updated = await call(apply('there', { a: '2' }));
  assert.equal(updated.code, 200, JSON.stringify(updated.body));
  assert.deepEqual((updated.body as { data: unknown }).data, { a: '2' });
  assert.equal(asked.length, 0, 'no create question for an update');
  // Other patch types never create: a missing object stays 404, and create is not asked.
  const merge = await call({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'absent', contentType: 'application/merge-patch+json', body: { data: { a: '1' } } });
  assert.equal(merge.code, 404);
  assert.equal(asked.length, 0);
});

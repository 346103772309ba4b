import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { namesFor, type Status } from '@svc-apiserver/api';
import { createAdmissionChain } from '../../admission/chain.js';
import { fakeContext, type FakeRequest, type FakeResponse } from '../../testing/fake-context.js';
import { resourceHandler } from '../../http/handlers/resource-handler.js';
import { virtualKey } from '../../registry/virtual-resource.js';
import { createRegistry } from '../../registry/registry.js';
import { loadCatalog } from '../../schema/load-catalog.js';
import { openMemoryBackend } from '../../storage/memory/memory-backend.js';
import type { AuthorizationAttributes, AuthorizationDecision, Authorizer, RulesResult } from '../../request/authorizer.js';
import type { UserInfo } from '../../request/user-info.js';
import { localSubjectAccessReview } from './local-subject-access-review.js';
import { selfSubjectAccessReview } from './self-subject-access-review.js';
import { selfSubjectRulesReview } from './self-subject-rules-review.js';
import { subjectAccessReview } from './subject-access-review.js';

const names = namesFor('svc');
const group = 'authorization.svc.io';
const apiVersion = `${group}/v1`;
const caller: UserInfo = { username: 'carol', uid: 'uid-carol', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a'] } };

/** An authorizer that records what it was asked and answers what the test says. */
function fakeAuthorizer(answer: (a: AuthorizationAttributes) => AuthorizationDecision, rules?: (user: UserInfo, namespace: string) => RulesResult) {
  const asked: AuthorizationAttributes[] = [];
  const authorizer: Authorizer = {
    name: 'fake',
    async authorize(a) {
      asked.push(a);
      return answer(a);
    },
    ...(rules !== undefined ? { rulesFor: async (user: UserInfo, namespace: string) => rules(user, namespace) } : {}),
  };
  return { authorizer, asked };
}

/** The resource handler with the four reviews over `authorizer`; requests come from `caller`. */
function reviews(authorizer: Authorizer) {
  const admission = createAdmissionChain({ names });
  if (!admission.ok) throw new Error(admission.error.message);
  const registry = createRegistry({ backend: openMemoryBackend(), catalog: loadCatalog(names), names, admission: admission.value });
  const handle = resourceHandler(registry, new Map([
    [virtualKey('authorization', 'v1', 'subjectaccessreviews'), subjectAccessReview(authorizer)],
    [virtualKey('authorization', 'v1', 'localsubjectaccessreviews'), localSubjectAccessReview(authorizer)],
    [virtualKey('authorization', 'v1', 'selfsubjectaccessreviews'), selfSubjectAccessReview(authorizer)],
    [virtualKey('authorization', 'v1', 'selfsubjectrulesreviews'), selfSubjectRulesReview(authorizer)],
  ]));
  return async (req: Omit<FakeRequest, 'group' | 'verb'> & { verb?: string }): Promise<FakeResponse> => {
    const { ctx, response } = fakeContext({ verb: 'create', group, user: caller, ...req });
    await handle(ctx);
    return response;
  };
}

const podGet = { verb: 'get', group: '', version: 'v1', resource: 'pods', namespace: 'team', name: 'web' };
/** podGet as an answer repeats it: the empty group left out. */
const { group: _core, ...podGetEchoed } = podGet;
const sar = (spec: Record<string, unknown>, metadata: Record<string, unknown> = { creationTimestamp: null }) => ({ apiVersion, kind: 'SubjectAccessReview', metadata, spec });
const body = (r: FakeResponse) => r.body as Record<string, unknown>;
const message = (r: FakeResponse) => (r.body as Status).message ?? '';

describe('SubjectAccessReview', () => {
  test('asks the authorizer about the spec user and attributes, answers 201 with the object and its status', async () => {
    const { authorizer, asked } = fakeAuthorizer(() => ({ decision: 'allow', reason: 'allowed by test' }));
    const call = reviews(authorizer);
    const r = await call({
      resource: 'subjectaccessreviews',
      body: sar({ user: 'dave', groups: ['ops'], uid: 'u-1', extra: { scopes: ['x', 'y'] }, resourceAttributes: { ...podGet, subresource: 'log' } }),
    });
    assert.equal(r.code, 201, JSON.stringify(r.body));
    assert.deepEqual(r.body, {
      apiVersion, kind: 'SubjectAccessReview', metadata: { creationTimestamp: null },
      spec: { resourceAttributes: { ...podGetEchoed, subresource: 'log' }, user: 'dave', groups: ['ops'], extra: { scopes: ['x', 'y'] }, uid: 'u-1' },
      status: { allowed: true, reason: 'allowed by test' },
    });
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0]!.user, { username: 'dave', groups: ['ops'], uid: 'u-1', extra: { scopes: ['x', 'y'] } });
    const info = asked[0]!.info;
    assert.deepEqual(
      { r: info.isResourceRequest, verb: info.verb, g: info.apiGroup, v: info.apiVersion, res: info.resource, sub: info.subresource, ns: info.namespace, name: info.name },
      { r: true, verb: 'get', g: '', v: 'v1', res: 'pods', sub: 'log', ns: 'team', name: 'web' },
    );
  });

  test('an empty version means every version; non-resource attributes become a path request', async () => {
    const { authorizer, asked } = fakeAuthorizer(() => ({ decision: 'no-opinion' }));
    const call = reviews(authorizer);
    assert.equal((await call({ resource: 'subjectaccessreviews', body: sar({ groups: ['g'], resourceAttributes: { verb: 'list', group: 'apps', resource: 'deployments' } }) })).code, 201);
    assert.equal(asked[0]!.info.apiVersion, '*');
    assert.equal(asked[0]!.info.apiGroup, 'apps');
    assert.equal(asked[0]!.user.username, '');
    assert.deepEqual(asked[0]!.user.groups, ['g']);
    const echoed = await call({ resource: 'subjectaccessreviews', body: sar({ user: 'u', groups: [], resourceAttributes: { verb: 'get', resource: 'pods', subresource: '', name: '' } }) });
    assert.deepEqual(body(echoed)['spec'], { user: 'u', resourceAttributes: { verb: 'get', resource: 'pods' } });
    const r = await call({ resource: 'subjectaccessreviews', body: sar({ user: 'u', nonResourceAttributes: { path: '/healthz/etcd', verb: 'get' } }) });
    assert.equal(r.code, 201);
    assert.equal(asked[2]!.info.isResourceRequest, false);
    assert.equal(asked[2]!.info.path, '/healthz/etcd');
    assert.equal(asked[2]!.info.verb, 'get');
  });

  const decisions: { name: string; decision: AuthorizationDecision; status: Record<string, unknown> }[] = [
    { name: 'allow', decision: { decision: 'allow', reason: 'yes' }, status: { allowed: true, reason: 'yes' } },
    { name: 'deny', decision: { decision: 'deny', reason: 'no' }, status: { allowed: false, denied: true, reason: 'no' } },
    { name: 'no opinion', decision: { decision: 'no-opinion' }, status: { allowed: false } },
    {
      name: 'evaluation error beside a decision', decision: { decision: 'allow', reason: 'by binding b', evaluationError: 'clusterrole.rbac.authorization.svc.io "gone" not found' },
      status: { allowed: true, reason: 'by binding b', evaluationError: 'clusterrole.rbac.authorization.svc.io "gone" not found' },
    },
    { name: 'evaluation error alone', decision: { decision: 'no-opinion', evaluationError: 'webhook failed' }, status: { allowed: false, evaluationError: 'webhook failed' } },
  ];
  for (const d of decisions) {
    test(`status of ${d.name} (never an error response)`, async () => {
      const call = reviews(fakeAuthorizer(() => d.decision).authorizer);
      const r = await call({ resource: 'subjectaccessreviews', body: sar({ user: 'u', resourceAttributes: podGet }) });
      assert.equal(r.code, 201);
      assert.deepEqual(body(r)['status'], d.status);
    });
  }

  test('422 for both or neither attribute sets and for no subject, in kube wording', async () => {
    const { authorizer, asked } = fakeAuthorizer(() => ({ decision: 'allow' }));
    const call = reviews(authorizer);
    const both = await call({ resource: 'subjectaccessreviews', body: sar({ user: 'u', resourceAttributes: podGet, nonResourceAttributes: { path: '/x', verb: 'get' } }) });
    assert.equal(both.code, 422);
    assert.equal(message(both), `SubjectAccessReview.${group} "" is invalid: spec.nonResourceAttributes: Invalid value: {"path":"/x","verb":"get"}: cannot be specified in combination with resourceAttributes`);
    const neither = await call({ resource: 'subjectaccessreviews', body: sar({}) });
    assert.equal(neither.code, 422);
    assert.equal(message(neither), `SubjectAccessReview.${group} "" is invalid: [spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]`);
    const named = await call({ resource: 'subjectaccessreviews', body: sar({ user: 'u', resourceAttributes: podGet }, { name: 'mine' }) });
    assert.equal(named.code, 422);
    assert.match(message(named), /metadata: Invalid value: \{"name":"mine"\}: must be empty$/);
    assert.equal(asked.length, 0);
  });
});

describe('LocalSubjectAccessReview', () => {
  const lsar = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) => ({ apiVersion, kind: 'LocalSubjectAccessReview', metadata, spec });

  test('an empty attributes namespace is the path namespace; the answer carries it', async () => {
    const { authorizer, asked } = fakeAuthorizer(() => ({ decision: 'deny', reason: 'no' }));
    const call = reviews(authorizer);
    const r = await call({ resource: 'localsubjectaccessreviews', namespace: 'team', body: lsar({ user: 'u', resourceAttributes: { verb: 'list', resource: 'pods' } }) });
    assert.equal(r.code, 201, JSON.stringify(r.body));
    assert.equal(asked[0]!.info.namespace, 'team');
    assert.deepEqual(body(r)['metadata'], { namespace: 'team', creationTimestamp: null });
    assert.deepEqual(body(r)['spec'], { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'team' }, user: 'u' });
    assert.deepEqual(body(r)['status'], { allowed: false, denied: true, reason: 'no' });
    const same = await call({ resource: 'localsubjectaccessreviews', namespace: 'team', body: lsar({ user: 'u', resourceAttributes: { ...podGet } }, { namespace: 'team' }) });
    assert.equal(same.code, 201);
  });

  test('another namespace in the attributes is 422, in the metadata 400, non-resource attributes 422', async () => {
    const { authorizer, asked } = fakeAuthorizer(() => ({ decision: 'allow' }));
    const call = reviews(authorizer);
    const other = await call({ resource: 'localsubjectaccessreviews', namespace: 'team', body: lsar({ user: 'u', resourceAttributes: { ...podGet, namespace: 'prod' } }) });
    assert.equal(other.code, 422);
    assert.equal(message(other), `LocalSubjectAccessReview.${group} "" is invalid: spec.resourceAttributes.namespace: Invalid value: "prod": must match metadata.namespace`);
    const meta = await call({ resource: 'localsubjectaccessreviews', namespace: 'team', body: lsar({ user: 'u', resourceAttributes: podGet }, { namespace: 'prod' }) });
    assert.equal(meta.code, 400);
    assert.equal(message(meta), 'the namespace of the provided object does not match the namespace sent on the request');
    const nonResource = await call({ resource: 'localsubjectaccessreviews', namespace: 'team', body: lsar({ user: 'u', nonResourceAttributes: { path: '/x', verb: 'get' } }) });
    assert.equal(nonResource.code, 422);
    assert.match(message(nonResource), /spec\.nonResourceAttributes: Invalid value: .*: disallowed on this kind of request/);
    const named = await call({ resource: 'localsubjectaccessreviews', namespace: 'team', body: lsar({ user: 'u', resourceAttributes: podGet }, { name: 'x', namespace: 'team' }) });
    assert.equal(named.code, 422);
    assert.match(message(named), /must be empty except for namespace/);
    assert.equal(asked.length, 0);
  });
});

describe('SelfSubjectAccessReview', () => {
  const ssar = (spec: Record<string, unknown>) => ({ apiVersion, kind: 'SelfSubjectAccessReview', metadata: { creationTimestamp: null }, spec });

  test("asks about the caller's own identity; user and groups in the spec are unknown fields and never used", async () => {
    const { authorizer, asked } = fakeAuthorizer((a) => (a.user.username === 'carol' ? { decision: 'allow' } : { decision: 'deny' }));
    const call = reviews(authorizer);
    const r = await call({ resource: 'selfsubjectaccessreviews', body: ssar({ user: 'root', groups: ['system:masters'], resourceAttributes: podGet }) });
    assert.equal(r.code, 201, JSON.stringify(r.body));
    assert.deepEqual(asked[0]!.user, caller);
    assert.deepEqual(body(r)['spec'], { resourceAttributes: podGetEchoed });
    assert.deepEqual(body(r)['status'], { allowed: true });
    assert.deepEqual([...r.warnings].sort(), ['unknown field "spec.groups"', 'unknown field "spec.user"']);
    const strict = await call({ resource: 'selfsubjectaccessreviews', query: { fieldValidation: 'Strict' }, body: ssar({ user: 'root', resourceAttributes: podGet }) });
    assert.equal(strict.code, 400);
    assert.match(message(strict), /unknown field "spec.user"/);
  });

  test('exactly one attribute set, no subject needed', async () => {
    const call = reviews(fakeAuthorizer(() => ({ decision: 'allow' })).authorizer);
    const neither = await call({ resource: 'selfsubjectaccessreviews', body: ssar({}) });
    assert.equal(neither.code, 422);
    assert.equal(message(neither), `SelfSubjectAccessReview.${group} "" is invalid: spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified`);
    const both = await call({ resource: 'selfsubjectaccessreviews', body: ssar({ resourceAttributes: podGet, nonResourceAttributes: { path: '/', verb: 'get' } }) });
    assert.equal(both.code, 422);
    const nonResource = await call({ resource: 'selfsubjectaccessreviews', body: ssar({ nonResourceAttributes: { path: '/version', verb: 'get' } }) });
    assert.equal(nonResource.code, 201);
  });
});

describe('SelfSubjectRulesReview', () => {
  const ssrr = (namespace?: string) => ({ apiVersion, kind: 'SelfSubjectRulesReview', spec: namespace === undefined ? {} : { namespace } });

  test("lists the caller's rules in the namespace, with empty fields left out", async () => {
    const seen: [string, string][] = [];
    const { authorizer } = fakeAuthorizer(() => ({ decision: 'allow' }), (user, namespace) => {
      seen.push([user.username, namespace]);
      return {
        resourceRules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: [] }, { verbs: ['create'], apiGroups: ['authorization.svc.io'], resources: ['selfsubjectaccessreviews'], resourceNames: [] }],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
        incomplete: false,
      };
    });
    const r = await reviews(authorizer)({ resource: 'selfsubjectrulesreviews', body: ssrr('team') });
    assert.equal(r.code, 201, JSON.stringify(r.body));
    assert.deepEqual(seen, [['carol', 'team']]);
    assert.deepEqual(r.body, {
      apiVersion, kind: 'SelfSubjectRulesReview', metadata: { creationTimestamp: null }, spec: {},
      status: {
        resourceRules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }, { verbs: ['create'], apiGroups: ['authorization.svc.io'], resources: ['selfsubjectaccessreviews'] }],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
        incomplete: false,
      },
    });
  });

  test('incomplete with an evaluation error passed through', async () => {
    const { authorizer } = fakeAuthorizer(() => ({ decision: 'allow' }), () => ({
      resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }], nonResourceRules: [], incomplete: true, evaluationError: 'role "x" not found',
    }));
    const r = await reviews(authorizer)({ resource: 'selfsubjectrulesreviews', body: ssrr('team') });
    assert.deepEqual(body(r)['status'], {
      resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }], nonResourceRules: [], incomplete: true, evaluationError: 'role "x" not found',
    });
  });

  test('an authorizer that cannot list rules makes the answer incomplete', async () => {
    const r = await reviews(fakeAuthorizer(() => ({ decision: 'allow' })).authorizer)({ resource: 'selfsubjectrulesreviews', body: ssrr('team') });
    assert.equal(r.code, 201);
    assert.deepEqual(body(r)['status'], { resourceRules: [], nonResourceRules: [], incomplete: true });
  });

  test('a namespace is required', async () => {
    const r = await reviews(fakeAuthorizer(() => ({ decision: 'allow' }), () => ({ resourceRules: [], nonResourceRules: [], incomplete: false })).authorizer)(
      { resource: 'selfsubjectrulesreviews', body: ssrr() });
    assert.equal(r.code, 400);
    assert.equal(message(r), 'no namespace on request');
  });
});

describe('create only', () => {
  for (const [resource, namespace] of [['subjectaccessreviews', ''], ['localsubjectaccessreviews', 'team'], ['selfsubjectaccessreviews', ''], ['selfsubjectrulesreviews', '']] as const) {
    test(`${resource}: other verbs are 405`, async () => {
      const call = reviews(fakeAuthorizer(() => ({ decision: 'allow' })).authorizer);
      for (const verb of ['get', 'list', 'update', 'patch', 'delete', 'deletecollection', 'watch']) {
        const named = verb === 'get' || verb === 'update' || verb === 'patch' || verb === 'delete';
        const r = await call({ verb, resource, namespace, ...(named ? { name: 'x' } : {}), ...(verb === 'update' || verb === 'patch' ? { body: {} } : {}) });
        assert.equal(r.code, 405, `${verb} ${resource}: ${JSON.stringify(r.body)}`);
      }
    });
  }

  test('dryRun, fieldManager and fieldValidation are accepted', async () => {
    const call = reviews(fakeAuthorizer(() => ({ decision: 'allow' })).authorizer);
    const r = await call({
      resource: 'selfsubjectaccessreviews', query: { dryRun: 'All', fieldManager: 'me', fieldValidation: 'Strict' },
      body: { apiVersion, kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: podGet } },
    });
    assert.equal(r.code, 201, JSON.stringify(r.body));
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestInfo } from '../../request/request-info.js';
import type { UserInfo } from '../../request/user-info.js';
import { aggregateErrors } from './aggregate-errors.js';
import { alwaysAllow } from './always-allow.js';
import { alwaysDeny } from './always-deny.js';
import type { AuthorizationDecision, Authorizer, RulesResult } from '../../request/authorizer.js';
import { authorizerUnion } from './authorizer-union.js';
import { privilegedGroups } from './privileged-groups.js';

const info: RequestInfo = {
  isResourceRequest: true, path: '/api/v1/namespaces/ns/pods', verb: 'list', apiPrefix: 'api', apiGroup: '', apiVersion: 'v1',
  namespace: 'ns', resource: 'pods', subresource: '', name: '', parts: ['namespaces', 'ns', 'pods'],
};
const dev: UserInfo = { username: 'dev', groups: ['system:authenticated'] };
const admin: UserInfo = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };

function fixed(name: string, decision: AuthorizationDecision, rules?: RulesResult): Authorizer & { calls: number } {
  const a = {
    name,
    calls: 0,
    async authorize() {
      a.calls++;
      return decision;
    },
    ...(rules !== undefined ? { rulesFor: async () => rules } : {}),
  };
  return a;
}

test('union: the first allow or deny wins and later members are not asked', async () => {
  const later = fixed('later', { decision: 'allow' });
  const deny = authorizerUnion([fixed('a', { decision: 'no-opinion' }), fixed('b', { decision: 'deny', reason: 'no', evaluationError: 'e' }), later]);
  assert.deepEqual(await deny.authorize({ user: dev, info }), { decision: 'deny', reason: 'no', evaluationError: 'e' });
  assert.equal(later.calls, 0);
  const allow = authorizerUnion([fixed('a', { decision: 'no-opinion', evaluationError: 'ignored' }), fixed('b', { decision: 'allow' })]);
  assert.deepEqual(await allow.authorize({ user: dev, info }), { decision: 'allow' });
});

test('union: no opinion from all joins the reasons by lines and the evaluation errors as kube aggregates them', async () => {
  const u = authorizerUnion([
    fixed('a', { decision: 'no-opinion', reason: 'first', evaluationError: 'x broke' }),
    fixed('b', { decision: 'no-opinion' }),
    fixed('c', { decision: 'no-opinion', reason: 'second', evaluationError: 'y broke' }),
  ]);
  assert.deepEqual(await u.authorize({ user: dev, info }), { decision: 'no-opinion', reason: 'first\nsecond', evaluationError: '[x broke, y broke]' });
  assert.deepEqual(await authorizerUnion([]).authorize({ user: dev, info }), { decision: 'no-opinion' });
  assert.equal(aggregateErrors(['a', 'a']), 'a');
  assert.equal(aggregateErrors([]), undefined);
});

test('union rules: concatenated; incomplete when a member cannot list or is incomplete; errors joined', async () => {
  const r1: RulesResult = { resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: [] }], nonResourceRules: [], incomplete: false };
  const r2: RulesResult = { resourceRules: [], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }], incomplete: false, evaluationError: 'role missing' };
  const complete = await authorizerUnion([fixed('a', { decision: 'no-opinion' }, r1), fixed('b', { decision: 'no-opinion' }, r2)]).rulesFor!(dev, 'ns');
  assert.deepEqual(complete, { resourceRules: r1.resourceRules, nonResourceRules: r2.nonResourceRules, incomplete: false, evaluationError: 'role missing' });
  const lacking = await authorizerUnion([fixed('a', { decision: 'no-opinion' }, r1), fixed('Webhook', { decision: 'no-opinion' })]).rulesFor!(dev, 'ns');
  assert.equal(lacking.incomplete, true);
  assert.equal(lacking.evaluationError, 'webhook authorizer does not support user rule resolution');
  assert.deepEqual(lacking.resourceRules, r1.resourceRules);
  const reportsIncomplete = await authorizerUnion([fixed('a', { decision: 'no-opinion' }, { ...r1, incomplete: true })]).rulesFor!(dev, 'ns');
  assert.equal(reportsIncomplete.incomplete, true);
});

test('AlwaysAllow allows and lists * on everything; AlwaysDeny has no opinion and lists nothing', async () => {
  assert.deepEqual(await alwaysAllow().authorize({ user: dev, info }), { decision: 'allow' });
  assert.deepEqual(await alwaysAllow().rulesFor!(dev, 'ns'), {
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }],
    nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
    incomplete: false,
  });
  // kube-apiserver's AlwaysDeny is a no opinion: alone it forbids, a later mode may still allow.
  assert.deepEqual(await alwaysDeny().authorize({ user: admin, info }), { decision: 'no-opinion', reason: 'Everything is forbidden.' });
  assert.deepEqual(await alwaysDeny().rulesFor!(dev, 'ns'), { resourceRules: [], nonResourceRules: [], incomplete: false });
});

test('privileged groups: system:masters is allowed, others get no opinion; it adds no rules', async () => {
  const p = privilegedGroups();
  assert.deepEqual(await p.authorize({ user: admin, info }), { decision: 'allow' });
  assert.deepEqual(await p.authorize({ user: dev, info }), { decision: 'no-opinion' });
  assert.deepEqual(await privilegedGroups(['ops']).authorize({ user: { username: 'o', groups: ['ops'] }, info }), { decision: 'allow' });
  assert.deepEqual(await p.rulesFor!(admin, 'ns'), { resourceRules: [], nonResourceRules: [], incomplete: false });
});

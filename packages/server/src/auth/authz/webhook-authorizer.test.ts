import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import { testTls, type TestTls } from '../../testing/auth-fixtures.js';
import { parseRequestInfo } from '../../http/parse-request-info.js';
import type { UserInfo } from '../../request/user-info.js';
import { loadWebhookConnection, type WebhookConnection } from '../../outbound/webhook-connection.js';
import type { AuthorizationAttributes } from '../../request/authorizer.js';
import { authorizerSuite, nonResourceRequestInfo, resourceRequestInfo, type SuiteGrant } from './authorizer-suite.js';
import { ruleAllows } from './rbac/rule-matching.js';
import { startAuthorizationWebhook, type ReceivedReview, type ReviewReply, type TestAuthorizationWebhook } from '../../testing/authorization-webhook-fixture.js';
import { webhookAuthorizer, type WebhookAuthorizerOptions } from './webhook-authorizer.js';

const names = namesFor('svc');
let tls: TestTls;
before(async () => {
  tls = await testTls('authz-webhook-ca');
});

function attrs(method: string, path: string, user: UserInfo): AuthorizationAttributes {
  const info = parseRequestInfo(method, path, new URLSearchParams());
  assert.ok(info.ok);
  return { user, info: info.ok ? info.value : (undefined as never) };
}

const alice: UserInfo = { username: 'alice', uid: 'a-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['s2', 's1'] } };
const bob: UserInfo = { username: 'bob', groups: ['system:authenticated'] };

/** Reads the resource or non-resource attributes of a review, whatever its version. */
function attributesOf(r: ReceivedReview): Record<string, string> {
  return (r.spec['resourceAttributes'] ?? r.spec['nonResourceAttributes'] ?? {}) as Record<string, string>;
}

/** Alice may read pods, may not touch secrets; /healthz is allowed to anyone; the rest has no opinion. */
const policy = (r: ReceivedReview): ReviewReply => {
  const a = attributesOf(r);
  if (a['path'] === '/healthz') return { status: { allowed: true } };
  if (r.spec['user'] !== 'alice') return { status: { allowed: false, reason: 'not alice' } };
  if (a['resource'] === 'secrets') return { status: { allowed: false, denied: true, reason: 'no secrets for alice', evaluationError: 'partial policy' } };
  if (a['resource'] === 'pods' && a['verb'] === 'get') return { status: { allowed: true, reason: 'alice reads pods' } };
  return { status: { allowed: false } };
};

async function setup(answer: (r: ReceivedReview) => ReviewReply, over: Partial<WebhookAuthorizerOptions> = {}, token?: string): Promise<{ hook: TestAuthorizationWebhook; connection: WebhookConnection }> {
  const hook = await startAuthorizationWebhook(tls, answer, token);
  const conn = loadWebhookConnection(hook.configFile);
  assert.ok(conn.ok, JSON.stringify(conn));
  return { hook, connection: conn.ok ? conn.value : (undefined as never) };
}

const open: TestAuthorizationWebhook[] = [];
after(async () => {
  for (const h of open) await h.close();
});

test('webhook authorizer: allow, deny and no opinion with reasons and evaluation errors passed through', async () => {
  const { hook, connection } = await setup(policy);
  open.push(hook);
  const authz = webhookAuthorizer({ names, connection, version: 'v1', authorizedTtlMs: 60_000, unauthorizedTtlMs: 60_000 });
  assert.deepEqual(await authz.authorize(attrs('GET', '/api/v1/namespaces/ns/pods/p', alice)), { decision: 'allow', reason: 'alice reads pods' });
  assert.deepEqual(await authz.authorize(attrs('GET', '/api/v1/namespaces/ns/secrets/s', alice)),
    { decision: 'deny', reason: 'no secrets for alice', evaluationError: 'partial policy' });
  assert.deepEqual(await authz.authorize(attrs('DELETE', '/api/v1/namespaces/ns/pods/p', alice)), { decision: 'no-opinion' });
  assert.deepEqual(await authz.authorize(attrs('GET', '/api/v1/namespaces/ns/pods/p', bob)), { decision: 'no-opinion', reason: 'not alice' });
  assert.deepEqual(await authz.authorize(attrs('GET', '/healthz', bob)), { decision: 'allow' });
  // The remote service cannot list rules (a union then reports rules reviews incomplete).
  assert.equal(authz.rulesFor, undefined);
});

test('webhook authorizer: an answer both allowing and denying is a deny with an evaluation error', async () => {
  const { hook, connection } = await setup(() => ({ status: { allowed: true, denied: true, reason: 'confused' } }));
  open.push(hook);
  const authz = webhookAuthorizer({ names, connection, version: 'v1', authorizedTtlMs: 0, unauthorizedTtlMs: 0 });
  const d = await authz.authorize(attrs('GET', '/api/v1/pods', alice));
  assert.equal(d.decision, 'deny');
  assert.equal(d.reason, 'confused');
  assert.match(d.evaluationError ?? '', /both allow and deny/);
});

test('webhook authorizer: v1 and v1beta1 review shapes, resource and non-resource requests, credentials', async () => {
  const { hook, connection } = await setup(policy, {}, 'hook-secret');
  open.push(hook);
  const v1 = webhookAuthorizer({ names, connection, version: 'v1', authorizedTtlMs: 0, unauthorizedTtlMs: 0 });
  const v1beta1 = webhookAuthorizer({ names, connection, version: 'v1beta1', authorizedTtlMs: 0, unauthorizedTtlMs: 0 });
  await v1.authorize(attrs('GET', '/apis/apps/v1/namespaces/ns/deployments/web/scale', alice));
  await v1beta1.authorize(attrs('GET', '/apis/apps/v1/namespaces/ns/deployments/web/scale', alice));
  await v1.authorize(attrs('POST', '/logs/x', bob));
  await v1.authorize(attrs('GET', '/api/v1/nodes', bob));
  assert.equal(hook.reviews.length, 4);
  const [a, b, c, d] = hook.reviews;
  assert.equal(a!.apiVersion, 'authorization.svc.io/v1');
  assert.equal(a!.kind, 'SubjectAccessReview');
  assert.equal(a!.authorization, 'Bearer hook-secret');
  assert.deepEqual(a!.spec, {
    user: 'alice',
    groups: ['devs', 'system:authenticated'],
    extra: { scopes: ['s2', 's1'] },
    uid: 'a-1',
    resourceAttributes: { namespace: 'ns', verb: 'get', group: 'apps', version: 'v1', resource: 'deployments', subresource: 'scale', name: 'web' },
  });
  assert.equal(b!.apiVersion, 'authorization.svc.io/v1beta1');
  // v1beta1 spells the groups field `group`.
  assert.deepEqual(b!.spec['group'], ['devs', 'system:authenticated']);
  assert.equal(b!.spec['groups'], undefined);
  assert.deepEqual(b!.spec['resourceAttributes'], a!.spec['resourceAttributes']);
  assert.deepEqual(c!.spec, { user: 'bob', groups: ['system:authenticated'], nonResourceAttributes: { path: '/logs/x', verb: 'post' } });
  // Empty attributes are left out (a cluster-wide list has no namespace, no name).
  assert.deepEqual(d!.spec['resourceAttributes'], { verb: 'list', version: 'v1', resource: 'nodes' });
});

test('webhook authorizer: allowed and unauthorized answers are cached for their own TTLs, keyed by the whole spec', async () => {
  const { hook, connection } = await setup(policy);
  open.push(hook);
  const authz = webhookAuthorizer({ names, connection, version: 'v1beta1', authorizedTtlMs: 1000, unauthorizedTtlMs: 100 });
  const allowed = attrs('GET', '/api/v1/namespaces/ns/pods/p', alice);
  const denied = attrs('GET', '/api/v1/namespaces/ns/pods/p', bob);
  await authz.authorize(allowed);
  await authz.authorize(allowed);
  await authz.authorize(denied);
  await authz.authorize(denied);
  assert.equal(hook.reviews.length, 2, 'both kinds of answers are cached');
  // Another name is another spec: not a cache hit.
  await authz.authorize(attrs('GET', '/api/v1/namespaces/ns/pods/q', alice));
  assert.equal(hook.reviews.length, 3);
  assert.equal(authz.cacheSize(), 3);
  await new Promise((r) => setTimeout(r, 200));
  // The unauthorized TTL has passed, the authorized one has not.
  assert.deepEqual(await authz.authorize(denied), { decision: 'no-opinion', reason: 'not alice' });
  assert.equal(hook.reviews.length, 4);
  assert.deepEqual(await authz.authorize(allowed), { decision: 'allow', reason: 'alice reads pods' });
  assert.equal(hook.reviews.length, 4);
  await new Promise((r) => setTimeout(r, 850));
  await authz.authorize(allowed);
  assert.equal(hook.reviews.length, 5, 'the authorized TTL has passed');
});

test('webhook authorizer: a zero TTL disables that cache', async () => {
  const { hook, connection } = await setup(policy);
  open.push(hook);
  const authz = webhookAuthorizer({ names, connection, version: 'v1', authorizedTtlMs: 0, unauthorizedTtlMs: 60_000 });
  const allowed = attrs('GET', '/api/v1/namespaces/ns/pods/p', alice);
  await authz.authorize(allowed);
  await authz.authorize(allowed);
  assert.equal(hook.reviews.length, 2);
});

test('webhook authorizer: failures are no opinion with an evaluation error, retried when transient, never cached', async () => {
  let reply: ReviewReply = { httpStatus: 500, body: '{}' };
  const { hook, connection } = await setup(() => reply);
  open.push(hook);
  const logged: string[] = [];
  const authz = webhookAuthorizer({
    names, connection, version: 'v1', authorizedTtlMs: 60_000, unauthorizedTtlMs: 60_000,
    retry: { attempts: 3, initialDelayMs: 5 }, log: (m) => logged.push(m),
  });
  const a = attrs('GET', '/api/v1/namespaces/ns/pods/p', alice);
  const failed = await authz.authorize(a);
  assert.equal(failed.decision, 'no-opinion');
  assert.match(failed.evaluationError ?? '', /status 500/);
  assert.equal(hook.reviews.length, 3, 'a 500 is retried up to the attempt limit');
  assert.equal(logged.length, 1);

  reply = { httpStatus: 403, body: '{}' };
  assert.match((await authz.authorize(a)).evaluationError ?? '', /status 403/);
  assert.equal(hook.reviews.length, 4, 'a 403 is not retried');

  reply = { httpStatus: 200, body: 'not json' };
  assert.match((await authz.authorize(a)).evaluationError ?? '', /not a SubjectAccessReview/);
  assert.equal(hook.reviews.length, 5);
  assert.equal(authz.cacheSize(), 0, 'failures are not cached');

  reply = { status: { allowed: true } };
  assert.deepEqual(await authz.authorize(a), { decision: 'allow' });
  assert.equal(hook.reviews.length, 6);
});

test('webhook authorizer: an unreachable webhook is no opinion with an evaluation error', async () => {
  const { hook, connection } = await setup(policy);
  await hook.close();
  const authz = webhookAuthorizer({ names, connection, version: 'v1', authorizedTtlMs: 60_000, unauthorizedTtlMs: 60_000, retry: { attempts: 2, initialDelayMs: 5 } });
  const d = await authz.authorize(attrs('GET', '/api/v1/pods', alice));
  assert.equal(d.decision, 'no-opinion');
  assert.match(d.evaluationError ?? '', /^authorization webhook failed: /);
  assert.equal(authz.cacheSize(), 0);
});

/** The webhook's side of the shared suite: a review is allowed when one of the suite's grants covers it. */
function grantsPolicy(grants: readonly SuiteGrant[]): (r: ReceivedReview) => ReviewReply {
  return (r) => {
    const user = r.spec['user'];
    const groups = (r.spec['groups'] ?? r.spec['group'] ?? []) as string[];
    const res = r.spec['resourceAttributes'] as Record<string, string> | undefined;
    const non = r.spec['nonResourceAttributes'] as Record<string, string> | undefined;
    const info = res !== undefined
      ? resourceRequestInfo({
        verb: res['verb'] ?? '', resource: res['resource'] ?? '',
        ...(res['group'] !== undefined ? { group: res['group'] } : {}), ...(res['subresource'] !== undefined ? { subresource: res['subresource'] } : {}),
        ...(res['name'] !== undefined ? { name: res['name'] } : {}), ...(res['namespace'] !== undefined ? { namespace: res['namespace'] } : {}),
      })
      : nonResourceRequestInfo(non?.['verb'] ?? '', non?.['path'] ?? '');
    const allowed = grants.some((g) =>
      (g.subject.kind === 'User' ? g.subject.name === user : groups.includes(g.subject.name))
      && (g.namespace === '' || g.namespace === info.namespace)
      && ruleAllows(info, g));
    return { status: { allowed } };
  };
}

for (const version of ['v1', 'v1beta1'] as const) {
  authorizerSuite(`Webhook ${version}`, async (grants) => {
    const { hook, connection } = await setup(grantsPolicy(grants));
    return {
      authorizer: webhookAuthorizer({ names, connection, version, authorizedTtlMs: 60_000, unauthorizedTtlMs: 60_000 }),
      close: () => hook.close(),
    };
  });
}

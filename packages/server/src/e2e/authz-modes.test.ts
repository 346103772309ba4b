/**
 * Authorization modes end to end, each on a real server process: `Webhook,RBAC` (a SubjectAccessReview webhook
 * asked first, RBAC after it), `AlwaysDeny` (everyone but system:masters forbidden) and `AlwaysAllow` (which turns
 * anonymous requests away as kube-apiserver does).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient, type RestClient } from '@svc-apiserver/client';
import { startAuthorizationWebhook, type ReceivedReview, type TestAuthorizationWebhook } from '../testing/authorization-webhook-fixture.js';
import { testTls } from '../testing/auth-fixtures.js';
import { call, createNamespace, eventually } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { tempDir } from '@svc-apiserver/testing/temp-dir';

const tokens = ['hooked-token,hooked,uid-hooked', 'banned-token,banned,uid-banned', 'vera-token,vera,uid-vera'].join('\n');

const dir = tempDir({ after }, 'svc-authz-modes-');
const clients: RestClient[] = [];

function asUser(server: ServerProcess, token: string): RestClient {
  const c = createClient({ server: server.admin.server, namespace: 'default', ...(server.admin.ca ? { ca: server.admin.ca } : {}), token });
  clients.push(c);
  return c;
}

before(() => {
  writeFileSync(join(dir, 'tokens.csv'), `${tokens}\n`);
});

after(() => {
  for (const c of clients) c.close();
});

describe('Webhook,RBAC', () => {
  let webhook: TestAuthorizationWebhook;
  let server: ServerProcess;
  before(async () => {
    const tls = await testTls('authz-webhook-ca');
    webhook = await startAuthorizationWebhook(tls, (review: ReceivedReview) => {
      const spec = review.spec as { user?: string; resourceAttributes?: { resource?: string; verb?: string } };
      if (spec.user === 'hooked' && spec.resourceAttributes?.resource === 'configmaps' && spec.resourceAttributes.verb === 'list') {
        return { status: { allowed: true, reason: 'hooked may list configmaps' } };
      }
      if (spec.user === 'banned') return { status: { allowed: false, denied: true, reason: 'banned everywhere' } };
      return { status: { allowed: false } };
    });
    server = await startServerProcess({
      extraArgs: [
        `--token-auth-file=${join(dir, 'tokens.csv')}`, '--authorization-mode=Webhook,RBAC',
        `--authorization-webhook-config-file=${webhook.configFile}`, '--authorization-webhook-version=v1',
        '--authorization-webhook-cache-unauthorized-ttl=0s',
      ],
    });
    await createNamespace(server.client, 'team');
    for (const user of ['vera', 'banned']) {
      const bound = await call(server.client, 'POST', '/apis/rbac.authorization.svc.io/v1/namespaces/team/rolebindings', {
        apiVersion: 'rbac.authorization.svc.io/v1', kind: 'RoleBinding', metadata: { name: `${user}-view` },
        roleRef: { apiGroup: 'rbac.authorization.svc.io', kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.svc.io', name: user }],
      });
      assert.equal(bound.status, 201, bound.text);
    }
  });
  after(async () => {
    await server?.stop();
    await webhook?.close();
  });

  test('the webhook decides first, with a v1 SubjectAccessReview naming the request', async () => {
    const hooked = await call(asUser(server, 'hooked-token'), 'GET', '/api/v1/namespaces/team/configmaps');
    assert.equal(hooked.status, 200, hooked.text);
    const review = webhook.reviews.find((r) => (r.spec as { user?: string }).user === 'hooked');
    assert.ok(review);
    assert.equal(review.apiVersion, 'authorization.svc.io/v1');
    assert.deepEqual(review.spec, {
      user: 'hooked', uid: 'uid-hooked', groups: ['system:authenticated'],
      resourceAttributes: { namespace: 'team', verb: 'list', version: 'v1', resource: 'configmaps' },
    });
    const other = await call(asUser(server, 'hooked-token'), 'GET', '/api/v1/namespaces/team/secrets');
    assert.equal(other.status, 403, 'no opinion from the webhook, none from RBAC');
  });

  test('a webhook deny wins over an RBAC grant; its no opinion leaves the decision to RBAC', async () => {
    const banned = await call(asUser(server, 'banned-token'), 'GET', '/api/v1/namespaces/team/configmaps');
    assert.equal(banned.status, 403);
    assert.equal(banned.body.message,
      'configmaps is forbidden: User "banned" cannot list resource "configmaps" in API group "" in the namespace "team": banned everywhere');
    assert.ok(await eventually(async () => (await call(asUser(server, 'vera-token'), 'GET', '/api/v1/namespaces/team/configmaps')).status === 200, 10_000, 50));
  });

  test('a rules review is incomplete: the webhook cannot list what it allows', async () => {
    const r = await call(asUser(server, 'vera-token'), 'POST', '/apis/authorization.svc.io/v1/selfsubjectrulesreviews', {
      apiVersion: 'authorization.svc.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'team' },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status.incomplete, true);
    assert.equal(r.body.status.evaluationError, 'webhook authorizer does not support user rule resolution');
    assert.ok((r.body.status.resourceRules as { resources?: string[] }[]).some((rule) => rule.resources?.includes('configmaps')), 'RBAC rules are listed');
  });
});

describe('AlwaysDeny and AlwaysAllow', () => {
  let deny: ServerProcess;
  let allow: ServerProcess;
  before(async () => {
    [deny, allow] = await Promise.all([
      startServerProcess({ extraArgs: [`--token-auth-file=${join(dir, 'tokens.csv')}`, '--authorization-mode=AlwaysDeny'] }),
      startServerProcess({ extraArgs: [`--token-auth-file=${join(dir, 'tokens.csv')}`, '--authorization-mode=AlwaysAllow'] }),
    ]);
  });
  after(async () => {
    await deny?.stop();
    await allow?.stop();
  });

  test('AlwaysDeny forbids everyone but system:masters, with its reason', async () => {
    const vera = await call(asUser(deny, 'vera-token'), 'GET', '/api/v1/namespaces/default/configmaps');
    assert.equal(vera.status, 403);
    assert.equal(vera.body.message,
      'configmaps is forbidden: User "vera" cannot list resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.');
    assert.equal((await call(deny.client, 'GET', '/api/v1/namespaces/default/configmaps')).status, 200);
  });

  test('AlwaysAllow allows every authenticated user and turns anonymous requests away', async () => {
    assert.equal((await call(asUser(allow, 'vera-token'), 'DELETE', '/api/v1/namespaces/default/configmaps/none')).status, 404);
    const anonymous = await call(allow.anonymous, 'GET', '/api/v1/namespaces');
    assert.equal(anonymous.status, 401);
    assert.match(allow.output(), /AnonymousAuth is not allowed with the AlwaysAllow authorizer\. Resetting AnonymousAuth to false\./);
  });
});

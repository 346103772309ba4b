import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namesFor } from '@svc-apiserver/api';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { defaultServerOptions, helpText, parseFlags, type ServerOptions } from '../../config.js';
import { testTls, type TestTls } from '../../testing/auth-fixtures.js';
import { parseRequestInfo } from '../../http/parse-request-info.js';
import { buildAuthentication } from '../authentication-setup.js';
import type { UserInfo } from '../../request/user-info.js';
import { startAuthorizationWebhook, type TestAuthorizationWebhook } from '../../testing/authorization-webhook-fixture.js';
import { buildAuthorization, type AuthorizationDeps } from './authorization-setup.js';
import type { AuthorizationAttributes, Authorizer } from '../../request/authorizer.js';

const names = namesFor('svc');
const dev: UserInfo = { username: 'dev', groups: ['system:authenticated'] };
const admin: UserInfo = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };

function attrs(user: UserInfo, method = 'GET', path = '/api/v1/namespaces/ns/pods'): AuthorizationAttributes {
  const info = parseRequestInfo(method, path, new URLSearchParams());
  assert.ok(info.ok);
  return { user, info: info.ok ? info.value : (undefined as never) };
}

/** An RBAC stand-in that grants `dev` reading pods and records that it was built. */
function fakeRbac(): AuthorizationDeps['rbac'] & { built: number } {
  const f = Object.assign((): Authorizer => {
    f.built++;
    return {
      name: 'RBAC',
      authorize: async ({ user, info }) => (user.username === 'dev' && info.verb === 'list' ? { decision: 'allow', reason: 'rbac' } : { decision: 'no-opinion' }),
      rulesFor: async () => ({ resourceRules: [{ verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: [] }], nonResourceRules: [], incomplete: false }),
    };
  }, { built: 0 });
  return f;
}

function build(over: Partial<ServerOptions>, rbac = fakeRbac()): ReturnType<typeof buildAuthorization> {
  return buildAuthorization({ ...defaultServerOptions, ...over }, { names, rbac, log: () => {}, webhookRetry: { attempts: 1, initialDelayMs: 1 } });
}

function built(over: Partial<ServerOptions>, rbac = fakeRbac()): Authorizer {
  const r = build(over, rbac);
  assert.ok(r.ok, JSON.stringify(r));
  return r.ok ? r.value.authorizer : (undefined as never);
}

let tls: TestTls;
let denyingHook: TestAuthorizationWebhook;
before(async () => {
  tls = await testTls('authz-setup-ca');
  denyingHook = await startAuthorizationWebhook(tls, () => ({ status: { allowed: false, denied: true, reason: 'webhook says no' } }));
});
after(async () => {
  await denyingHook.close();
});

test('authorization modes: RBAC by default, built only when named', async () => {
  const rbac = fakeRbac();
  const r = build({}, rbac);
  assert.ok(r.ok);
  assert.deepEqual(r.ok && r.value.modes, ['RBAC']);
  assert.equal(rbac.built, 1);
  const authz = r.ok ? r.value.authorizer : (undefined as never);
  assert.equal((await authz.authorize(attrs(dev))).decision, 'allow');
  assert.equal((await authz.authorize(attrs(dev, 'DELETE', '/api/v1/namespaces/ns/pods/p'))).decision, 'no-opinion');
  const unused = fakeRbac();
  build({ authorizationModes: ['AlwaysAllow'] }, unused);
  assert.equal(unused.built, 0);
});

test('authorization modes: AlwaysDeny forbids everyone but system:masters', async () => {
  const authz = built({ authorizationModes: ['AlwaysDeny'] });
  assert.deepEqual(await authz.authorize(attrs(dev)), { decision: 'no-opinion', reason: 'Everything is forbidden.' });
  assert.deepEqual(await authz.authorize(attrs(dev, 'GET', '/healthz')), { decision: 'no-opinion', reason: 'Everything is forbidden.' });
  assert.equal((await authz.authorize(attrs(admin))).decision, 'allow');
  assert.equal((await authz.authorize(attrs(admin, 'DELETE', '/api/v1/namespaces/ns/pods/p'))).decision, 'allow');
});

test('authorization modes: evaluated in order, the first allow or deny wins', async () => {
  const file = { authorizationWebhookConfigFile: denyingHook.configFile };
  // AlwaysDeny is a no opinion (as in kube-apiserver): a later AlwaysAllow still allows.
  assert.equal((await built({ authorizationModes: ['AlwaysDeny', 'AlwaysAllow'] }).authorize(attrs(dev))).decision, 'allow');
  assert.equal((await built({ authorizationModes: ['AlwaysAllow', 'AlwaysDeny'] }).authorize(attrs(dev))).decision, 'allow');
  // An explicit deny before AlwaysAllow wins; after it, it is never asked.
  const denyFirst = built({ ...file, authorizationModes: ['Webhook', 'AlwaysAllow'] });
  assert.deepEqual(await denyFirst.authorize(attrs(dev)), { decision: 'deny', reason: 'webhook says no' });
  const before = denyingHook.reviews.length;
  const allowFirst = built({ ...file, authorizationModes: ['AlwaysAllow', 'Webhook'] });
  assert.equal((await allowFirst.authorize(attrs(dev))).decision, 'allow');
  assert.equal(denyingHook.reviews.length, before);
  // RBAC's allow comes before the webhook's deny.
  assert.equal((await built({ ...file, authorizationModes: ['RBAC', 'Webhook'] }).authorize(attrs(dev))).decision, 'allow');
  assert.equal((await built({ ...file, authorizationModes: ['Webhook', 'RBAC'] }).authorize(attrs(dev))).decision, 'deny');
  // Even an explicit deny does not stop system:masters.
  assert.equal((await denyFirst.authorize(attrs(admin))).decision, 'allow');
});

test('authorization modes: rules of the union (AlwaysAllow is *, a webhook makes the list incomplete)', async () => {
  const allowAll = await built({ authorizationModes: ['AlwaysAllow'] }).rulesFor!(dev, 'ns');
  assert.equal(allowAll.incomplete, false);
  assert.deepEqual(allowAll.resourceRules, [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], resourceNames: [] }]);
  const rbacOnly = await built({}).rulesFor!(admin, 'ns');
  assert.deepEqual(rbacOnly, { resourceRules: [{ verbs: ['list'], apiGroups: [''], resources: ['pods'], resourceNames: [] }], nonResourceRules: [], incomplete: false });
  const withWebhook = await built({ authorizationModes: ['RBAC', 'Webhook'], authorizationWebhookConfigFile: denyingHook.configFile }).rulesFor!(dev, 'ns');
  assert.equal(withWebhook.incomplete, true);
  assert.equal(withWebhook.resourceRules.length, 1);
});

test('authorization modes: flag errors stop the start', () => {
  const error = (over: Partial<ServerOptions>): string => {
    const r = build(over);
    assert.equal(r.ok, false, JSON.stringify(over));
    return r.ok ? '' : r.error;
  };
  assert.equal(error({ authorizationModes: ['Magic'] }), 'authorization-mode "Magic" is not a valid mode');
  assert.match(error({ authorizationModes: ['RBAC', 'Node'] }), /authorization-mode "Node" is not available in this server/);
  assert.match(error({ authorizationModes: ['ABAC'] }), /"ABAC" is not available/);
  assert.equal(error({ authorizationModes: ['RBAC', 'AlwaysAllow', 'RBAC'] }), 'authorization-mode ["RBAC" "AlwaysAllow" "RBAC"] has mode specified more than once');
  assert.equal(error({ authorizationModes: [] }), 'at least one authorization-mode must be passed');
  assert.equal(error({ authorizationModes: ['Webhook'] }), "authorization-mode Webhook's authorization config file not passed");
  assert.equal(error({ authorizationWebhookConfigFile: denyingHook.configFile }), 'cannot specify --authorization-webhook-config-file without mode Webhook');
  // Several problems are reported together.
  assert.equal(error({ authorizationModes: ['Magic', 'Magic'] }),
    '[authorization-mode "Magic" is not a valid mode, authorization-mode ["Magic" "Magic"] has mode specified more than once]');
  assert.match(error({ authorizationModes: ['Webhook'], authorizationWebhookConfigFile: denyingHook.configFile, authorizationWebhookVersion: 'v2' }),
    /--authorization-webhook-version must be v1beta1 or v1/);
  assert.match(error({ authorizationModes: ['Webhook'], authorizationWebhookConfigFile: join(tmpdir(), 'no-such-authz-webhook.kubeconfig') }),
    /^--authorization-webhook-config-file: /);
  const qualified = build({ authorizationModes: ['Webhook'], authorizationWebhookConfigFile: denyingHook.configFile, authorizationWebhookVersion: 'authorization.k8s.io/v1' });
  assert.ok(qualified.ok);
});

test('authorization flags: names, defaults and help as kube-apiserver spells them', () => {
  const parsed = parseFlags(['--authorization-mode=Webhook,RBAC', '--authorization-mode', 'AlwaysDeny', '--authorization-webhook-config-file', '/x',
    '--authorization-webhook-version=v1', '--authorization-webhook-cache-authorized-ttl=1m', '--authorization-webhook-cache-unauthorized-ttl=5s']);
  assert.equal(parsed.kind, 'options');
  const o = parsed.kind === 'options' ? parsed.options : defaultServerOptions;
  assert.deepEqual(o.authorizationModes, ['Webhook', 'RBAC', 'AlwaysDeny']);
  assert.equal(o.authorizationWebhookConfigFile, '/x');
  assert.equal(o.authorizationWebhookVersion, 'v1');
  assert.equal(o.authorizationWebhookCacheAuthorizedTtlMs, 60_000);
  assert.equal(o.authorizationWebhookCacheUnauthorizedTtlMs, 5_000);
  const defaults = parseFlags([]);
  assert.deepEqual(defaults.kind === 'options' && defaults.options.authorizationModes, ['RBAC']);
  assert.deepEqual(defaults.kind === 'options' && [defaults.options.authorizationWebhookCacheAuthorizedTtlMs, defaults.options.authorizationWebhookCacheUnauthorizedTtlMs, defaults.options.authorizationWebhookVersion],
    [300_000, 30_000, 'v1beta1']);
  const help = helpText();
  assert.match(help, /--authorization-mode value .*\(default RBAC\)/);
  assert.match(help, /--authorization-webhook-cache-authorized-ttl value .*\(default 5m0s\)/);
  assert.match(help, /--authorization-webhook-cache-unauthorized-ttl value .*\(default 30s\)/);
});

test('anonymous access is reset to off when AlwaysAllow is among the modes, with kube-apiserver\'s warning', async (t) => {
  const dir = tempDir(t, 'authz-anon-');
  const anonymous = async (over: Partial<ServerOptions>): Promise<{ anonymous: boolean; logged: string[] }> => {
    const logged: string[] = [];
    const r = await buildAuthentication({ ...defaultServerOptions, ...over }, { names, get: async () => undefined, dataDir: dir, log: (m) => logged.push(m) });
    assert.ok(r.ok);
    if (r.ok) r.value.close();
    return { anonymous: r.ok && r.value.anonymous, logged };
  };
  const reset = await anonymous({ authorizationModes: ['AlwaysAllow'] });
  assert.equal(reset.anonymous, false);
  assert.deepEqual(reset.logged, ['AnonymousAuth is not allowed with the AlwaysAllow authorizer. Resetting AnonymousAuth to false. You should use a different authorizer']);
  assert.equal((await anonymous({ authorizationModes: ['RBAC', 'AlwaysAllow'] })).anonymous, false);
  assert.deepEqual(await anonymous({ authorizationModes: ['RBAC'] }), { anonymous: true, logged: [] });
  // Already off: nothing to reset, nothing logged.
  assert.deepEqual(await anonymous({ authorizationModes: ['AlwaysAllow'], anonymousAuth: false }), { anonymous: false, logged: [] });
});

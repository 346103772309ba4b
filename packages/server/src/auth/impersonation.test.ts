import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor } from '@svc-apiserver/api';
import type { AuthorizationAttributes, Authorizer } from '../request/authorizer.js';
import { impersonate, mayImpersonate } from './impersonation.js';
import type { UserInfo } from '../request/user-info.js';

const names = namesFor('svc');
const admin: UserInfo = { username: 'boss', groups: ['system:authenticated'] };

/** Allows what `allowed` lists as `<group>/<resource>[/<subresource>]:<namespace>/<name>`, and records every question. */
function authorizer(allowed: string[]): Authorizer & { asked: string[] } {
  const asked: string[] = [];
  return {
    name: 'test',
    asked,
    async authorize({ user, info }: AuthorizationAttributes) {
      assert.equal(user, admin, 'the caller is asked about, not the impersonated user');
      assert.equal(info.verb, 'impersonate');
      const key = `${info.apiGroup}/${info.resource}${info.subresource ? '/' + info.subresource : ''}:${info.namespace}/${info.name}`;
      asked.push(key);
      return { decision: allowed.includes(key) || allowed.includes('*') ? 'allow' : 'no-opinion' };
    },
  };
}

const req = (rawHeaders: string[]) => ({ headers: {}, rawHeaders });

test('impersonation: user, groups, extras and uid, each authorized', async () => {
  const a = authorizer(['*']);
  const r = await impersonate(req([
    'Impersonate-User', 'jane', 'Impersonate-Group', 'dev', 'Impersonate-Group', 'ops', 'Impersonate-Extra-Acme.com%2Fscopes', 'view',
    'Impersonate-Extra-acme.com%2fscopes', 'edit', 'Impersonate-Uid', 'u-1',
  ]), admin, a, names);
  assert.deepEqual(r, {
    kind: 'user',
    user: { username: 'jane', uid: 'u-1', groups: ['dev', 'ops', 'system:authenticated'], extra: { 'acme.com/scopes': ['view', 'edit'] } },
  });
  assert.deepEqual(a.asked, [
    '/users:/jane', '/groups:/dev', '/groups:/ops',
    'authentication.svc.io/userextras/acme.com/scopes:/view', 'authentication.svc.io/userextras/acme.com/scopes:/edit',
    'authentication.svc.io/uids:/u-1',
  ]);
});

test('impersonation: service accounts get their groups; anonymous stays unauthenticated', async () => {
  const sa = await impersonate(req(['Impersonate-User', 'system:serviceaccount:ci:builder']), admin, authorizer(['/serviceaccounts:ci/builder']), names);
  assert.deepEqual(sa, { kind: 'user', user: { username: 'system:serviceaccount:ci:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'] } });
  const anon = await impersonate(req(['Impersonate-User', 'system:anonymous']), admin, authorizer(['*']), names);
  assert.deepEqual(anon, { kind: 'user', user: { username: 'system:anonymous', groups: ['system:unauthenticated'] } });
});

test('impersonation: refusals are 403 naming the value, groups without a user are refused', async () => {
  const r = await impersonate(req(['Impersonate-User', 'jane', 'Impersonate-Group', 'system:masters']), admin, authorizer(['/users:/jane']), names);
  assert.equal(r.kind, 'failure');
  if (r.kind !== 'failure') return;
  assert.equal(r.status.code, 403);
  assert.equal(r.status.message, 'groups "system:masters" is forbidden: User "boss" cannot impersonate resource "groups" in API group "" at the cluster scope');
  const extra = await impersonate(req(['Impersonate-User', 'jane', 'Impersonate-Extra-scopes', 'x']), admin, authorizer(['/users:/jane']), names);
  assert.equal(extra.kind === 'failure' ? extra.status.message : '', 'userextras.authentication.svc.io "x" is forbidden: User "boss" cannot impersonate resource "userextras/scopes" in API group "authentication.svc.io" at the cluster scope');
  const sa = await impersonate(req(['Impersonate-User', 'system:serviceaccount:ci:builder']), admin, authorizer([]), names);
  assert.match(sa.kind === 'failure' ? sa.status.message ?? '' : '', /in the namespace "ci"$/);
  const noUser = await impersonate(req(['Impersonate-Group', 'dev']), admin, authorizer(['*']), names);
  assert.equal(noUser.kind === 'failure' ? noUser.status.code : 0, 500);
  assert.deepEqual(await impersonate(req(['Accept', 'x']), admin, authorizer([]), names), { kind: 'none' });
});

test('requests whose header names cannot be impersonation headers are told apart without a scan of their values', () => {
  assert.equal(mayImpersonate(req(['Host', 'x', 'Accept', 'application/json', 'Impersonate-', 'y'])), false);
  for (const name of ['Impersonate-User', 'impersonate-group', 'IMPERSONATE-UID', 'Impersonate-Extra-Scopes', 'iMpErSoNaTe-user']) {
    assert.equal(mayImpersonate(req(['Host', 'x', name, 'v'])), true, name);
  }
  assert.equal(mayImpersonate({ headers: { 'impersonate-user': 'u' } }), true, 'without raw headers, the joined ones');
  assert.equal(mayImpersonate({ headers: { accept: 'x' } }), false);
});

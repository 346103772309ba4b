import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Status } from '@svc-apiserver/api';
import type { Authenticator, AuthenticationResult } from '../../auth/authn/authenticator.js';
import { fakeContext } from '../../testing/fake-context.js';
import { authentication } from './authentication.js';

function run(result: AuthenticationResult, anonymous: boolean, headers: Record<string, string> = {}) {
  const authn: Authenticator = { name: 't', authenticate: async () => result };
  const logs: string[] = [];
  const { ctx, response } = fakeContext({ verb: 'get', resource: 'pods', headers });
  let reached = false;
  return authentication(authn, { anonymous, log: (m) => logs.push(m), stripHeaders: () => ['x-remote-user'] })(ctx, async () => {
    reached = true;
  }).then(() => ({ ctx, written: response.code === undefined ? [] : [response.body as Status], reached, logs }));
}

test('authentication filter: 401 Status for rejected credentials and, without anonymous access, for no credentials', async () => {
  const rejected = await run({ kind: 'error', message: 'token has expired' }, true);
  assert.equal(rejected.reached, false);
  assert.deepEqual(rejected.written, [{ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 }]);
  assert.deepEqual(rejected.logs, ['unable to authenticate the request: token has expired']);
  const anon = await run({ kind: 'none' }, true, { 'x-remote-user': 'root' });
  assert.equal(anon.reached, true);
  assert.deepEqual(anon.ctx.user, { username: 'system:anonymous', groups: ['system:unauthenticated'] });
  assert.equal(anon.ctx.headers['x-remote-user'], undefined, 'proxy headers are stripped from unauthenticated requests');
  const off = await run({ kind: 'none' }, false);
  assert.equal(off.reached, false);
  assert.equal(off.written[0]?.code, 401);
  const ok = await run({ kind: 'user', method: 't', user: { username: 'u', groups: ['g'] } }, false, { authorization: 'Bearer x' });
  assert.deepEqual(ok.ctx.user, { username: 'u', groups: ['g', 'system:authenticated'] });
  assert.equal(ok.ctx.headers.authorization, undefined, 'the credential does not travel further');
});

import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { namesFor, type Status } from '@svc-apiserver/api';
import { serviceAccountTokenIssuer } from '../../../auth/serviceaccount/token-issuer.js';
import { signingKey } from '../../../auth/serviceaccount/keys.js';
import { fakeContext, type FakeRequest } from '../../../testing/fake-context.js';
import { resourceHandler } from '../resource-handler.js';
import { testRegistry } from '../../../testing/test-registry.js';
import { subresourceHandlers } from './index.js';

async function setup() {
  const t = await testRegistry();
  const names = namesFor('svc');
  const key = signingKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey)!;
  const issuer = serviceAccountTokenIssuer(names, key, 'https://issuer.example');
  const handle = resourceHandler(t.registry, new Map(), subresourceHandlers({ tokens: { issuer, apiAudiences: ['https://api.example'] } }));
  const call = async (req: FakeRequest) => {
    const { ctx, response } = fakeContext(req);
    await handle(ctx);
    return response;
  };
  await call({ verb: 'create', resource: 'serviceaccounts', namespace: 'default', body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' } } });
  const request = (spec: Record<string, unknown>, name = 'sa') =>
    call({ verb: 'create', resource: 'serviceaccounts', namespace: 'default', name, subresource: 'token', body: { apiVersion: 'authentication.svc.io/v1', kind: 'TokenRequest', spec } });
  return { call, request };
}

function claims(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

test('a token request issues a bound token with default audiences and a one-hour expiry', async () => {
  const { request } = await setup();
  const r = await request({});
  assert.equal(r.code, 201, JSON.stringify(r.body));
  const body = r.body as { kind: string; apiVersion: string; spec: { audiences: string[]; expirationSeconds: number }; status: { token: string; expirationTimestamp: string } };
  assert.equal(body.kind, 'TokenRequest');
  assert.equal(body.apiVersion, 'authentication.svc.io/v1');
  assert.deepEqual(body.spec.audiences, ['https://api.example']);
  assert.equal(body.spec.expirationSeconds, 3600);
  const c = claims(body.status.token);
  assert.equal(c['sub'], 'system:serviceaccount:default:sa');
  assert.deepEqual(c['aud'], ['https://api.example']);
  assert.equal(c['exp'] - c['iat'], 3600);
  assert.equal(new Date(body.status.expirationTimestamp).getTime() / 1000, c['exp']);
});

test('token requests: audiences, minimum expiry, missing account, pod binding checks', async () => {
  const { request, call } = await setup();
  const custom = await request({ audiences: ['a', 'b'], expirationSeconds: 600 });
  assert.deepEqual(claims((custom.body as { status: { token: string } }).status.token)['aud'], ['a', 'b']);
  const short = await request({ expirationSeconds: 599 });
  assert.equal(short.code, 422);
  assert.match((short.body as Status).message ?? '', /spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes/);
  assert.equal((await request({}, 'nobody')).code, 404);

  const pod = await call({ verb: 'create', resource: 'pods', namespace: 'default',
    body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { serviceAccountName: 'sa', containers: [{ name: 'c', image: 'nginx:1.25' }] } } });
  const uid = (pod.body as { metadata: { uid: string } }).metadata.uid;
  const bound = await request({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid } });
  assert.equal(bound.code, 201, JSON.stringify(bound.body));
  const c = claims((bound.body as { status: { token: string } }).status.token);
  const priv = Object.values(c).find((v) => typeof v === 'object' && v !== null && 'pod' in v) as { pod: { name: string; uid: string } };
  assert.deepEqual(priv.pod, { name: 'p', uid });
  assert.equal((await request({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'other' } })).code, 409);
  assert.equal((await request({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'gone' } })).code, 404);
  assert.equal((await request({ boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'n' } })).code, 400);
});

test('without an issuer the token subresource answers 503', async () => {
  const { call } = await testRegistry();
  await call({ verb: 'create', resource: 'serviceaccounts', namespace: 'default', body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' } } });
  const r = await call({ verb: 'create', resource: 'serviceaccounts', namespace: 'default', name: 'sa', subresource: 'token', body: { spec: {} } });
  assert.equal(r.code, 503);
});

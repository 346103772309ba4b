import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { KubeObject } from '@svc-apiserver/api';
import { signingKey } from '../../auth/serviceaccount/keys.js';
import { serviceAccountTokenIssuer } from '../../auth/serviceaccount/token-issuer.js';
import { testRegistry } from '../../testing/test-registry.js';
import { until } from '../../testing/until.js';
import { startTokenController } from './token-controller.js';

const caPem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
type Secret = KubeObject & { type?: string; data?: Record<string, string> };
type Account = KubeObject & { secrets?: { name: string }[] };
const decode = (v: string | undefined): string => Buffer.from(v ?? '', 'base64').toString('utf8');

async function setup() {
  const t = await testRegistry(['default', 'team']);
  const key = signingKey(generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey)!;
  const issuer = serviceAccountTokenIssuer(t.names, key, 'https://svc-apiserver.svc');
  const ctl = startTokenController({ registry: t.registry, names: t.names, retryMs: 20, config: { legacyTokenIssuer: issuer, rootCaPem: caPem } });
  const get = async <T extends KubeObject>(resource: string, name: string): Promise<T | undefined> => {
    const r = await t.call({ verb: 'get', resource, namespace: 'team', name });
    return r.code === 200 ? (r.body as T) : undefined;
  };
  const createToken = (name: string, account: string) => t.call({
    verb: 'create', resource: 'secrets', namespace: 'team',
    body: { metadata: { name, annotations: { 'svc.io/service-account.name': account } }, type: 'svc.io/service-account-token' },
  });
  return { t, ctl, get, createToken };
}

test('a token Secret of an account is filled, annotated and referenced', async () => {
  const { t, ctl, get, createToken } = await setup();
  try {
    const robot = await t.call({ verb: 'create', resource: 'serviceaccounts', namespace: 'team', body: { metadata: { name: 'robot' } } });
    const uid = (robot.body as KubeObject).metadata?.uid;
    assert.equal((await createToken('robot-token', 'robot')).code, 201);
    await until('filled', async () => (await get<Secret>('secrets', 'robot-token'))?.data?.['token'] !== undefined);
    const secret = (await get<Secret>('secrets', 'robot-token'))!;
    assert.equal(decode(secret.data?.['ca.crt']), caPem);
    assert.equal(decode(secret.data?.['namespace']), 'team');
    assert.equal(secret.metadata?.annotations?.['svc.io/service-account.uid'], uid);
    const claims = decodeJwt(decode(secret.data?.['token']));
    assert.equal(claims.sub, 'system:serviceaccount:team:robot');
    assert.equal(claims.iss, 'kubernetes/serviceaccount');
    assert.equal(claims['svc.io/serviceaccount/secret.name'], 'robot-token');
    assert.equal(claims['svc.io/serviceaccount/service-account.uid'], uid);
    await until('referenced', async () => ((await get<Account>('serviceaccounts', 'robot'))?.secrets ?? []).some((s) => s.name === 'robot-token'));
    await ctl.idle();
    const all = (await t.call({ verb: 'list', resource: 'secrets', namespace: 'team' })).body as { items: Secret[] };
    assert.deepEqual(all.items.map((s) => s.metadata?.name), ['robot-token'], 'no token Secret is generated for an account');
  } finally {
    await ctl.stop();
  }
});

test('a token Secret without its account is deleted; deleting the account deletes its tokens', async () => {
  const { t, ctl, get, createToken } = await setup();
  try {
    assert.equal((await createToken('orphan', 'nobody')).code, 201);
    await until('orphan deleted', async () => (await get('secrets', 'orphan')) === undefined);
    await t.call({ verb: 'create', resource: 'serviceaccounts', namespace: 'team', body: { metadata: { name: 'temp' } } });
    await createToken('temp-token', 'temp');
    await until('filled', async () => (await get<Secret>('secrets', 'temp-token'))?.data?.['token'] !== undefined);
    assert.equal((await t.call({ verb: 'delete', resource: 'serviceaccounts', namespace: 'team', name: 'temp' })).code, 200);
    await until('token deleted with its account', async () => (await get('secrets', 'temp-token')) === undefined);
  } finally {
    await ctl.stop();
  }
});

test('a referenced token Secret that is deleted is replaced and the reference follows; an unreferenced one is not', async () => {
  const { t, ctl, get, createToken } = await setup();
  try {
    await t.call({ verb: 'create', resource: 'serviceaccounts', namespace: 'team', body: { metadata: { name: 'app' } } });
    await createToken('app-token', 'app');
    await until('referenced', async () => ((await get<Account>('serviceaccounts', 'app'))?.secrets ?? []).some((s) => s.name === 'app-token'));
    await t.call({ verb: 'delete', resource: 'secrets', namespace: 'team', name: 'app-token' });
    let replacement = '';
    await until('replacement referenced', async () => {
      const refs = (await get<Account>('serviceaccounts', 'app'))?.secrets ?? [];
      replacement = refs.find((s) => s.name !== 'app-token')?.name ?? '';
      return refs.length === 1 && replacement !== '';
    });
    assert.match(replacement, /^app-token-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    await ctl.idle();
    const tokens = ((await t.call({ verb: 'list', resource: 'secrets', namespace: 'team' })).body as { items: Secret[] }).items;
    assert.deepEqual(tokens.map((s) => s.metadata?.name), [replacement], 'one replacement');
    const secret = (await get<Secret>('secrets', replacement))!;
    assert.equal(secret.type, 'svc.io/service-account-token');
    assert.equal(decodeJwt(decode(secret.data?.['token'])).sub, 'system:serviceaccount:team:app');
    // An account that no longer lists the token: deleting it replaces nothing.
    const account = (await get<Account>('serviceaccounts', 'app'))!;
    assert.equal((await t.call({ verb: 'update', resource: 'serviceaccounts', namespace: 'team', name: 'app', body: { ...account, secrets: [] } })).code, 200);
    await t.call({ verb: 'delete', resource: 'secrets', namespace: 'team', name: replacement });
    await ctl.idle();
    const after = await t.call({ verb: 'list', resource: 'secrets', namespace: 'team' });
    assert.deepEqual((after.body as { items: Secret[] }).items.filter((s) => s.type === 'svc.io/service-account-token').map((s) => s.metadata?.name), []);
    assert.deepEqual((await get<Account>('serviceaccounts', 'app'))?.secrets ?? [], []);
  } finally {
    await ctl.stop();
  }
});

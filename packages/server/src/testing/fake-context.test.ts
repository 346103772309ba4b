import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRequestInfo } from '../http/parse-request-info.js';
import { addWarning, writeObject } from '../http/response-writer.js';
import { transportSuite } from '../http/transport-suite.js';
import { fakeContext } from './fake-context.js';

// The fake answers every request as the server's transports do: only the bytes' way differs.
transportSuite('fake context', async (handler, sent) => {
  const url = new URL(sent.path, 'https://127.0.0.1');
  const info = parseRequestInfo(sent.method, url.pathname, url.searchParams);
  assert.ok(info.ok);
  const { ctx, response } = fakeContext({
    verb: info.value.verb, resource: info.value.resource, info: info.value, query: Object.fromEntries(url.searchParams),
    headers: sent.headers, body: sent.body,
  });
  await handler(ctx);
  const headers = Object.fromEntries(Object.entries(response.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return { code: response.code ?? 0, headers, body: response.bytes };
});

test('the fake reads the answer back as a client does: a YAML body as its object (YAML 1.1 strings kept), warnings as texts', () => {
  const { ctx, response } = fakeContext({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'c', accept: 'application/yaml' });
  addWarning(ctx, 'careful');
  writeObject(ctx, 200, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { on: 'yes' } });
  assert.equal(response.code, 200);
  assert.deepEqual(response.body, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { on: 'yes' } });
  assert.deepEqual(response.warnings, ['careful']);
});

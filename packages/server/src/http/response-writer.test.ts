import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failure, namesFor } from '@svc-apiserver/api';
import { fakeContext, type FakeRequest } from '../testing/fake-context.js';
import { prepareStatus, writePreparedStatus, writeStatus } from './response-writer.js';

const tooMany = () => failure('TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds: 1 });

/** A request as a refused client sends it, with the headers flow control adds to every response of it. */
function refused(req: Partial<FakeRequest>) {
  const made = fakeContext({ verb: 'list', resource: 'configmaps', namespace: 'default', ...req });
  made.ctx.record.responseHeaders['Audit-Id'] = 'a1';
  made.ctx.record.responseHeaders['X-Kubernetes-PF-FlowSchema-UID'] = 'fs';
  made.ctx.record.responseHeaders['X-Kubernetes-PF-PriorityLevel-UID'] = 'pl';
  return made;
}

const ways: [string, Partial<FakeRequest>][] = [
  ['no Accept', {}],
  ['JSON', { accept: 'application/json' }],
  ['pretty JSON', { accept: 'application/json', query: { pretty: 'true' } }],
  ['YAML', { accept: 'application/yaml' }],
  ['protobuf', { accept: `${namesFor('svc').name('protobufMediaType')}, application/json` }],
  ['a Table', { accept: 'application/json;as=Table;v=v1;g=meta.svc.io, application/json' }],
  ['nothing the server writes', { accept: 'text/html' }],
  ['a GET of one object', { verb: 'get', name: 'x', accept: 'application/json' }],
  ['the k8s flavour', { names: namesFor('k8s'), accept: 'application/json' }],
];

test('a prepared Status is written as writeStatus writes it, however it is asked for, the first time and after', () => {
  const prepared = prepareStatus(tooMany());
  for (const [way, req] of ways) {
    const expected = refused(req);
    writeStatus(expected.ctx, tooMany());
    for (const round of ['first', 'second']) {
      const got = refused(req);
      writePreparedStatus(got.ctx, prepared);
      const what = `${way}, ${round} time`;
      assert.equal(got.response.code, 429, what);
      assert.deepEqual(got.response.headers, expected.response.headers, what);
      assert.deepEqual(got.response.bytes, expected.response.bytes, what);
      assert.deepEqual(got.ctx.record.responseObject, expected.ctx.record.responseObject, what);
      assert.equal(got.ctx.record.responseBytes, expected.ctx.record.responseBytes, what);
      assert.equal(got.ctx.record.responseCode, 429, what);
    }
  }
});

test('a prepared Status keeps its Retry-After and the request\'s own headers', () => {
  const got = refused({ accept: 'application/json' });
  writePreparedStatus(got.ctx, prepareStatus(tooMany()));
  assert.equal(got.response.headers?.['Retry-After'], '1');
  assert.equal(got.response.headers?.['X-Kubernetes-PF-PriorityLevel-UID'], 'pl');
  assert.equal(got.response.headers?.['Audit-Id'], 'a1');
  assert.equal((got.response.body as { reason?: string }).reason, 'TooManyRequests');
});

test('a prepared Status is not written twice, nor after the request was answered', () => {
  const prepared = prepareStatus(tooMany());
  const got = refused({});
  writeStatus(got.ctx, failure('Forbidden', 'no'));
  writePreparedStatus(got.ctx, prepared);
  assert.equal(got.response.code, 403);
});

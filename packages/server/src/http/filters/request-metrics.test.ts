import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRequestInfo } from '../parse-request-info.js';
import { metricDryRun, metricScope, metricVerb } from './request-metrics.js';

/** The verb and scope kube reports for a request. */
function reported(method: string, target: string, contentType?: string): [string, string] {
  const url = new URL(target, 'https://x');
  const parsed = parseRequestInfo(method, url.pathname, url.searchParams);
  assert.ok(parsed.ok);
  const scope = metricScope(parsed.value);
  return [metricVerb({ method, headers: contentType === undefined ? {} : { 'content-type': contentType }, info: parsed.value }, scope), scope];
}

test('verbs and scopes as kube reports them', () => {
  assert.deepEqual(reported('GET', '/api/v1/namespaces/a/pods/p'), ['GET', 'resource']);
  assert.deepEqual(reported('HEAD', '/api/v1/namespaces/a/pods/p'), ['GET', 'resource']);
  assert.deepEqual(reported('GET', '/api/v1/namespaces/a/pods'), ['LIST', 'namespace']);
  assert.deepEqual(reported('GET', '/api/v1/pods'), ['LIST', 'cluster']);
  assert.deepEqual(reported('GET', '/api/v1/namespaces/a/pods?watch=true'), ['WATCH', 'namespace']);
  assert.deepEqual(reported('GET', '/api/v1/namespaces/a/pods?watch=1'), ['WATCH', 'namespace']);
  assert.deepEqual(reported('GET', '/api/v1/namespaces/a/pods?watch=false'), ['LIST', 'namespace']);
  assert.deepEqual(reported('GET', '/api/v1/watch/namespaces/a/pods'), ['WATCH', 'namespace']);
  assert.deepEqual(reported('POST', '/api/v1/namespaces/a/pods'), ['POST', 'resource']);
  assert.deepEqual(reported('PUT', '/api/v1/namespaces/a/pods/p'), ['PUT', 'resource']);
  assert.deepEqual(reported('PATCH', '/api/v1/namespaces/a/pods/p', 'application/merge-patch+json'), ['PATCH', 'resource']);
  assert.deepEqual(reported('PATCH', '/api/v1/namespaces/a/pods/p', 'application/apply-patch+yaml'), ['APPLY', 'resource']);
  assert.deepEqual(reported('PATCH', '/api/v1/namespaces/a/pods/p', 'application/apply-patch+yaml; charset=utf-8'), ['PATCH', 'resource'],
    'kube compares the whole header');
  assert.deepEqual(reported('DELETE', '/api/v1/namespaces/a/pods'), ['DELETE', 'namespace']);
  assert.deepEqual(reported('GET', '/api/v1/namespaces/a/pods/p/log'), ['CONNECT', 'resource']);
  assert.deepEqual(reported('POST', '/api/v1/namespaces/a/pods/p/exec'), ['CONNECT', 'resource']);
  assert.deepEqual(reported('GET', '/api/v1/namespaces/a/pods/p/status'), ['GET', 'resource']);
  assert.deepEqual(reported('GET', '/livez'), ['GET', '']);
  assert.deepEqual(reported('OPTIONS', '/api/v1/namespaces/a/pods'), ['other', 'namespace']);
});

test('dry_run label: absent, the sorted distinct values, or invalid', () => {
  const dryRun = (q: string) => metricDryRun(new URLSearchParams(q));
  assert.equal(dryRun(''), '');
  assert.equal(dryRun('dryRun=All'), 'All');
  assert.equal(dryRun('dryRun=All&dryRun=All'), 'All');
  assert.equal(dryRun('dryRun='), 'invalid');
  assert.equal(dryRun('dryRun=all'), 'invalid');
  assert.equal(dryRun('dryRun=All&dryRun=%00'), 'invalid');
  assert.equal(dryRun('dryrun=All'), '');
});

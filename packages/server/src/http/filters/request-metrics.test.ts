import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseRequestInfo } from '../parse-request-info.js';
import { metricDryRun, metricScope, metricVerb, requestMetrics } from './request-metrics.js';
import { createMetricsRegistry } from '../../metrics/metrics-registry.js';
import { endpointMetrics } from '../../metrics/endpoint-metrics.js';
import { fakeContext } from '../../testing/fake-context.js';

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

test('the filter counts served requests, not others; refused requests are counted where they are refused', async () => {
  const metrics = endpointMetrics(createMetricsRegistry({ warn: () => {} }));
  const metered = requestMetrics({ served: (info) => info.resource === 'configmaps', metrics });
  const labels = { verb: 'POST', group: '', version: 'v1', resource: 'configmaps', subresource: '', scope: 'resource', component: 'apiserver' };
  const served = fakeContext({ verb: 'create', resource: 'configmaps', namespace: 'a', query: { dryRun: 'All' } }).ctx;
  await metered.filter(served, async () => {
    served.record.latency.webhookSeconds = 0.2;
    served.record.responseCode = 201;
  });
  assert.equal(await metrics.requests.value({ ...labels, dry_run: 'All', code: '201' }), 1);
  const duration = await metrics.duration.sample({ ...labels, dry_run: 'All' });
  assert.equal(duration?.count, 1);
  const sli = await metrics.sliDuration.sample(labels);
  assert.ok(sli !== undefined && sli.sum <= Math.max(0, duration!.sum - 0.2) + 1e-9, 'the SLI leaves the webhooks\' time out');

  const unserved = fakeContext({ verb: 'create', resource: 'madeups', namespace: 'a' }).ctx;
  let ran = false;
  await metered.filter(unserved, async () => {
    ran = true;
  });
  metered.dropped(unserved);
  assert.ok(ran);
  assert.equal(await metrics.requests.value({ ...labels, resource: 'madeups', dry_run: '', code: '0' }), 0);
  assert.equal(await metrics.terminations.value({ ...labels, resource: 'madeups', code: '429' }), 0, 'no label holds a made-up name');

  const dropped = fakeContext({ verb: 'list', resource: 'configmaps', namespace: 'a' }).ctx;
  metered.dropped(dropped);
  metered.terminated(fakeContext({ verb: 'get', resource: 'configmaps', namespace: 'a', name: 'x' }).ctx, 504);
  const list = { ...labels, verb: 'LIST', scope: 'namespace' };
  assert.equal(await metrics.requests.value({ ...list, dry_run: '', code: '429' }), 1);
  assert.equal(await metrics.terminations.value({ ...list, code: '429' }), 1);
  assert.equal(await metrics.terminations.value({ ...labels, verb: 'GET', code: '504' }), 1);
  assert.equal(await metrics.requests.value({ ...labels, verb: 'GET', dry_run: '', code: '504' }), 0, 'the timeout\'s request is counted by the filter as it ends');
});

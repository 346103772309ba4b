/**
 * `/metrics` end to end: a real server process with token users, real requests of every kind, then a scrape read
 * as Prometheus reads it and compared label by label and value by value with what the requests did. `/metrics` is
 * authorized as kube's non-resource URL (a `system:monitoring` member may read it, another user gets 403). The
 * feature gates of the command line show in `kubernetes_feature_enabled`, and flags of the metrics and gates are
 * refused or warned about as kube does.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createClient, type RestClient } from '@svc-apiserver/client';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { call, createNamespace } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { parseExposition, sampleValue, samplesOf, type Family } from '../metrics/testing/exposition.js';
import { requestLatencyBuckets } from '../metrics/endpoint-metrics.js';

const dir = tempDir({ after }, 'svc-metrics-');
let server: ServerProcess;
const clients: RestClient[] = [];

function asUser(token: string): RestClient {
  const c = createClient({ server: server.admin.server, namespace: 'default', ...(server.admin.ca ? { ca: server.admin.ca } : {}), token });
  clients.push(c);
  return c;
}

async function scrape(client: RestClient = asUser('monitor-token')): Promise<Map<string, Family>> {
  const r = await call(client, 'GET', '/metrics', undefined, { accept: '*/*' });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  return parseExposition(r.text);
}

/** The labels of a configmap request in the request metrics. */
const cm = (verb: string, scope: string, more: Record<string, string> = {}): Record<string, string> => ({
  verb, group: '', version: 'v1', resource: 'configmaps', subresource: '', scope, component: 'apiserver', ...more,
});

before(async () => {
  writeFileSync(join(dir, 'tokens.csv'), 'monitor-token,mona,uid-mona,system:monitoring\nnobody-token,nora,uid-nora\n');
  server = await startServerProcess({
    storage: 'sqlite',
    extraArgs: [`--token-auth-file=${join(dir, 'tokens.csv')}`, '--feature-gates=WatchList=true', '--feature-gates', 'ServerSideApply=true',
      '--show-hidden-metrics-for-version=1.26', '--runtime-config=authentication.svc.io/v1beta1=true', '--disabled-metrics=authentication_duration_seconds'],
  });
  await createNamespace(server.client, 'm');
});

after(async () => {
  for (const c of clients) c.close();
  await server?.stop();
});

test('requests are counted with kube\'s labels, verbs, codes and buckets', async () => {
  const admin = server.client;
  const base = '/api/v1/namespaces/m/configmaps';
  const body = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } });
  assert.equal((await call(admin, 'POST', base, body('a'))).status, 201);
  assert.equal((await call(admin, 'POST', base, body('b'))).status, 201);
  assert.equal((await call(admin, 'POST', `${base}?dryRun=All`, body('c'))).status, 201);
  assert.equal((await call(admin, 'POST', base, body('a'))).status, 409);
  const got = await call(admin, 'GET', `${base}/a`);
  assert.equal(got.status, 200);
  const listed = await call(admin, 'GET', base);
  assert.equal(listed.status, 200);
  const applied = await call(admin, 'PATCH', `${base}/d?fieldManager=test`, JSON.stringify(body('d')), { 'content-type': 'application/apply-patch+yaml' });
  assert.equal(applied.status, 201, applied.text);
  assert.equal((await call(admin, 'PATCH', `${base}/a`, { data: { k: 'w' } }, { 'content-type': 'application/merge-patch+json' })).status, 200);
  assert.equal((await call(admin, 'DELETE', `${base}/b`)).status, 200);
  assert.equal((await call(admin, 'GET', '/api/v1/namespaces/m/nosuchthings')).status, 404);
  assert.equal((await call(admin, 'GET', '/livez')).status, 200);

  const m = await scrape();
  const total = (labels: Record<string, string>, code: string, dryRun = '') => sampleValue(m, 'apiserver_request_total', { ...labels, dry_run: dryRun, code });
  assert.equal(m.get('apiserver_request_total')?.help,
    '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.');
  assert.equal(total(cm('POST', 'resource'), '201'), 2);
  assert.equal(total(cm('POST', 'resource'), '201', 'All'), 1);
  assert.equal(total(cm('POST', 'resource'), '409'), 1);
  assert.equal(total(cm('GET', 'resource'), '200'), 1);
  assert.equal(total(cm('LIST', 'namespace'), '200'), 1);
  assert.equal(total(cm('APPLY', 'resource'), '201'), 1);
  assert.equal(total(cm('PATCH', 'resource'), '200'), 1);
  assert.equal(total(cm('DELETE', 'resource'), '200'), 1);
  assert.ok((total({ verb: 'GET', group: '', version: '', resource: '', subresource: '/livez', scope: '', component: '' }, '200') ?? 0) >= 1);
  assert.deepEqual(samplesOf(m, 'apiserver_request_total').filter((s) => s.labels['resource'] === 'nosuchthings'), [], 'unserved resources are not counted');

  // Durations: one series per request kind without the code, kube's 23 buckets.
  const posts = samplesOf(m, 'apiserver_request_duration_seconds_bucket').filter((s) =>
    Object.entries({ ...cm('POST', 'resource'), dry_run: '' }).every(([k, v]) => s.labels[k] === v));
  assert.deepEqual(posts.map((s) => s.labels['le']), [...requestLatencyBuckets.map(String), '+Inf']);
  assert.equal(posts.at(-1)?.value, 3, 'two creates and the conflict');
  assert.equal(sampleValue(m, 'apiserver_request_duration_seconds_count', { ...cm('POST', 'resource'), dry_run: '' }), 3);
  assert.equal(sampleValue(m, 'apiserver_request_sli_duration_seconds_count', cm('POST', 'resource')), 4, 'the SLI has no dry_run label');
  assert.equal(m.get('apiserver_request_slo_duration_seconds')?.help.startsWith('[ALPHA] (Deprecated from 1.27) '), true);
  // Response sizes: reads only, the bytes written.
  assert.equal(sampleValue(m, 'apiserver_response_sizes_sum', cm('GET', 'resource')), Buffer.byteLength(got.text));
  assert.equal(sampleValue(m, 'apiserver_response_sizes_sum', cm('LIST', 'namespace')), Buffer.byteLength(listed.text));
  assert.equal(sampleValue(m, 'apiserver_response_sizes_count', cm('POST', 'resource')), undefined);

  // Storage: the objects stored now, and the calls to the store timed by operation and Go type.
  const all = await call(admin, 'GET', '/api/v1/configmaps');
  assert.equal(sampleValue(m, 'apiserver_storage_objects', { resource: 'configmaps' }), all.body.items.length);
  assert.ok((sampleValue(m, 'etcd_request_duration_seconds_count', { operation: 'create', type: '*core.ConfigMap' }) ?? 0) >= 3);
  assert.ok((sampleValue(m, 'etcd_request_duration_seconds_count', { operation: 'delete', type: '*core.ConfigMap' }) ?? 0) >= 1);
  assert.ok((sampleValue(m, 'apiserver_watch_cache_initializations_total', { resource: 'configmaps' }) ?? 0) >= 1);
  assert.equal(sampleValue(m, 'apiserver_cache_list_total', { resource_prefix: '/configmaps', index: '' }), 1, 'the one LIST, from the cache');
  assert.equal(sampleValue(m, 'apiserver_cache_list_returned_objects_total', { resource_prefix: '/configmaps' }), listed.body.items.length);
  assert.ok((sampleValue(m, 'apiserver_watch_cache_events_received_total', { resource: 'configmaps' }) ?? 0) >= 4);
  assert.ok((sampleValue(m, 'apiserver_watch_cache_events_dispatched_total', { resource: 'configmaps' }) ?? 0) >= 1);
  // Admission and flow control fill their metrics: the admin is system:masters, served by the exempt level.
  assert.ok((sampleValue(m, 'apiserver_admission_step_admission_duration_seconds_count', { type: 'validate', operation: 'CREATE', rejected: 'false' }) ?? 0) >= 3);
  assert.ok((sampleValue(m, 'apiserver_flowcontrol_dispatched_requests_total', { flow_schema: 'exempt', priority_level: 'exempt' }) ?? 0) >= 10);
  assert.ok((sampleValue(m, 'authentication_attempts', { result: 'success' }) ?? 0) >= 10);
  assert.ok((sampleValue(m, 'apiserver_current_inflight_requests', { request_kind: 'readOnly' }) ?? 0) >= 1, 'the scrape itself is in flight');
});

test('watches: long-running while open, their events counted by kind', async () => {
  const admin = server.client;
  const watch = call(admin, 'GET', '/api/v1/namespaces/m/configmaps?watch=true&timeoutSeconds=2');
  await new Promise((r) => setTimeout(r, 500));
  assert.equal((await call(admin, 'POST', '/api/v1/namespaces/m/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w' } })).status, 201);
  const during = await scrape();
  assert.equal(sampleValue(during, 'apiserver_longrunning_requests', cm('WATCH', 'namespace')), 1);
  const events = (await watch).text.split('\n').filter((l) => l.trim() !== '');
  const after = await scrape();
  assert.equal(sampleValue(after, 'apiserver_longrunning_requests', cm('WATCH', 'namespace')), 0);
  assert.ok(events.length >= 2, 'the initial configmaps and the new one');
  assert.ok((sampleValue(after, 'apiserver_watch_events_total', { group: '', version: 'v1', kind: 'ConfigMap' }) ?? 0) >= events.length);
  assert.ok((sampleValue(after, 'apiserver_watch_events_sizes_count', { group: '', version: 'v1', kind: 'ConfigMap' }) ?? 0) >= events.length);
  assert.equal(sampleValue(after, 'apiserver_request_total', { ...cm('WATCH', 'namespace'), dry_run: '', code: '200' }), 1);
});

test('/metrics is authorized as a non-resource URL: system:monitoring reads it, another user gets 403', async () => {
  const denied = await call(asUser('nobody-token'), 'GET', '/metrics');
  assert.equal(denied.status, 403);
  assert.equal(denied.body.reason, 'Forbidden');
  assert.equal(denied.body.message, 'forbidden: User "nora" cannot get path "/metrics"');
  assert.equal((await call(server.anonymous, 'GET', '/metrics')).status, 403);
  const m = await scrape();
  // RBAC allows or has no opinion (the union then refuses): only its allows are decisions.
  assert.ok((sampleValue(m, 'apiserver_authorization_decisions_total', { type: 'RBAC', name: 'rbac', decision: 'allowed' }) ?? 0) >= 1);
  assert.equal(sampleValue(m, 'apiserver_authorization_decisions_total', { type: 'RBAC', name: 'rbac', decision: 'denied' }), undefined);
  assert.ok((sampleValue(m, 'authenticated_user_requests', { username: 'other' }) ?? 0) >= 1);
  // gzip when the scraper asks for it, as Prometheus does.
  const zipped = await asUser('monitor-token').raw({ method: 'GET', path: '/metrics', headers: { 'accept-encoding': 'gzip' } });
  assert.ok(zipped.ok);
  assert.equal(zipped.value.headers['content-encoding'], 'gzip');
  assert.match(gunzipSync(zipped.value.body).toString('utf8'), /^# HELP apiserver_request_total /m);
});

test('feature gates, deprecated APIs, process metrics and stability classes are served', async () => {
  assert.equal((await call(server.client, 'GET', '/apis/flowcontrol.apiserver.svc.io/v1beta2/flowschemas')).status, 200);
  const m = await scrape();
  const feature = (name: string, stage: string) => sampleValue(m, 'kubernetes_feature_enabled', { name, stage });
  assert.equal(m.get('kubernetes_feature_enabled')?.help, '[ALPHA] This metric records the data about the stage and enablement of a k8s feature.');
  assert.equal(feature('WatchList', 'ALPHA'), 1);
  assert.equal(feature('ValidatingAdmissionPolicy', 'ALPHA'), 0);
  assert.equal(feature('APIPriorityAndFairness', 'BETA'), 1);
  assert.equal(feature('ServerSideApply', ''), 1);
  assert.equal(feature('AllAlpha', 'ALPHA'), 0);
  assert.equal(samplesOf(m, 'kubernetes_feature_enabled').length, 149);
  assert.equal(sampleValue(m, 'apiserver_requested_deprecated_apis',
    { group: 'flowcontrol.apiserver.svc.io', version: 'v1beta2', resource: 'flowschemas', subresource: '', removed_release: '1.29' }), 1);
  assert.equal(m.get('apiserver_requested_deprecated_apis')?.help.startsWith('[STABLE] '), true);
  const started = sampleValue(m, 'process_start_time_seconds', {});
  assert.ok(started !== undefined && Math.abs(started - Date.now() / 1000) < 600);
  assert.ok((sampleValue(m, 'process_resident_memory_bytes', {}) ?? 0) > 1e6);
  assert.ok((sampleValue(m, 'process_cpu_seconds_total', {}) ?? 0) > 0);
  assert.deepEqual([...m.keys()].filter((n) => n.startsWith('go_')), [], 'no Go runtime figures');
  // Every metric of kube's own packages carries its stability class.
  for (const [name, family] of m) {
    if (/^(apiserver_|etcd_|authentication_|authenticated_|kubernetes_|registered_metric|hidden_metric|disabled_metric)/.test(name)) {
      assert.match(family.help, /^\[(ALPHA|BETA|STABLE)\] /, name);
    }
  }
  assert.ok((sampleValue(m, 'registered_metric_total', { stability_level: 'STABLE', deprecated_version: '' }) ?? 0) >= 8);
  assert.equal(m.has('authentication_duration_seconds'), false, '--disabled-metrics');
  assert.equal(sampleValue(m, 'disabled_metric_total', {}), 1);
  assert.ok(m.has('authentication_attempts'));
  assert.ok(server.output().includes('Setting GA feature gate ServerSideApply=true. It will be removed in a future release.'));
});

test('a gate the server implements changes it: APISelfSubjectReview=false serves no SelfSubjectReview', async () => {
  const review = { apiVersion: 'authentication.svc.io/v1beta1', kind: 'SelfSubjectReview' };
  assert.equal((await call(server.client, 'POST', '/apis/authentication.svc.io/v1beta1/selfsubjectreviews', review)).status, 201);
  const off = await startServerProcess({
    storage: 'memory', extraArgs: ['--feature-gates=APISelfSubjectReview=false', '--runtime-config=authentication.svc.io/v1beta1=true'],
  });
  try {
    assert.equal((await call(off.client, 'POST', '/apis/authentication.svc.io/v1beta1/selfsubjectreviews', review)).status, 404);
    const m = parseExposition((await call(off.client, 'GET', '/metrics')).text);
    assert.equal(sampleValue(m, 'kubernetes_feature_enabled', { name: 'APISelfSubjectReview', stage: 'BETA' }), 0);
  } finally {
    await off.stop();
  }
});

test('flags of metrics and gates are refused as kube refuses them', async () => {
  for (const [arg, message] of [
    ['--show-hidden-metrics-for-version=1.25', "--show-hidden-metrics-for-version must be omitted or have the value '1.26'. Only the previous minor version is allowed"],
    ['--feature-gates=NoSuchGate=true', 'unrecognized feature gate: NoSuchGate'],
    ['--feature-gates=DryRun=false', 'cannot set feature gate DryRun to false, feature is locked to true'],
  ] as const) {
    const failed = startServerProcess({ storage: 'memory', extraArgs: [arg], readyTimeoutMs: 30_000 });
    await assert.rejects(failed, (e: Error) => e.message.includes(message) || /exited early/.test(e.message));
  }
});

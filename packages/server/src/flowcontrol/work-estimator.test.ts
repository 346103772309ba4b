import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from '../http/parse-request-info.js';
import { parseListQuery } from '../http/handlers/request-options.js';
import { createObjectCountTracker, staleCountAfterMs, forgetCountAfterMs } from './object-count-tracker.js';
import { createWatchTracker } from './watch-tracker.js';
import { estimateWork, type WorkRequest } from './work-estimator.js';
import type { WorkEstimate } from './work-estimate.js';

/** A request as the filter hands it to the estimator. */
function request(method: string, uri: string): WorkRequest {
  const url = new URL(uri, 'https://server');
  const info = parseRequestInfo(method, url.pathname, url.searchParams);
  assert.ok(info.ok);
  const options = parseListQuery(url.searchParams);
  return { info: info.value, query: url.searchParams, limit: info.value.verb !== 'list' ? 0 : options.ok ? options.value.limit : undefined };
}

const seats = (initialSeats: number, finalSeats = 0, additionalLatencyMs = 0): WorkEstimate => ({ initialSeats, finalSeats, additionalLatencyMs });

test('work estimator: a list costs one seat per 100 objects it processes, from the cache or from storage, as kube 1.27 counts them', () => {
  const watches = createWatchTracker();
  const cases: [string, number | 'stale' | 'unknown', number, number][] = [
    // [uri, stored events, level cap, seats]
    ['/apis/foo.bar/v1/events?limit=invalid', 799, 10, 10],
    ['/apis/foo.bar/v1/events?limit=399&resourceVersion=1', 699, 10, 8], // from storage: twice the page
    ['/apis/foo.bar/v1/events?resourceVersion=1', 699, 10, 7], // from the cache: every object
    ['/apis/foo.bar/v1/events?limit=399', 699, 10, 8],
    ['/apis/foo.bar/v1/events', 399, 10, 8],
    ['/apis/foo.bar/v1/events', 'unknown', 10, 1],
    ['/apis/foo.bar/v1/events?continue=token&limit=399', 699, 10, 8],
    ['/apis/foo.bar/v1/events?limit=299&resourceVersion=0', 399, 10, 4],
    ['/apis/foo.bar/v1/events?resourceVersion=0', 799, 0, 8],
    ['/apis/foo.bar/v1/events?resourceVersion=foo&resourceVersionMatch=Exact&limit=399', 699, 10, 8],
    ['/apis/foo.bar/v1/events?resourceVersion=foo&resourceVersionMatch=NotOlderThan', 799, 10, 8],
    ['/apis/foo.bar/v1/events?resourceVersion=foo', 1999, 10, 10],
    ['/apis/foo.bar/v1/events?resourceVersion=foo', 1999, 5, 5],
    ['/apis/foo.bar/v1/events?resourceVersion=0&limit=799', 'unknown', 10, 1],
    ['/apis/foo.bar/v1/events?limit=499', 'stale', 10, 10],
    ['/apis/foo.bar/v1/events?fieldSelector=metadata.name%3Dtest', 799, 10, 1],
    ['/apis/foo.bar/v1/events?fieldSelector=metadata.name%3Dtest&limit=500&resourceVersion=0', 799, 10, 1],
    // Filtered lists from storage read the collection and the page.
    ['/apis/foo.bar/v1/events?labelSelector=a%3Db&limit=100', 799, 10, 9],
    ['/api/v1/namespaces/default/pods?fieldSelector=spec.nodeName%3Dn1', 250, 10, 5],
  ];
  for (const [uri, stored, cap, expected] of cases) {
    const r = request('GET', uri);
    const key = r.info.apiGroup === '' ? r.info.resource : `${r.info.resource}.${r.info.apiGroup}`;
    let time = 0;
    const counts = createObjectCountTracker(() => time);
    if (stored !== 'unknown') counts.set(key, stored === 'stale' ? 799 : stored);
    if (stored === 'stale') time = staleCountAfterMs + 1;
    assert.deepEqual(estimateWork({ objectCounts: counts, watches, listChunking: true }, r, cap), seats(expected), uri);
  }
  // Without list chunking, limit and continue are ignored: every list is the whole collection.
  const counts = createObjectCountTracker();
  counts.set('events.foo.bar', 699);
  assert.deepEqual(estimateWork({ objectCounts: counts, watches, listChunking: false }, request('GET', '/apis/foo.bar/v1/events?limit=100&resourceVersion=1'), 10), seats(7));
});

test('object count tracker: fresh for 3 minutes, then stale; forgotten after an hour; a failed count keeps the last', () => {
  let time = 0;
  const counts = createObjectCountTracker(() => time);
  assert.deepEqual(counts.get('pods'), { kind: 'unknown' });
  counts.set('pods', 12);
  counts.set('pods', -1);
  time = staleCountAfterMs;
  assert.deepEqual(counts.get('pods'), { kind: 'fresh', count: 12 });
  time = staleCountAfterMs + 1;
  assert.deepEqual(counts.get('pods'), { kind: 'stale', count: 12 });
  counts.set('deployments.apps', 3);
  time = forgetCountAfterMs;
  counts.prune();
  assert.deepEqual(counts.get('pods'), { kind: 'unknown' });
  assert.deepEqual(counts.get('deployments.apps'), { kind: 'stale', count: 3 });
});

test('work estimator: a write keeps final seats for the watches it notifies; reads and other verbs cost one seat', () => {
  const watches = createWatchTracker();
  const sources = { objectCounts: createObjectCountTracker(), watches, listChunking: true };
  const watch = (uri: string, n: number): void => {
    const r = request('GET', uri);
    for (let i = 0; i < n; i++) watches.register(r.info, r.query);
  };
  const samples: number[] = [];
  const sampled = { ...sources, watchCountSampled: (n: number) => samples.push(n) };
  assert.deepEqual(estimateWork(sampled, request('POST', '/apis/foo.bar/v1/foos'), 10), seats(1), 'no watches');
  watch('/apis/foo.bar/v1/foos?watch=1', 29);
  assert.deepEqual(estimateWork(sampled, request('POST', '/apis/foo.bar/v1/foos'), 10), seats(1, 3, 5));
  assert.deepEqual(estimateWork(sampled, request('PUT', '/apis/foo.bar/v1/foos/myfoo'), 10), seats(1, 3, 5));
  assert.deepEqual(estimateWork(sampled, request('PATCH', '/apis/foo.bar/v1/foos/myfoo'), 10), seats(1, 3, 5));
  assert.deepEqual(estimateWork(sampled, request('DELETE', '/apis/foo.bar/v1/foos/myfoo'), 10), seats(1, 3, 5));
  watch('/apis/foo.bar/v1/foos?watch=1', 170);
  assert.deepEqual(estimateWork(sources, request('POST', '/apis/foo.bar/v1/foos'), 10), seats(1, 10, 10), '199 watches: 20 seats × 5 ms as 10 × 10 ms');
  assert.deepEqual(estimateWork(sources, request('PATCH', '/apis/foo.bar/v1/foos/myfoo'), 5), seats(1, 5, 20), 'under a lower cap');
  assert.deepEqual(samples, [0, 29, 29, 29, 29]);
  // Below 10 interested watches a write costs one seat.
  const few = createWatchTracker();
  const r = request('GET', '/api/v1/namespaces/foo/serviceaccounts?watch=1');
  for (let i = 0; i < 5; i++) few.register(r.info, r.query);
  assert.deepEqual(estimateWork({ ...sources, watches: few }, request('POST', '/api/v1/namespaces/foo/serviceaccounts'), 10), seats(1));
  // A token request notifies nobody, however many watch service accounts.
  for (let i = 0; i < 995; i++) few.register(r.info, r.query);
  assert.deepEqual(estimateWork({ ...sources, watches: few }, request('POST', '/api/v1/namespaces/foo/serviceaccounts/default/token'), 10), seats(1));
  assert.deepEqual(estimateWork({ ...sources, watches: few }, request('POST', '/api/v1/namespaces/foo/serviceaccounts'), 10), seats(1, 10, 50));
  // Gets, watches, deletecollection and non-resource requests cost one seat.
  for (const [method, uri] of [['GET', '/apis/foo.bar/v1/foos/myfoo'], ['GET', '/apis/foo.bar/v1/foos?watch=1'], ['DELETE', '/apis/foo.bar/v1/foos'], ['GET', '/healthz']] as const) {
    assert.deepEqual(estimateWork(sources, request(method, uri), 10), seats(1), `${method} ${uri}`);
  }
});

test('watch tracker: a write counts the watches of its resource, its namespace and its object; pod watches of one node are not counted', () => {
  const watches = createWatchTracker();
  const register = (uri: string): (() => void) => {
    const r = request('GET', uri);
    return watches.register(r.info, r.query);
  };
  const count = (method: string, uri: string): number => watches.interestedWatchCount(request(method, uri).info);
  const all = register('/api/v1/configmaps?watch=1');
  register('/api/v1/namespaces/a/configmaps?watch=1');
  register('/api/v1/namespaces/a/configmaps?watch=1&labelSelector=x%3Dy');
  register('/api/v1/namespaces/b/configmaps?watch=1');
  const one = register('/api/v1/namespaces/a/configmaps?watch=1&fieldSelector=metadata.name%3Dcm1');
  assert.equal(count('POST', '/api/v1/namespaces/a/configmaps'), 3, 'the resource and the namespace');
  assert.equal(count('PUT', '/api/v1/namespaces/a/configmaps/cm1'), 4, 'and the object');
  assert.equal(count('PUT', '/api/v1/namespaces/a/configmaps/cm2'), 3);
  assert.equal(count('DELETE', '/api/v1/namespaces/b/configmaps/cm1'), 2);
  assert.equal(count('GET', '/api/v1/namespaces/a/configmaps/cm1'), 0, 'reads notify nobody');
  assert.equal(count('POST', '/api/v1/namespaces/a/secrets'), 0);
  one();
  one();
  all();
  assert.equal(count('PUT', '/api/v1/namespaces/a/configmaps/cm1'), 2, 'forgotten once each');
  register('/api/v1/pods?watch=1&fieldSelector=spec.nodeName%3Dnode-1');
  register('/api/v1/pods?watch=1&fieldSelector=spec.nodeName%3D');
  register('/api/v1/pods?watch=1');
  assert.equal(count('POST', '/api/v1/namespaces/a/pods'), 2, 'the watch of node-1 is served from the index');
  register('/api/v1/nodes?watch=1&fieldSelector=spec.unschedulable%3Dtrue');
  assert.equal(count('PATCH', '/api/v1/nodes/n1'), 1, 'only pods are indexed');
});

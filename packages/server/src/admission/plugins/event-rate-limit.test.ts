import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesFor, type Result } from '@svc-apiserver/api';
import { createMetricsRegistry } from '../../metrics/metrics-registry.js';
import { admissionMetrics } from '../admission-metrics.js';
import { admissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';
import { defaultAdmissionFlags, type AdmissionAttributes, type AdmissionPlugin, type PluginConfigurationError } from '../plugin.js';
import { eventRateLimitPlugin } from './event-rate-limit.js';

const config = (limits: unknown[]) => ({ apiVersion: 'eventratelimit.admission.svc.io/v1alpha1', kind: 'Configuration', limits });
pluginConformance('EventRateLimit', { configuration: { EventRateLimit: config([{ type: 'Server', qps: 1000, burst: 1000 }]) } });

const event = (name: string, source = 's1') => ({
  apiVersion: 'v1', kind: 'Event', metadata: { name }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason: 'R', message: 'm',
  source: { component: source },
});

test('EventRateLimit: a burst passes, the next event is refused with 429 until tokens refill; dry runs are not counted', async () => {
  const rig = await admissionRig({ plugins: ['EventRateLimit'], configuration: { EventRateLimit: config([{ type: 'Namespace', qps: 1, burst: 2 }]) } });
  const post = (name: string, query: Record<string, string> = {}) => rig.call({ verb: 'create', resource: 'events', namespace: 'default', query, body: event(name) });
  for (let i = 0; i < 5; i++) assert.equal((await post(`dry${i}`, { dryRun: 'All' })).code, 201);
  assert.equal((await post('e1')).code, 201);
  assert.equal((await post('e2')).code, 201);
  const limited = await post('e3');
  assert.equal(limited.code, 429);
  assert.deepEqual(limited.body, {
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'TooManyRequests', code: 429,
    message: 'Too many requests: limit reached on type Namespace for key default',
  });
  assert.equal(await rig.get('events', 'default', 'e3'), undefined);
  rig.close();
});

test('EventRateLimit: Server, User and SourceAndObject keys; buckets refill at qps; the cache keeps cacheSize keys', () => {
  let now = 0;
  const names = namesFor('svc');
  const init = (limits: unknown[]) => ({ configuration: () => config(limits), flags: defaultAdmissionFlags, metrics: admissionMetrics(createMetricsRegistry()) });
  const accepted = (made: Result<AdmissionPlugin, PluginConfigurationError>): AdmissionPlugin => {
    assert.ok(made.ok, made.ok ? '' : made.error.error);
    return made.value;
  };
  const plugin = accepted(eventRateLimitPlugin(names, init([
    { type: 'User', qps: 1, burst: 1, cacheSize: 1 }, { type: 'SourceAndObject', qps: 1, burst: 1 },
  ]), () => now));
  const a = (user: string, source: string): AdmissionAttributes => ({
    operation: 'CREATE', group: '', version: 'v1', resource: 'events', subresource: '', kind: 'Event', namespace: 'default', name: 'e', dryRun: false,
    user: { username: user, groups: [] }, object: event('e', source),
  });
  const allowed = (x: AdmissionAttributes) => (plugin.validate!(x) as { allowed: boolean }).allowed;
  assert.equal(allowed(a('alice', 'one')), true);
  const both = plugin.validate!(a('alice', 'one')) as { allowed: false; status: { message: string } };
  assert.equal(both.status.message, 'Too many requests: [limit reached on type User for key alice, limit reached on type SourceAndObject for key onePoddefaultp]');
  assert.equal(allowed(a('bob', 'two')), true, 'another user and source');
  assert.equal(allowed(a('alice', 'three')), true, 'alice\'s bucket was dropped from the one-key cache by bob\'s');
  now += 1000;
  assert.equal(allowed(a('bob', 'two')), true, 'a second later the buckets refilled');
  const server = accepted(eventRateLimitPlugin(names, init([{ type: 'Server', qps: 1, burst: 1 }]), () => now));
  assert.equal((server.validate!(a('x', 'x')) as { allowed: boolean }).allowed, true);
  assert.equal((server.validate!(a('y', 'y')) as { allowed: boolean }).allowed, false, 'one bucket for the whole server');
});

test('EventRateLimit: a configuration is required and checked', async () => {
  await assert.rejects(admissionRig({ plugins: ['EventRateLimit'] }), /EventRateLimit: invalid configuration: limits: Required value/);
  await assert.rejects(admissionRig({ plugins: ['EventRateLimit'], configuration: { EventRateLimit: config([{ type: 'Cluster', qps: 1, burst: 1 }]) } }),
    /limits\[0\]\.type: Unsupported value: "Cluster"/);
  await assert.rejects(admissionRig({ plugins: ['EventRateLimit'], configuration: { EventRateLimit: config([{ type: 'User', qps: 0, burst: 1 }]) } }),
    /limits\[0\]\.qps: Invalid value: 0: must be positive/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { healthEndpoint } from './health-endpoint.js';
import { pingCheck, shutdownCheck, withGracePeriod, flagCheck } from './checks.js';
import type { HealthCheck } from './health-check.js';

const failing = (name: string): HealthCheck => ({ name, check: async () => 'broken' });
const q = (s: string): URLSearchParams => new URLSearchParams(s);

test('non-verbose success is "ok"', async () => {
  const ep = healthEndpoint('livez', [pingCheck]);
  assert.deepEqual(await ep.all(q('')), { code: 200, body: 'ok' });
});

test('verbose lists checks and the passed line', async () => {
  const ep = healthEndpoint('readyz', [pingCheck, { name: 'log', check: async () => undefined }]);
  const r = await ep.all(q('verbose'));
  assert.equal(r.code, 200);
  assert.equal(r.body, '[+]ping ok\n[+]log ok\nreadyz check passed\n');
  assert.equal((await ep.all(q('verbose=true'))).body, r.body);
});

test('a failing check fails the endpoint with the list and withholds its reason', async () => {
  const logged: string[] = [];
  const ep = healthEndpoint('livez', [pingCheck, failing('storage')], (m) => logged.push(m));
  const r = await ep.all(q(''));
  assert.equal(r.code, 500);
  assert.equal(r.body, '[+]ping ok\n[-]storage failed: reason withheld\nlivez check failed\n');
  assert.equal(logged[0], 'storage check failed: livez\n[-]storage failed: broken');
});

test('exclude skips a check, repeatable, and reports unknown names', async () => {
  const ep = healthEndpoint('readyz', [pingCheck, failing('storage'), failing('shutdown')]);
  const r = await ep.all(q('verbose&exclude=storage&exclude=shutdown&exclude=nope'));
  assert.equal(r.code, 200);
  assert.equal(r.body,
    '[+]ping ok\n[+]storage excluded: ok\n[+]shutdown excluded: ok\nwarn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n');
});

test('one check by name: ok, or kube\'s internal server error with the reason', async () => {
  const ep = healthEndpoint('livez', [pingCheck, failing('etcd')]);
  assert.deepEqual(await ep.one('ping'), { code: 200, body: 'ok' });
  assert.deepEqual(await ep.one('etcd'), { code: 500, body: 'internal server error: broken\n' });
  assert.equal(await ep.one('missing'), undefined);
});

test('verbose is a flag whatever its value; exclude values are names as given, unmatched ones listed sorted', async () => {
  const ep = healthEndpoint('readyz', [pingCheck, { name: 'log', check: async () => undefined }]);
  assert.equal((await ep.all(q('verbose=false'))).body, '[+]ping ok\n[+]log ok\nreadyz check passed\n');
  const logged: string[] = [];
  const warned = healthEndpoint('readyz', [pingCheck, { name: 'log', check: async () => undefined }], (m) => logged.push(m));
  const r = await warned.all(q('verbose&exclude=zeta&exclude=ping,log&exclude=alpha'));
  assert.equal(r.body, '[+]ping ok\n[+]log ok\nwarn: some health checks cannot be excluded: no matches for "alpha","ping,log","zeta"\nreadyz check passed\n');
  assert.deepEqual(logged, ['cannot exclude some health checks, no health checks are installed matching "alpha","ping,log","zeta"']);
});

test('a throwing check counts as failed, not as a crash', async () => {
  const ep = healthEndpoint('livez', [{ name: 'x', check: async () => { throw new Error('boom'); } }]);
  assert.equal((await ep.all(q(''))).code, 500);
});

test('grace period hides failures until it ends', async () => {
  let now = 1000;
  const c = withGracePeriod(failing('poststarthook/x'), 2000, () => now);
  assert.equal(await c.check(), undefined);
  now = 2000;
  assert.equal(await c.check(), 'broken');
});

test('shutdown and flag checks', async () => {
  let down = false;
  const s = shutdownCheck(() => down);
  assert.equal(await s.check(), undefined);
  down = true;
  assert.equal(await s.check(), 'process is shutting down');
  let ready = false;
  const f = flagCheck('informer-sync', () => ready, 'not synced');
  assert.equal(await f.check(), 'not synced');
  ready = true;
  assert.equal(await f.check(), undefined);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testRegistry } from '../../testing/test-registry.js';
import { bootstrapTokenSecret } from '../../testing/bootstrap-test-tokens.js';
import { fakeClock } from '../kit/clock.js';
import { until } from '../../testing/until.js';
import { startTokenCleaner } from './token-cleaner.js';

test('expired and unparsable bootstrap tokens are deleted; the others when they expire', async () => {
  const t = await testRegistry(['default', 'svc-system']);
  const now = Date.now();
  const clock = fakeClock(now);
  const ctl = startTokenCleaner({ registry: t.registry, names: t.names, retryMs: 20, config: { clock } });
  const exists = async (id: string) => (await t.call({ verb: 'get', resource: 'secrets', namespace: 'svc-system', name: `bootstrap-token-${id}` })).code === 200;
  const create = async (id: string, expiration?: string) => {
    const r = await t.call({ verb: 'create', resource: 'secrets', namespace: 'svc-system', body: bootstrapTokenSecret(t.names, id, `${id}${id}${id.slice(0, 4)}`, expiration === undefined ? {} : { expiration }) });
    assert.equal(r.code, 201, JSON.stringify(r.body));
  };
  try {
    await create('expird', new Date(now - 60_000).toISOString());
    await create('broken', 'next tuesday');
    await create('later0', new Date(now + 3_600_000).toISOString());
    await create('foreva');
    await t.call({ verb: 'create', resource: 'secrets', namespace: 'default', body: { ...bootstrapTokenSecret(t.names, 'elsewh', 'x'), metadata: { name: 'bootstrap-token-elsewh', namespace: 'default' } } });
    await until('expired and broken deleted', async () => !(await exists('expird')) && !(await exists('broken')));
    await ctl.idle();
    assert.equal(await exists('later0'), true);
    clock.step(3_600_001);
    await until('later0 deleted once expired', async () => !(await exists('later0')));
    assert.equal(await exists('foreva'), true, 'a token without expiration stays');
    assert.equal((await t.call({ verb: 'get', resource: 'secrets', namespace: 'default', name: 'bootstrap-token-elsewh' })).code, 200, 'only the system namespace is cleaned');
  } finally {
    await ctl.stop();
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeWaitFailure, startNodeChild } from './node-child.js';

test('a child is waited for by what it prints, and stopped by SIGTERM', async () => {
  const child = startNodeChild(['-e', "console.log('serving on 4242'); setInterval(() => {}, 1000);"]);
  const port = await child.waitFor((out) => /serving on (\d+)/.exec(out)?.[1]);
  assert.deepEqual(port, { ok: true, value: '4242' });
  const exit = await child.stop();
  assert.equal(exit.signal, 'SIGTERM');
});

test('a wait fails when the child exits first, or when the time runs out', async () => {
  const exiting = startNodeChild(['-e', "console.error('no port free'); process.exit(3);"]);
  const early = await exiting.waitFor((out) => (out.includes('serving') ? true : undefined));
  assert.ok(!early.ok);
  assert.equal(describeWaitFailure(early.error), 'exited early (code 3, signal null)');
  assert.match(exiting.output(), /no port free/);
  const silent = startNodeChild(['-e', 'setInterval(() => {}, 1000);']);
  const late = await silent.waitFor((out) => (out.includes('serving') ? true : undefined), 200);
  assert.deepEqual(late, { ok: false, error: { reason: 'timeout', timeoutMs: 200 } });
  assert.equal((await silent.kill()).signal, 'SIGKILL');
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fakeClock, realClock } from './clock.js';

test('fake clock: callbacks run when a step reaches them, in time order; cancelled ones never', async () => {
  const clock = fakeClock(1000);
  const ran: string[] = [];
  clock.at(3000, () => ran.push('b'));
  clock.at(2000, () => ran.push('a'));
  const cancel = clock.at(2500, () => ran.push('never'));
  cancel();
  clock.step(500);
  assert.equal(ran.length, 0);
  clock.step(2000);
  assert.deepEqual(ran, ['a', 'b']);
  assert.equal(clock.now(), 3500);
  clock.at(100, () => ran.push('past'));
  await Promise.resolve();
  assert.deepEqual(ran, ['a', 'b', 'past'], 'a time already passed runs at once');
  assert.equal(clock.waiting(), 0);
});

test('real clock: a callback due soon runs; a cancelled one does not', async () => {
  const ran: string[] = [];
  realClock.at(Date.now() + 5, () => ran.push('due'));
  const cancel = realClock.at(Date.now() + 5, () => ran.push('cancelled'));
  cancel();
  await new Promise((r) => setTimeout(r, 40));
  assert.deepEqual(ran, ['due']);
});

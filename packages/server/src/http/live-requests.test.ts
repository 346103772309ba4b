import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLiveRequests } from './live-requests.js';

test('live requests: released ones are forgotten; abortAll aborts the live ones and every later one', () => {
  const live = createLiveRequests();
  const done = new AbortController();
  live.add(done)();
  const open = new AbortController();
  live.add(open);
  assert.equal(live.size(), 1, 'a released request is not kept');
  live.abortAll();
  assert.equal(open.signal.aborted, true);
  assert.equal(done.signal.aborted, false, 'a finished request is left alone');
  const late = new AbortController();
  live.add(late);
  assert.equal(late.signal.aborted, true, 'a request arriving during shutdown is aborted at once');
  assert.equal(live.size(), 0);
});

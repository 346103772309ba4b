import assert from 'node:assert/strict';
import { test } from 'node:test';
import { orderedProgressNotifications } from './etcd-progress-support.js';

test('requested progress notifications are trusted from etcd 3.4.25 and 3.5.8 on', () => {
  for (const v of ['3.4.23', '3.4.24', '3.5.0', '3.5.7', '3.3.27', '2.3.8', 'unknown', '']) assert.equal(orderedProgressNotifications(v), false, v);
  for (const v of ['3.4.25', '3.4.31', '3.5.8', '3.5.13', '3.6.0', '3.6.4', '4.0.0']) assert.equal(orderedProgressNotifications(v), true, v);
});

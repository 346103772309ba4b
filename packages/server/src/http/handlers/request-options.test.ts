import { test } from 'node:test';
import assert from 'node:assert/strict';
import { managerFromUserAgent } from './request-options.js';

test('the default field manager is the user agent up to its first slash, whichever agent came before', () => {
  assert.equal(managerFromUserAgent('kubectl/v1.27.0 (linux/amd64)'), 'kubectl');
  assert.equal(managerFromUserAgent('kubectl/v1.27.0 (linux/amd64)'), 'kubectl');
  assert.equal(managerFromUserAgent('svcctl/1.0'), 'svcctl');
  assert.equal(managerFromUserAgent(undefined), '');
  assert.equal(managerFromUserAgent('a\u0001b/x'), 'ab', 'unprintable characters dropped');
  assert.equal(managerFromUserAgent('x'.repeat(200)), 'x'.repeat(128), 'cut to 128 bytes');
  assert.equal(managerFromUserAgent(''), '');
  assert.equal(managerFromUserAgent('svcctl/1.0'), 'svcctl');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indentLines, wrapWords } from './word-wrap.js';

test('wraps at white space within the limit, keeping long words and the text\'s own breaks', () => {
  assert.equal(wrapWords('aaa bbb ccc', 7), 'aaa bbb\nccc');
  assert.equal(wrapWords('aaa bbbbbbbbbb c', 5), 'aaa\nbbbbbbbbbb\nc');
  assert.equal(wrapWords('one\n\ntwo three', 8), 'one\n\ntwo\nthree');
  assert.equal(wrapWords('trailing \n', 20), 'trailing \n');
  // UTF-8 bytes are counted, as Go's buffers count them
  assert.equal(wrapWords('ééé ééé', 10), 'ééé\nééé');
  assert.equal(indentLines('a\nb\n', 4), '    a\n    b\n    ');
});

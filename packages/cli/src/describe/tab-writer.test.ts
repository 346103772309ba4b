import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTabWriter } from './tab-writer.js';

test('aligns columns per block of consecutive lines, as Go\'s tabwriter', () => {
  const w = createTabWriter();
  w.write('Name:\tx\nNamespace:\tdefault\nData\n====\nk:\tv\nlonger key:\tv\n');
  assert.equal(w.text(), 'Name:       x\nNamespace:  default\nData\n====\nk:           v\nlonger key:  v\n');
  const nested = createTabWriter();
  nested.write('a\tb\tc\naaaa\tbbbbbb\tc\nx\ty\n');
  assert.equal(nested.text(), 'a     b       c\naaaa  bbbbbb  c\nx     y\n');
  const flushed = createTabWriter();
  flushed.write('Name:\tx\n');
  flushed.flush();
  flushed.write('Longer name:\ty\n');
  assert.equal(flushed.text(), 'Name:  x\nLonger name:  y\n');
});

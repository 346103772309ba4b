import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchesFields, parseFieldSelector } from './field-selector.js';

const message = (s: string): string => {
  const p = parseFieldSelector(s);
  assert.equal(p.ok, false, s);
  return p.ok ? '' : p.error;
};

test('parses =, == and != terms with escapes, and matches', () => {
  const p = parseFieldSelector('metadata.name=a\\,b,status.phase!=Running,spec.x==y');
  assert.ok(p.ok);
  // Terms come in sorted order, as kube's parser reads them.
  assert.deepEqual(p.value.requirements, [
    { field: 'metadata.name', operator: 'equals', value: 'a,b' },
    { field: 'spec.x', operator: 'equals', value: 'y' },
    { field: 'status.phase', operator: 'notEquals', value: 'Running' },
  ]);
  assert.equal(matchesFields(p.value, { 'metadata.name': 'a,b', 'status.phase': 'Pending', 'spec.x': 'y' }), true);
  assert.equal(matchesFields(p.value, { 'metadata.name': 'a,b', 'status.phase': 'Running', 'spec.x': 'y' }), false);
  // A field the object does not have reads as the empty value.
  const empty = parseFieldSelector('spec.nodeName=');
  assert.ok(empty.ok);
  assert.equal(matchesFields(empty.value, {}), true);
});

test('values with dots, slashes, colons and escaped = are kept as written', () => {
  const p = parseFieldSelector('involvedObject.name=my.pod-1,spec.path=/var/run:x,metadata.name=a\\=b\\\\c');
  assert.ok(p.ok);
  assert.deepEqual(p.value.requirements.map((r) => [r.field, r.value]), [
    ['involvedObject.name', 'my.pod-1'], ['metadata.name', 'a=b\\c'], ['spec.path', '/var/run:x'],
  ]);
});

test('empty terms are skipped and nothing is trimmed, as kube', () => {
  const p = parseFieldSelector('a=b,,c=d,');
  assert.ok(p.ok);
  assert.deepEqual(p.value.requirements.map((r) => r.field), ['a', 'c']);
  const spaced = parseFieldSelector('status.phase = Running');
  assert.ok(spaced.ok);
  assert.deepEqual(spaced.value.requirements, [{ field: 'status.phase ', operator: 'equals', value: ' Running' }]);
  const none = parseFieldSelector('');
  assert.ok(none.ok);
  assert.deepEqual(none.value.requirements, []);
  // A term splits at its first operator: the rest is the value, whose unescaped `=` is refused.
  assert.equal(message('a=b!=c'), 'invalid field selector: unescaped character in value: 61');
});

test('errors word for word', () => {
  assert.equal(message('nonsense'), "invalid selector: 'nonsense'; can't understand 'nonsense'");
  assert.equal(message('a=b, '), "invalid selector: 'a=b, '; can't understand ' '");
  assert.equal(message('a=\\q'), 'invalid field selector: invalid escape sequence: \\q');
  assert.equal(message('a=b\\'), 'invalid field selector: invalid escape sequence: \\');
  // Of several bad terms the first in sorted order is reported.
  assert.equal(message('z,y'), "invalid selector: 'z,y'; can't understand 'y'");
});

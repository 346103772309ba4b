import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeJson, decodeYaml, findDuplicateJsonFields } from './decode.js';

test('JSON duplicate fields are reported with their full path at any depth; the last value wins', () => {
  const r = decodeJson(Buffer.from('{"a":1,"spec":{"x":[{"n":1,"n":2}],"y":"\\"q\\u0022","y":3},"a":2,"s":"{\\"a\\":1,\\"a\\":2}"}'));
  assert.ok(r.ok);
  assert.deepEqual(r.value, { a: 2, spec: { x: [{ n: 2 }], y: 3 }, s: '{"a":1,"a":2}' });
  assert.deepEqual(r.duplicateFields, ['duplicate field "spec.x[0].n"', 'duplicate field "spec.y"', 'duplicate field "a"']);
  assert.deepEqual(findDuplicateJsonFields('[{"a":1},{"a":1,"b":{"c":1,"c":2}}]'), ['[1].b.c']);
  assert.deepEqual(findDuplicateJsonFields('{"a\\u0062":1,"ab":2}'), ['ab'], 'escaped keys compare decoded');
});

test('YAML duplicate keys are reported as go-yaml does, by line, sorted; the last value wins', () => {
  const r = decodeYaml(Buffer.from('a: 1\nspec:\n  x: 1\n  x: 2\na: 3\nm:\n  <<: {k: 1}\n  k: 2\n'));
  assert.ok(r.ok);
  assert.deepEqual(r.value, { a: 3, spec: { x: 2 }, m: { k: 2 } });
  assert.deepEqual(r.duplicateFields, ['line 4: key "x" already set in map', 'line 5: key "a" already set in map']);
});
